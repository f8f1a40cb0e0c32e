#include "collective/gpu_group.hpp"

#include <algorithm>
#include <utility>

#include "common/check_cuda.hpp"

namespace ws::cuda::collective {

DeviceBuffer::DeviceBuffer(int dev, std::size_t n) : device(dev), bytes(n) {
  WS_CUDA(cudaSetDevice(device));
  WS_CUDA(cudaMalloc(&ptr, bytes ? bytes : 1));
}

DeviceBuffer::DeviceBuffer(DeviceBuffer&& o) noexcept : device(o.device), ptr(o.ptr), bytes(o.bytes) {
  o.ptr = nullptr;
}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& o) noexcept {
  std::swap(device, o.device);
  std::swap(ptr, o.ptr);
  std::swap(bytes, o.bytes);
  return *this;
}

DeviceBuffer::~DeviceBuffer() {
  if (!ptr) return;
  cudaSetDevice(device);  // no check: a destructor must not throw, and a lost context frees everything
  cudaFree(ptr);
}

std::string enable_peer_access(int gpus) {
  for (int a = 0; a < gpus; ++a)
    for (int b = 0; b < gpus; ++b) {
      if (a == b) continue;
      int can = 0;
      WS_CUDA(cudaDeviceCanAccessPeer(&can, a, b));
      if (!can)
        return "GPU " + std::to_string(a) + " cannot access GPU " + std::to_string(b) +
               "'s memory (no peer access between them)";
      WS_CUDA(cudaSetDevice(a));
      const cudaError_t e = cudaDeviceEnablePeerAccess(b, 0);
      if (e == cudaErrorPeerAccessAlreadyEnabled)
        (void)cudaGetLastError();  // enabled by an earlier run of this process: clear the error
      else
        WS_CUDA(e);
    }
  return "";
}

GpuGroup::GpuGroup(int count) {
  for (int g = 0; g < count; ++g) {
    WS_CUDA(cudaSetDevice(g));
    cudaStream_t s = nullptr;
    WS_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    streams_.push_back(s);
    cudaEvent_t e = nullptr;
    WS_CUDA(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    ends_.push_back(e);
  }
  WS_CUDA(cudaSetDevice(0));
  WS_CUDA(cudaEventCreate(&start_));
  WS_CUDA(cudaEventCreate(&stop_));
}

GpuGroup::~GpuGroup() {
  for (int g = 0; g < count(); ++g) {
    cudaSetDevice(g);
    cudaStreamDestroy(streams_[g]);
    cudaEventDestroy(ends_[g]);
    for (auto& bar : bars_) cudaEventDestroy(bar[g]);
  }
  cudaSetDevice(0);
  for (cudaEvent_t e : marks_) cudaEventDestroy(e);
  if (start_) cudaEventDestroy(start_);
  if (stop_) cudaEventDestroy(stop_);
}

void GpuGroup::ensure_marks(int marks) {
  while (int(marks_.size()) < marks) {
    std::vector<cudaEvent_t> bar(count());
    for (int g = 0; g < count(); ++g) {
      WS_CUDA(cudaSetDevice(g));
      WS_CUDA(cudaEventCreateWithFlags(&bar[g], cudaEventDisableTiming));
    }
    bars_.push_back(bar);
    cudaEvent_t m = nullptr;
    WS_CUDA(cudaSetDevice(0));
    WS_CUDA(cudaEventCreate(&m));
    marks_.push_back(m);
  }
}

void GpuGroup::barrier(int mark) {
  ensure_marks(mark + 1);
  const std::vector<cudaEvent_t>& bar = bars_[mark];
  for (int g = 0; g < count(); ++g) {
    WS_CUDA(cudaSetDevice(g));
    WS_CUDA(cudaEventRecord(bar[g], streams_[g]));
  }
  for (int g = 0; g < count(); ++g) {
    WS_CUDA(cudaSetDevice(g));
    for (int other = 0; other < count(); ++other)
      if (other != g) WS_CUDA(cudaStreamWaitEvent(streams_[g], bar[other], 0));
  }
  WS_CUDA(cudaSetDevice(0));
  WS_CUDA(cudaEventRecord(marks_[mark], streams_[0]));
}

void GpuGroup::synchronize() {
  for (int g = 0; g < count(); ++g) {
    WS_CUDA(cudaSetDevice(g));
    WS_CUDA(cudaStreamSynchronize(streams_[g]));
    WS_CUDA(cudaGetLastError());
  }
}

std::vector<double> GpuGroup::time_repeats(int warmup, int repeats, const std::function<void()>& before,
                                           const std::function<void()>& enqueue, int marks,
                                           std::vector<std::vector<double>>* mark_ms) {
  ensure_marks(marks);
  std::vector<double> samples;
  for (int rep = 0; rep < warmup + repeats; ++rep) {
    if (before) before();
    synchronize();
    // Start on GPU 0; every other GPU's stream waits for it, so no GPU begins before the clock does.
    WS_CUDA(cudaSetDevice(0));
    WS_CUDA(cudaEventRecord(start_, streams_[0]));
    for (int g = 1; g < count(); ++g) {
      WS_CUDA(cudaSetDevice(g));
      WS_CUDA(cudaStreamWaitEvent(streams_[g], start_, 0));
    }
    enqueue();
    // Stop on GPU 0 after every GPU's last work: each stream's end joins GPU 0's stream.
    for (int g = 1; g < count(); ++g) {
      WS_CUDA(cudaSetDevice(g));
      WS_CUDA(cudaEventRecord(ends_[g], streams_[g]));
      WS_CUDA(cudaSetDevice(0));
      WS_CUDA(cudaStreamWaitEvent(streams_[0], ends_[g], 0));
    }
    WS_CUDA(cudaSetDevice(0));
    WS_CUDA(cudaEventRecord(stop_, streams_[0]));
    WS_CUDA(cudaEventSynchronize(stop_));
    synchronize();
    if (rep < warmup) continue;
    float ms = 0;
    WS_CUDA(cudaEventElapsedTime(&ms, start_, stop_));
    samples.push_back(ms);
    if (marks > 0 && mark_ms) {
      std::vector<double> intervals;
      cudaEvent_t from = start_;
      for (int m = 0; m <= marks; ++m) {
        cudaEvent_t to = m < marks ? marks_[m] : stop_;
        float t = 0;
        WS_CUDA(cudaEventElapsedTime(&t, from, to));
        intervals.push_back(t);
        from = to;
      }
      mark_ms->push_back(intervals);
    }
  }
  return samples;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

}  // namespace ws::cuda::collective
