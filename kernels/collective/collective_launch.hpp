// The contract between the multi-GPU runs of the lesson "Reduction across GPUs" (app/cuda/collective/)
// and their kernels (kernels/collective/add.cu): the receiver's add of each all-reduce step, and GPU 0's
// add of the partials that travelled to it. Launchers only enqueue on `stream` (a stream of the current
// device): no synchronization, no allocation, no host copy.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

namespace ws::kernels::collective {

/// dst[i] += src[i] for i in [0, n): the receiver's add of one ring or tree step, after the peer copy
/// brought the sender's chunk into `src` (a receive buffer on the same device as `dst`), or straight from
/// the sender's chunk on another GPU when peer access is enabled (CopyDirection::PeerRead). float32,
/// n >= 0 elements (n = 0 enqueues nothing). Throws std::runtime_error on a bad launch.
void launch_add_into(float* dst, const float* src, std::int64_t n, cudaStream_t stream);

/// *total = partials[0] + ... + partials[count - 1] in int64, one thread: GPU 0's add of the per-GPU
/// partial sums that peer copies brought to it (count <= 8). Throws std::runtime_error on a bad launch.
void launch_add_partials(std::int64_t* total, const std::int32_t* partials, int count, cudaStream_t stream);

}  // namespace ws::kernels::collective
