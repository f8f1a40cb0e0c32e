// Timing kernel launches with CUDA events: warm-up, then K timed launches, median (docs/patterns.md).
#pragma once
#include <functional>

#include "cuda_context.hpp"
#include "run_types.hpp"

namespace ws::cuda {

/// Runs `enqueue` (which only enqueues work on ctx.stream) `warmup` times untimed, then `repeat` times
/// between ctx.start/ctx.stop events, synchronizing after each; returns median/min/max in ms.
/// `before` (optional) runs before every launch, outside the timed region (e.g. restoring an input the
/// kernel overwrites). Throws std::runtime_error on any CUDA error, including a faulting kernel.
Timing time_launches(CudaContext& ctx, const std::function<void()>& enqueue, int warmup, int repeat,
                     const std::function<void()>& before = {});

}  // namespace ws::cuda
