#include "cuda_context.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "common/check_cuda.hpp"
#include "parallel.hpp"

namespace ws::cuda {

namespace {

/// memcpy of one staging chunk on the host threads (one thread moves a few GB/s; a 2^28 input is 1 GiB).
void host_copy(void* dst, const void* src, std::size_t len) {
  constexpr std::int64_t kPiece = std::int64_t(4) << 20;
  parallel_chunks(std::int64_t(len), kPiece, [&](std::int64_t b, std::int64_t e, std::int64_t) {
    std::memcpy(static_cast<char*>(dst) + b, static_cast<const char*>(src) + b, std::size_t(e - b));
  });
}

}  // namespace

CudaContext::~CudaContext() {
  for (auto& [name, b] : buffers_) cudaFree(b.first);
  for (int i = 0; i < 2; ++i) {
    if (stage_[i]) cudaFreeHost(stage_[i]);
    if (stage_done_[i]) cudaEventDestroy(stage_done_[i]);
  }
  if (start) cudaEventDestroy(start);
  if (stop) cudaEventDestroy(stop);
  if (stream) cudaStreamDestroy(stream);
}

void CudaContext::open() {
  WS_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  WS_CUDA(cudaEventCreate(&start));
  WS_CUDA(cudaEventCreate(&stop));
}

void* CudaContext::buffer(const std::string& name, std::size_t bytes) {
  auto& b = buffers_[name];
  if (b.second < bytes) {
    if (b.first) WS_CUDA(cudaFree(b.first));
    b.first = nullptr;
    b.second = 0;
    WS_CUDA(cudaMalloc(&b.first, bytes));
    b.second = bytes;
  }
  return b.first;
}

void CudaContext::open_staging() {
  for (int i = 0; i < 2; ++i) {
    if (!stage_[i]) WS_CUDA(cudaHostAlloc(&stage_[i], kStageBytes, cudaHostAllocDefault));
    if (!stage_done_[i]) WS_CUDA(cudaEventCreateWithFlags(&stage_done_[i], cudaEventDisableTiming));
  }
}

void CudaContext::upload(void* device_dst, const void* host_src, std::size_t bytes) {
  if (bytes == 0) return;
  open_staging();
  const std::size_t chunks = (bytes + kStageBytes - 1) / kStageBytes;
  for (std::size_t k = 0; k < chunks; ++k) {
    const int b = int(k % 2);
    const std::size_t off = k * kStageBytes, len = std::min(kStageBytes, bytes - off);
    if (k >= 2) WS_CUDA(cudaEventSynchronize(stage_done_[b]));  // the DMA of chunk k - 2 left this buffer
    host_copy(stage_[b], static_cast<const char*>(host_src) + off, len);
    WS_CUDA(cudaMemcpyAsync(static_cast<char*>(device_dst) + off, stage_[b], len, cudaMemcpyHostToDevice, stream));
    WS_CUDA(cudaEventRecord(stage_done_[b], stream));
  }
  WS_CUDA(cudaStreamSynchronize(stream));
}

void CudaContext::download(const void* device_src, std::size_t bytes,
                           const std::function<void(std::size_t, const void*, std::size_t)>& consume) {
  if (bytes == 0) return;
  open_staging();
  const std::size_t chunks = (bytes + kStageBytes - 1) / kStageBytes;
  auto drain = [&](std::size_t k) {  // chunk k has been issued: wait for it, hand it over
    const int b = int(k % 2);
    const std::size_t off = k * kStageBytes, len = std::min(kStageBytes, bytes - off);
    WS_CUDA(cudaEventSynchronize(stage_done_[b]));
    consume(off, stage_[b], len);
  };
  for (std::size_t k = 0; k < chunks; ++k) {
    const int b = int(k % 2);  // free: chunk k - 2 was consumed in the previous iteration
    const std::size_t off = k * kStageBytes, len = std::min(kStageBytes, bytes - off);
    WS_CUDA(
        cudaMemcpyAsync(stage_[b], static_cast<const char*>(device_src) + off, len, cudaMemcpyDeviceToHost, stream));
    WS_CUDA(cudaEventRecord(stage_done_[b], stream));
    if (k >= 1) drain(k - 1);
  }
  drain(chunks - 1);
}

void CudaContext::download(void* host_dst, const void* device_src, std::size_t bytes) {
  download(device_src, bytes, [&](std::size_t off, const void* host, std::size_t len) {
    host_copy(static_cast<char*>(host_dst) + off, host, len);
  });
}

void CudaContext::download_as_double(const void* device_src, std::int64_t n, DType type, HostVector<double>& out) {
  out.resize(std::size_t(n));
  download(device_src, std::size_t(n) * dtype_size(type), [&](std::size_t off, const void* host, std::size_t len) {
    const std::int64_t count = std::int64_t(len / 4), first = std::int64_t(off / 4);  // int32 and float32: 4 bytes
    if (type == DType::Int32)
      widen_to_double(static_cast<const std::int32_t*>(host), count, out.data() + first);
    else
      widen_to_double(static_cast<const float*>(host), count, out.data() + first);
  });
}

}  // namespace ws::cuda
