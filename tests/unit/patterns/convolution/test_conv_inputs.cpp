// Masks and inputs of the convolution lesson: box, gauss, files, text grids and PNG images.
#include <gtest/gtest.h>
#include <stb/stb_image_write.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <numeric>

#include "patterns/convolution/conv_inputs.hpp"

using namespace ws;

namespace {

std::string temp_file(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "ws_conv_" + name;
  std::ofstream(path) << text;
  return path;
}

double sum(const std::vector<float>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

}  // namespace

TEST(ConvInputs, BoxAndGaussMasks) {
  for (int w : {1, 3, 5, 7, 9, 15}) {
    std::vector<float> m;
    int width = w;
    ASSERT_EQ(make_conv_mask("box", 2, width, m), "");
    EXPECT_EQ(m.size(), std::size_t(w * w));
    EXPECT_NEAR(sum(m), 1.0, 1e-5);
    ASSERT_EQ(make_conv_mask("gauss", 1, width, m), "");
    ASSERT_EQ(m.size(), std::size_t(w));
    EXPECT_NEAR(sum(m), 1.0, 1e-5);
    for (int k = 0; k < w; ++k) EXPECT_FLOAT_EQ(m[std::size_t(k)], m[std::size_t(w - 1 - k)]);  // symmetric
    for (int k = 0; k < w / 2; ++k) EXPECT_LT(m[std::size_t(k)], m[std::size_t(k + 1)]);        // peak in the middle
    std::vector<float> m2;
    ASSERT_EQ(make_conv_mask("gauss", 2, width, m2), "");
    EXPECT_NEAR(sum(m2), 1.0, 1e-5);
    // Separable: M[i][j] = g(i) g(j) up to normalisation (the 1D one sums to 1 already).
    EXPECT_NEAR(m2[std::size_t(w / 2 * w)], m[std::size_t(w / 2)] * m[0], 1e-6);
  }
}

TEST(ConvInputs, MaskWidthErrors) {
  std::vector<float> m;
  int w = 4;
  EXPECT_EQ(make_conv_mask("box", 1, w, m), "mask width 4 is not an odd number from 1 to 15");
  w = 17;
  EXPECT_NE(make_conv_mask("gauss", 2, w, m), "");
  w = 5;
  EXPECT_NE(make_conv_mask("box", 3, w, m), "");
}

TEST(ConvInputs, MaskFromFileSetsTheWidth) {
  std::vector<float> m;
  int w = 5;
  ASSERT_EQ(make_conv_mask(temp_file("m3.txt", "0 1 0\n1 -4 1\n0 1 0\n"), 2, w, m), "");
  EXPECT_EQ(w, 3);
  EXPECT_EQ(m[4], -4.0f);
  w = 5;
  ASSERT_EQ(make_conv_mask(temp_file("m7.txt", "1,2,3,4,3,2,1"), 1, w, m), "");
  EXPECT_EQ(w, 7);
  EXPECT_NE(make_conv_mask(temp_file("m8.txt", "1 2 3 4 5 6 7 8"), 2, w, m).find("not w x w"), std::string::npos);
  EXPECT_NE(make_conv_mask(temp_file("m4.txt", "1 2 3 4"), 1, w, m).find("not an odd number"), std::string::npos);
  EXPECT_NE(make_conv_mask("/nonexistent/mask.txt", 1, w, m).find("cannot open"), std::string::npos);
}

TEST(ConvInputs, GeneratedInputs) {
  ConvInput in;
  ASSERT_EQ(load_conv_input("sequence", 2, 5, 3, 1, in), "");
  EXPECT_EQ(in.rows, 3);
  EXPECT_EQ(in.cols, 5);
  ASSERT_EQ(in.data.size(), 15u);
  EXPECT_EQ(in.data[14], 14.0f);
  ASSERT_EQ(load_conv_input("random", 1, 1000, 0, 3, in), "");
  EXPECT_EQ(in.rows, 0);
  EXPECT_EQ(in.cols, 1000);
  for (float x : in.data) EXPECT_TRUE(x >= 0.0f && x < 1.0f);
  EXPECT_EQ(load_conv_input("ones", 2, 5, 0, 1, in), "--height must be >= 1");
  EXPECT_EQ(load_conv_input("ones", 1, 0, 0, 1, in), "--width must be >= 1");
  EXPECT_EQ(load_conv_input("ones", 2, 1 << 16, 1 << 15, 1, in), "the input has more than 2^30 elements");
}

TEST(ConvInputs, TextFiles) {
  ConvInput in;
  const std::string grid = temp_file("g.txt", "1 2 3\n\n4,5,6\n");
  ASSERT_EQ(load_conv_input(grid, 2, 0, 0, 1, in), "");
  EXPECT_EQ(in.rows, 2);
  EXPECT_EQ(in.cols, 3);
  EXPECT_EQ(in.data[3], 4.0f);
  EXPECT_NE(load_conv_input(grid, 2, 4, 0, 1, in).find("--width 4 disagrees"), std::string::npos);
  ASSERT_EQ(load_conv_input(grid, 1, 0, 0, 1, in), "");  // 1D: all numbers in order
  EXPECT_EQ(in.cols, 6);
  const std::string ragged = temp_file("r.txt", "1 2 3\n4 5\n");
  const std::string err = load_conv_input(ragged, 2, 0, 0, 1, in);
  EXPECT_NE(err.find(":2: row has 2 values, the first row 3"), std::string::npos) << err;
  EXPECT_NE(load_conv_input(temp_file("x.txt", "1 x"), 2, 0, 0, 1, in).find("'x' is not a number"), std::string::npos);
}

TEST(ConvInputs, PngImageIsReadAsGrey) {
  const std::string path = ::testing::TempDir() + "ws_conv_img.png";
  const unsigned char pixels[6] = {0, 50, 100, 150, 200, 255};  // 3 wide, 2 high, one channel
  ASSERT_NE(stbi_write_png(path.c_str(), 3, 2, 1, pixels, 3), 0);
  ConvInput in;
  ASSERT_EQ(load_conv_input(path, 2, 0, 0, 1, in), "");
  EXPECT_EQ(in.rows, 2);
  EXPECT_EQ(in.cols, 3);
  ASSERT_EQ(in.data.size(), 6u);
  EXPECT_EQ(in.data[1], 50.0f);
  EXPECT_EQ(in.data[5], 255.0f);
  HostVector<float> v;
  std::int64_t r = 0, c = 0;
  EXPECT_NE(read_image_grey(temp_file("notimg.png", "hello"), v, r, c).find("cannot read image"), std::string::npos);
}
