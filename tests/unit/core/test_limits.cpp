// Size and memory limits: files are checked before they are read, requests before they allocate, and
// an out-of-memory failure is told in words.
#include <gtest/gtest.h>
#include <stb_image_write.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <new>

#include "inputs.hpp"
#include "limits.hpp"
#include "patterns/convolution/conv_inputs.hpp"
#include "registry.hpp"
#include "report.hpp"
#include "unit/cli/cli_runner.hpp"

using namespace ws;
namespace fs = std::filesystem;

namespace {

std::string temp(const std::string& name) { return ::testing::TempDir() + "ws_limits_" + name; }

/// A file of `bytes` zero bytes that takes no disk space (a hole).
std::string sparse(const std::string& name, std::uintmax_t bytes) {
  const std::string p = temp(name);
  { std::ofstream f(p); }
  fs::resize_file(p, bytes);
  return p;
}

}  // namespace

TEST(Limits, FilesAreCheckedBeforeReading) {
  EXPECT_NE(check_input_file("/dev/zero", kGiB, "input file").find("is not a regular file"), std::string::npos);
  EXPECT_NE(check_input_file(::testing::TempDir(), kGiB, "input file").find("is a directory"), std::string::npos);
  EXPECT_NE(check_input_file("/no/such/file", kGiB, "report").find("cannot open report '/no/such/file': No such file"),
            std::string::npos);
  const std::string big = sparse("big_mask.txt", 2 * kMiB);
  EXPECT_EQ(check_input_file(big, kMaxMaskFileBytes, "mask file"),
            "mask file '" + big + "' is 2.0 MiB, more than the 1.0 MiB a mask file may have");
}

TEST(Limits, ANumberFileOfZeroBytesOrEndlessTokensStopsAtOnce) {
  // A 256 MiB sparse file is one "line" of NUL bytes: refused at its first byte, not read into memory.
  Input in;
  const std::string holes = sparse("holes.txt", 256 * kMiB);
  EXPECT_EQ(read_input_file(holes, 0, DType::Int32, in), holes + ":1:1: byte 0x00 is not text: not a file of numbers");
  fs::remove(holes);
  const std::string longtok = temp("long.txt");
  std::ofstream(longtok) << "1 2\n3 " << std::string(100, '7') << "\n";
  EXPECT_NE(read_input_file(longtok, 0, DType::Int32, in).find(":2: '77777777777777777777...' is longer than 64"),
            std::string::npos);
  EXPECT_NE(read_input_file("/dev/zero", 0, DType::Int32, in).find("not a regular file"), std::string::npos);
  EXPECT_NE(read_input_file("/tmp", 0, DType::Int32, in).find("'/tmp' is a directory"), std::string::npos);
  // Ordinary files still read, with the line numbers and separators they always had.
  const std::string ok = temp("ok.txt");
  std::ofstream(ok) << "1, 2;3\t4\r\n5\n6";
  ASSERT_EQ(read_input_file(ok, 0, DType::Int32, in), "");
  EXPECT_EQ(in.i32, (std::vector<std::int32_t>{1, 2, 3, 4, 5, 6}));
  std::ofstream(ok) << "1 2\n3 x\n";
  EXPECT_EQ(read_input_file(ok, 0, DType::Int32, in), ok + ":2: 'x' is not an integer (int32 input)");
}

