#include "patterns/convolution/conv_inputs.hpp"

#include <stb_image.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "inputs.hpp"
#include "limits.hpp"

namespace ws {

namespace {

template <class Vec>
std::string read_numbers(const std::string& path, Vec& out) {
  Input in;
  std::string err = read_input_file(path, 0, DType::Float32, in);
  if (!err.empty()) return err;
  if constexpr (std::is_same<Vec, HostVector<float>>::value)
    out = std::move(in.f32);
  else
    out.assign(in.f32.begin(), in.f32.end());
  return "";
}

std::vector<float> gauss_1d(int w) {
  const double sigma = 0.3 * ((w - 1) * 0.5 - 1) + 0.8;
  std::vector<float> g(static_cast<std::size_t>(w));
  double sum = 0;
  for (int k = 0; k < w; ++k) {
    const double x = k - w / 2;
    sum += std::exp(-x * x / (2 * sigma * sigma));
  }
  for (int k = 0; k < w; ++k) {
    const double x = k - w / 2;
    g[std::size_t(k)] = float(std::exp(-x * x / (2 * sigma * sigma)) / sum);
  }
  return g;
}

std::string width_error(int w) {
  return "mask width " + std::to_string(w) + " is not an odd number from 1 to " + std::to_string(kMaxMaskWidth);
}

bool odd_width_ok(int w) { return w >= 1 && w <= kMaxMaskWidth && w % 2 == 1; }

}  // namespace

std::string make_conv_mask(const std::string& spec, int dims, int& mask_width, std::vector<float>& out) {
  if (dims != 1 && dims != 2) return "a mask has 1 or 2 dimensions";
  if (spec == "box" || spec == "gauss") {
    if (!odd_width_ok(mask_width)) return width_error(mask_width);
    const int w = mask_width;
    const std::size_t taps = std::size_t(dims == 2 ? w * w : w);
    if (spec == "box") {
      out.assign(taps, float(1.0 / double(taps)));
      return "";
    }
    const std::vector<float> g = gauss_1d(w);
    if (dims == 1) {
      out = g;
      return "";
    }
    out.resize(taps);
    double sum = 0;
    for (int i = 0; i < w; ++i)
      for (int j = 0; j < w; ++j) sum += double(g[std::size_t(i)]) * g[std::size_t(j)];
    for (int i = 0; i < w; ++i)
      for (int j = 0; j < w; ++j)
        out[std::size_t(i * w + j)] = float(double(g[std::size_t(i)]) * g[std::size_t(j)] / sum);
    return "";
  }
  std::vector<float> v;
  std::string err = check_input_file(spec, kMaxMaskFileBytes, "mask file");
  if (err.empty()) err = read_numbers(spec, v);
  if (!err.empty()) return "--mask: " + err;
  int w = int(v.size());
  if (dims == 2) {
    w = int(std::lround(std::sqrt(double(v.size()))));
    if (std::size_t(w) * std::size_t(w) != v.size())
      return "mask file '" + spec + "' holds " + std::to_string(v.size()) + " values, not w x w for a 2D mask";
  }
  if (!odd_width_ok(w)) return "mask file '" + spec + "': " + width_error(w);
  mask_width = w;
  out = std::move(v);
  return "";
}

std::string image_format(const std::string& path) {
  unsigned char m[8] = {};
  std::ifstream f(path, std::ios::binary);
  f.read(reinterpret_cast<char*>(m), sizeof m);
  const std::streamsize got = f.gcount();
  if (got >= 8 && std::memcmp(m, "\x89PNG\r\n\x1a\n", 8) == 0) return "PNG";
  if (got >= 3 && m[0] == 0xFF && m[1] == 0xD8 && m[2] == 0xFF) return "JPEG";
  if (got >= 2 && m[0] == 'B' && m[1] == 'M') return "BMP";
  if (got >= 6 && (std::memcmp(m, "GIF87a", 6) == 0 || std::memcmp(m, "GIF89a", 6) == 0)) return "GIF";
  if (got >= 4 && std::memcmp(m, "8BPS", 4) == 0) return "PSD";
  if (got >= 2 && m[0] == 'P' && (m[1] == '5' || m[1] == '6')) return "PNM";
  if (got >= 2 && m[0] == '#' && m[1] == '?') return "HDR";
  if (got >= 4 && std::memcmp(m, "\x53\x80\xF6\x34", 4) == 0) return "PIC";
  return "";
}

namespace {

double max_samples_per_byte(const std::string& format) {
  // The most decoded samples (pixels x channels) one byte of each format can give, with margin.
  if (format == "PNG") return 1100.0;   // deflate expands at most 1032:1, plus a filter byte per row
  if (format == "PNM") return 1.0;      // raw samples, 1 or 2 bytes each
  if (format == "BMP") return 24.0;     // stb reads uncompressed BMP only: 1 bit per pixel, 3 channels
  if (format == "PSD") return 64.0;     // PackBits: 2 bytes repeat one byte up to 128 times
  if (format == "HDR") return 48.0;     // RLE per component: 2 bytes for 127, 4 components per 3 samples
  if (format == "JPEG") return 1024.0;  // >= 2 bits (DC, end of block) per 8x8 block: 4:2:0 colour 512
  if (format.empty()) return 96.0;      // TGA, stb's only format without a signature: RLE, 128 x 3 per 2 bytes
  return 4096.0;                        // GIF's LZW (~2700 pixels a byte) and Softimage PIC
}

/// Walks a PNG's chunks (length, type, data, CRC): "" when each fits in the file, else where one
/// claims more bytes than follow it. stb allocates a chunk's claimed length before reading it, so
/// a 137-byte file could otherwise ask for 2 GiB.
std::string png_chunk_error(const std::string& path, std::uintmax_t file_bytes) {
  std::ifstream f(path, std::ios::binary);
  std::uintmax_t at = 8;  // after the signature
  unsigned char head[8];
  while (at + 8 <= file_bytes && f.seekg(std::streamoff(at)) && f.read(reinterpret_cast<char*>(head), 8)) {
    const std::uintmax_t length = std::uintmax_t(head[0]) << 24 | std::uintmax_t(head[1]) << 16 |
                                  std::uintmax_t(head[2]) << 8 | std::uintmax_t(head[3]);
    if (at + 12 + length > file_bytes)
      return "the chunk at byte " + std::to_string(at) + " claims " + std::to_string(length) + " bytes, " +
             std::to_string(file_bytes - at) + " are left";
    if (std::memcmp(head + 4, "IEND", 4) == 0) break;
    at += 12 + length;
  }
  return "";
}

/// Inflates a PNG's image data (its IDAT chunks, one zlib stream) into a buffer of the size its header
/// says, no larger: "" when it fits, else why not. stb inflates into a buffer it doubles without a
/// limit, so a 100 x 100 header over 2 MB of deflated zeros would cost 2 GiB. `file_bytes` from the
/// caller, the chunk lengths already checked against it (png_chunk_error).
std::string png_inflate_error(const std::string& path, std::uintmax_t file_bytes) {
  std::string file;
  if (std::string err = read_file_bounded(path, file_bytes, "image", file); !err.empty()) return err;
  const auto u32 = [&](std::size_t at) {
    return std::uint32_t(std::uint8_t(file[at])) << 24 | std::uint32_t(std::uint8_t(file[at + 1])) << 16 |
           std::uint32_t(std::uint8_t(file[at + 2])) << 8 | std::uint32_t(std::uint8_t(file[at + 3]));
  };
  if (file.size() < 33 || file.compare(12, 4, "IHDR") != 0) return "no IHDR chunk first";
  const std::uint64_t w = u32(16), h = u32(20);
  const int depth = std::uint8_t(file[24]), color = std::uint8_t(file[25]), interlaced = std::uint8_t(file[28]);
  const int channels = color == 2 ? 3 : color == 4 ? 2 : color == 6 ? 4 : 1;  // 0 grey, 3 palette: 1
  const std::uint64_t row_bytes = (w * std::uint64_t(channels) * std::uint64_t(std::max(depth, 1)) + 7) / 8;
  std::uint64_t expected = h * (1 + row_bytes);
  if (interlaced) expected += expected / 4 + 7 * (h + 8);  // Adam7: seven passes, each row with its filter byte
  expected += 1024;                                        // slack for encoders that pad
  if (expected > std::uint64_t(INT32_MAX)) return "its image data would be more than 2 GiB";
  std::string idat;
  for (std::size_t at = 8; at + 12 <= file.size();) {
    const std::size_t length = u32(at);
    if (file.compare(at + 4, 4, "IDAT") == 0) idat.append(file, at + 8, length);
    if (file.compare(at + 4, 4, "IEND") == 0) break;
    at += 12 + length;
  }
  file.clear();
  file.shrink_to_fit();
  if (idat.empty()) return "no image data (IDAT)";
  if (idat.size() > std::size_t(INT32_MAX)) return "its image data is more than 2 GiB";
  std::vector<char> raw(static_cast<std::size_t>(expected));
  if (stbi_zlib_decode_buffer(raw.data(), int(raw.size()), idat.data(), int(idat.size())) < 0)
    return "its image data inflates to more than the " + std::to_string(w) + " x " + std::to_string(h) +
           " pixels its header says (corrupt or a decompression bomb)";
  return "";
}

}  // namespace

std::string read_image_grey(const std::string& path, HostVector<float>& out, std::int64_t& rows, std::int64_t& cols) {
  if (std::string err = check_input_file(path, kMaxImageFileBytes, "image"); !err.empty()) return err;
  if (std::FILE* f = std::fopen(path.c_str(), "rb"))
    std::fclose(f);
  else
    return cannot_open("image", path);  // "Permission denied", not stb's "can't fopen"
  const std::string format = image_format(path);
  const std::string named = "image '" + path + "'" + (format.empty() ? "" : " (" + format + ")");
  std::error_code ec;
  const std::uintmax_t file_bytes = std::filesystem::file_size(path, ec);
  if (format == "PNG" && !ec)
    if (std::string why = png_chunk_error(path, file_bytes); !why.empty())
      return "cannot read " + named + ": " + why + " (truncated or corrupt?)";
  // The header's size first: a 1 MB file may claim 32000 x 32000 pixels.
  int w = 0, h = 0, channels = 0;
  if (!stbi_info(path.c_str(), &w, &h, &channels)) {
    const char* why = stbi_failure_reason();
    return "cannot read " + named + ": " + (why ? why : "unknown error") + " (truncated or corrupt?)";
  }
  if (w <= 0 || h <= 0)  // a PGM header of "-5 -5" reads as 0 x 0
    return named + " has no valid size in its header (" + std::to_string(w) + " x " + std::to_string(h) +
           "; negative or zero?)";
  if (std::int64_t(w) * h > kMaxN)
    return named + " is " + std::to_string(w) + " x " + std::to_string(h) + ": more than 2^30 pixels";
  // A header claiming more samples than the file's bytes can encode is a decompression bomb or a lie
  // (a 64 KB PGM "of" 16384 x 16384), refused before a byte is allocated: stb fills a truncated file's
  // missing pixels with zeros, so it would otherwise decode the whole claimed size.
  const double samples = double(w) * h * std::max(channels, 1);
  if (!ec && samples > max_samples_per_byte(format) * double(file_bytes))
    return named + " claims " + std::to_string(w) + " x " + std::to_string(h) + " pixels, more than its " +
           format_bytes(file_bytes) + " can hold (corrupt or crafted)";
  // Decoding holds the file's channels and one grey byte per pixel; the input then 4 bytes per pixel,
  // and the run that reads it (estimate_run_host_bytes) 28 more: refused here, before a byte is decoded.
  const std::int64_t need = std::int64_t(w) * h * (std::max(channels, 1) + 1 + 4 + 28);
  if (std::string why = memory_refusal(need, host_memory_available()); !why.empty())
    return "out of host memory: decoding and running on " + named + " (" + std::to_string(w) + " x " +
           std::to_string(h) + ") " + why;
  if (format == "PNG" && !ec)
    if (std::string why = png_inflate_error(path, file_bytes); !why.empty()) return "cannot read " + named + ": " + why;
  stbi_uc* pixels = stbi_load(path.c_str(), &w, &h, &channels, 1);
  if (!pixels) {
    const char* why = stbi_failure_reason();
    return "cannot read " + named + ": " + (why ? why : "unknown error") + " (truncated or corrupt?)";
  }
  rows = h;
  cols = w;
  out.resize(std::size_t(w) * std::size_t(h));
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = float(pixels[i]);
  stbi_image_free(pixels);
  return "";
}

std::string read_text_grid(const std::string& path, HostVector<float>& out, std::int64_t& rows, std::int64_t& cols) {
  HostVector<float> v;
  std::int64_t r = 0, c = 0, in_row = 0;
  const auto take = [&](const std::string& token, std::int64_t line_no) -> std::string {
    {
      char* end = nullptr;
      errno = 0;
      const float x = std::strtof(token.c_str(), &end);
      if (*end != '\0' || end == token.c_str())
        return path + ":" + std::to_string(line_no) + ": '" + token + "' is not a number";
      if (!std::isfinite(x)) return path + ":" + std::to_string(line_no) + ": '" + token + "' is not a finite float32";
      v.push_back(x);
      ++in_row;
      if (std::int64_t(v.size()) > kMaxN) return path + ": more than 2^30 values";
    }
    return "";
  };
  const auto row_end = [&](std::int64_t line_no) -> std::string {
    if (in_row == 0) return "";
    if (r > 0 && in_row != c)
      return path + ":" + std::to_string(line_no) + ": row has " + std::to_string(in_row) + " values, the first row " +
             std::to_string(c);
    c = in_row;
    ++r;
    in_row = 0;
    return "";
  };
  if (std::string err = for_each_number_token(path, kMaxNumberFileBytes, take, row_end); !err.empty()) return err;
  if (r == 0) return "input file '" + path + "' holds no numbers";
  rows = r;
  cols = c;
  out = std::move(v);
  return "";
}

std::string load_conv_input(const std::string& kind, int dims, std::int64_t width, std::int64_t height,
                            std::uint64_t seed, ConvInput& out) {
  if (dims != 1 && dims != 2) return "a convolution input has 1 or 2 dimensions";
  ConvInput c;
  c.kind = kind;
  if (is_generated_kind(kind)) {
    if (width < 1) return "--width must be >= 1";
    if (dims == 2 && height < 1) return "--height must be >= 1";
    const std::int64_t rows = dims == 2 ? height : 0;
    if (width > kMaxN || (dims == 2 && height > kMaxN / width)) return "the input has more than 2^30 elements";
    Input in;
    std::string err = make_input(kind, (rows == 0 ? 1 : rows) * width, DType::Float32, seed, in);
    if (!err.empty()) return err;
    c.rows = rows;
    c.cols = width;
    c.data = std::move(in.f32);
    out = std::move(c);
    return "";
  }
  std::string err;
  if (dims == 1) {
    err = read_numbers(kind, c.data);
    c.rows = 0;
    c.cols = std::int64_t(c.data.size());
  } else {
    // The file's first bytes decide: an image that stb cannot read (truncated, too large) is an image
    // error, never parsed as text.
    int w = 0, h = 0, ch = 0;
    if (!image_format(kind).empty() || stbi_info(kind.c_str(), &w, &h, &ch))
      err = read_image_grey(kind, c.data, c.rows, c.cols);
    else
      err = read_text_grid(kind, c.data, c.rows, c.cols);
  }
  if (!err.empty()) return err;
  if (width > 0 && width != c.cols)
    return "--width " + std::to_string(width) + " disagrees with '" + kind + "' (" + std::to_string(c.cols) + " wide)";
  if (dims == 2 && height > 0 && height != c.rows)
    return "--height " + std::to_string(height) + " disagrees with '" + kind + "' (" + std::to_string(c.rows) +
           " high)";
  out = std::move(c);
  return "";
}

}  // namespace ws
