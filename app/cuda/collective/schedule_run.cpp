// The hand-written all-reduces of the lesson "Reduction across GPUs": collective::make_schedule's steps run
// on the GPUs as the sim draws them. Each step, every move of the step at once: the receiver pulls the
// sender's chunk over the link (cudaMemcpyPeerAsync on the receiver's stream; or the sender pushes it, see
// CopyDirection in methods.hpp) into its receive buffer and adds it into its own copy
// (kernels/collective/add.cu), or, for the all-gather and broadcast moves, the copy lands on its copy
// directly. Between steps, every GPU waits for every other (events): the steps are the sim's, and GPU 0's
// clock times each one. Ring: Patarasuk and Yuan's bandwidth-optimal all-reduce (reduce-scatter, then
// all-gather); tree: the reduction lessons' pairwise tree ("Reduction Pattern", EPITA 2023; CS121 "GPUs and
// CUDA 3: Intrinsics") over whole vectors, then back down (collective/schedule.hpp).
#include <algorithm>

#include "collective/collective_launch.hpp"
#include "collective/methods.hpp"
#include "collective/schedule.hpp"
#include "common/check_cuda.hpp"

namespace ws::cuda::collective {

namespace wc = ws::collective;

namespace {

/// Enqueues step `st` of schedule `s` on the group: one peer copy (and add) per move. `sent`: one event per
/// GPU, recorded after its pushed copy (CopyDirection::Push only).
void enqueue_step(const wc::Schedule& s, const wc::Step& st, const Vectors& v, const std::vector<DeviceBuffer>& recv,
                  const GpuGroup& group, CopyDirection direction, const std::vector<cudaEvent_t>& sent) {
  for (const wc::ChunkMove& m : st.moves) {
    const wc::Range r = wc::chunk_range(v.length, s.chunks, m.chunk);
    const std::int64_t n = r.end - r.begin;
    if (n <= 0) continue;
    float* mine = v.work[m.dst_gpu].as<float>() + r.begin;
    const float* theirs = v.work[m.src_gpu].as<float>() + r.begin;
    // An added chunk lands in the receive buffer first; an overwriting one lands on the receiver's copy.
    float* landing = m.add ? recv[m.dst_gpu].as<float>() : mine;
    const std::size_t bytes = std::size_t(n) * sizeof(float);
    if (direction == CopyDirection::Pull) {
      WS_CUDA(cudaSetDevice(m.dst_gpu));
      WS_CUDA(cudaMemcpyPeerAsync(landing, m.dst_gpu, theirs, m.src_gpu, bytes, group.stream(m.dst_gpu)));
    } else {
      WS_CUDA(cudaSetDevice(m.src_gpu));
      WS_CUDA(cudaMemcpyPeerAsync(landing, m.dst_gpu, theirs, m.src_gpu, bytes, group.stream(m.src_gpu)));
      WS_CUDA(cudaEventRecord(sent[m.src_gpu], group.stream(m.src_gpu)));
      WS_CUDA(cudaSetDevice(m.dst_gpu));
      WS_CUDA(cudaStreamWaitEvent(group.stream(m.dst_gpu), sent[m.src_gpu], 0));
    }
    if (m.add) {
      WS_CUDA(cudaSetDevice(m.dst_gpu));
      kernels::collective::launch_add_into(mine, landing, n, group.stream(m.dst_gpu));
    }
  }
}

/// One event per GPU (no timing), destroyed with the holder.
struct SentEvents {
  std::vector<cudaEvent_t> events;
  explicit SentEvents(int gpus) {
    for (int g = 0; g < gpus; ++g) {
      WS_CUDA(cudaSetDevice(g));
      cudaEvent_t e = nullptr;
      WS_CUDA(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
      events.push_back(e);
    }
  }
  SentEvents(const SentEvents&) = delete;
  SentEvents& operator=(const SentEvents&) = delete;
  ~SentEvents() {
    for (std::size_t g = 0; g < events.size(); ++g) {
      cudaSetDevice(int(g));
      cudaEventDestroy(events[g]);
    }
  }
};

}  // namespace

void run_schedule_all_reduce(const wc::AllReduceRequest& r, int gpus, wc::AllReduceResult& out,
                             CopyDirection direction) {
  const wc::Schedule s =
      wc::make_schedule(r.method == wc::Method::Tree ? wc::Algorithm::Tree : wc::Algorithm::Ring, gpus);
  Vectors v = upload_vectors(gpus, r.length);
  // The receive buffer: the largest chunk (the first; chunk_range makes the first ones longer).
  const wc::Range first = wc::chunk_range(r.length, s.chunks, 0);
  std::vector<DeviceBuffer> recv;
  for (int g = 0; g < gpus; ++g) recv.emplace_back(g, std::size_t(first.end - first.begin) * sizeof(float));
  GpuGroup group(gpus);
  const SentEvents sent(gpus);

  const int steps = int(s.steps.size());
  auto enqueue = [&] {
    for (int k = 0; k < steps; ++k) {
      enqueue_step(s, s.steps[k], v, recv, group, direction, sent.events);
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
