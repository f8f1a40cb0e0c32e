// Test-only kernels that break a CUDA context on purpose (never part of a lesson): the GPU fault tests
// drive a worker through each and check that the next request runs in a fresh worker.
#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "fault_kernels.hpp"

namespace {

// Writes far past the end of a one-element allocation: an illegal address (sticky).
__global__ void write_out_of_bounds(int* p) { p[(std::int64_t(1) << 36) + threadIdx.x] = 1; }

// Stops the kernel with a trap instruction (sticky).
__global__ void trap() { __trap(); }

// Spins on a flag nobody sets: the kernel never ends, the request never answers.
__global__ void spin(volatile int* flag) {
  while (*flag == 0) {}
}

}  // namespace

namespace ws::test {

std::string launch_fault(const std::string& kind, bool synchronize, bool& sticky) {
  sticky = false;
  cudaError_t err = cudaSuccess;
  if (kind == "huge_alloc") {
    std::size_t free_bytes = 0, total = 0;
    cudaMemGetInfo(&free_bytes, &total);
    void* p = nullptr;
    err = cudaMalloc(&p, total * 2);  // more than the device has: an error, not a fault
    if (err == cudaSuccess) cudaFree(p);
    cudaGetLastError();
    return err == cudaSuccess ? "" : cudaGetErrorString(err);
  }
  int* buf = nullptr;
  if ((err = cudaMalloc(&buf, sizeof(int))) != cudaSuccess) return cudaGetErrorString(err);
  cudaMemset(buf, 0, sizeof(int));
  if (kind == "oob_write")
    write_out_of_bounds<<<1, 32>>>(buf);
  else if (kind == "trap")
    trap<<<1, 1>>>();
  else if (kind == "endless")
    spin<<<1, 1>>>(buf);
  else
    return "unknown fault '" + kind + "'";
  if (!synchronize) return "";
  err = cudaDeviceSynchronize();
  if (err == cudaSuccess) return "";
  sticky = cudaDeviceSynchronize() != cudaSuccess;  // a sticky error stays: the context is lost
  return cudaGetErrorString(err);
}

}  // namespace ws::test
