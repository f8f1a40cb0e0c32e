// Input data for a run: generated (random, ones, sequence) or read from a text file.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "host_vector.hpp"
#include "types.hpp"

namespace ws {

/// A run's input array. Exactly one of i32/f32/u8 holds n() elements, per `type`.
struct Input {
  DType type = DType::Int32;
  std::string kind;        ///< "random", "ones", "sequence" or the file path
  std::uint64_t seed = 1;  ///< random only
  HostVector<std::int32_t> i32;
  HostVector<float> f32;
  HostVector<std::uint8_t> u8;      ///< uint8: bytes (histogram input)
  std::int64_t rows = 0, cols = 0;  ///< 2D inputs (convolution images): rows x cols = n(); rows = 0: 1D
  std::int64_t n() const {
    return type == DType::Int32   ? std::int64_t(i32.size())
           : type == DType::UInt8 ? std::int64_t(u8.size())
                                  : std::int64_t(f32.size());
  }
  const void* data() const {
    if (type == DType::Int32) return i32.data();
    if (type == DType::UInt8) return u8.data();
    return f32.data();
  }
};

/// Period of the "sequence" input: value(i) = i % 4096, the C++ AMP post's "repeated consecutive
/// sequence" ("Parallel Reduction using C++ AMP", MSDN, "main - Entry point") with a period longer than any block's
/// window (at most 2048 elements here), so no block sees a value twice and its prefix sums climb. At
/// the default n = 2^20 the int32 sum is 2^19 * 4095 = 2,146,959,360 < 2^31: exact; from 2^21 on it
/// wraps, on the GPU and in the reference alike. Bytes (uint8) use value(i) = i % 256.
constexpr int kSequencePeriod = 4096;
/// Period of the "sequence" input for bytes (histograms): every bin value once per 256 elements.
constexpr int kSequencePeriodBytes = 256;

/// Generates n elements. kind: "random" (int32 uniform in [-1000, 1000], float32 uniform in [0, 1),
/// uint8 uniform in [0, 255]; element i = counter_random(seed, i), counter_random.hpp, so the numbers are the
/// same whatever the host's thread count), "ones", or "sequence". Generated in parallel chunks (parallel.hpp).
/// Returns "" or a one-line error (unknown kind).
std::string make_input(const std::string& kind, std::int64_t n, DType type, std::uint64_t seed, Input& out);

/// Reads a text file of numbers separated by commas or white space. n = 0 takes all of them;
/// otherwise the file must hold at least n and the first n are used.
/// Returns "" or a one-line error naming the file and the first bad token (missing file, empty,
/// not a number, not an int32, not a byte 0..255 for uint8, too few values).
/// Refuses, before reading, a directory, a device or pipe (/dev/zero) and a file over
/// kMaxNumberFileBytes (limits.hpp); a byte that is not text and a token over 64 characters stop it.
std::string read_input_file(const std::string& path, std::int64_t n, DType type, Input& out);

/// What a token callback of for_each_number_token returns to stop reading early without an error.
extern const char* const kStopReading;
/// Reads the number file `path` (checked with check_input_file against `max_bytes`) in blocks and
/// calls `token_fn(token, line)` for each token between separators (white space, comma, semicolon)
/// and `end_of_line(line)` (when given) at each line's end; a callback's non-empty return stops it
/// and is returned ("" for kStopReading). Control bytes and tokens over kMaxNumberToken are refused.
std::string for_each_number_token(const std::string& path, std::uintmax_t max_bytes,
                                  const std::function<std::string(const std::string&, std::int64_t)>& token_fn,
                                  const std::function<std::string(std::int64_t)>& end_of_line = {});

/// True when `kind` names a generator rather than a file.
bool is_generated_kind(const std::string& kind);

/// Closed-form sum of the "sequence" input: P(P-1)/2 per full period P = kSequencePeriod, plus
/// r(r-1)/2 for the remaining r values (the post computes its expected sum the same way, without a
/// CPU pass). Exact in int64 for every n <= 2^30.
std::int64_t sequence_closed_form_sum(std::int64_t n);

}  // namespace ws
