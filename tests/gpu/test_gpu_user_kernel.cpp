// Your own kernel on the GPU (docs/your-kernel.md): tests/kernels/*.cu compiled with NVRTC for the device,
// launched through the driver API, checked and timed like any variant, in-process and through a worker;
// a fault and an endless kernel cost their run only; per-line counters land on the user's file and lines.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "gpu_device.hpp"
#include "request.hpp"
#include "worker_client.hpp"

using namespace ws;

namespace {

RunRequest kernel_request(const std::string& name, std::int64_t n = std::int64_t(1) << 24) {
  RunRequest r;
  std::ifstream in(std::string(WS_SOURCE_DIR) + "/tests/kernels/" + name);
  std::ostringstream s;
  s << in.rdbuf();
  r.kernel.source = s.str();
  r.kernel.file = name;
  r.kernel.pattern = PatternKind::Reduction;
  r.kernel.like = "epita.reduce3";
  r.n = n;
  r.backend = BackendKind::Cuda;
  return r;
}

WorkerClient start_worker(double watchdog_s = 0) {
  WorkerClientOptions o;
  if (watchdog_s > 0) o.watchdog_s = watchdog_s;
  return WorkerClient(WorkerLaunch{{WS_CLI_PATH, "worker"}, "local"}, o);
}

const LineMetrics* find_line(const RunResult& r, const std::string& file, int line) {
  for (const LineMetrics& l : r.metrics.lines)
    if (l.file == file && l.line == line) return &l;
  return nullptr;
}

}  // namespace

TEST(GpuUserKernel, AnEditedReduce3IsCheckedAndTimed) {
  const auto t0 = std::chrono::steady_clock::now();
  const RunResult r = execute(kernel_request("reduce_good.cu"), &test::gpu());
  const double first_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_EQ(r.status, RunStatus::Ok) << r.message;
  EXPECT_EQ(r.variant, "epita.reduce3 (edited)");
  EXPECT_EQ(r.result, r.expected);
  EXPECT_TRUE(r.timed);
  EXPECT_GT(r.gbps, 0);
  EXPECT_NE(r.code_path.find("your kernel"), std::string::npos) << r.code_path;
  const auto t1 = std::chrono::steady_clock::now();
  const RunResult again = execute(kernel_request("reduce_good.cu"), &test::gpu());
  const double cached_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
  EXPECT_EQ(again.status, RunStatus::Ok) << again.message;
  EXPECT_NE(again.code_path.find("module cached"), std::string::npos) << again.code_path;
  RunRequest orig;
  orig.variant = "epita.reduce3";
  orig.n = r.n;
  const RunResult o = execute(orig, &test::gpu());
  ASSERT_EQ(o.status, RunStatus::Ok) << o.message;
  std::printf(
      "[ gpu      ] edited reduce3 n=2^24: %.4f ms (%.0f GB/s), original %.4f ms (%.0f GB/s); %s; "
      "in-process run %.2f s first, %.2f s cached\n",
      r.timing.median_ms, r.gbps, o.timing.median_ms, o.gbps, r.code_path.c_str(), first_s, cached_s);
}

TEST(GpuUserKernel, AWrongKernelIsCalledWrong) {
  const RunResult r = execute(kernel_request("reduce_wrong.cu"), &test::gpu());
  EXPECT_EQ(r.status, RunStatus::Wrong) << r.message;
  EXPECT_NE(r.result, r.expected);
}

TEST(GpuUserKernel, ACompileErrorComesBackOnItsLine) {
  const RunResult r = execute(kernel_request("reduce_broken.cu"), &test::gpu());
  EXPECT_EQ(r.status, RunStatus::Error);
  EXPECT_EQ(r.message.rfind("reduce_broken.cu:7: error: identifier \"undeclared_value\" is undefined", 0), 0u)
      << r.message;
}

