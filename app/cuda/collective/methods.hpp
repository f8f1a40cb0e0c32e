// The methods of run_allreduce_on_gpus (collective/allreduce_run.hpp), one file each, and the float
// vectors the all-reduces share (their upload, restore and check). Internal to app/cuda/collective/: each
// runner fills `out`'s measured fields (ran, correct, detail, median_ms, step_ms) on GPUs 0..gpus-1 with
// peer access already enabled where it needs it, and throws std::runtime_error on a CUDA error.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "collective/allreduce_run.hpp"
#include "collective/gpu_group.hpp"

namespace ws::cuda::collective {

/// HostAdd and PeerToGpu0 (collective/scalar_reduce.cpp): each GPU reduces its int32 shard of r.length
/// elements with epita.tuned's launcher; the partials meet on the host or on GPU 0.
void run_scalar_reduce(const ws::collective::AllReduceRequest& r, int gpus, ws::collective::AllReduceResult& out);

/// How a step of the hand-written ring and tree moves a chunk and adds it. Pull: the receiver's stream
/// copies from the sender (its copy engine reads over the link) and adds on the same stream. Push: the
/// sender's stream copies into the receiver (writes over the link) and records an event the receiver's
/// add waits for. PullSliced: Pull in four slices on a second stream of the receiver, each
/// slice's add starting as soon as its copy landed, so the adds hide behind the copies. PeerRead: no copy
/// for an added chunk: the receiver's add kernel reads the sender's chunk over the link itself (loads
/// through peer access), one pass instead of a copy and an add; moves without an add are Pull's copies.
/// PeerRead is the product's: on 4 x H200 (NVLink 4), 256 MiB per GPU, the ring's bus bandwidth was
/// 0.994x NCCL's ring against Pull's 0.895x, PullSliced's 0.823x and Push's 0.249x (2 GPUs: 1.171x, 1.091x,
/// 1.094x, 0.569x; docs/device/h200-allreduce.md). The benchmark (bench/allreduce_bench.cpp) times all four
/// against NCCL in the same run.
enum class CopyDirection { Pull, Push, PullSliced, PeerRead };

/// Ring and Tree (collective/schedule_run.cpp): the hand-written all-reduce, step by step.
void run_schedule_all_reduce(const ws::collective::AllReduceRequest& r, int gpus, ws::collective::AllReduceResult& out,
                             CopyDirection direction = CopyDirection::PeerRead);

/// NcclRing and NcclTree (collective/nccl_run.cpp). NCCL missing: out.error set, ran false, no throw.
void run_nccl_all_reduce(const ws::collective::AllReduceRequest& r, int gpus, ws::collective::AllReduceResult& out);

/// Every GPU's float32 vector of `length` elements: `input` holds collective::input_value(g, i) (uploaded
/// once), `work` the vector the all-reduce changes in place (restored from `input` before each repeat).
struct Vectors {
  std::int64_t length = 0;
  std::vector<DeviceBuffer> input, work;
  std::vector<float*> work_ptrs() const;
};

/// Allocates and uploads both vectors on GPUs 0..gpus-1 (throws std::runtime_error, out of memory too).
Vectors upload_vectors(int gpus, std::int64_t length);

/// Enqueues work = input on every GPU's stream of `group`.
void restore(const Vectors& v, const GpuGroup& group);

/// Downloads every GPU's `work` and compares it with the element-wise sum over GPUs of input_value (exact:
/// small integers). True when all equal; else `detail` says where: "GPU 1, element 4095: 12 (reference 14)".
bool check_vectors(const Vectors& v, std::string& detail);

}  // namespace ws::cuda::collective
