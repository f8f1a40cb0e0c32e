// The atomics lesson ("GPUs and CUDA 3: Intrinsics", CS121, Fall 2022): uint8 inputs, CPU references, comparisons,
// and the sim models of every atomics variant against the references on awkward sizes.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>

#include "launch_rules.hpp"
#include "patterns/atomics/reference.hpp"
#include "registry.hpp"
#include "sim/sim.hpp"
#include "trace/analyses.hpp"

using namespace ws;

namespace {

Input bytes(std::vector<std::uint8_t> v) {
  Input in;
  in.type = DType::UInt8;
  in.kind = "test";
  in.u8 = std::move(v);
  return in;
}

Input ints(std::vector<std::int32_t> v) {
  Input in;
  in.type = DType::Int32;
  in.kind = "test";
  in.i32 = std::move(v);
  return in;
}

/// Runs a variant's model with its default launch for this n (sim device: no SMs), tracing `block`.
sim::SimOutput run_model(const std::string& id, const Input& in, int trace_block = 0, int block = 0) {
  const VariantInfo* v = find_variant(id);
  EXPECT_NE(v, nullptr) << id;
  LaunchConfig launch;
  const std::string err = resolve_launch(*v, in.n(), in.type, LaunchConfig{block, 0}, DeviceShape{}, launch);
  EXPECT_EQ(err, "") << id;
  EXPECT_TRUE(sim::has_model(id)) << id;
  return sim::simulate(*v, in, launch, PatternParams{}, trace_block);
}

std::vector<double> to_doubles(const std::vector<std::int64_t>& v) { return {v.begin(), v.end()}; }
std::vector<double> to_doubles(ConstSpan<std::int32_t> v) { return {v.begin(), v.end()}; }

}  // namespace

TEST(AtomicsRegistry, HoldsExactlyTheIssuesIdsInTeachingOrder) {
  std::vector<std::string> got;
  for (const auto& v : all_variants())
    if (v.pattern == PatternKind::Atomics) got.push_back(v.id);
  EXPECT_EQ(got, (std::vector<std::string>{"cs121.race", "cs121.atomic_counter", "cs121.hist_global",
                                           "cs121.hist_shared", "cs121.hist_shared_vec", "cs121.filter_global",
                                           "cs121.filter_shared", "cs121.filter_warp_agg", "cs121.filter_scan",
                                           "cs121.filter_scan_vec", "cub.histogram", "cub.select"}));
  EXPECT_TRUE(find_variant("cs121.race")->racy);
  EXPECT_TRUE(find_variant("cub.histogram")->baseline);
  EXPECT_TRUE(find_variant("cub.select")->baseline);
  EXPECT_TRUE(find_variant("cs121.hist_shared")->rules.bytes_input);
  EXPECT_EQ(find_variant("cs121.race")->rules.default_n, 1000000);
  for (const char* id : {"cs121.race", "cs121.atomic_counter", "cs121.filter_global", "cs121.filter_warp_agg"})
    EXPECT_EQ(find_variant(id)->seed, "003_156a830321b56386.txt") << id;
}

TEST(AtomicsTypes, UInt8IsAByteType) {
  DType t = DType::Int32;
  ASSERT_TRUE(parse_dtype("uint8", t));
  EXPECT_EQ(t, DType::UInt8);
  EXPECT_STREQ(to_string(DType::UInt8), "uint8");
  EXPECT_EQ(dtype_size(DType::UInt8), 1u);
  EXPECT_EQ(dtype_size(DType::Int32), 4u);
  EXPECT_TRUE(dtype_is_integer(DType::UInt8));
  EXPECT_FALSE(dtype_is_integer(DType::Float32));
}

TEST(AtomicsTypes, GeneratedBytes) {
  Input a, b;
  ASSERT_EQ(make_input("random", 100000, DType::UInt8, 7, a), "");
  ASSERT_EQ(make_input("random", 100000, DType::UInt8, 7, b), "");
  EXPECT_EQ(a.n(), 100000);
  EXPECT_EQ(a.u8, b.u8);
  EXPECT_EQ(a.data(), static_cast<const void*>(a.u8.data()));
  // Every byte value shows up in 100000 uniform draws (each misses with probability ~1e-170).
  const auto h = histogram_reference(a);
  EXPECT_GT(*std::min_element(h.begin(), h.end()), 0);
  Input s;
  ASSERT_EQ(make_input("sequence", 40, DType::UInt8, 1, s), "");
  EXPECT_EQ(s.u8[17], 17);  // bytes: i % 256
  Input o;
  ASSERT_EQ(make_input("ones", 5, DType::UInt8, 1, o), "");
  EXPECT_EQ(histogram_reference(o)[1], 5);
}

