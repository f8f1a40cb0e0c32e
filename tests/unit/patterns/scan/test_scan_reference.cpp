// CPU reference of the scan ("CS 677 Lecture 6", Mordohai): the slides' own examples, wrapping, float.
#include <gtest/gtest.h>

#include <climits>
#include <cmath>

#include "patterns/scan/reference.hpp"

using namespace ws;

namespace {
Input ints(std::vector<std::int32_t> v) {
  Input in;
  in.type = DType::Int32;
  in.kind = "test";
  in.i32 = std::move(v);
  return in;
}
}  // namespace

TEST(ScanReference, SlideDefinitionExample) {
  // "(Inclusive) Prefix-Sum (Scan) Definition": [3 1 7 0 4 1 6 3] -> [3 4 11 11 15 16 22 25].
  const Input in = ints({3, 1, 7, 0, 4, 1, 6, 3});
  EXPECT_EQ(reference_scan(in, false).values, (std::vector<double>{3, 4, 11, 11, 15, 16, 22, 25}));
  EXPECT_EQ(reference_scan(in, true).values, (std::vector<double>{0, 3, 4, 11, 11, 15, 16, 22}));
  EXPECT_EQ(reference_scan(in, false).cols, 8);
  EXPECT_EQ(reference_scan(in, false).rows, 0);
}

TEST(ScanReference, BreadExample) {
  // "A Inclusive Scan Application Example": cuts of a 100-inch bread, 39 inches left.
  const Input in = ints({3, 5, 2, 7, 28, 4, 3, 0, 8, 1});
  const ArrayOutput out = reference_scan(in, false);
  EXPECT_EQ(out.values, (std::vector<double>{3, 8, 10, 17, 45, 49, 52, 52, 60, 61}));
  EXPECT_EQ(100 - out.values.back(), 39);
}

TEST(ScanReference, Int32WrapsLikeTheGpu) {
  const Input in = ints({INT_MAX, 1, 1});
  EXPECT_EQ(reference_scan(in, false).values, (std::vector<double>{INT_MAX, INT_MIN, INT_MIN + 1}));
}

TEST(ScanReference, Float32AndSequentialVariant) {
  Input in;
  make_input("random", 100000, DType::Float32, 3, in);
  const ArrayOutput ref = reference_scan(in, false);
  ArrayOutput seq;
  sequential_scan(in, false, seq);
  ASSERT_EQ(seq.values.size(), ref.values.size());
  // The sequential variant rounds a one-pass double sum to float; the reference sums in double chunks:
  // they differ by the float rounding only.
  for (std::size_t i = 0; i < ref.values.size(); i += 997)
    EXPECT_NEAR(seq.values[i], ref.values[i], std::ldexp(ref.values[i], -24)) << i;
  const HostVector<double> s = scan_abs_prefix(in, true);
  EXPECT_EQ(s[0], 0.0);
  EXPECT_NEAR(s.back() + std::fabs(in.f32.back()), ref.values.back(), 1e-6 * ref.values.back());  // inputs are >= 0
  EXPECT_TRUE(scan_abs_prefix(ints({1, 2}), false).empty());  // int32 needs no scale
}
