// The contract between the CUDA backend (app/cuda) and the convolution kernels (kernels/convolution),
// as reduce_launch.hpp is for reductions: one host launcher per variant that only enqueues its kernel
// on a stream. Launchers never synchronize, never copy to the host and never allocate; the backend
// owns the buffers, uploads the mask once per run (upload_conv_mask) and times what launchers enqueue.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "common/arch_paths.hpp"
#include "common/shared_types.hpp"

namespace ws::kernels {

/// Buffers and launch of one convolution (float32). The shape comes from ws::conv_geometry().shape().
struct ConvArgs {
  const float* input = nullptr;  ///< device: g.width (1D) or g.height x g.width elements, zero-padded
                                 ///< up to g.capacity (the 1D slide kernels read N[i] unguarded)
  float* output = nullptr;       ///< device: g.capacity elements
  const float* mask = nullptr;   ///< device copy of the mask in global memory (the basic kernels' M)
  ConvShape g;                   ///< resolved launch: blocks, grid, tile, mask width, shared bytes
  cudaStream_t stream = nullptr;
};

using ConvLauncher = int (*)(const ConvArgs& a);  ///< returns the kernel launches it enqueued

struct ConvLauncherEntry {
  const char* id;  ///< variant id, as in the registry
  ConvLauncher launch;
  ArchPaths paths;  ///< per-architecture code paths, when the kernel has two
};

/// The convolution launchers of seed 001 (kernels/convolution/stevens_conv.cu).
std::vector<ConvLauncherEntry> stevens_conv_launchers();

/// Copies `count` mask coefficients (row-major, count <= 15 x 15) into the constant-memory mask
/// that the const and tiled kernels read, enqueued on `stream` (slide "How to Use Constant Memory":
/// cudaMemcpyToSymbol). Throws std::runtime_error on a CUDA error or a mask that is too large.
void upload_conv_mask(const float* host_mask, int count, cudaStream_t stream);

}  // namespace ws::kernels
