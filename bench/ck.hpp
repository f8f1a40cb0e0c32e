// CK(call): the A/B harnesses' CUDA error check (prints the error and the line, exits 1). Benchmarks
// only: the product checks CUDA calls with kernels/common/check_cuda.hpp.
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