TEST(AtomicsTypes, ByteFiles) {
  const std::string path = ::testing::TempDir() + "ws_bytes.txt";
  {
    std::ofstream f(path);
    f << "0 0 1\n0, 1\n";
  }
  Input in;
  ASSERT_EQ(read_input_file(path, 0, DType::UInt8, in), "");
  EXPECT_EQ(in.u8, (std::vector<std::uint8_t>{0, 0, 1, 0, 1}));
  {
    std::ofstream f(path);
    f << "3 256\n";
  }
  EXPECT_NE(read_input_file(path, 0, DType::UInt8, in).find("'256' is not a byte"), std::string::npos);
  std::remove(path.c_str());
}

TEST(AtomicsReference, SlideHistogramExample) {
  // "Computing a histogram": [0,0,1,0,1] => three 0's and two 1's.
  const auto h = histogram_reference(bytes({0, 0, 1, 0, 1}));
  ASSERT_EQ(h.size(), 256u);
  EXPECT_EQ(h[0], 3);
  EXPECT_EQ(h[1], 2);
  EXPECT_EQ(std::count(h.begin(), h.end(), 0), 254);
  EXPECT_THROW(histogram_reference(ints({1})), std::invalid_argument);
}

TEST(AtomicsReference, FilterKeepsPositivesInOrder) {
  EXPECT_EQ(filter_reference(ints({3, -1, 0, 7, 2, -5})), (std::vector<std::int32_t>{3, 7, 2}));
  EXPECT_TRUE(filter_reference(ints({0, -1})).empty());
  EXPECT_THROW(filter_reference(bytes({1})), std::invalid_argument);
}

TEST(AtomicsReference, Comparisons) {
  EXPECT_EQ(compare_exact(std::vector<double>{1, 2, 3}, std::vector<double>{1, 2, 3}), "");
  EXPECT_EQ(compare_exact(std::vector<double>{1, 5, 3}, std::vector<double>{1, 6, 3}), "out[1] = 5, expected 6");
  EXPECT_EQ(compare_exact(std::vector<double>{1}, std::vector<double>{1, 2}), "out has 1 elements, expected 2");
  EXPECT_EQ(compare_multiset(std::vector<double>{3, 1, 2}, std::vector<double>{1, 2, 3}), "");
  EXPECT_EQ(compare_multiset(std::vector<double>{7, 7, 1}, std::vector<double>{7, 7, 7}),
            "as multisets: 1 appears 1 times in out, 0 times in the reference");
  EXPECT_EQ(compare_multiset(std::vector<double>{2, 7}, std::vector<double>{7, 7}),
            "as multisets: 2 appears 1 times in out, 0 times in the reference");
  EXPECT_EQ(compare_multiset(std::vector<double>{1}, std::vector<double>{}), "out has 1 elements, expected 0");
}

TEST(AtomicsReference, FilterInputKeepsTheAskedFraction) {
  for (double keep : {0.0, 0.1, 0.5, 0.9, 1.0}) {
    Input in;
    ASSERT_EQ(make_filter_input(200000, keep, 3, in), "");
    const double kept = double(filter_reference(in).size()) / 200000.0;
    EXPECT_NEAR(kept, keep, 0.005) << keep;  // binomial sd <= 0.0012
    EXPECT_GE(*std::min_element(in.i32.begin(), in.i32.end()), -1000);
    EXPECT_LE(*std::max_element(in.i32.begin(), in.i32.end()), 1000);
  }
  Input in;
  EXPECT_EQ(make_filter_input(10, 1.5, 1, in), "--keep must be a fraction in 0..1 (got 1.5)");
  EXPECT_NE(make_filter_input(0, 0.5, 1, in), "");
}

TEST(AtomicsReference, KindsAndBytes) {
  EXPECT_EQ(find_variant("cs121.race")->atomics, AtomicsKind::Counter);
  EXPECT_EQ(find_variant("cub.histogram")->atomics, AtomicsKind::Histogram);
  EXPECT_EQ(find_variant("cs121.filter_scan")->atomics, AtomicsKind::Filter);
  EXPECT_EQ(find_variant("cs121.block_reduce")->atomics, AtomicsKind::None);
  for (const auto& v : all_variants())
    EXPECT_EQ(v.pattern == PatternKind::Atomics, v.atomics != AtomicsKind::None) << v.id;
  EXPECT_DOUBLE_EQ(atomics_bytes(AtomicsKind::Histogram, 1 << 30, 0), double(1 << 30) + 1024.0);
  EXPECT_DOUBLE_EQ(atomics_bytes(AtomicsKind::Filter, 100, 40), 400.0 + 160.0 + 4.0);
}

