#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "inputs.hpp"
#include "patterns/reduction/reference.hpp"

using namespace ws;

namespace {
std::string write_temp(const std::string& name, const std::string& text) {
  std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}
}  // namespace

TEST(Inputs, SequenceHasTheClosedFormSum) {
  for (std::int64_t n : {1, 15, 16, 17, 1000, 1 << 20}) {
    Input in;
    ASSERT_EQ(make_input("sequence", n, DType::Int32, 1, in), "");
    EXPECT_EQ(cpu_reference(ReduceOp::Sum, in), double(sequence_closed_form_sum(n))) << n;
  }
  EXPECT_EQ(sequence_closed_form_sum(16), 120);
  EXPECT_EQ(sequence_closed_form_sum(4096), 4096 * 4095 / 2);
  EXPECT_EQ(sequence_closed_form_sum(4098), 4096 * 4095 / 2 + 1);
  // No value repeats inside any block window (at most 2048 elements), and the default n sums exactly in int32.
  Input in;
  ASSERT_EQ(make_input("sequence", 2048, DType::Int32, 1, in), "");
  EXPECT_EQ(in.i32[1023], 1023);
  EXPECT_EQ(in.i32[2047], 2047);
  EXPECT_LT(sequence_closed_form_sum(std::int64_t(1) << 20), std::int64_t(2147483647));
  ASSERT_EQ(make_input("sequence", 1 << 20, DType::Int32, 1, in), "");
  EXPECT_EQ(cpu_reference(ReduceOp::Sum, in), 2146959360.0);
}

TEST(Inputs, OnesAndRandom) {
  Input ones, a, b, c;
  ASSERT_EQ(make_input("ones", 1001, DType::Float32, 1, ones), "");
  EXPECT_EQ(cpu_reference(ReduceOp::Sum, ones), 1001.0);
  ASSERT_EQ(make_input("random", 5000, DType::Int32, 7, a), "");
  ASSERT_EQ(make_input("random", 5000, DType::Int32, 7, b), "");
  ASSERT_EQ(make_input("random", 5000, DType::Int32, 8, c), "");
  EXPECT_EQ(a.i32, b.i32);
  EXPECT_NE(a.i32, c.i32);
  for (auto x : a.i32) ASSERT_TRUE(x >= -1000 && x <= 1000);
  EXPECT_NE(make_input("zeros", 10, DType::Int32, 1, a), "");
}

TEST(Inputs, ReadsTextFiles) {
  Input in;
  auto p = write_temp("ok.txt", "1, 2,3\n4\t5  6\n");
  ASSERT_EQ(read_input_file(p, 0, DType::Int32, in), "");
  EXPECT_EQ(in.n(), 6);
  EXPECT_EQ(cpu_reference(ReduceOp::Sum, in), 21);
  ASSERT_EQ(read_input_file(p, 4, DType::Int32, in), "");
  EXPECT_EQ(in.n(), 4);
  EXPECT_NE(read_input_file(p, 7, DType::Int32, in).find("fewer than n"), std::string::npos);
  ASSERT_EQ(read_input_file(write_temp("f.txt", "0.5 1.25\n"), 0, DType::Float32, in), "");
  EXPECT_DOUBLE_EQ(cpu_reference(ReduceOp::Sum, in), 1.75);
}

TEST(Inputs, FileErrorsNameTheProblem) {
  Input in;
  EXPECT_NE(read_input_file("/nonexistent/x.txt", 0, DType::Int32, in).find("cannot open"), std::string::npos);
  EXPECT_NE(read_input_file(write_temp("empty.txt", "\n \n"), 0, DType::Int32, in).find("no numbers"),
            std::string::npos);
  auto bad = read_input_file(write_temp("bad.txt", "1 2\n3 x4\n"), 0, DType::Int32, in);
  EXPECT_NE(bad.find(":2:"), std::string::npos) << bad;
  EXPECT_NE(bad.find("x4"), std::string::npos);
  EXPECT_NE(read_input_file(write_temp("frac.txt", "1.5"), 0, DType::Int32, in).find("not an integer"),
            std::string::npos);
  EXPECT_NE(read_input_file(write_temp("big.txt", "3000000000"), 0, DType::Int32, in).find("int32"), std::string::npos);
  EXPECT_NE(read_input_file(write_temp("nan.txt", "nan"), 0, DType::Float32, in).find("finite"), std::string::npos);
}
