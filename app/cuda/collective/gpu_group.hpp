// The GPUs of one multi-GPU run (lesson "Reduction across GPUs", issue 30): device ordinals 0..n-1, one
// stream on each, the events that order work across them, device buffers freed with the group, and the
// timing every method shares (CUDA events on GPU 0, METHOD.md: warm-up, then the median of the repeats).
// Internal to app/cuda/collective/: every CUDA call is checked with WS_CUDA, which throws
// std::runtime_error; run_allreduce_on_gpus turns that into ran = false and a one-line error.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace ws::cuda::collective {

/// One device allocation, freed on its own device when the holder goes.
struct DeviceBuffer {
  int device = 0;
  void* ptr = nullptr;
  std::size_t bytes = 0;
  DeviceBuffer() = default;
  DeviceBuffer(int device, std::size_t bytes);  // throws std::runtime_error (out of memory: "cudaMalloc ...")
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept;
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept;
  ~DeviceBuffer();
  template <typename T>
  T* as() const {
    return static_cast<T*>(ptr);
  }
};

/// Peer access between every pair of GPUs 0..gpus-1, enabled once per process (a second call finds it
/// enabled). Returns "" or one line naming the first pair that cannot reach the other.
std::string enable_peer_access(int gpus);

/// Streams and events on GPUs 0..count-1. Created by the constructor (throws std::runtime_error on a
/// CUDA error), destroyed with the group.
class GpuGroup {
 public:
  explicit GpuGroup(int count);
  ~GpuGroup();
  GpuGroup(const GpuGroup&) = delete;
  GpuGroup& operator=(const GpuGroup&) = delete;

  int count() const { return int(streams_.size()); }
  cudaStream_t stream(int gpu) const { return streams_[gpu]; }

  /// Every GPU's stream waits for what every GPU's stream has enqueued so far (a barrier between steps),
  /// then GPU 0 records timing event `mark` (0 <= mark < marks, see time_repeats): the moment the last
  /// GPU finished the previous step, on GPU 0's clock.
  void barrier(int mark);

  /// Times `enqueue` (which only enqueues work on the group's streams) `warmup` times untimed, then
  /// `repeats` times: `before` runs first each time, outside the timed region (restoring inputs; the
  /// group synchronizes after it), then GPU 0 records the start, every stream waits for it, `enqueue`
  /// runs, every stream's end joins GPU 0's stream and GPU 0 records the stop. Returns each repeat's
  /// milliseconds. With marks > 0, `enqueue` calls barrier(0..marks-1) and `mark_ms` receives, per
  /// repeat, the milliseconds between start, mark 0, ..., mark marks-1 (marks + 1 values per repeat:
  /// the last interval ends at the stop).
  std::vector<double> time_repeats(int warmup, int repeats, const std::function<void()>& before,
                                   const std::function<void()>& enqueue, int marks = 0,
                                   std::vector<std::vector<double>>* mark_ms = nullptr);

  /// Waits for every GPU's stream; throws on a CUDA error (a faulted kernel too).
  void synchronize();

 private:
  void ensure_marks(int marks);
  std::vector<cudaStream_t> streams_;
  std::vector<cudaEvent_t> ends_;                 // per GPU, no timing: "this stream got here"
  std::vector<std::vector<cudaEvent_t>> bars_;    // per mark, per GPU, no timing
  std::vector<cudaEvent_t> marks_;                // per mark, on GPU 0, timed
  cudaEvent_t start_ = nullptr, stop_ = nullptr;  // on GPU 0, timed
};

/// The median of `v` (the mean of the middle two for an even count); 0 for an empty vector.
double median(std::vector<double> v);

}  // namespace ws::cuda::collective
