#include "inputs.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <vector>

#include "limits.hpp"

#include "counter_random.hpp"
#include "parallel.hpp"

namespace ws {

const char* const kStopReading = "\x01stop";

bool is_generated_kind(const std::string& kind) { return kind == "random" || kind == "ones" || kind == "sequence"; }

std::int64_t sequence_closed_form_sum(std::int64_t n) {
  const std::int64_t p = kSequencePeriod;
  const std::int64_t full = n / p, r = n % p;
  return full * (p * (p - 1) / 2) + r * (r - 1) / 2;
}

std::string make_input(const std::string& kind, std::int64_t n, DType type, std::uint64_t seed, Input& out) {
  if (!is_generated_kind(kind)) return "unknown input '" + kind + "' (use random, ones, sequence or a file path)";
  if (n <= 0) return "n must be positive (got " + std::to_string(n) + ")";
  Input in;
  in.type = type;
  in.kind = kind;
  in.seed = seed;
  const bool ones = kind == "ones", sequence = kind == "sequence";
  // Element i depends on (kind, seed, i) only: chunks are filled in parallel, the same for any thread count.
  if (type == DType::UInt8) {
    in.u8.resize(std::size_t(n));
    std::uint8_t* d = in.u8.data();
    parallel_chunks(n, kHostChunk, [&](std::int64_t b, std::int64_t e, std::int64_t) {
      for (std::int64_t i = b; i < e; ++i)
        d[i] = ones       ? 1
               : sequence ? std::uint8_t(i % kSequencePeriodBytes)
                          : std::uint8_t(counter_random(seed, std::uint64_t(i)) >> 56);
    });
  } else if (type == DType::Int32) {
    in.i32.resize(std::size_t(n));
    std::int32_t* d = in.i32.data();
    parallel_chunks(n, kHostChunk, [&](std::int64_t b, std::int64_t e, std::int64_t) {
      for (std::int64_t i = b; i < e; ++i)
        d[i] = ones       ? 1
               : sequence ? std::int32_t(i % kSequencePeriod)
                          : std::int32_t(random_below(counter_random(seed, std::uint64_t(i)), 2001)) - 1000;
    });
  } else {
    in.f32.resize(std::size_t(n));
    float* d = in.f32.data();
    parallel_chunks(n, kHostChunk, [&](std::int64_t b, std::int64_t e, std::int64_t) {
      for (std::int64_t i = b; i < e; ++i)
        d[i] = ones       ? 1.0f
               : sequence ? float(i % kSequencePeriod)
                          : random_unit_float(counter_random(seed, std::uint64_t(i)));
    });
  }
  out = std::move(in);
  return "";
}

std::string for_each_number_token(const std::string& path, std::uintmax_t max_bytes,
                                  const std::function<std::string(const std::string&, std::int64_t)>& token_fn,
                                  const std::function<std::string(std::int64_t)>& end_of_line) {
  if (std::string err = check_input_file(path, max_bytes, "input file"); !err.empty()) return err;
  std::ifstream f(path, std::ios::binary);
  if (!f) return cannot_open("input file", path);
  // Read in blocks, never a whole line: a file of one 1 GiB "line" (a sparse file, a binary) must cost
  // a block, not a gigabyte.
  std::vector<char> buf(1 << 16);
  std::string token;
  std::int64_t line_no = 1, column = 0;
  const auto flush = [&]() -> std::string {
    if (token.empty()) return "";
    std::string err = token_fn(token, line_no);
    token.clear();
    return err;
  };
  while (f) {
    f.read(buf.data(), std::streamsize(buf.size()));
    const std::streamsize got = f.gcount();
    std::streamsize first = 0;
    // A UTF-8 byte-order mark (editors on Windows write one) is not part of the first number.
    if (line_no == 1 && column == 0 && token.empty() && got >= 3 && std::memcmp(buf.data(), "\xEF\xBB\xBF", 3) == 0)
      first = 3;
    for (std::streamsize i = first; i < got; ++i) {
      const unsigned char c = static_cast<unsigned char>(buf[std::size_t(i)]);
      ++column;
      if (c == '\n' || c == ' ' || c == ',' || c == ';' || c == '\t' || c == '\r') {
        if (std::string err = flush(); !err.empty()) return err == kStopReading ? "" : err;
        if (c == '\n') {
          if (std::string err = end_of_line ? end_of_line(line_no) : ""; !err.empty()) return err;
          ++line_no, column = 0;
        }
        continue;
      }
      if (c < 0x20 || c == 0x7f) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02x", unsigned(c));
        return path + ":" + std::to_string(line_no) + ":" + std::to_string(column) + ": byte " + hex +
               " is not text: not a file of numbers";
      }
      token += char(c);
      if (token.size() > kMaxNumberToken)
        return path + ":" + std::to_string(line_no) + ": '" + token.substr(0, 20) + "...' is longer than " +
               std::to_string(kMaxNumberToken) + " characters: not a number";
    }
  }
  if (f.bad()) return "error while reading input file '" + path + "'";
  if (std::string err = flush(); !err.empty()) return err == kStopReading ? "" : err;
  if (end_of_line && column > 0)
    if (std::string err = end_of_line(line_no); !err.empty()) return err;
  return "";
}

std::string read_input_file(const std::string& path, std::int64_t n, DType type, Input& out) {
  Input in;
  in.type = type;
  in.kind = path;
  const auto take = [&](const std::string& token, std::int64_t line_no) -> std::string {
    {
      if (n > 0 && in.n() >= n) return kStopReading;
      const char* s = token.c_str();
      char* end = nullptr;
      errno = 0;
      if (type == DType::UInt8) {
        long long v = std::strtoll(s, &end, 10);
        if (*end != '\0' || end == s)
          return path + ":" + std::to_string(line_no) + ": '" + token + "' is not an integer (uint8 input)";
        if (errno == ERANGE || v < 0 || v > 255)
          return path + ":" + std::to_string(line_no) + ": '" + token + "' is not a byte (0..255)";
        in.u8.push_back(std::uint8_t(v));
      } else if (type == DType::Int32) {
        long long v = std::strtoll(s, &end, 10);
        if (*end != '\0' || end == s)
          return path + ":" + std::to_string(line_no) + ": '" + token + "' is not an integer (int32 input)";
        if (errno == ERANGE || v < std::numeric_limits<std::int32_t>::min() ||
            v > std::numeric_limits<std::int32_t>::max())
          return path + ":" + std::to_string(line_no) + ": '" + token + "' does not fit in int32";
        in.i32.push_back(std::int32_t(v));
      } else {
        float v = std::strtof(s, &end);
        if (*end != '\0' || end == s) return path + ":" + std::to_string(line_no) + ": '" + token + "' is not a number";
        if (!std::isfinite(v))
          return path + ":" + std::to_string(line_no) + ": '" + token + "' is not a finite float32";
        in.f32.push_back(v);
      }
      if (in.n() > kMaxN) return path + ": more than 2^30 values";
    }
    return "";
  };
  if (std::string err = for_each_number_token(path, kMaxNumberFileBytes, take); !err.empty()) return err;
  if (in.n() == 0) return "input file '" + path + "' holds no numbers";
  if (n > 0 && in.n() < n)
    return "input file '" + path + "' holds " + std::to_string(in.n()) + " values, fewer than n = " + std::to_string(n);
  out = std::move(in);
  return "";
}

}  // namespace ws
