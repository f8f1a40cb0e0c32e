#include <gtest/gtest.h>

#include <climits>
#include <cmath>

#include "patterns/reduction/reference.hpp"

using namespace ws;

TEST(Reference, Int32SumWrapsLikeTheGpu) {
  Input in;
  in.type = DType::Int32;
  in.i32 = {INT_MAX, 1};
  EXPECT_EQ(cpu_reference(ReduceOp::Sum, in), double(INT_MIN));
  in.i32 = {-5, 3, 7};
  EXPECT_EQ(cpu_reference(ReduceOp::Sum, in), 5);
  EXPECT_EQ(cpu_reference(ReduceOp::Max, in), 7);
}

TEST(Reference, Float32ToleranceScalesWithTheInput) {
  Input in;
  in.type = DType::Float32;
  in.f32.assign(1 << 20, 0.5f);
  const double ref = cpu_reference(ReduceOp::Sum, in);
  EXPECT_EQ(ref, 524288.0);
  EXPECT_TRUE(results_match(DType::Float32, ref + 1.0, ref, in));  // rounding-sized error
  EXPECT_FALSE(results_match(DType::Float32, ref / 2, ref, in));   // stagnated accumulator
  EXPECT_FALSE(results_match(DType::Int32, 5.0, 6.0, in));
  EXPECT_FALSE(results_match(DType::Float32, std::nan(""), ref, in));
}

TEST(Reference, FormatsValues) {
  EXPECT_EQ(format_value(DType::Int32, -42), "-42");
  EXPECT_EQ(format_value(DType::Float32, 0.5), "0.5");
}