TEST(AtomicsSim, RaceLosesUpdatesUnderTheStatedInterleaving) {
  Input in;
  ASSERT_EQ(make_input("ones", 1000000, DType::Int32, 1, in), "");
  const auto o = run_model("cs121.race", in, 999);
  // 1000 blocks of 1000 threads = 32 warps each (the last one partial): one increment per warp.
  EXPECT_EQ(o.result, 32000.0);
  EXPECT_LT(o.result, double(counter_reference(1000000)));
  EXPECT_TRUE(o.trace.racy_model);
  EXPECT_FALSE(o.trace.interleaving.empty());
  ASSERT_EQ(o.trace.steps.size(), 2u);
  EXPECT_EQ(o.trace.steps[0].ops.size(), 1000u);
  EXPECT_EQ(o.trace.steps[0].ops[0].value, 999.0 * 32);  // the traced block starts after 999 blocks' warps
  EXPECT_EQ(o.trace.block_result, 32.0);
}

TEST(AtomicsSim, AtomicCounterCountsEveryThread) {
  Input in;
  ASSERT_EQ(make_input("ones", 1000000, DType::Int32, 1, in), "");
  const auto o = run_model("cs121.atomic_counter", in, 3);
  EXPECT_EQ(o.result, 1000000.0);
  const AtomicStats s = atomic_stats(o.trace);
  EXPECT_EQ(s.ops, 1000);
  EXPECT_EQ(s.longest_chain, 1000);  // one address: every atomic of the block in one chain
  ASSERT_EQ(s.addresses.size(), 1u);
}

TEST(AtomicsSim, HistogramsEqualTheReferenceOnAwkwardSizes) {
  for (std::int64_t n : {1LL, 31LL, 257LL, 4097LL, 100003LL, 1LL << 20}) {
    Input in;
    ASSERT_EQ(make_input("random", n, DType::UInt8, std::uint64_t(n), in), "");
    const auto want = to_doubles(histogram_reference(in));
    for (const char* id : {"cs121.hist_global", "cs121.hist_shared", "cs121.hist_shared_vec", "cub.histogram"}) {
      SCOPED_TRACE(std::string(id) + " n=" + std::to_string(n));
      const auto o = run_model(id, in, 0);
      EXPECT_EQ(compare_exact(o.output, want), "");
      EXPECT_EQ(o.result, double(n));
    }
  }
}

