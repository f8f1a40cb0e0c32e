// CPU reference of the scan pattern ("CS 677 Lecture 6", Mordohai, "(Inclusive) Prefix-Sum (Scan) Definition").
#pragma once
#include <vector>

#include "inputs.hpp"
#include "patterns.hpp"

namespace ws {

/// Prefix sums of the input, 1D, n elements. Inclusive: out[i] = x[0] + ... + x[i]; exclusive:
/// out[0] = 0, out[i] = x[0] + ... + x[i-1]. int32 adds wrap modulo 2^32 (as the GPU's do, so every
/// association order gives the same bits); float32 is accumulated in double, in chunks of kHostChunk
/// (2^16) elements on the host threads: each chunk's running sum starts from the in-order sum of the
/// chunk totals before it (the same bits for any thread count; parallel.hpp).
ArrayOutput reference_scan(const Input& in, bool exclusive);

/// Float32 tolerance scale per element: the prefix sums of |x| (same inclusive/exclusive shape, chunked
/// like reference_scan).
HostVector<double> scan_abs_prefix(const Input& in, bool exclusive);

/// The sequential scan of "A Work Efficient C Implementation" (y[i] = y[i-1] + x[i], n - 1 additions):
/// stevens.scan_sequential, one thread, into `out` (its storage is reused between timed runs). float32
/// accumulates in double and rounds each output to float (like amp.sequential; a float accumulator
/// stagnates past 2^24).
void sequential_scan(const Input& in, bool exclusive, ArrayOutput& out);

}  // namespace ws
