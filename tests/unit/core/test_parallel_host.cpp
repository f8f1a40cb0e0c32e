// Host-side parallelism (parallel.hpp): generated inputs, CPU references and checks give the same
// answer with 1 thread and with many, since chunks are fixed by n, never by the thread count.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "counter_random.hpp"
#include "inputs.hpp"
#include "parallel.hpp"
#include "patterns.hpp"
#include "patterns/atomics/reference.hpp"
#include "patterns/convolution/reference.hpp"
#include "patterns/reduction/reference.hpp"
#include "patterns/scan/reference.hpp"

using namespace ws;

namespace {

/// Sets the host thread count for one scope; 0 (the hardware's) again afterwards.
struct Threads {
  explicit Threads(int k) { set_host_threads(k); }
  ~Threads() { set_host_threads(0); }
};

/// Runs f() with 1 thread and with 7 threads (more than this machine's cores: chunks interleave) and
/// returns both results.
template <class F>
auto with_1_and_7(F f) {
  decltype(f()) one, many;
  {
    Threads t(1);
    one = f();
  }
  {
    Threads t(7);
    many = f();
  }
  return std::make_pair(one, many);
}

const std::vector<std::int64_t> kSizes = {1, 31, 65535, 65537, 3 * 65536 + 11, 1000003};

bool same_bits(ConstSpan<double> a, ConstSpan<double> b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

}  // namespace

TEST(ParallelHost, ChunksCoverEveryIndexOnceAndRethrow) {
  Threads t(5);
  std::vector<int> hits(100003, 0);
  parallel_chunks(std::int64_t(hits.size()), 1000, [&](std::int64_t b, std::int64_t e, std::int64_t k) {
    EXPECT_EQ(b, k * 1000);
    for (std::int64_t i = b; i < e; ++i) ++hits[std::size_t(i)];
  });
  for (int h : hits) ASSERT_EQ(h, 1);
  EXPECT_THROW(parallel_chunks(10000, 10,
                               [](std::int64_t b, std::int64_t, std::int64_t) {
                                 if (b == 5000) throw std::runtime_error("chunk failed");
                               }),
               std::runtime_error);
  EXPECT_EQ(parallel_find_first(1000000, [](std::int64_t i) { return i >= 777776 && i % 3 == 0; }), 777777);
  EXPECT_EQ(parallel_find_first(1000000, [](std::int64_t i) { return i % 250000 == 3; }), 3);
  EXPECT_EQ(parallel_find_first(1000, [](std::int64_t) { return false; }), -1);
}

TEST(ParallelHost, GeneratorGivesTheSameNumbersForOneAndManyThreads) {
  for (std::int64_t n : kSizes)
    for (DType type : {DType::Int32, DType::Float32, DType::UInt8})
      for (const char* kind : {"random", "sequence", "ones"}) {
        const auto [a, b] = with_1_and_7([&] {
          Input in;
          EXPECT_EQ(make_input(kind, n, type, 42, in), "");
          return in;
        });
        EXPECT_EQ(a.i32, b.i32) << kind << " n=" << n;
        EXPECT_EQ(a.u8, b.u8) << kind << " n=" << n;
        // The same bits; memcmp may not be given the null data() of an empty vector (UBSan).
        ASSERT_EQ(a.f32.size(), b.f32.size());
        EXPECT_TRUE(a.f32.empty() || std::memcmp(a.f32.data(), b.f32.data(), a.f32.size() * sizeof(float)) == 0)
            << kind << " n=" << n;
        EXPECT_EQ(a.n(), n);
      }
  const auto [fa, fb] = with_1_and_7([] {
    Input in;
    EXPECT_EQ(make_filter_input(1000003, 0.3, 5, in), "");
    return in.i32;
  });
  EXPECT_EQ(fa, fb);
}

TEST(ParallelHost, GeneratedValuesAreCounterBasedAndInRange) {
  Input in;
  ASSERT_EQ(make_input("random", 200000, DType::Int32, 9, in), "");
  // Element i depends on (seed, i) only: a longer input starts with the shorter one.
  Input longer;
  ASSERT_EQ(make_input("random", 300000, DType::Int32, 9, longer), "");
  EXPECT_TRUE(std::equal(in.i32.begin(), in.i32.end(), longer.i32.begin()));
  std::int64_t lo = 0, hi = 0, sum = 0;
  for (std::int32_t x : in.i32) {
    lo += x == -1000;
    hi += x == 1000;
    sum += x;
    ASSERT_GE(x, -1000);
    ASSERT_LE(x, 1000);
  }
  EXPECT_GT(lo, 0);  // both ends are reached (200000 draws of 2001 values: about 100 each)
  EXPECT_GT(hi, 0);
  EXPECT_LT(std::abs(double(sum) / 200000.0), 10.0);  // mean 0 within a few standard errors (577 / sqrt(2e5) = 1.3)
  Input other;
  ASSERT_EQ(make_input("random", 200000, DType::Int32, 10, other), "");
  EXPECT_NE(in.i32, other.i32);  // another seed, another stream
  Input f;
  ASSERT_EQ(make_input("random", 100000, DType::Float32, 3, f), "");
  for (float x : f.f32) {
    ASSERT_GE(x, 0.0f);
    ASSERT_LT(x, 1.0f);
  }
  // The kept fraction is what was asked for: 1..1000 with probability keep, -1000..0 otherwise.
  Input k;
  ASSERT_EQ(make_filter_input(400000, 0.25, 3, k), "");
  std::int64_t kept = 0;
  for (std::int32_t x : k.i32) {
    kept += x > 0;
    ASSERT_GE(x, -1000);
    ASSERT_LE(x, 1000);
  }
  EXPECT_NEAR(double(kept) / 400000.0, 0.25, 0.005);
}

TEST(ParallelHost, ReferencesEqualTheirSingleThreadedRuns) {
  for (std::int64_t n : kSizes) {
    Input i32, f32, u8;
    ASSERT_EQ(make_input("random", n, DType::Int32, 3, i32), "");
    ASSERT_EQ(make_input("random", n, DType::Float32, 3, f32), "");
    ASSERT_EQ(make_input("random", n, DType::UInt8, 3, u8), "");
    for (ReduceOp op : {ReduceOp::Sum, ReduceOp::Max}) {
      for (const Input* in : {&i32, &f32, &u8}) {
        const auto [a, b] = with_1_and_7([&] { return cpu_reference(op, *in); });
        EXPECT_EQ(0, std::memcmp(&a, &b, sizeof a)) << "n=" << n;
      }
    }
    // int32 sums wrap: the chunked sum equals the plain sequential loop exactly.
    std::uint32_t s = 0;
    for (std::int32_t x : i32.i32) s += std::uint32_t(x);
    EXPECT_EQ(cpu_reference(ReduceOp::Sum, i32), double(std::int32_t(s)));
    const auto [abs_a, abs_b] = with_1_and_7([&] { return abs_sum(f32); });
    EXPECT_EQ(abs_a, abs_b);
    for (bool exclusive : {false, true})
      for (const Input* in : {&i32, &f32}) {
        const auto [a, b] = with_1_and_7([&] { return reference_scan(*in, exclusive).values; });
        EXPECT_TRUE(same_bits(a, b)) << "scan n=" << n;
        const auto [sa, sb] = with_1_and_7([&] { return scan_abs_prefix(*in, exclusive); });
        EXPECT_TRUE(same_bits(sa, sb)) << "scan scale n=" << n;
      }
    // The int32 scan equals the sequential loop (wrapping adds), element by element.
    ArrayOutput seq;
    sequential_scan(i32, false, seq);
    EXPECT_TRUE(same_bits(seq.values, reference_scan(i32, false).values)) << n;
    const auto [ha, hb] = with_1_and_7([&] { return histogram_reference(u8); });
    EXPECT_EQ(ha, hb);
    const auto [fa, fb] = with_1_and_7([&] { return filter_reference(i32); });
    EXPECT_EQ(fa, fb);
    std::vector<std::int32_t> kept;
    for (std::int32_t x : i32.i32)
      if (x > 0) kept.push_back(x);
    EXPECT_EQ(fa, kept);  // input order, as the sequential filter
    const std::vector<float> mask = {0.25f, -0.5f, 1.0f, 0.125f, 2.0f};
    const auto [ca, cb] = with_1_and_7([&] { return conv1d_reference(f32.f32, mask).expected; });
    EXPECT_TRUE(same_bits(ca, cb)) << "conv1d n=" << n;
  }
  Input img;
  ASSERT_EQ(make_input("random", 97 * 131, DType::Float32, 4, img), "");
  std::vector<float> mask(25);
  for (int i = 0; i < 25; ++i) mask[std::size_t(i)] = float(i % 7) * 0.25f - 0.5f;
  const auto [a, b] = with_1_and_7([&] { return conv2d_reference(img.f32, 97, 131, mask, 5).expected; });
  EXPECT_TRUE(same_bits(a, b));
  // The row-by-tap loop adds each element's terms in the formula's order: equal to the direct loop.
  const ConvExpected ref = conv2d_reference(img.f32, 97, 131, mask, 5);
  for (std::int64_t y : {0, 1, 48, 96})
    for (std::int64_t x : {0, 2, 65, 130}) {
      double s = 0;
      for (int i = 0; i < 5; ++i)
        for (int j = 0; j < 5; ++j) {
          const std::int64_t yy = y - 2 + i, xx = x - 2 + j;
          if (yy < 0 || yy >= 97 || xx < 0 || xx >= 131) continue;
          s += double(img.f32[std::size_t(yy * 131 + xx)]) * double(mask[std::size_t(i * 5 + j)]);
        }
      EXPECT_EQ(ref.expected[std::size_t(y * 131 + x)], s) << y << "," << x;
    }
}

TEST(ParallelHost, ChecksFindTheFirstMismatchWhateverTheThreads) {
  ArrayOutput want, got;
  want.values.resize(500000);
  for (std::size_t i = 0; i < want.values.size(); ++i) want.values[i] = double(i % 1000);
  got = want;
  got.values[400001] = -1;
  got.values[123457] = -2;
  const auto [a, b] = with_1_and_7([&] { return compare_outputs(DType::Int32, got, want); });
  EXPECT_EQ(a, "out[123457] = -2, expected 457");
  EXPECT_EQ(a, b);
  const auto [ea, eb] = with_1_and_7([&] { return compare_exact(got.values, want.values); });
  EXPECT_EQ(ea, "out[123457] = -2, expected 457");
  EXPECT_EQ(ea, eb);
}

TEST(ParallelHost, MultisetCheckByCountingNamesTheSmallestDifferingValue) {
  std::vector<double> want, got;
  for (std::int64_t i = 0; i < 300000; ++i) want.push_back(double(1 + (i * 7919) % 1000));
  got = want;
  std::reverse(got.begin(), got.end());
  const auto [same_a, same_b] = with_1_and_7([&] { return compare_multiset(got, want); });
  EXPECT_EQ(same_a, "");
  EXPECT_EQ(same_b, "");
  // Two values swapped for others: the smallest whose counts differ is named, with both counts.
  const std::int64_t c5 = std::count(want.begin(), want.end(), 5.0);
  *std::find(got.begin(), got.end(), 9.0) = 5.0;
  const auto [m1, m7] = with_1_and_7([&] { return compare_multiset(got, want); });
  EXPECT_EQ(m1, "as multisets: 5 appears " + std::to_string(c5 + 1) + " times in out, " + std::to_string(c5) +
                    " times in the reference");
  EXPECT_EQ(m1, m7);
  // Values too far apart to count (a file input's kept values) are compared by sorting: same messages.
  std::vector<double> wide_want = {2e9, 1.0, -2e9, 7.0}, wide_got = {1.0, 7.0, 2e9, 2e9};
  EXPECT_EQ(compare_multiset(wide_got, wide_want),
            "as multisets: -2000000000 appears 0 times in out, 1 times in the reference");
  EXPECT_EQ(compare_multiset(std::vector<double>{1.0, 2.0}, std::vector<double>{1.0}),
            "out has 2 elements, expected 1");
}