TEST(AtomicsSim, HistogramCountsAreExactIntegersEqualToACpuHistogram) {
  // The models count in int64 (kit::CountI64): every bin, every traced shared bin and every flushed count
  // is an exact integer, and the bins equal this test's own count of the bytes, whatever the size (the
  // vec kernel's 16-byte chunks and tail), the block and the grid (several grid-stride passes, folded
  // past 31), for a spread input and for one where every byte falls in the same bin.
  struct Case {
    std::int64_t n;
    int block, grid;
  };
  for (const Case c : {Case{1, 256, 0}, Case{15, 256, 0}, Case{17, 512, 0}, Case{4097, 256, 3}, Case{65537, 288, 7},
                       Case{(1 << 20) + 13, 1024, 0}, Case{(1 << 21) + 15, 256, 2}}) {
    for (const char* kind : {"random", "ones"}) {
      Input in;
      ASSERT_EQ(make_input(kind, c.n, DType::UInt8, std::uint64_t(c.n), in), "");
      std::vector<std::int64_t> cpu(kHistogramBins, 0);
      for (const std::uint8_t x : in.u8) ++cpu[x];
      for (const char* id : {"cs121.hist_global", "cs121.hist_shared", "cs121.hist_shared_vec"}) {
        const VariantInfo* v = find_variant(id);
        ASSERT_NE(v, nullptr) << id;
        LaunchConfig launch;
        ASSERT_EQ(resolve_launch(*v, in.n(), in.type, LaunchConfig{c.block, c.grid}, DeviceShape{}, launch), "") << id;
        for (const int traced : {0, int(launch.grid - 1)}) {
          SCOPED_TRACE(std::string(id) + " " + kind + " n=" + std::to_string(c.n) +
                       " block=" + std::to_string(launch.block) + " grid=" + std::to_string(launch.grid) +
                       " traced=" + std::to_string(traced));
          const auto o = sim::simulate(*v, in, launch, PatternParams{}, traced);
          ASSERT_EQ(o.output.size(), std::size_t(kHistogramBins));
          double total = 0;
          for (int b = 0; b < kHistogramBins; ++b) {
            const double got = o.output[std::size_t(b)];
            EXPECT_EQ(got, std::floor(got)) << "bin " << b;
            EXPECT_EQ(std::int64_t(got), cpu[std::size_t(b)]) << "bin " << b;
            total += got;
          }
          EXPECT_EQ(total, double(c.n));
          EXPECT_EQ(o.result, double(c.n));
          EXPECT_EQ(o.trace.block_result, std::floor(o.trace.block_result));
          double flushed = 0;  // hist_global's atomics add 1 each; the others' flush adds the block's bins
          for (const Step& s : o.trace.steps) {
            for (const double x : s.shared_after) EXPECT_TRUE(x >= 0 && x == std::floor(x)) << s.label << ": " << x;
            for (const ThreadOp& op : s.ops) {
              EXPECT_EQ(op.value, std::floor(op.value)) << s.label;
              if (op.kind == OpKind::Atomic && op.space == Space::Global) flushed += op.value;
            }
          }
          // Every op is recorded unless passes were folded (hist_global's atomics are then partly unrecorded).
          const bool folded = std::any_of(o.trace.steps.begin(), o.trace.steps.end(),
                                          [](const Step& s) { return s.label.find("folded") != std::string::npos; });
          if (!folded || std::string(id) != "cs121.hist_global") EXPECT_EQ(flushed, o.trace.block_result);
        }
      }
    }
  }
}

TEST(AtomicsSim, HistogramTracesShowContention) {
  Input in;
  ASSERT_EQ(make_input("ones", 4096, DType::UInt8, 1, in), "");
  // All bytes are 1: every atomic of the traced block hits bin 1.
  const auto g = run_model("cs121.hist_global", in, 0, 256);
  const AtomicStats sg = atomic_stats(g.trace.steps.at(0));
  EXPECT_EQ(sg.ops, 256);
  EXPECT_EQ(sg.longest_chain, 256);
  ASSERT_EQ(sg.addresses.size(), 1u);
  EXPECT_EQ(sg.addresses[0].address, 1);
  EXPECT_EQ(sg.addresses[0].space, Space::Global);
  // Byte loads: a warp reads 32 consecutive bytes = one 32-byte sector.
  const StepSummary sum = summarize_step(g.trace, g.trace.steps.at(0));
  EXPECT_EQ(sum.load_requests, 8);
  EXPECT_EQ(sum.sectors, 8);
  const auto s = run_model("cs121.hist_shared", in, 0, 256);
  ASSERT_GE(s.trace.steps.size(), 3u);
  EXPECT_EQ(s.trace.steps.front().phase, TracePhase::Load);
  const Step& pass = s.trace.steps.at(1);
  EXPECT_EQ(atomic_stats(pass).addresses.at(0).space, Space::Shared);
  EXPECT_EQ(pass.shared_after.at(1), 256.0);
  const Step& flush = s.trace.steps.back();
  const AtomicStats sf = atomic_stats(flush);
  EXPECT_EQ(sf.ops, 256);
  EXPECT_EQ(sf.longest_chain, 1);  // one global atomic per bin
  // The slide's kernel needs 256 threads to zero and flush the bins.
  const VariantInfo* v = find_variant("cs121.hist_shared");
  LaunchConfig bad{128, 4};
  EXPECT_THROW(sim::simulate(*v, in, bad, PatternParams{}, 0), std::runtime_error);
}

