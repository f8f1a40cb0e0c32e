// Variants that run on the host (e.g. amp.sequential), timed with the host clock.
#pragma once
#include "inputs.hpp"
#include "run_types.hpp"
#include "variant.hpp"

namespace ws {

/// Runs a cpu_only variant `repeat` times (after `warmup`), fills result, timing and launches = 0.
/// amp.sequential: std::accumulate (004_24e80cac4a038870.txt, "sequential_reduction"); float32 is
/// accumulated in double so the lesson's CPU baseline is the reference itself.
void run_cpu_variant(const VariantInfo& v, const Input& in, int warmup, int repeat, RunResult& r);

}  // namespace ws
