// The contract between the CUDA backend (app/cuda) and the reduction kernels (kernels/reduction).
// Each variant has one host launcher that enqueues its kernel(s) on a stream and says where the
// answer is. Launchers never synchronize, never copy to the host, and never allocate: the backend
// owns the buffers and times everything a launcher enqueues with CUDA events.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/check_cuda.hpp"
#include "common/shared_types.hpp"
#include "common/trace_event.hpp"

namespace ws::kernels {

/// Buffers and launch of one reduction. Element type is `type` (int32_t or float) everywhere.
struct ReduceArgs {
  void* data = nullptr;  ///< device input: n elements, then the op's identity (0 for sum, INT_MIN
                         ///< for max) up to `capacity`, so the slides' unguarded loads stay safe.
                         ///< Variants flagged writes_input may overwrite it (restored before each run).
  std::int64_t n = 0;
  std::int64_t capacity = 0;       ///< >= round_up(round_up(n, block * items_per_thread), kPadGranule)
  void* scratch = nullptr;         ///< device scratch, contents undefined on entry
  std::int64_t scratch_elems = 0;  ///< >= 2 * (ceil(n / 32) + kPadGranule)
  void* result = nullptr;          ///< device, kResultElems elements, contents undefined on entry
  int block = 0;                   ///< resolved threads per block
  std::int64_t grid = 0;           ///< resolved blocks (first launch)
  DType type = DType::Int32;
  cudaStream_t stream = nullptr;
};

/// Where a launcher left its answer: `count` device values at `partials` that the host combines with
/// the variant's op (count = 1 for variants that finish on the GPU; more for the C++ AMP post's
/// variants, which finish on the CPU as the post does).
struct ReduceOutcome {
  const void* partials = nullptr;
  std::int64_t count = 1;
  int launches = 0;  ///< kernel launches enqueued (memsets not counted)
};

using ReduceLauncher = ReduceOutcome (*)(const ReduceArgs& a);

struct LauncherEntry {
  const char* id;  ///< variant id, as in the registry
  ReduceLauncher launch;
};

constexpr std::int64_t kPadGranule = 32768;  ///< input padding granule (elements)
constexpr int kResultElems = 64;

/// Every reduction launcher: the tables of all kernels/reduction/*.cu, in file-name order. Each file
/// <name>.cu defines `std::vector<LauncherEntry> <name>_launchers()` in ws::kernels (epita.cu:
/// epita_launchers(), cub_reduce.cu: cub_reduce_launchers()); app/cuda/CMakeLists.txt generates this
/// function and those declarations from the files' names (generated/reduction_launchers.cpp), so a new
/// lesson's file is found, not listed.
std::vector<LauncherEntry> reduction_launchers();

/// The trace build of the same kernel files (library ws_kernels_traced, compiled with -DWS_TRACE_BUILD;
/// see trace_record.cuh): the same launchers, whose kernels also record block `sink.block` of launch
/// number `traced_launch` into `sink` once armed. Racy variants are not instrumented (their
/// interleaving changes from run to run); cub.reduce has no trace build. A traced file <name>.cu (a line
/// WS_TRACE_NS_BEGIN) defines, in ws::kernels::traced, `std::vector<LauncherEntry> <name>_launchers()`
/// and the ArmFunction `<name>_arm` (WS_TRACE_ARM_FUNCTION); app/cuda/CMakeLists.txt declares and
/// tables them from the files kernels/CMakeLists.txt found by that line (its generated
/// patterns/reduction_traced.hpp, whose launcher entry is reduction_traced::Entry below).
namespace traced {
/// Arms the kernels of one file for the next launcher call on `stream`.
using ArmFunction = void (*)(const TraceSink& sink, int traced_launch, cudaStream_t stream);
}  // namespace traced

/// The launcher entry of the trace build: what a traced kernels/reduction/<name>.cu's <name>_launchers()
/// returns. app/cuda generates the pattern's trace table (patterns/reduction_traced.hpp) with it.
namespace reduction_traced {
using Entry = LauncherEntry;
}  // namespace reduction_traced

}  // namespace ws::kernels
