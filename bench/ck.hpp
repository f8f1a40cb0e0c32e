// CK(call): the A/B harnesses' CUDA error check (prints the error and the line, exits 1), and their timing of a
// candidate (median_of_20_ms). Benchmarks only: the product checks CUDA calls with kernels/common/check_cuda.hpp.
#pragma once
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define CK(x)                                                       \
  do {                                                              \
    cudaError_t e = (x);                                            \
    if (e != cudaSuccess) {                                         \
      printf("CUDA %s line %d\n", cudaGetErrorString(e), __LINE__); \
      exit(1);                                                      \
    }                                                               \
  } while (0)

#include <algorithm>
#include <functional>
#include <vector>

/// The harnesses' timing of one candidate, as the product times a run (app/cuda/timing.cpp): `enqueue`
/// 3 times to warm up, then 20 times each between two events on `s`, synchronized; the median in ms.
inline float median_of_20_ms(cudaStream_t s, cudaEvent_t e0, cudaEvent_t e1, const std::function<void()>& enqueue) {
  for (int i = 0; i < 3; ++i) enqueue();
  std::vector<float> ms;
  for (int i = 0; i < 20; ++i) {
    CK(cudaEventRecord(e0, s));
    enqueue();
    CK(cudaEventRecord(e1, s));
    CK(cudaEventSynchronize(e1));
    CK(cudaGetLastError());
    float m;
    CK(cudaEventElapsedTime(&m, e0, e1));
    ms.push_back(m);
  }
  std::sort(ms.begin(), ms.end());
  return ms[10];
}
