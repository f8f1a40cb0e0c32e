// The hand-written all-reduces of the lesson "Reduction across GPUs": collective::make_schedule's steps run
// on the GPUs as the sim draws them. Each step, every move of the step at once: for an added chunk, the
// receiver's add kernel (kernels/collective/add.cu) reads the sender's chunk over the link through peer
// access and adds it into its own copy (CopyDirection::PeerRead; methods.hpp lists the other ways the
// benchmark compares); for the all-gather and broadcast moves, the receiver pulls the chunk onto its copy
// (cudaMemcpyPeerAsync on its stream). Between steps, every GPU waits for every other (events): the steps
// are the sim's, and GPU 0's clock times each one. Ring: Patarasuk and Yuan's bandwidth-optimal
// all-reduce (reduce-scatter, then all-gather); tree: the reduction lessons' pairwise tree ("Reduction
// Pattern", EPITA 2023; CS121 "GPUs and CUDA 3: Intrinsics") over whole vectors, then back down
// (collective/schedule.hpp).
#include <algorithm>

#include "collective/collective_launch.hpp"
#include "collective/methods.hpp"
#include "collective/schedule.hpp"
#include "common/check_cuda.hpp"

namespace ws::cuda::collective {

namespace wc = ws::collective;

namespace {

/// A second stream and kSlices + 1 events (no timing) per GPU, for CopyDirection::PullSliced: the copies
/// of a step's slices run on `copy[g]` while the adds follow on the group's stream. Destroyed with the holder.
struct CopyStreams {
  static constexpr int kSlices = 4;
  std::vector<cudaStream_t> copy;
  std::vector<std::vector<cudaEvent_t>> events;  // per GPU: [0] the step's start, [1..kSlices] slice landed
  explicit CopyStreams(int gpus) {
    for (int g = 0; g < gpus; ++g) {
      WS_CUDA(cudaSetDevice(g));
      cudaStream_t s = nullptr;
      WS_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
      copy.push_back(s);
      events.emplace_back();
      for (int k = 0; k <= kSlices; ++k) {
        cudaEvent_t e = nullptr;
        WS_CUDA(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
        events.back().push_back(e);
      }
    }
  }
  CopyStreams(const CopyStreams&) = delete;
  CopyStreams& operator=(const CopyStreams&) = delete;
  ~CopyStreams() {
    for (std::size_t g = 0; g < copy.size(); ++g) {
      cudaSetDevice(int(g));
      for (cudaEvent_t e : events[g]) cudaEventDestroy(e);
      cudaStreamDestroy(copy[g]);
    }
  }
};

/// PullSliced's added move: `n` floats from `theirs` (GPU src) land in `landing` and are added into `mine`
/// (both on GPU dst) in CopyStreams::kSlices slices; slice k's add waits only for slice k's copy.
void enqueue_sliced_add(float* mine, float* landing, const float* theirs, std::int64_t n, int dst, int src,
                        const GpuGroup& group, const CopyStreams& cs) {
  WS_CUDA(cudaSetDevice(dst));
  const std::vector<cudaEvent_t>& ev = cs.events[std::size_t(dst)];
  WS_CUDA(cudaEventRecord(ev[0], group.stream(dst)));  // the copies start after the step's barrier
  WS_CUDA(cudaStreamWaitEvent(cs.copy[std::size_t(dst)], ev[0], 0));
  const std::int64_t slice = ((n + CopyStreams::kSlices - 1) / CopyStreams::kSlices + 3) / 4 * 4;  // 16-byte aligned
  for (int k = 0; k < CopyStreams::kSlices; ++k) {
    const std::int64_t b = std::min(n, k * slice), e = std::min(n, b + slice);
    if (e <= b) break;
    WS_CUDA(cudaMemcpyPeerAsync(landing + b, dst, theirs + b, src, std::size_t(e - b) * sizeof(float),
                                cs.copy[std::size_t(dst)]));
    WS_CUDA(cudaEventRecord(ev[std::size_t(k) + 1], cs.copy[std::size_t(dst)]));
    WS_CUDA(cudaStreamWaitEvent(group.stream(dst), ev[std::size_t(k) + 1], 0));
    kernels::collective::launch_add_into(mine + b, landing + b, e - b, group.stream(dst));
  }
}

/// Enqueues step `st` of schedule `s` on the group: one peer copy (and add) per move. `sent`: one event per
/// GPU, recorded after its pushed copy (CopyDirection::Push only); `cs`: PullSliced's streams.
void enqueue_step(const wc::Schedule& s, const wc::Step& st, const Vectors& v, const std::vector<DeviceBuffer>& recv,
                  const GpuGroup& group, CopyDirection direction, const std::vector<cudaEvent_t>& sent,
                  const CopyStreams& cs) {
  for (const wc::ChunkMove& m : st.moves) {
    const wc::Range r = wc::chunk_range(v.length, s.chunks, m.chunk);
    const std::int64_t n = r.end - r.begin;
    if (n <= 0) continue;
    float* mine = v.work[m.dst_gpu].as<float>() + r.begin;
    const float* theirs = v.work[m.src_gpu].as<float>() + r.begin;
    // An added chunk lands in the receive buffer first; an overwriting one lands on the receiver's copy.
    float* landing = m.add ? recv[m.dst_gpu].as<float>() : mine;
    const std::size_t bytes = std::size_t(n) * sizeof(float);
    if (m.add && direction == CopyDirection::PeerRead) {
      // The sender's chunk is not written during this step (the schedule sends each chunk before it
      // receives it again), so the receiver may read it in place over the link.
      WS_CUDA(cudaSetDevice(m.dst_gpu));
      kernels::collective::launch_add_into(mine, theirs, n, group.stream(m.dst_gpu));
      continue;
    }
    if (m.add && direction == CopyDirection::PullSliced) {
      enqueue_sliced_add(mine, landing, theirs, n, m.dst_gpu, m.src_gpu, group, cs);
      continue;
    }
    if (direction != CopyDirection::Push) {
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
  const CopyStreams cs(direction == CopyDirection::PullSliced ? gpus : 0);

  const int steps = int(s.steps.size());
  auto enqueue = [&] {
    for (int k = 0; k < steps; ++k) {
      enqueue_step(s, s.steps[k], v, recv, group, direction, sent.events, cs);
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
