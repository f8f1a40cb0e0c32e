// Launch-rule checks: does a variant accept this (n, block, grid, type)? Pure functions, no device.
#pragma once
#include <cstdint>
#include <string>

#include "types.hpp"
#include "variant.hpp"

namespace ws {

/// What the launch resolver needs to know about the GPU (zeros when there is none: sim, replay).
struct DeviceShape {
  int sm_count = 0;            ///< streaming multiprocessors
  int max_threads_per_sm = 0;  ///< resident threads per SM (2048 on Volta..Hopper)
};

/// Checks a request against the variant's rules and fills in defaults.
/// `requested`: block/grid from the user, 0 = default. On success returns "" and writes the launch
/// to `resolved`; otherwise returns one line naming the problem (nothing is touched).
/// Grid defaults: ceil(n / (block * items_per_thread)) for one-window-per-block kernels; for
/// grid-stride kernels, min(that, max_grid or one full wave: sm_count * max_threads_per_sm / block).
std::string resolve_launch(const VariantInfo& v, std::int64_t n, DType type, const LaunchConfig& requested,
                           const DeviceShape& dev, LaunchConfig& resolved);

/// Elements each block covers in one window: block * items_per_thread.
std::int64_t window_elems(const VariantInfo& v, int block);

/// Smallest count >= n that is a multiple of `granule` (granule > 0).
std::int64_t round_up(std::int64_t n, std::int64_t granule);

/// The one-line refusal of a float32 or uint8 request to an int_only variant: "ID takes int32 only: REASON".
std::string int_only_refusal(const VariantInfo& v);

/// Parses a positive integer like "1048576", "2^20" or "1<<20" into out; false if malformed, <= 0 or
/// beyond 2^62.
bool parse_count(const std::string& s, std::int64_t& out);

/// Parses the count given to `option` (e.g. "--n") into out. Returns "" or one line naming the option
/// and the text: "is too large" with the limit (kMaxN = 2^30 elements, so the kernels' int indices do
/// not overflow) for any well-formed count beyond it, however many digits; "is not a positive count"
/// for other text, 0 and negatives.
std::string parse_count_option(const std::string& option, const std::string& s, std::int64_t& out);

/// The limit on n in words, for messages: "the limit is 2^30 = 1073741824 elements ...".
std::string max_n_text();

}  // namespace ws