TEST(AtomicsSim, FiltersEqualTheReferenceOnAwkwardSizes) {
  for (std::int64_t n : {1LL, 33LL, 1000LL, 4097LL, 100003LL, 1LL << 18}) {
    for (double keep : {0.0, 0.5, 1.0}) {
      Input in;
      ASSERT_EQ(make_filter_input(n, keep, std::uint64_t(n) + 1, in), "");
      const auto want = to_doubles(filter_reference(in));
      for (const char* id : {"cs121.filter_global", "cs121.filter_shared", "cs121.filter_warp_agg", "cs121.filter_scan",
                             "cs121.filter_scan_vec", "cub.select"}) {
        SCOPED_TRACE(std::string(id) + " n=" + std::to_string(n) + " keep=" + std::to_string(keep));
        const auto o = run_model(id, in, 0);
        // Under the stated interleaving (blocks and atomics in order) even the atomic filters keep the order.
        EXPECT_EQ(compare_exact(o.output, want), "");
        EXPECT_EQ(compare_multiset(o.output, want), "");
        EXPECT_EQ(o.result, double(want.size()));
      }
    }
  }
}

TEST(AtomicsSim, FilterGlobalIsOneAtomicPerKeptValue) {
  const Input in = ints({5, -1, 2, 0, 9, 9, -3, 4});
  const auto o = run_model("cs121.filter_global", in, 0, 32);
  ASSERT_EQ(o.trace.steps.size(), 3u);
  const AtomicStats s = atomic_stats(o.trace.steps[1]);
  EXPECT_EQ(s.ops, 5);
  EXPECT_EQ(s.longest_chain, 5);
  EXPECT_EQ(o.trace.steps[1].working_threads, (std::vector<int>{0, 2, 4, 5, 7}));
  // Stores go to slots 0..4 in thread order.
  std::vector<std::int64_t> slots;
  for (const auto& op : o.trace.steps[2].ops) slots.push_back(op.address);
  EXPECT_EQ(slots, (std::vector<std::int64_t>{0, 1, 2, 3, 4}));
}

TEST(AtomicsSim, WarpAggregatedLeaders) {
  // Warp 0: lanes 3 and 5 positive; warp 1: none; warp 2: lanes 0..31 all positive.
  std::vector<std::int32_t> v(96, -1);
  v[3] = 10;
  v[5] = 11;
  for (int t = 64; t < 96; ++t) v[std::size_t(t)] = t;
  const auto o = run_model("cs121.filter_warp_agg", ints(v), 0, 96);
  const Step* atomic = nullptr;
  for (const auto& s : o.trace.steps)
    if (s.phase == TracePhase::Atomic) atomic = &s;
  ASSERT_NE(atomic, nullptr);
  ASSERT_EQ(atomic->ops.size(), 2u);     // one leader per warp with kept lanes
  EXPECT_EQ(atomic->ops[0].thread, 3);   // __ffs(mask) - 1
  EXPECT_EQ(atomic->ops[0].value, 2.0);  // __popc(mask)
  EXPECT_EQ(atomic->ops[1].thread, 64);
  EXPECT_EQ(atomic->ops[1].value, 32.0);
  EXPECT_EQ(atomic_stats(*atomic).longest_chain, 2);
  // Lane 5 of warp 0 writes slot 0 + popc(mask below lane 5) = 1.
  const Step& store = o.trace.steps.back();
  EXPECT_EQ(store.ops.at(1).thread, 5);
  EXPECT_EQ(store.ops.at(1).address, 1);
  EXPECT_EQ(o.result, 34.0);
}

TEST(AtomicsSim, FilterSharedReservesOncePerRound) {
  Input in;
  ASSERT_EQ(make_filter_input(64 * kFilterSharedItems, 0.5, 5, in), "");
  const auto o = run_model("cs121.filter_shared", in, 0, 64);
  ASSERT_EQ(o.trace.steps.size(), std::size_t(3 * kFilterSharedItems));
  int global_atomics = 0;
  for (const auto& s : o.trace.steps)
    for (const auto& op : s.ops) global_atomics += op.kind == OpKind::Atomic && op.space == Space::Global;
  EXPECT_EQ(global_atomics, kFilterSharedItems);  // thread 0, once per round
}

TEST(AtomicsSim, FilterScanTilesInOrder) {
  Input in;
  ASSERT_EQ(make_filter_input(3 * 4096 + 5, 0.5, 9, in), "");
  const auto o = run_model("cs121.filter_scan", in, 2);
  ASSERT_EQ(o.trace.steps.size(), 5u);
  EXPECT_EQ(o.trace.steps[3].phase, TracePhase::LookBack);
  // The traced tile's first store goes right after everything tiles 0 and 1 kept.
  std::int64_t kept_before = 0;
  for (std::int64_t i = 0; i < 2 * 4096; ++i) kept_before += in.i32[std::size_t(i)] > 0;
  std::int64_t first_slot = -1;
  for (const auto& op : o.trace.steps[4].ops)
    if (first_slot < 0 || op.address < first_slot) first_slot = op.address;
  EXPECT_EQ(first_slot, kept_before);
  const VariantInfo* v = find_variant("cs121.filter_scan");
  EXPECT_THROW(sim::simulate(*v, in, LaunchConfig{128, 4}, PatternParams{}, 0), std::runtime_error);
}