TEST(GpuUserKernel, ThroughAWorkerAFaultCostsOneRun) {
  WorkerClient c = start_worker();
  ASSERT_EQ(c.start(), "");
  ASSERT_TRUE(c.hello().device.available) << c.hello().device.error;
  const RunResult bad = c.run(kernel_request("reduce_fault.cu"));
  EXPECT_EQ(bad.status, RunStatus::Faulted) << bad.message;
  std::printf("[ gpu      ] faulting kernel: %s\n", bad.message.c_str());
  const RunResult good = c.run(kernel_request("reduce_good.cu"));
  EXPECT_EQ(good.status, RunStatus::Ok) << good.message;
  EXPECT_EQ(good.result, good.expected);
}

TEST(GpuUserKernel, ThroughAWorkerAnEndlessKernelCostsOneRun) {
  WorkerClient c = start_worker(10);
  ASSERT_EQ(c.start(), "");
  const auto t0 = std::chrono::steady_clock::now();
  const RunResult hung = c.run(kernel_request("reduce_endless.cu", 4096));
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(hung.status, RunStatus::Faulted) << hung.message;
  EXPECT_NE(hung.message.find("without an answer"), std::string::npos) << hung.message;
  const RunResult good = c.run(kernel_request("reduce_good.cu"));
  EXPECT_EQ(good.status, RunStatus::Ok) << good.message;
  std::printf("[ gpu      ] endless kernel: '%s' after %.1f s; next run %s\n", hung.message.c_str(), s,
              to_string(good.status));
}

TEST(GpuUserKernel, ThroughAWorkerTheResultMatchesInProcess) {
  WorkerClient c = start_worker();
  ASSERT_EQ(c.start(), "");
  const RunResult r = c.run(kernel_request("reduce_good.cu"));
  ASSERT_EQ(r.status, RunStatus::Ok) << r.message;
  EXPECT_EQ(r.variant, "epita.reduce3 (edited)");
  EXPECT_EQ(r.result, r.expected);
  const RunResult broken = c.run(kernel_request("reduce_broken.cu"));
  EXPECT_EQ(broken.status, RunStatus::Error);
  EXPECT_EQ(broken.message.rfind("reduce_broken.cu:7: error:", 0), 0u) << broken.message;
}

// Per-line counters of a module NVRTC built: LineMetrics carries warp and thread instructions per line
// (not wavefronts), so the 2-way conflicts show kernel-wide (shared store bank conflicts > 0 where the
// conflict-free kernel has about none) and the line table must name the user's file and edited line 9.
TEST(GpuUserKernel, BankConflictsAndPerLineCountersLandOnTheEditedLine) {
  const char* set =
      "smsp__sass_inst_executed,smsp__sass_thread_inst_executed_pred_on,"
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
  RunRequest conflict = kernel_request("reduce_bank2.cu");
  conflict.metrics = set;
  RunRequest clean = kernel_request("reduce_good.cu");
  clean.metrics = set;
  const RunResult a = execute(conflict, &test::gpu());
  const RunResult b = execute(clean, &test::gpu());
  ASSERT_EQ(a.status, RunStatus::Ok) << a.message;
  ASSERT_EQ(b.status, RunStatus::Ok) << b.message;
  ASSERT_TRUE(a.metrics.collected) << a.metrics.error;
  const double st_a = a.metrics.values.count("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum")
                          ? a.metrics.values.at("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum")
                          : -1;
  const double st_b = b.metrics.values.count("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum")
                          ? b.metrics.values.at("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum")
                          : -1;
  EXPECT_GT(st_a, 3 * std::max(1.0, st_b)) << st_a << " vs " << st_b;
  const LineMetrics* store = find_line(a, "reduce_bank2.cu", 9);
  ASSERT_NE(store, nullptr) << a.metrics.lines.size()
                            << " lines; first: " << (a.metrics.lines.empty() ? "" : a.metrics.lines[0].file);
  EXPECT_GT(store->warp_instructions, 0);
  std::printf(
      "[ gpu      ] 2-way kernel: %.0f shared store bank conflicts (clean: %.0f); line 9: %.0f warp inst, "
      "%.2f lanes\n",
      st_a, st_b, store->warp_instructions, store->lanes_per_instruction());
  // The per-line memory counters (SASS metrics of Nsight Compute's source page): line 9's store takes two
  // wavefronts, the clean kernel's store (its line 7) one; a warp's coalesced int load reads 4 sectors.
  std::string warnings;
  for (const std::string& w : a.metrics.warnings) warnings += "\n  " + w;
  const LineMetrics* load = find_line(a, "reduce_bank2.cu", 8);
  const LineMetrics* clean_store = find_line(b, "reduce_good.cu", 7);
  ASSERT_NE(load, nullptr);
  ASSERT_NE(clean_store, nullptr);
  std::printf(
      "[ gpu      ] line 9: %.0f shared st, %.0f ld, %.0f wavefronts (%.2f per instruction, %.0f conflicts); clean "
      "line 7: %.0f shared st, %.0f wavefronts (%.2f); line 8: %.0f global ld, %.0f sectors (%.2f per request)%s\n",
      store->shared_stores, store->shared_loads, store->shared_wavefronts, store->wavefronts_per_shared_instruction(),
      store->bank_conflicts(), clean_store->shared_stores, clean_store->shared_wavefronts,
      clean_store->wavefronts_per_shared_instruction(), load->global_loads, load->global_sectors,
      load->sectors_per_request(), warnings.c_str());
  ASSERT_GT(store->shared_stores, 0) << "no shared store counted on line 9" << warnings;
  ASSERT_GT(store->shared_wavefronts, 0) << "no shared wavefronts counted" << warnings;
  EXPECT_NEAR(store->wavefronts_per_shared_instruction(), 2.0, 0.25);
  EXPECT_NEAR(store->bank_conflicts(), store->shared_stores, 0.15 * store->shared_stores);
  EXPECT_NEAR(clean_store->wavefronts_per_shared_instruction(), 1.0, 0.1);
  ASSERT_GT(load->global_loads, 0) << "no global load counted on line 8" << warnings;
  ASSERT_GT(load->global_sectors, 0) << "no global sectors counted" << warnings;
  EXPECT_NEAR(load->sectors_per_request(), 4.0, 0.25);
}

