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
  a.backend = BackendKind::Cuda;
  a.n = 1000;
  a.launch = {256, 4};
  a.result = a.expected = 12345;
  a.correct = true;
  a.status = RunStatus::Ok;
  a.timed = true;
  a.timing = summarize({0.3, 0.1, 0.2});
  // Consistent derived numbers: the loader recomputes GB/s from bytes and time, % of peak from the device.
  a.bytes = 4e6;
  a.gbps = 20;
  a.pct_theoretical = 100.0 * 20 / 4800;
  RunResult b = a;
  b.variant = "epita.race";
  b.status = RunStatus::Race;
  b.correct = false;
  b.result = 17;
  b.racy = true;
  b.message = "race: expected 12345, got 17";
  RunResult c;
  c.variant = "epita.reduce2";
  c.backend = BackendKind::Cuda;
  c.status = RunStatus::Error;
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
  EXPECT_EQ(back.runs[1].status, RunStatus::Race);
  EXPECT_EQ(back.runs[1].result, 17);
  EXPECT_TRUE(back.runs[1].racy);
  EXPECT_FALSE(back.runs[2].timed);
  EXPECT_EQ(run_to_json(back.runs[0]), run_to_json(a));
}

TEST(Report, RejectsForeignAndNewerFiles) {
  EXPECT_THROW(report_from_json(nlohmann::json::parse(R"({"runs":[]})")), std::runtime_error);
  EXPECT_THROW(report_from_json(nlohmann::json::parse(R"({"format":"warpscope-report","version":99,"runs":[]})")),
               std::runtime_error);
  EXPECT_THROW(
      report_from_json(nlohmann::json::parse(R"({"format":"warpscope-report","version":1,"runs":[{"variant":1}]})")),
      std::runtime_error);
  EXPECT_THROW(load_report("/nonexistent/report.json"), std::runtime_error);
}

TEST(Report, MetricsRoundTripAndOldRunsLoadWithout) {
  RunResult a;
  a.variant = "harris.impl2";
  a.backend = BackendKind::Cuda;
  a.n = 1 << 24;
  a.status = RunStatus::Ok;
  a.correct = true;
  a.metrics.asked = "default";
  a.metrics.collected = true;
  a.metrics.passes = 3;
  a.metrics.profile_ms = 41.5;
  a.metrics.values["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"] = 4.7e6;
  a.metrics.values["ws__theoretical_occupancy_pct"] = 100;
  a.metrics.warnings = {"skipped x: not supported"};
  a.metrics.kernel = "impl2";
  a.metrics.occupancy_limiter = "block size";
  a.metrics.lines.push_back({"harris.cu", 120, 1000, 16000});
  nlohmann::json j = run_to_json(a);
  ASSERT_TRUE(j.contains("metrics"));
  EXPECT_DOUBLE_EQ(j["metrics"]["lines"][0]["lanes_per_instruction"].get<double>(), 16.0);
  RunResult b = run_from_json(nlohmann::json::parse(j.dump()));
  EXPECT_TRUE(b.metrics.collected);
  EXPECT_EQ(b.metrics.passes, 3);
  EXPECT_DOUBLE_EQ(b.metrics.profile_ms, 41.5);
  EXPECT_EQ(b.metrics.values, a.metrics.values);
  EXPECT_EQ(b.metrics.warnings, a.metrics.warnings);
  EXPECT_EQ(b.metrics.kernel, "impl2");
  EXPECT_EQ(b.metrics.occupancy_limiter, "block size");
  ASSERT_EQ(b.metrics.lines.size(), 1u);
  EXPECT_EQ(b.metrics.lines[0].file, "harris.cu");
  EXPECT_EQ(b.metrics.lines[0].line, 120);
  EXPECT_DOUBLE_EQ(b.metrics.lines[0].thread_instructions, 16000);
  // A run without metrics writes no "metrics" key, and an old run without one loads with none.
  RunResult c = a;
  c.metrics = KernelMetrics{};
  nlohmann::json jc = run_to_json(c);
  EXPECT_FALSE(jc.contains("metrics"));
  EXPECT_FALSE(run_from_json(jc).metrics.collected);
  // A failed collection keeps its reason.
  c.metrics.asked = "default";
  c.metrics.error = "no privileges";
  EXPECT_EQ(run_from_json(run_to_json(c)).metrics.error, "no privileges");
  // A malformed line names the field.
  j["metrics"]["lines"][0].erase("line");
  EXPECT_THROW(run_from_json(j), std::runtime_error);
}

