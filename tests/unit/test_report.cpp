#include <gtest/gtest.h>

#include "report.hpp"

using namespace ws;

TEST(Report, RoundTripsThroughAFile) {
  DeviceInfo d;
  d.available = true;
  d.name = "NVIDIA H200";
  d.cc_major = 9;
  d.sm_count = 132;
  d.theoretical_gbps = 4800;
  d.copy_gbps = 4200;
  Report rep = new_report("test", d);
  RunResult a;
  a.variant = "epita.reduce3";
  a.lesson = "epita";
  a.backend = "cuda";
  a.n = 1000;
  a.launch = {256, 4};
  a.result = a.expected = 12345;
  a.correct = true;
  a.status = "ok";
  a.timed = true;
  a.timing = summarize({0.3, 0.1, 0.2});
  a.gbps = 20;
  a.pct_theoretical = 0.4;
  RunResult b = a;
  b.variant = "epita.race";
  b.status = "race";
  b.correct = false;
  b.result = 17;
  b.racy = true;
  b.message = "race: expected 12345, got 17";
  RunResult c;
  c.variant = "epita.reduce2";
  c.backend = "cuda";
  c.status = "error";
  c.message = "no device";
  rep.runs = {a, b, c};
  const std::string path = ::testing::TempDir() + "report.json";
  save_report(rep, path);
  Report back = load_report(path);
  EXPECT_EQ(back.device.name, "NVIDIA H200");
  EXPECT_EQ(back.device.cc_major, 9);
  EXPECT_EQ(back.device.sm_count, 132);
  ASSERT_EQ(back.runs.size(), 3u);
  EXPECT_EQ(back.runs[0].timing.median_ms, 0.2);
  EXPECT_EQ(back.runs[0].timing.samples_ms.size(), 3u);
  EXPECT_EQ(back.runs[0].launch.grid, 4);
  EXPECT_EQ(back.runs[1].status, "race");
  EXPECT_EQ(back.runs[1].result, 17);
  EXPECT_TRUE(back.runs[1].racy);
  EXPECT_FALSE(back.runs[2].timed);
  EXPECT_EQ(run_to_json(back.runs[0]), run_to_json(a));
}

TEST(Report, RejectsForeignAndNewerFiles) {
  EXPECT_THROW(report_from_json(nlohmann::json::parse(R"({"runs":[]})")), std::runtime_error);
  EXPECT_THROW(report_from_json(nlohmann::json::parse(R"({"format":"warpscope-report","version":99,"runs":[]})")), std::runtime_error);
  EXPECT_THROW(report_from_json(nlohmann::json::parse(R"({"format":"warpscope-report","version":1,"runs":[{"variant":1}]})")), std::runtime_error);
  EXPECT_THROW(load_report("/nonexistent/report.json"), std::runtime_error);
}