TEST(Limits, ImagesAreJudgedByTheirHeaderAndNamedByTheirFormat) {
  // A real 64 x 64 grey PNG and JPEG, then the JPEG cut in half: an image error naming JPEG.
  std::vector<unsigned char> px(64 * 64);
  for (std::size_t i = 0; i < px.size(); ++i) px[i] = static_cast<unsigned char>(i * 7);
  const std::string jpg = temp("img.jpg"), cut = temp("cut.jpg"), png = temp("img.png");
  ASSERT_NE(stbi_write_jpg(jpg.c_str(), 64, 64, 1, px.data(), 90), 0);
  ASSERT_NE(stbi_write_png(png.c_str(), 64, 64, 1, px.data(), 64), 0);
  HostVector<float> out;
  std::int64_t rows = 0, cols = 0;
  ASSERT_EQ(read_image_grey(jpg, out, rows, cols), "");
  EXPECT_EQ(rows, 64);
  std::ifstream f(jpg, std::ios::binary);
  const std::string whole{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
  std::ofstream(cut, std::ios::binary) << whole.substr(0, whole.size() / 2);
  ConvInput c;
  const std::string err = load_conv_input(cut, 2, 0, 0, 1, c);
  EXPECT_NE(err.find("cannot read image '" + cut + "' (JPEG)"), std::string::npos) << err;
  EXPECT_EQ(err.find("png"), std::string::npos) << err;
  // The PNG's header rewritten to claim 32000 x 32000 pixels: refused before decoding.
  std::ifstream pf(png, std::ios::binary);
  std::string bytes{std::istreambuf_iterator<char>(pf), std::istreambuf_iterator<char>()};
  const std::string whole_png = bytes;
  const char dims[8] = {0, 0, 0x7d, 0, 0, 0, 0x7d, 0};  // IHDR width, height (big-endian 32000)
  bytes.replace(16, 8, dims, 8);
  const std::string bomb = temp("bomb.png");
  std::ofstream(bomb, std::ios::binary) << bytes;
  const std::string berr = load_conv_input(bomb, 2, 0, 0, 1, c);
  EXPECT_NE(berr.find("claims 32000 x 32000 pixels"), std::string::npos) << berr;
  // A PNG chunk claiming more bytes than the file has is refused before stb allocates them.
  std::string long_chunk = whole_png;
  const char huge[4] = {0x57, 0, 0, 0};  // the first chunk (IHDR, at byte 8) claims 0x57000000 bytes
  long_chunk.replace(8, 4, huge, 4);
  const std::string lc = temp("long_chunk.png");
  std::ofstream(lc, std::ios::binary) << long_chunk;
  const std::string lerr = load_conv_input(lc, 2, 0, 0, 1, c);
  EXPECT_NE(lerr.find("(PNG): the chunk at byte 8 claims 1459617792 bytes"), std::string::npos) << lerr;
  // Raw and run-length formats hold far fewer pixels per byte than deflate: a 64 KiB PGM or Radiance
  // HDR "of" 8192 x 8192 is refused too (stb would decode the missing pixels as zeros, seconds of work).
  const auto padded = [&](const std::string& name, const std::string& header) {
    const std::string path = temp(name);
    std::ofstream(path, std::ios::binary) << header << std::string(65536 - header.size(), '\0');
    return load_conv_input(path, 2, 0, 0, 1, c);
  };
  const std::string pgm = padded("big.pgm", "P5\n8192 8192\n255\n");
  EXPECT_NE(pgm.find("(PNM) claims 8192 x 8192 pixels, more than its 64.0 KiB can hold"), std::string::npos) << pgm;
  const std::string hdr = padded("big.hdr", "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 8192 +X 8192\n");
  EXPECT_NE(hdr.find("(HDR) claims 8192 x 8192 pixels"), std::string::npos) << hdr;
  // TGA has no signature: an 18-byte header of an 8-bit grey 16384 x 16384 image.
  const char tga[18] = {0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x40, 0, 0x40, 8, 0};
  const std::string tga_err = padded("big.tga", std::string(tga, sizeof tga));
  EXPECT_NE(tga_err.find("' claims 16384 x 16384 pixels"), std::string::npos) << tga_err;
  // Within what its bytes can hold, a header is believed: 200 x 200 grey samples fit in 64 KiB.
  const std::string small = padded("fits.pgm", "P5\n200 200\n255\n");
  EXPECT_EQ(small, "");
  EXPECT_EQ(c.rows * c.cols, 200 * 200);
}

TEST(Limits, MemoryIsEstimatedAndRefusedInWords) {
  EXPECT_EQ(memory_refusal(std::int64_t(12.0 * kGiB), std::int64_t(7.8 * kGiB)),
            "needs 12.0 GiB, this machine has 7.8 GiB free");
  EXPECT_EQ(memory_refusal(100, 200), "");
  EXPECT_EQ(memory_refusal(100, -1), "");
  EXPECT_GT(host_memory_available(), 0);
  // A 2^30-element scan: 4 GiB of input, then output, reference and the checked copy as doubles.
  const VariantInfo* scan = find_variant("stevens.scan_hierarchical");
  ASSERT_NE(scan, nullptr);
  EXPECT_EQ(estimate_run_host_bytes(*scan, kMaxN, DType::Int32), std::int64_t(32) * std::int64_t(kGiB));
  EXPECT_EQ(estimate_run_host_bytes(*find_variant("epita.reduce3"), kMaxN, DType::Int32),
            std::int64_t(4) * std::int64_t(kGiB));
  const std::string oom = describe_exception(std::bad_alloc());
  EXPECT_EQ(oom.find("bad_alloc"), std::string::npos);
  EXPECT_NE(oom.find("out of host memory"), std::string::npos);
  // With the work's estimate, the line says what was needed beside what is free.
  const std::string need = describe_exception(std::bad_alloc(), std::int64_t(3) * std::int64_t(kGiB));
  EXPECT_EQ(need.rfind("out of host memory: needs about 3.0 GiB, this machine has ", 0), 0u) << need;
}

TEST(Limits, TheCliRefusesDevicesDirectoriesAndRequestsThatCannotFit) {
  for (const std::string args : {"run --variant epita.reduce3 --backend sim --input /dev/zero",
                                 "run --variant epita.reduce3 --backend sim --input /tmp"}) {
    const test::CliOut o = test::run_cli(args);
    EXPECT_EQ(o.code, 2) << args << "\n" << o.out;
    EXPECT_EQ(test::count_lines(o.out), 1) << o.out;
  }
  const std::int64_t free_bytes = host_memory_available();
  if (free_bytes >= std::int64_t(32) * std::int64_t(kGiB))
    GTEST_SKIP() << "this machine has 32 GiB free: the scan fits";
  const test::CliOut o = test::run_cli("run --variant stevens.scan_hierarchical --backend sim --n 2^30");
  EXPECT_EQ(o.code, 2) << o.out;
  EXPECT_NE(o.out.find("needs 32.0 GiB, this machine has"), std::string::npos) << o.out;
  // A generated 32768 x 32768 image is refused before it is made (in milliseconds, no std::bad_alloc).
  const test::CliOut img =
      test::run_cli("run --variant stevens.conv2d_tiled --backend sim --width 32768 --height 32768");
  EXPECT_EQ(img.code, 2) << img.out;
  EXPECT_NE(img.out.find("on a 32768 x 32768 image needs 32.0 GiB"), std::string::npos) << img.out;
}

TEST(Limits, ReportsAreCheckedBeforeReadingAndInvalidJsonIsPlaced) {
  EXPECT_THROW(load_report("/dev/zero"), std::runtime_error);
  const std::string bad = temp("bad_report.json");
  std::ofstream(bad) << "{\n  \"format\": \"warpscope-report\",\n  \"version\": 1,\n  \"runs\": [,]\n}\n";
  try {
    load_report(bad);
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("is not valid JSON: line 4, column 12"), std::string::npos) << e.what();
  }
  std::ofstream(bad) << R"({"format": "warpscope-report", "version": 1e999, "runs": []})";
  try {
    load_report(bad);
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("is not valid JSON: number overflow"), std::string::npos) << e.what();
  }
  try {
    load_report(::testing::TempDir());
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("is a directory"), std::string::npos) << e.what();
  }
}