TEST(AtomicsSim, FilterScanVecStagesTheTileAndStoresAlignedQuads) {
  for (int block : {128, 256}) {
    SCOPED_TRACE(block);
    const std::int64_t tile = std::int64_t(block) * kFilterScanVecItems;
    // The first seed from 21 + block whose traced tile starts off a 16-byte boundary (the case under test).
    Input in;
    std::int64_t kept_before = 0, kept_here = 0;
    for (std::uint64_t seed = 21 + std::uint64_t(block); seed < 121 + std::uint64_t(block); ++seed) {
      ASSERT_EQ(make_filter_input(3 * tile + 5, 0.5, seed, in), "");
      kept_before = 0;
      for (std::int64_t i = 0; i < 2 * tile; ++i) kept_before += in.i32[std::size_t(i)] > 0;
      if (kept_before % 4 != 0) break;
    }
    ASSERT_NE(kept_before % 4, 0) << "no seed in 100 gives a traced tile off a 16-byte boundary";
    for (std::int64_t i = 2 * tile; i < 3 * tile; ++i) kept_here += in.i32[std::size_t(i)] > 0;
    const auto o = run_model("cs121.filter_scan_vec", in, 2, block);
    ASSERT_EQ(o.trace.steps.size(), 6u);
    EXPECT_EQ(o.trace.steps[3].phase, TracePhase::LookBack);
    EXPECT_EQ(o.trace.steps[4].phase, TracePhase::Stage);
    EXPECT_EQ(o.trace.block_result, double(kept_here));
    // The store step writes dst[kept_before ..] exactly once each, in input order, with the tile's kept values.
    std::map<std::int64_t, double> written;
    for (const auto& op : o.trace.steps[5].ops) {
      EXPECT_EQ(op.kind, OpKind::Store);
      EXPECT_TRUE(written.emplace(op.address, op.value).second) << op.address;
    }
    ASSERT_EQ(std::int64_t(written.size()), kept_here);
    EXPECT_EQ(written.begin()->first, kept_before);
    std::int64_t slot = kept_before;
    for (std::int64_t i = 2 * tile; i < 3 * tile; ++i)
      if (in.i32[std::size_t(i)] > 0) {
        EXPECT_EQ(written[slot], double(in.i32[std::size_t(i)])) << slot;
        ++slot;
      }
    // Threads store whole quads: every thread's addresses share one 16-byte quad per access.
    std::map<std::pair<int, int>, std::int64_t> quad;
    for (const auto& op : o.trace.steps[5].ops) {
      const auto key = std::make_pair(op.thread, op.access);
      const auto it = quad.emplace(key, op.address / 4).first;
      EXPECT_EQ(it->second, op.address / 4);
    }
  }
  const VariantInfo* v = find_variant("cs121.filter_scan_vec");
  Input in;
  ASSERT_EQ(make_filter_input(1000, 0.5, 3, in), "");
  EXPECT_THROW(sim::simulate(*v, in, LaunchConfig{64, 1}, PatternParams{}, 0), std::runtime_error);
  LaunchConfig launch;
  EXPECT_NE(resolve_launch(*v, in.n(), in.type, LaunchConfig{512, 0}, DeviceShape{}, launch), "");
  EXPECT_NE(resolve_launch(*v, in.n(), in.type, LaunchConfig{192, 0}, DeviceShape{}, launch), "");
}

TEST(AtomicsSim, EveryModelTakesUnderTwoSecondsAt2To22) {
  const std::int64_t n = std::int64_t(1) << 22;
  Input b, f;
  ASSERT_EQ(make_input("random", n, DType::UInt8, 1, b), "");
  ASSERT_EQ(make_filter_input(n, 0.5, 1, f), "");
  for (const auto& v : all_variants()) {
    if (v.pattern != PatternKind::Atomics) continue;
    const Input& in = v.rules.bytes_input ? b : f;
    const auto t0 = std::chrono::steady_clock::now();
    const auto o = run_model(v.id, in, 0);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_LT(s, 2.0) << v.id;
    EXPECT_GT(o.launches, 0) << v.id;
  }
}