// docs/your-kernel.md's worked examples, one per contract, checked against each pattern's reference.
TEST(GpuUserKernel, EveryContractsExampleIsCorrect) {
  const std::pair<const char*, PatternKind> examples[] = {{"reduce_good.cu", PatternKind::Reduction},
                                                          {"scan_example.cu", PatternKind::Scan},
                                                          {"conv_example.cu", PatternKind::Convolution},
                                                          {"hist_example.cu", PatternKind::Atomics}};
  for (const auto& [file, pattern] : examples)
    for (std::int64_t n : {std::int64_t(37), std::int64_t(1000), std::int64_t(1) << 22}) {
      RunRequest r = kernel_request(file, n);
      r.kernel.like.clear();
      r.kernel.pattern = pattern;
      const RunResult got = execute(r, &test::gpu());
      EXPECT_EQ(got.status, RunStatus::Ok) << file << " n=" << n << ": " << got.message;
      if (n == std::int64_t(1) << 22)
        std::printf("[ gpu      ] %s n=2^22: %s, %.4f ms, %.0f GB/s\n", file, to_string(got.status),
                    got.timing.median_ms, got.gbps);
    }
}

#include "exercises.hpp"

// Every exercise: its solution passes every check on the GPU, its starter does not.
TEST(GpuGrade, SolutionsPassAndStartersFail) {
  const std::vector<Exercise> all = load_exercises();
  ASSERT_GE(all.size(), 5u);
  auto run = [](const RunRequest& r) { return execute(r, &test::gpu()); };
  for (const Exercise& ex : all) {
    std::ifstream sol(ex.solution_path), start(ex.starter_path);
    std::ostringstream a, b;
    a << sol.rdbuf();
    b << start.rdbuf();
    const GradeReport g = grade_exercise(ex, a.str(), "solution.cu", run);
    EXPECT_TRUE(g.passed()) << ex.id << "\n" << format_grade(g);
    std::printf("[ gpu      ] %s solution: %s, speed %.2fx of %s\n", ex.id.c_str(), g.passed() ? "passed" : "FAILED",
                g.speed_ratio, ex.reference.c_str());
    const GradeReport s = grade_exercise(ex, b.str(), "starter.cu", run);
    EXPECT_FALSE(s.passed()) << ex.id << "\n" << format_grade(s);
  }
}
