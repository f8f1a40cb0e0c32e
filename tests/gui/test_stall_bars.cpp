// The Source view's stall column: lines of one file summed over a run's kernels, the legend's order.
#include <gtest/gtest.h>

#include "views/stall_bars.hpp"

using namespace ws;

TEST(StallBars, ColumnSumsTheFilesLinesOverKernels) {
  const std::string s = "smsp__pcsamp_warps_issue_stalled_";
  PcSampling p;
  p.collected = true;
  p.kernels = aggregate_pc_records({{"a", "harris.cu", 7, {{s + "barrier", 6}, {s + "wait", 1}}},
                                    {"b", "harris.cu", 7, {{s + "barrier", 2}, {s + "long_scoreboard", 5}}},
                                    {"b", "harris.cu", 9, {{s + "long_scoreboard", 3}}},
                                    {"b", "epita.cu", 9, {{s + "selected", 4}}}});
  const ui::StallColumn c = ui::stall_column(p, "harris.cu");
  ASSERT_EQ(c.lines.size(), 2u);
  const LineStalls& l7 = c.lines.at(7);
  EXPECT_DOUBLE_EQ(l7.samples, 14);
  ASSERT_EQ(l7.reasons.size(), 3u);
  EXPECT_EQ(l7.reasons[0].reason, "barrier");
  EXPECT_DOUBLE_EQ(l7.reasons[0].samples, 8);
  EXPECT_EQ(l7.reasons[1].reason, "long scoreboard");
  EXPECT_DOUBLE_EQ(c.max_line, 14);
  EXPECT_DOUBLE_EQ(c.file_samples, 17);
  EXPECT_DOUBLE_EQ(c.run_samples, 21);
  ASSERT_EQ(c.legend.size(), 3u);
  EXPECT_EQ(c.legend[0].reason, "barrier");  // 8, tied with long scoreboard: the table's order first
  EXPECT_EQ(c.legend[1].reason, "long scoreboard");
  EXPECT_TRUE(ui::stall_column(p, "cs121.cu").empty());
  EXPECT_TRUE(ui::stall_column(PcSampling{}, "harris.cu").empty());
  // The common reasons get distinct colours; reasons this build does not know are grey like "other".
  EXPECT_NE(ui::StallColor("barrier"), ui::StallColor("long scoreboard"));
  EXPECT_NE(ui::StallColor("selected"), ui::StallColor("not selected"));
  EXPECT_EQ(ui::StallColor("gmma"), ui::StallColor("tex throttle"));
}
