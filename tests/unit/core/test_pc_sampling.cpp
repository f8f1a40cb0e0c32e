// PC sampling without a GPU: CUPTI's stall reason names, aggregation of PC records into kernels and
// lines, the report's JSON (round trip and malformed input), the `pcsampling` metrics group.
#include <gtest/gtest.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "metric_catalog.hpp"
#include "pc_sampling.hpp"
#include "report.hpp"
#include "stall_reasons.hpp"

using namespace ws;

namespace {

const std::string kStalled = "smsp__pcsamp_warps_issue_stalled_";

/// Two kernels; line 10 of harris.cu with two PCs, one PC without a line, and CUPTI's "_not_issued"
/// subset counts that must not be added.
std::vector<PcRecord> sample_records() {
  std::vector<PcRecord> rs;
  rs.push_back({"impl1",
                "harris.cu",
                10,
                {{kStalled + "barrier", 5}, {kStalled + "barrier_not_issued", 4}, {kStalled + "wait", 2}}});
  rs.push_back({"impl1", "harris.cu", 10, {{kStalled + "barrier", 3}}});
  rs.push_back({"impl1", "harris.cu", 12, {{kStalled + "long_scoreboard", 6}, {kStalled + "selected", 1}}});
  rs.push_back({"impl1", "", 0, {{kStalled + "long_scoreboard", 7}}});
  rs.push_back(
      {"final", "reduce_launch.hpp", 3, {{kStalled + "no_instructions", 2}, {"smsp__pcsamp_sample_count", 99}}});
  rs.push_back({"final", "reduce_launch.hpp", 4, {{kStalled + "wait", 0}}});
  return rs;
}

PcSampling sample_result() {
  PcSampling p;
  p.collected = true;
  p.period_log2 = 8;
  p.hardware_samples = 40;
  p.dropped_samples = 1;
  p.hardware_buffer_full = true;
  p.kernels = aggregate_pc_records(sample_records());
  return p;
}

}  // namespace

TEST(StallReasons, CuptiNamesMapToShortNames) {
  EXPECT_EQ(stall_reason_name(kStalled + "barrier"), "barrier");
  EXPECT_EQ(stall_reason_name(kStalled + "long_scoreboard"), "long scoreboard");
  EXPECT_EQ(stall_reason_name(kStalled + "short_scoreboard"), "short scoreboard");
  EXPECT_EQ(stall_reason_name(kStalled + "math_pipe_throttle"), "math pipe throttle");
  EXPECT_EQ(stall_reason_name(kStalled + "no_instructions"), "no instruction");
  EXPECT_EQ(stall_reason_name(kStalled + "imc_miss"), "imc miss");
  // Subsets of a reason's samples, and counters that are not reasons: not counted.
  EXPECT_EQ(stall_reason_name(kStalled + "barrier_not_issued"), "");
  EXPECT_EQ(stall_reason_name("smsp__pcsamp_sample_count"), "");
  EXPECT_EQ(stall_reason_name(kStalled), "");
  EXPECT_EQ(stall_reason_name(""), "");
  // A reason a newer GPU adds keeps its name, readable.
  EXPECT_EQ(stall_reason_name(kStalled + "gmma"), "gmma");
  EXPECT_EQ(stall_reason_name(kStalled + "tmem_wait"), "tmem wait");
  EXPECT_EQ(find_stall_reason("tmem wait"), nullptr);
  EXPECT_EQ(stall_reason_order("tmem wait"), stall_reasons().size());
}

TEST(StallReasons, EveryReasonOfTheLessonsHasOneExplanationLine) {
  std::set<std::string> names;
  for (const auto& r : stall_reasons()) {
    EXPECT_TRUE(names.insert(r.name).second) << r.name;
    EXPECT_EQ(stall_reason_name(kStalled + r.cupti), r.name);
    EXPECT_GT(r.explain.size(), 15u) << r.name;
    EXPECT_EQ(r.explain.find('\n'), std::string::npos) << r.name;
    EXPECT_EQ(stall_reason_order(r.name), std::size_t(&r - stall_reasons().data()));
  }
  for (const char* n : {"barrier", "long scoreboard", "short scoreboard", "wait", "math pipe throttle", "mio throttle",
                        "lg throttle", "not selected", "selected", "branch resolving", "no instruction",
                        "dispatch stall", "membar", "sleeping", "tex throttle", "drain", "imc miss", "misc"})
    EXPECT_NE(find_stall_reason(n), nullptr) << n;
}

