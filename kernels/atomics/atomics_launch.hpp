// The contract between the CUDA backend (app/cuda/patterns/run_atomics.cpp) and the atomics kernels
// (kernels/atomics): one host launcher per variant that enqueues its memsets and kernel(s) on a stream.
// Launchers never synchronize, never copy to the host and never allocate: the runner owns the buffers
// (sized with the entry's scratch_bytes) and times everything a launcher enqueues with CUDA events.
// "GPUs and CUDA 3: Intrinsics", CS121, Fall 2022 ("GPUs and CUDA 3: Intrinsics"); docs/patterns.md.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/arch_paths.hpp"
#include "common/check_cuda.hpp"

namespace ws::kernels {

/// Buffers and launch of one atomics run.
struct AtomicsArgs {
  const void* in = nullptr;  ///< device input: n int32 (counters, filters) or n bytes (histograms)
  std::int64_t n = 0;        ///< elements; counters: threads (grid * block)
  void* out = nullptr;       ///< histograms: 256 int bins; filters: dst, room for n int32; counters: unused
  int* counter = nullptr;    ///< one device int: d_a (counters) or nres (filters); zeroed by the launcher
  void* scratch = nullptr;   ///< >= the entry's scratch_bytes(n), contents undefined on entry
  std::size_t scratch_bytes = 0;
  int block = 0;          ///< resolved threads per block (CUB baselines ignore it)
  std::int64_t grid = 0;  ///< resolved blocks
  cudaStream_t stream = nullptr;
};

/// What a launcher enqueued.
struct AtomicsOutcome {
  int launches = 0;  ///< kernel launches (memsets not counted)
};

using AtomicsLauncher = AtomicsOutcome (*)(const AtomicsArgs& a);
/// Scratch bytes a variant needs for n elements (0: none). May ask CUB (which enqueues nothing).
using AtomicsScratch = std::size_t (*)(std::int64_t n);

struct AtomicsLauncherEntry {
  const char* id;  ///< variant id, as in the registry
  AtomicsLauncher launch;
  AtomicsScratch scratch_bytes;  ///< nullptr: no scratch
  ArchPaths paths;               ///< per-architecture code paths, when the kernel has two
};

/// Launcher tables: kernels/atomics/cs121_atomics.cu (the slides' kernels and our scan-based filter)
/// and kernels/atomics/cub_atomics.cu (cub.histogram, cub.select).
std::vector<AtomicsLauncherEntry> cs121_atomics_launchers();
std::vector<AtomicsLauncherEntry> cub_atomics_launchers();

}  // namespace ws::kernels
