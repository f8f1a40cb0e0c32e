// The contract between the CUDA backend's scan runner (app/cuda/patterns/run_scan.cpp) and the scan kernels
// (kernels/scan/*.cu), like reduce_launch.hpp: each variant has a host launcher that only enqueues its
// kernel(s) on a stream -- no synchronization, no allocation, no host copies -- and says how much
// scratch it needs. The runner owns the buffers and times everything a launcher enqueues.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/check_cuda.hpp"  // WS_CUDA, WS_LAUNCHED, check_cuda
#include "common/shared_types.hpp"
#include "common/trace_event.hpp"  // TraceSink

namespace ws::kernels {

/// Buffers and launch of one scan. Element type is `type` (int32_t or float) in `in` and `out`.
struct ScanArgs {
  const void* in = nullptr;  ///< device input, n elements (16-byte aligned: a cudaMalloc pointer)
  void* out = nullptr;       ///< device output, n elements (16-byte aligned), distinct from `in`
  std::int64_t n = 0;
  bool exclusive = false;   ///< out[0] = 0, out[i] = x[0] + ... + x[i-1]
  void* scratch = nullptr;  ///< device scratch of at least scratch_bytes(n, block, type) bytes, undefined on entry
  std::size_t scratch_bytes = 0;
  int block = 0;          ///< resolved threads per block
  std::int64_t grid = 0;  ///< resolved blocks of the first launch
  DType type = DType::Int32;
  cudaStream_t stream = nullptr;
};

/// Kernel launches a launcher enqueued (memsets not counted).
using ScanLauncher = int (*)(const ScanArgs& a);
/// Scratch a variant needs for n elements at this block size (0 when none).
using ScanScratch = std::size_t (*)(std::int64_t n, int block, DType type);

struct ScanLauncherEntry {
  const char* id;  ///< variant id, as in the registry
  ScanLauncher launch;
  ScanScratch scratch;  ///< nullptr: no scratch
};

/// Launcher tables: the slides' kernels (stevens_scan.cu), the single-pass scan (decoupled_lookback.cu),
/// the CUB baseline (cub_scan.cu).
std::vector<ScanLauncherEntry> stevens_scan_launchers();
std::vector<ScanLauncherEntry> lookback_scan_launchers();
std::vector<ScanLauncherEntry> cub_scan_launchers();

/// The trace build of stevens_scan.cu (ws_kernels_traced, -DWS_TRACE_BUILD; see common/trace_record.cuh):
/// the same launchers, whose kernels also record block `sink.block` of launch `traced_launch` once armed by
/// stevens_scan_arm, both in ws::kernels::traced; app/cuda/CMakeLists.txt declares and tables them from the
/// file's name (its generated patterns/scan_traced.hpp; run_scan.cpp's record uses them), as for every traced
/// scan. Not traced: scan.decoupled_lookback (what its look-back reads depends on when other blocks publish,
/// i.e. on timing) and cub.scan (library).

/// The launcher entry of the trace build: what a traced kernels/scan/<name>.cu's <name>_launchers() returns.
/// app/cuda generates the pattern's trace table (patterns/scan_traced.hpp) with it.
namespace scan_traced {
using Entry = ScanLauncherEntry;
}  // namespace scan_traced

}  // namespace ws::kernels