TEST(PcSampling, RecordsAddUpPerKernelReasonAndLine) {
  auto ks = aggregate_pc_records(sample_records());
  ASSERT_EQ(ks.size(), 2u);
  const KernelStalls& k = ks[0];  // most samples first
  EXPECT_EQ(k.kernel, "impl1");
  EXPECT_DOUBLE_EQ(k.samples, 5 + 2 + 3 + 6 + 1 + 7);
  EXPECT_DOUBLE_EQ(k.unmapped_samples, 7);
  ASSERT_EQ(k.reasons.size(), 4u);
  EXPECT_EQ(k.reasons[0].reason, "long scoreboard");
  EXPECT_DOUBLE_EQ(k.reasons[0].samples, 13);
  EXPECT_EQ(k.reasons[1].reason, "barrier");
  EXPECT_DOUBLE_EQ(k.reasons[1].samples, 8);
  EXPECT_EQ(k.reasons[2].reason, "wait");
  EXPECT_EQ(k.reasons[3].reason, "selected");
  ASSERT_EQ(k.lines.size(), 2u);
  EXPECT_EQ(k.lines[0].file, "harris.cu");
  EXPECT_EQ(k.lines[0].line, 10);
  EXPECT_DOUBLE_EQ(k.lines[0].samples, 10);
  ASSERT_EQ(k.lines[0].reasons.size(), 2u);
  EXPECT_EQ(k.lines[0].reasons[0].reason, "barrier");
  EXPECT_DOUBLE_EQ(k.lines[0].reasons[0].samples, 8);
  EXPECT_EQ(k.lines[1].line, 12);
  EXPECT_DOUBLE_EQ(k.lines[1].samples, 7);
  EXPECT_DOUBLE_EQ(share_in_file(k, "harris.cu"), 17.0 / 24.0);
  EXPECT_DOUBLE_EQ(share_in_file(k, "other.cu"), 0);

  const KernelStalls& f = ks[1];
  EXPECT_EQ(f.kernel, "final");
  EXPECT_DOUBLE_EQ(f.samples, 2);  // the sample counter and the zero-sample PC add nothing
  ASSERT_EQ(f.lines.size(), 1u);
  EXPECT_EQ(f.lines[0].reasons[0].reason, "no instruction");

  PcSampling p;
  p.kernels = ks;
  EXPECT_DOUBLE_EQ(p.samples(), 26);
  auto total = total_reasons(p);
  ASSERT_EQ(total.size(), 5u);
  EXPECT_EQ(total[0].reason, "long scoreboard");
  EXPECT_EQ(total.back().reason, "selected");  // 1 sample, after "no instruction"'s 2
  EXPECT_TRUE(aggregate_pc_records({}).empty());
}

TEST(PcSampling, JsonRoundTripThroughTheRunMetrics) {
  KernelMetrics m;
  m.asked = "pcsampling";
  m.collected = true;
  m.values["ws__pc_samples"] = 26;
  m.pc_sampling = sample_result();
  const KernelMetrics back = metrics_from_json(nlohmann::json::parse(metrics_to_json(m).dump()));
  const PcSampling& p = back.pc_sampling;
  EXPECT_TRUE(p.collected);
  EXPECT_EQ(p.period_log2, 8);
  EXPECT_DOUBLE_EQ(p.hardware_samples, 40);
  EXPECT_DOUBLE_EQ(p.dropped_samples, 1);
  EXPECT_TRUE(p.hardware_buffer_full);
  EXPECT_EQ(pc_sampling_to_json(p), pc_sampling_to_json(m.pc_sampling));
  ASSERT_EQ(p.kernels.size(), 2u);
  EXPECT_EQ(p.kernels[0].lines[0].reasons[0].reason, "barrier");
  EXPECT_DOUBLE_EQ(p.kernels[0].unmapped_samples, 7);
  // Metrics without PC sampling write no field and read back without it.
  KernelMetrics plain;
  plain.asked = "default";
  EXPECT_FALSE(metrics_to_json(plain).contains("pc_sampling"));
  EXPECT_FALSE(metrics_from_json(metrics_to_json(plain)).pc_sampling.collected);
}

TEST(PcSampling, MalformedJsonIsRefusedWithTheField) {
  const nlohmann::json good = pc_sampling_to_json(sample_result());
  auto refused = [&](const std::function<void(nlohmann::json&)>& spoil, const std::string& needle) {
    nlohmann::json j = good;
    spoil(j);
    try {
      pc_sampling_from_json(j);
      ADD_FAILURE() << "accepted: " << needle;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("pc_sampling"), std::string::npos) << e.what();
    }
  };
  refused([](auto& j) { j.erase("kernels"); }, "kernels");
  refused([](auto& j) { j["period_log2"] = 40; }, "period_log2");
  refused([](auto& j) { j["dropped_samples"] = -1; }, "dropped_samples");
  refused([](auto& j) { j["hardware_buffer_full"] = 1; }, "hardware_buffer_full");
  refused([](auto& j) { j["kernels"][0]["samples"] = "many"; }, "samples");
  refused([](auto& j) { j["kernels"][0]["lines"][0]["line"] = 0; }, "line number");
  refused([](auto& j) { j["kernels"][0]["lines"][0]["reasons"][0]["samples"] = 1e9; }, "do not add up");
  refused([](auto& j) { j["kernels"][0]["unmapped_samples"] = 0; }, "do not add up");
  refused([](auto& j) { j["kernels"][0]["reasons"][0]["reason"] = ""; }, "empty name");
  refused([](auto& j) { j["kernels"][1]["reasons"] = nlohmann::json::array(); }, "add up");
  EXPECT_NO_THROW(pc_sampling_from_json(good));
  // A report of before the field: read as "not full".
  nlohmann::json old = good;
  old.erase("hardware_buffer_full");
  EXPECT_FALSE(pc_sampling_from_json(old).hardware_buffer_full);
}

TEST(PcSampling, MetricsGroupIsAPassOfItsOwnOutsideTheDefaultSet) {
  MetricSelection sel;
  ASSERT_EQ(parse_metric_selection("pcsampling", sel), "");
  EXPECT_TRUE(sel.pc_sampling);
  EXPECT_TRUE(sel.range_metrics.empty());
  EXPECT_FALSE(sel.sass || sel.per_line || sel.occupancy);
  ASSERT_EQ(sel.metrics.size(), 1u);
  EXPECT_EQ(sel.metrics[0]->source, MetricSource::PcSampling);
  ASSERT_EQ(parse_metric_selection("default", sel), "");
  EXPECT_FALSE(sel.pc_sampling);
  ASSERT_EQ(parse_metric_selection("default,pcsampling", sel), "");
  EXPECT_TRUE(sel.pc_sampling);
  EXPECT_FALSE(sel.range_metrics.empty());
}
