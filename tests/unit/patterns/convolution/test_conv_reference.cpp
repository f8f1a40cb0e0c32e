// CPU references of the convolution lesson, "CS 677 Lecture 6", Mordohai.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "patterns/convolution/reference.hpp"

using namespace ws;

namespace {

// Slide "2D Convolution - Inside Cells": the 7x7 N and the 5x5 M.
const std::vector<float> kSlideN = {1, 2, 3, 4, 5, 6, 7,  //
                                    2, 3, 4, 5, 6, 7, 8,  //
                                    3, 4, 5, 6, 7, 8, 9,  //
                                    4, 5, 6, 7, 8, 5, 6,  //
                                    5, 6, 7, 8, 5, 6, 7,  //
                                    6, 7, 8, 9, 0, 1, 2,  //
                                    7, 8, 9, 0, 1, 2, 3};
const std::vector<float> kSlideM = {1, 2, 3, 2, 1,  //
                                    2, 3, 4, 3, 2,  //
                                    3, 4, 5, 4, 3,  //
                                    2, 3, 4, 3, 2,  //
                                    1, 2, 3, 2, 1};

}  // namespace

TEST(ConvReference, SlideExampleP22Is321) {
  const ConvExpected e = conv2d_reference(kSlideN, 7, 7, kSlideM, 5);
  ASSERT_EQ(e.expected.size(), 49u);
  EXPECT_EQ(e.terms, 25);
  EXPECT_EQ(e.expected[2 * 7 + 2], 321.0);
  // The corner uses ghost cells 0: N[0..2][0..2] times M[2..4][2..4] = 22 + 25 + 22 (by hand).
  EXPECT_EQ(e.expected[0], 69.0);
  EXPECT_EQ(e.scale[0], 69.0);  // all terms positive: the scale is the sum itself
}

TEST(ConvReference, OneDimensionalGhostCellsAreZero) {
  // N = 1..7, M = 3 4 5 4 3 (the textbook's 1D example): P[2] = 3 + 8 + 15 + 16 + 15 = 57,
  // P[3] = 6 + 12 + 20 + 20 + 18 = 76, P[1] = 0*3 + 4 + 10 + 12 + 12 = 38 (one ghost cell).
  const ConvExpected e = conv1d_reference(std::vector<float>{1, 2, 3, 4, 5, 6, 7}, std::vector<float>{3, 4, 5, 4, 3});
  ASSERT_EQ(e.expected.size(), 7u);
  EXPECT_EQ(e.expected[2], 57.0);
  EXPECT_EQ(e.expected[3], 76.0);
  EXPECT_EQ(e.expected[1], 38.0);
  EXPECT_EQ(e.expected[0], 1 * 5 + 2 * 4 + 3 * 3);
  EXPECT_EQ(e.expected[6], 5 * 3 + 6 * 4 + 7 * 5);
}

TEST(ConvReference, RejectsBadMasks) {
  EXPECT_THROW(conv1d_reference(std::vector<float>{1, 2, 3}, std::vector<float>{1, 1}), std::invalid_argument);
  EXPECT_THROW(conv1d_reference(std::vector<float>{1, 2, 3}, std::vector<float>{}), std::invalid_argument);
  EXPECT_THROW(conv2d_reference(kSlideN, 7, 7, kSlideM, 3), std::invalid_argument);
  EXPECT_THROW(conv2d_reference(kSlideN, 7, 6, kSlideM, 5), std::invalid_argument);
}

TEST(ConvReference, FloatAccumulationInKernelOrderMatches) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  const std::int64_t rows = 37, cols = 53;
  const int w = 9;
  std::vector<float> n(std::size_t(rows * cols)), m(std::size_t(w * w));
  for (auto& x : n) x = d(rng);
  for (auto& x : m) x = d(rng);
  const ConvExpected e = conv2d_reference(n, rows, cols, m, w);
  // The kernels' order: a float accumulator, row by row of the mask, ghost terms skipped.
  std::vector<double> got(n.size());
  for (std::int64_t y = 0; y < rows; ++y)
    for (std::int64_t x = 0; x < cols; ++x) {
      float acc = 0;
      for (int i = 0; i < w; ++i)
        for (int j = 0; j < w; ++j) {
          const std::int64_t yy = y - w / 2 + i, xx = x - w / 2 + j;
          if (yy >= 0 && yy < rows && xx >= 0 && xx < cols)
            acc += n[std::size_t(yy * cols + xx)] * m[std::size_t(i * w + j)];
        }
      got[std::size_t(y * cols + x)] = acc;
    }
  EXPECT_EQ(compare_conv_output(got, e, rows, cols), "");
  got[std::size_t(3 * cols + 4)] += 1e-3;  // far above float rounding of 81 terms of size <= 1
  EXPECT_EQ(compare_conv_output(got, e, rows, cols).rfind("out[3][4] = ", 0), 0u);
}

TEST(ConvReference, MismatchMessages) {
  const ConvExpected e = conv1d_reference(std::vector<float>{1, 2, 3, 4, 5, 6, 7}, std::vector<float>{3, 4, 5, 4, 3});
  std::vector<double> got = e.expected.to_vector();
  EXPECT_EQ(compare_conv_output(got, e, 0, 7), "");
  got[3] = 75;
  EXPECT_EQ(compare_conv_output(got, e, 0, 7), "out[3] = 75, expected 76");
  got.pop_back();
  EXPECT_EQ(compare_conv_output(got, e, 0, 7), "output has 6 elements, expected 7");
  EXPECT_FALSE(conv_element_matches(std::nan(""), 1.0, 1.0, 5));
  EXPECT_TRUE(conv_element_matches(0.0, 0.0, 0.0, 5));
}
