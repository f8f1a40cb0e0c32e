// Scan variants on the sim backend ("CS 677 Lecture 6", Mordohai, scan slides): outputs equal the CPU reference
// for awkward sizes, inclusive and exclusive; the slides' examples; traces and work counts.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>

#include "launch_rules.hpp"
#include "patterns.hpp"
#include "patterns/scan/reference.hpp"
#include "registry.hpp"
#include "request.hpp"
#include "sim/sim.hpp"

using namespace ws;

namespace {

const std::vector<std::string> kScanIds = {
    "stevens.scan_sequential", "stevens.scan_naive",        "stevens.kogge_stone",     "stevens.kogge_stone_db",
    "stevens.brent_kung",      "stevens.scan_hierarchical", "scan.decoupled_lookback", "cub.scan"};

Input ints(std::vector<std::int32_t> v) {
  Input in;
  in.type = DType::Int32;
  in.kind = "test";
  in.i32 = std::move(v);
  return in;
}

sim::SimOutput simulate(const std::string& id, const Input& in, int block, bool exclusive, int trace_block = -1) {
  const VariantInfo* v = find_variant(id);
  EXPECT_NE(v, nullptr) << id;
  LaunchConfig launch;
  const std::string err = resolve_launch(*v, in.n(), in.type, LaunchConfig{block, 0}, DeviceShape{}, launch);
  EXPECT_EQ(err, "") << id;
  PatternParams pp;
  pp.exclusive = exclusive;
  return sim::simulate(*v, in, launch, pp, trace_block);
}

std::string check(const std::string& id, const Input& in, const sim::SimOutput& o, bool exclusive) {
  const VariantInfo* v = find_variant(id);
  const PatternSpec* h = find_pattern(PatternKind::Scan);
  PatternParams pp;
  pp.exclusive = exclusive;
  ArrayOutput got;
  got.values = o.output;
  got.cols = o.output_cols;
  return h->compare(*v, pp, in, got, h->reference(*v, pp, in));
}

std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST(ScanVariants, TheIssuesIdsInTeachingOrder) {
  std::vector<std::string> got;
  for (const auto& v : all_variants())
    if (v.pattern == PatternKind::Scan) got.push_back(v.id);
  EXPECT_EQ(got, kScanIds);
  EXPECT_TRUE(find_variant("stevens.scan_sequential")->cpu_only);
  EXPECT_TRUE(find_variant("cub.scan")->baseline);
  for (const auto& id : kScanIds)
    if (!find_variant(id)->cpu_only) EXPECT_TRUE(sim::has_model(id)) << id;
}

TEST(ScanSim, EveryVariantEqualsTheReferenceOnAwkwardSizes) {
  for (const auto& id : kScanIds) {
    const VariantInfo* v = find_variant(id);
    if (v->cpu_only) continue;
    for (std::int64_t n : {1, 2, 7, 31, 33, 1000, 1024, 2047, 2048, 4097, 100003, (1 << 20) + 7}) {
      for (DType t : {DType::Int32, DType::Float32}) {
        for (bool ex : {false, true}) {
          LaunchConfig launch;
          if (!resolve_launch(*v, n, t, LaunchConfig{}, DeviceShape{}, launch).empty()) continue;  // beyond max_n
          Input in;
          make_input("random", n, t, 7 + std::uint64_t(n), in);
          const sim::SimOutput o = simulate(id, in, 0, ex);
          EXPECT_EQ(check(id, in, o, ex), "") << id << " n=" << n << " " << to_string(t) << (ex ? " exclusive" : "");
        }
      }
    }
  }
}

TEST(ScanSim, OtherBlockSizes) {
  Input in;
  make_input("random", 1000, DType::Int32, 5, in);
  for (const char* id : {"stevens.kogge_stone", "stevens.kogge_stone_db", "stevens.brent_kung",
                         "stevens.scan_hierarchical", "scan.decoupled_lookback", "stevens.scan_naive"})
    for (int block : {32, 64, 128, 512, 1024}) {
      LaunchConfig launch;
      if (!resolve_launch(*find_variant(id), in.n(), in.type, LaunchConfig{block, 0}, DeviceShape{}, launch).empty())
        continue;
      for (bool ex : {false, true})
        EXPECT_EQ(check(id, in, simulate(id, in, block, ex), ex), "") << id << " block " << block;
    }
  Input big;
  make_input("random", 3 * 1024 * 1024 + 5, DType::Int32, 9, big);  // three levels of block sums at block 64
  EXPECT_EQ(check("stevens.scan_hierarchical", big, simulate("stevens.scan_hierarchical", big, 64, false), false), "");
}

TEST(ScanSim, ExclusiveLoadStepIsTheKernels) {
  // load_shifted() (kernels/scan/stevens_scan.cu) reads x[i - 1] whenever i - 1 is in 0..n-1, so in an
  // exclusive scan of n = 5 thread 5 (past the input, not working) still loads x[4] into T[5]; thread 6 stores 0.
  // The GPU-recorded trace has that load, so the model must too.
  const Input in = ints({3, 1, 7, 0, 4});
  for (const char* id : {"stevens.kogge_stone", "stevens.kogge_stone_db", "stevens.brent_kung"}) {
    const sim::SimOutput o = simulate(id, in, 32, true, 0);
    EXPECT_EQ(o.output, (std::vector<double>{0, 3, 4, 11, 11})) << id;
    ASSERT_FALSE(o.trace.steps.empty()) << id;
    const Step& load = o.trace.steps[0];
    EXPECT_EQ(load.working_threads, (std::vector<int>{0, 1, 2, 3, 4})) << id;
    std::vector<std::string> t5, t6, t0;
    for (const ThreadOp& op : load.ops) {
      if (op.access >= 1 && std::string(id) == "stevens.brent_kung" && op.address >= 32) continue;  // second element
      const std::string s = std::string(to_string(op.kind)) + " " + to_string(op.space) + "[" +
                            std::to_string(op.address) + "]=" + std::to_string(int(op.value));
      if (op.thread == 5) t5.push_back(s);
      if (op.thread == 6) t6.push_back(s);
      if (op.thread == 0) t0.push_back(s);
    }
    EXPECT_EQ(t5, (std::vector<std::string>{"load global[4]=4", "store shared[5]=4"})) << id;
    EXPECT_EQ(t6, (std::vector<std::string>{"store shared[6]=0"})) << id;
    EXPECT_EQ(t0, (std::vector<std::string>{"store shared[0]=0"})) << id;  // x[-1] is not read
  }
}

TEST(ScanSim, SlideExampleKoggeStoneSteps) {
  // "A Kogge-Stone Parallel Scan Algorithm" on T = 3 1 7 0 4 1 6 3: strides 1, 2, 4; threads stride..n-1 add.
  const Input in = ints({3, 1, 7, 0, 4, 1, 6, 3});
  const sim::SimOutput o = simulate("stevens.kogge_stone", in, 32, false, 0);
  EXPECT_EQ(o.output, (std::vector<double>{3, 4, 11, 11, 15, 16, 22, 25}));
  ASSERT_EQ(o.trace.steps.size(), 5u);  // load, 3 steps, store
  EXPECT_EQ(o.trace.steps[1].working_threads, (std::vector<int>{1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(o.trace.steps[2].working_threads, (std::vector<int>{2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(o.trace.steps[3].working_threads, (std::vector<int>{4, 5, 6, 7}));
  // After stride 1: 3 4 8 7 4 5 7 9 (each T[j] + T[j-1]).
  EXPECT_EQ(std::vector<double>(o.trace.steps[1].shared_after.begin(), o.trace.steps[1].shared_after.begin() + 8),
            (std::vector<double>{3, 4, 8, 7, 4, 5, 7, 9}));
  // Thread 5 at stride 2 adds T[5] and T[3].
  bool saw = false;
  for (const ThreadOp& op : o.trace.steps[2].ops)
    if (op.thread == 5 && op.kind == OpKind::Add) saw = op.operand == 3;
  EXPECT_TRUE(saw);
  // "Work Efficiency Analysis": n log2 n - (n - 1) = 17 additions against the sequential 7.
  EXPECT_EQ(o.additions, 8 * 3 - 7);
  EXPECT_EQ(simulate("stevens.kogge_stone_db", in, 32, false, 0).additions, 17);
  EXPECT_EQ(simulate("stevens.kogge_stone_db", in, 32, false).output, o.output);
}

TEST(ScanSim, SlideExampleBrentKungAndExclusive) {
  const Input in = ints({3, 1, 7, 0, 4, 1, 6, 3});
  const sim::SimOutput o = simulate("stevens.brent_kung", in, 32, false, 0);
  EXPECT_EQ(o.output, (std::vector<double>{3, 4, 11, 11, 15, 16, 22, 25}));
  EXPECT_EQ(o.additions, 2 * 7 - 3);  // 2(n - 1) - log2 n
  std::vector<TracePhase> phases;
  for (const Step& s : o.trace.steps) phases.push_back(s.phase);
  using P = TracePhase;
  EXPECT_EQ(phases, (std::vector<TracePhase>{P::Load, P::UpSweep, P::UpSweep, P::UpSweep, P::DownSweep, P::DownSweep,
                                             P::Store}));
  EXPECT_EQ(o.trace.steps[3].working_threads, (std::vector<int>{0}));  // stride 4: thread 0 adds T[3] into T[7]
  EXPECT_EQ(simulate("stevens.brent_kung", in, 32, true).output, (std::vector<double>{0, 3, 4, 11, 11, 15, 16, 22}));
  EXPECT_EQ(simulate("stevens.scan_naive", in, 32, false).additions, 28);  // n(n-1)/2
}

TEST(ScanSim, BreadExampleThroughTheCli) {
  // "A Inclusive Scan Application Example": 100 inches of bread, 39 left.
  const std::string path = write_temp("bread.txt", "3 5 2 7 28 4 3 0 8 1\n");
  for (const auto& id : kScanIds) {
    RunRequest req;
    req.variant = id;
    req.input = path;
    req.backend = BackendKind::Sim;
    req.repeat = 1;
    RunResult r = execute(req, nullptr);
    ASSERT_EQ(r.status, RunStatus::Ok) << id << ": " << r.message;
    EXPECT_EQ(r.output, (std::vector<double>{3, 8, 10, 17, 45, 49, 52, 52, 60, 61})) << id;
    EXPECT_EQ(r.result, 61);
    EXPECT_EQ(r.expected, 61);
    EXPECT_DOUBLE_EQ(r.bytes, 2.0 * 10 * 4);
  }
}

TEST(ScanSim, ValidationAndDefaults) {
  RunRequest req;
  req.variant = "stevens.kogge_stone";
  req.backend = BackendKind::Sim;
  req.n = 5000;
  PreparedRun p;
  EXPECT_NE(prepare_run(req, p).find("n <= 1024"), std::string::npos);
  req.n = 0;  // default n is capped at the variant's max_n
  ASSERT_EQ(prepare_run(req, p), "");
  EXPECT_EQ(p.input.n(), 1024);
  req.variant = "stevens.scan_naive";
  req.n = (1 << 20) + 1;
  EXPECT_NE(prepare_run(req, p).find("2^20"), std::string::npos);
  req.variant = "stevens.brent_kung";
  req.n = 1000;
  req.launch.block = 384;
  EXPECT_NE(prepare_run(req, p).find("power-of-two"), std::string::npos);
}

TEST(ScanSim, WrongOutputIsCaughtWithItsIndex) {
  const Input in = ints({3, 1, 7, 0, 4, 1, 6, 3});
  sim::SimOutput o = simulate("stevens.kogge_stone", in, 32, false);
  o.output[5] = 15;
  EXPECT_EQ(check("stevens.kogge_stone", in, o, false), "out[5] = 15, expected 16");
}

TEST(ScanSim, DecoupledLookbackTraceAndWork) {
  Input in;
  make_input("random", 3 * 4096 + 17, DType::Int32, 2, in);
  const sim::SimOutput o = simulate("scan.decoupled_lookback", in, 256, false, 1);
  EXPECT_EQ(check("scan.decoupled_lookback", in, o, false), "");
  std::set<TracePhase> phases;
  for (const Step& s : o.trace.steps) phases.insert(s.phase);
  using P = TracePhase;
  EXPECT_EQ(phases, (std::set<TracePhase>{P::Load, P::Thread, P::Warp, P::Block, P::LookBack, P::Store}));
  EXPECT_GT(o.additions, in.n() - 1);
  // Work-efficient: per element of the 4 tiles (4096 each) 3/4 in the thread sums, about 1 in the warp
  // scans and 1.5 for the prefixes: about 3.25 n, a constant factor (Kogge-Stone's grows with log n).
  EXPECT_GT(o.additions, 3 * 4 * 4096);
  EXPECT_LT(o.additions, 3.5 * 4 * 4096);
  EXPECT_THROW(simulate("scan.decoupled_lookback", in, 256, false, 4), std::runtime_error);  // 4 tiles: 0..3
}

TEST(ScanSim, ModelsAreFastEnoughAt2To22) {
  for (const auto& id : kScanIds) {
    const VariantInfo* v = find_variant(id);
    if (v->cpu_only) continue;
    const std::int64_t n = v->rules.max_n ? std::min<std::int64_t>(v->rules.max_n, 1 << 22) : 1 << 22;
    Input in;
    make_input("random", n, DType::Int32, 3, in);
    const auto t0 = std::chrono::steady_clock::now();
    const sim::SimOutput o = simulate(id, in, 0, false, 0);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_LT(s, 2.0) << id;
    EXPECT_EQ(o.output.size(), std::size_t(n)) << id;
  }
}

TEST(ScanSim, Float32ToleranceCatchesALostElement) {
  Input in;
  make_input("random", 4097, DType::Float32, 11, in);
  sim::SimOutput o = simulate("stevens.scan_hierarchical", in, 0, false);
  EXPECT_EQ(check("stevens.scan_hierarchical", in, o, false), "");
  // Drop one element's contribution from out[100] on: the first wrong output is named.
  for (std::size_t i = 100; i < o.output.size(); ++i) o.output[i] -= in.f32[100];
  EXPECT_EQ(check("stevens.scan_hierarchical", in, o, false).rfind("out[100] = ", 0), 0u);
}

namespace {
int run_cli(const std::string& args, std::string& out) {
  std::string cmd = std::string(WS_CLI_PATH) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  char buf[4096];
  out.clear();
  while (p && fgets(buf, sizeof buf, p)) out += buf;
  const int status = p ? pclose(p) : -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
}  // namespace

TEST(ScanCli, RunOutputAndTraceAdditions) {
  const std::string in = write_temp("slide.txt", "3 1 7 0 4 1 6 3\n");
  const std::string out = ::testing::TempDir() + "/scan_out.txt";
  std::string text;
  ASSERT_EQ(run_cli("run --variant stevens.kogge_stone_db --backend sim --exclusive --force --input " + in +
                        " --output " + out,
                    text),
            0)
      << text;
  std::ifstream f(out);
  std::string all((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  EXPECT_EQ(all, "0\n3\n4\n11\n11\n15\n16\n22\n");
  ASSERT_EQ(run_cli("trace --variant stevens.kogge_stone --input " + in + " --block 32 --json", text), 0) << text;
  const auto j = nlohmann::json::parse(text);
  EXPECT_EQ(j["additions"], 17);
  EXPECT_EQ(j["steps"].size(), 5u);
  ASSERT_EQ(run_cli("trace --variant stevens.brent_kung --input " + in + " --block 32", text), 0) << text;
  EXPECT_NE(text.find("additions: 11 in the whole run (the sequential scan does n - 1 = 7)"), std::string::npos)
      << text;
  EXPECT_EQ(run_cli("run --variant stevens.scan_naive --backend sim --n 2000000", text), 2);
  EXPECT_NE(text.find("2^20"), std::string::npos) << text;
}
