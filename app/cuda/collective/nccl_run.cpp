// The library's all-reduce, beside the hand-written ring and tree of the lesson "Reduction across GPUs":
// ncclAllReduce (sum, float32, in place) with NCCL_ALGO=Ring or Tree, timed and checked exactly like them.
#include "collective/methods.hpp"
#include "collective/nccl_api.hpp"

namespace ws::cuda::collective {

namespace wc = ws::collective;

void run_nccl_all_reduce(const wc::AllReduceRequest& r, int gpus, wc::AllReduceResult& out) {
  std::string error;
  const std::vector<void*>* comms = nccl_communicators(r.method == wc::Method::NcclTree ? "Tree" : "Ring", gpus, error);
  if (!comms) {
    out.error = error;
    return;
  }
  Vectors v = upload_vectors(gpus, r.length);
  GpuGroup group(gpus);
  std::vector<cudaStream_t> streams;
  for (int g = 0; g < gpus; ++g) streams.push_back(group.stream(g));
  const std::vector<float*> buffers = v.work_ptrs();
  std::string nccl_error;
  auto enqueue = [&] {
    if (nccl_error.empty()) nccl_error = nccl_all_reduce_sum(*comms, buffers, std::size_t(r.length), streams);
  };
  const std::vector<double> ms = group.time_repeats(
      r.warmup, r.repeats, [&] { restore(v, group); }, enqueue);
  if (r.repeats == 0 && r.warmup == 0) {
    restore(v, group);
    enqueue();
    group.synchronize();
  }
  if (!nccl_error.empty()) {
    out.error = nccl_error;
    return;
  }
  out.median_ms = median(ms);
  out.correct = check_vectors(v, out.detail);
  out.ran = true;
}

}  // namespace ws::cuda::collective
