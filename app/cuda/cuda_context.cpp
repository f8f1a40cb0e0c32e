#include "cuda_context.hpp"

#include "reduce_launch.hpp"

namespace ws::cuda {

CudaContext::~CudaContext() {
  for (auto& [name, b] : buffers_) cudaFree(b.first);
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

}  // namespace ws::cuda
