// Counter-based random numbers for generated inputs: element i of stream `seed` is a pure function of
// (seed, i), so inputs are generated in parallel chunks and every thread count gives the same numbers.
#pragma once
#include <cstdint>

namespace ws {

/// SplitMix64's output function (Steele, Lea, Flood, "Fast splittable pseudorandom number generators",
/// OOPSLA 2014): a bijective 64-bit mix whose outputs pass BigCrush for consecutive inputs.
inline std::uint64_t splitmix64_mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// The index-th 64-bit number of stream `seed`: SplitMix64 with the state seed's key + (index + 1) x the
/// golden-ratio increment, mixed. The key is the seed mixed once, so streams of nearby seeds do not
/// overlap shifted by a few indices.
inline std::uint64_t counter_random(std::uint64_t seed, std::uint64_t index) {
  const std::uint64_t key = splitmix64_mix(seed + 0x9E3779B97F4A7C15ull);
  return splitmix64_mix(key + (index + 1) * 0x9E3779B97F4A7C15ull);
}

/// Uniform integer in [0, range) from 64 random bits (the high half of the 128-bit product: Lemire's
/// multiply-shift, bias below range / 2^64).
inline std::uint64_t random_below(std::uint64_t r, std::uint64_t range) {
  return std::uint64_t((unsigned __int128)r * range >> 64);
}

/// Uniform float in [0, 1) from the top 24 bits: every value is a multiple of 2^-24, exactly a float.
inline float random_unit_float(std::uint64_t r) { return float(r >> 40) * 0x1p-24f; }

/// Uniform double in [0, 1) from the top 53 bits.
inline double random_unit_double(std::uint64_t r) { return double(r >> 11) * 0x1p-53; }

}  // namespace ws