// The per-line memory counters (SASS metrics of Nsight Compute's source page) and the ratios read from
// them: wavefronts per shared instruction (the bank-conflict ways) and sectors per global request.
TEST(Report, PerLineMemoryCountersRoundTripWithTheirRatios) {
  LineMetrics store{"reduce_bank2.cu", 9, 8192, 8192 * 32};
  store.shared_stores = 8192;
  store.shared_wavefronts = 2 * 8192;  // 2-way: every store takes two passes
  LineMetrics load{"reduce_bank2.cu", 8, 8192, 8192 * 32};
  load.global_loads = 8192;
  load.global_sectors = 4 * 8192;  // 32 lanes x 4 bytes, coalesced: 4 sectors of 32 bytes
  LineMetrics tree{"reduce_bank2.cu", 12, 1000, 9000};
  tree.shared_loads = 600;
  tree.shared_stores = 300;
  tree.shared_atomics = 100;
  tree.shared_wavefronts = 1000;  // conflict-free
  tree.global_atomics = 10;
  tree.global_sectors = 10;
  EXPECT_DOUBLE_EQ(store.wavefronts_per_shared_instruction(), 2.0);
  EXPECT_DOUBLE_EQ(store.bank_conflicts(), 8192);
  EXPECT_DOUBLE_EQ(load.sectors_per_request(), 4.0);
  EXPECT_DOUBLE_EQ(load.wavefronts_per_shared_instruction(), 0);  // no shared instruction: no ratio
  EXPECT_DOUBLE_EQ(tree.shared_instructions(), 1000);
  EXPECT_DOUBLE_EQ(tree.wavefronts_per_shared_instruction(), 1.0);
  EXPECT_DOUBLE_EQ(tree.bank_conflicts(), 0);
  EXPECT_DOUBLE_EQ(tree.sectors_per_request(), 1.0);
  LineMetrics uncounted = store;  // the GPU offered no wavefront metric: no ways, no conflicts
  uncounted.shared_wavefronts = 0;
  EXPECT_DOUBLE_EQ(uncounted.wavefronts_per_shared_instruction(), 0);
  EXPECT_DOUBLE_EQ(uncounted.bank_conflicts(), 0);

  RunResult a;
  a.variant = "reduce_bank2.cu (your kernel)";
  a.backend = BackendKind::Cuda;
  a.status = RunStatus::Ok;
  a.metrics.asked = "lines";
  a.metrics.collected = true;
  a.metrics.lines = {load, store, tree};
  const nlohmann::json j = run_to_json(a);
  const nlohmann::json& js = j["metrics"]["lines"][1];
  EXPECT_DOUBLE_EQ(js["wavefronts_per_shared_instruction"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(js["bank_conflicts"].get<double>(), 8192);
  EXPECT_DOUBLE_EQ(j["metrics"]["lines"][0]["sectors_per_request"].get<double>(), 4.0);
  const RunResult b = run_from_json(nlohmann::json::parse(j.dump()));
  ASSERT_EQ(b.metrics.lines.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    const LineMetrics &x = a.metrics.lines[i], &y = b.metrics.lines[i];
    EXPECT_EQ(y.line, x.line);
    EXPECT_EQ(y.shared_loads, x.shared_loads);
    EXPECT_EQ(y.shared_stores, x.shared_stores);
    EXPECT_EQ(y.shared_atomics, x.shared_atomics);
    EXPECT_EQ(y.shared_wavefronts, x.shared_wavefronts);
    EXPECT_EQ(y.global_loads, x.global_loads);
    EXPECT_EQ(y.global_stores, x.global_stores);
    EXPECT_EQ(y.global_atomics, x.global_atomics);
    EXPECT_EQ(y.global_sectors, x.global_sectors);
  }
  // A report written before the memory counters loads with none (0: not counted), not an error.
  nlohmann::json old = j;
  for (const char* k : {"shared_loads", "shared_stores", "shared_atomics", "shared_wavefronts", "global_loads",
                        "global_stores", "global_atomics", "global_sectors", "wavefronts_per_shared_instruction",
                        "bank_conflicts", "sectors_per_request"})
    old["metrics"]["lines"][1].erase(k);
  const RunResult c = run_from_json(old);
  EXPECT_EQ(c.metrics.lines[1].warp_instructions, 8192);
  EXPECT_EQ(c.metrics.lines[1].shared_wavefronts, 0);
  EXPECT_EQ(c.metrics.lines[1].wavefronts_per_shared_instruction(), 0);
}

TEST(Report, HostTimesRoundTripAndOldRunsLoadWithout) {
  RunResult r;
  r.variant = "epita.reduce3";
  r.backend = BackendKind::Cuda;
  r.n = 1 << 20;
  r.status = RunStatus::Ok;
  r.correct = true;
  r.host_ms.input = 12.5;
  r.host_ms.upload = 3.25;
  r.host_ms.launches = 1.5;
  r.host_ms.download = 0.125;
  r.host_ms.reference = 4;
  r.host_ms.check = 0.5;
  r.host_ms.total = 23;
  nlohmann::json j = run_to_json(r);
  ASSERT_TRUE(j.contains("host_ms"));
  EXPECT_DOUBLE_EQ(j["host_ms"]["other"].get<double>(), 23 - (12.5 + 3.25 + 1.5 + 0.125 + 4 + 0.5));
  const RunResult back = run_from_json(j);
  EXPECT_EQ(back.host_ms.input, 12.5);
  EXPECT_EQ(back.host_ms.upload, 3.25);
  EXPECT_EQ(back.host_ms.launches, 1.5);
  EXPECT_EQ(back.host_ms.download, 0.125);
  EXPECT_EQ(back.host_ms.reference, 4);
  EXPECT_EQ(back.host_ms.check, 0.5);
  EXPECT_EQ(back.host_ms.total, 23);
  j.erase("host_ms");  // reports written before host times existed
  EXPECT_FALSE(run_from_json(j).host_ms.recorded());
  EXPECT_FALSE(run_to_json(run_from_json(j)).contains("host_ms"));
  j["host_ms"] = {{"input", "fast"}};
  EXPECT_THROW(run_from_json(j), std::runtime_error);
}
