// The hand-written all-reduces of the lesson "Reduction across GPUs": collective::make_schedule's steps run
// on the GPUs as the sim draws them. Each step, every move of the step at once: the receiver pulls the
// sender's chunk over the link (cudaMemcpyPeerAsync on the receiver's stream) into its receive buffer and
// adds it into its own copy (kernels/collective/add.cu), or, for the all-gather and broadcast moves, the copy
// lands on its copy directly. Between steps, every GPU waits for every other (events): the steps are the
// sim's, and GPU 0's clock times each one. Ring: Patarasuk and Yuan's bandwidth-optimal all-reduce (reduce-
// scatter, then all-gather); tree: the reduction lessons' pairwise tree ("Reduction Pattern", EPITA 2023;
// CS121 "GPUs and CUDA 3: Intrinsics") over whole vectors, then back down (collective/schedule.hpp).
#include <algorithm>

#include "collective/collective_launch.hpp"
#include "collective/methods.hpp"
#include "collective/schedule.hpp"
#include "common/check_cuda.hpp"

namespace ws::cuda::collective {

namespace wc = ws::collective;

namespace {

/// Enqueues step `st` of schedule `s` on the group: one peer copy (and add) per move, on the receiver.
void enqueue_step(const wc::Schedule& s, const wc::Step& st, const Vectors& v, const std::vector<DeviceBuffer>& recv,
                  const GpuGroup& group) {
  for (const wc::ChunkMove& m : st.moves) {
    const wc::Range r = wc::chunk_range(v.length, s.chunks, m.chunk);
    const std::int64_t n = r.end - r.begin;
    if (n <= 0) continue;
    float* mine = v.work[m.dst_gpu].as<float>() + r.begin;
    const float* theirs = v.work[m.src_gpu].as<float>() + r.begin;
    const cudaStream_t stream = group.stream(m.dst_gpu);
    WS_CUDA(cudaSetDevice(m.dst_gpu));
    if (m.add) {
      float* arrived = recv[m.dst_gpu].as<float>();
      WS_CUDA(cudaMemcpyPeerAsync(arrived, m.dst_gpu, theirs, m.src_gpu, std::size_t(n) * sizeof(float), stream));
      kernels::collective::launch_add_into(mine, arrived, n, stream);
    } else {
      WS_CUDA(cudaMemcpyPeerAsync(mine, m.dst_gpu, theirs, m.src_gpu, std::size_t(n) * sizeof(float), stream));
    }
  }
}

}  // namespace

void run_schedule_all_reduce(const wc::AllReduceRequest& r, int gpus, wc::AllReduceResult& out) {
  const wc::Schedule s =
      wc::make_schedule(r.method == wc::Method::Tree ? wc::Algorithm::Tree : wc::Algorithm::Ring, gpus);
  Vectors v = upload_vectors(gpus, r.length);
  // The receive buffer: the largest chunk (the first; chunk_range makes the first ones longer).
  const wc::Range first = wc::chunk_range(r.length, s.chunks, 0);
  std::vector<DeviceBuffer> recv;
  for (int g = 0; g < gpus; ++g) recv.emplace_back(g, std::size_t(first.end - first.begin) * sizeof(float));
  GpuGroup group(gpus);

  const int steps = int(s.steps.size());
  auto enqueue = [&] {
    for (int k = 0; k < steps; ++k) {
      enqueue_step(s, s.steps[k], v, recv, group);
      if (k + 1 < steps) group.barrier(k);  // step k + 1 starts when every GPU finished step k
    }
  };
  std::vector<std::vector<double>> step_samples;
  const std::vector<double> ms = group.time_repeats(
      r.warmup, r.repeats, [&] { restore(v, group); }, enqueue, std::max(0, steps - 1), &step_samples);
  if (r.repeats == 0) {  // the result of the last warm-up (or of one untimed run) is still checked
    restore(v, group);
    group.synchronize();
    enqueue();
    group.synchronize();
  }
  out.median_ms = median(ms);
  out.step_ms.assign(std::size_t(steps), 0.0);
  for (int k = 0; k < steps; ++k) {
    std::vector<double> of_step;
    for (const std::vector<double>& rep : step_samples) of_step.push_back(rep[std::size_t(k)]);
    out.step_ms[std::size_t(k)] = median(of_step);
  }
  out.correct = check_vectors(v, out.detail);
  out.ran = true;
}

}  // namespace ws::cuda::collective
