// A/B timing of 5x5 float convolution kernels at 8192 x 8192 (an exploration, not part of the product:
// an optional CMake target, bench/CMakeLists.txt). Prints median ms of 20 runs, GB/s (input + output)
// and the ratio to a device-to-device cudaMemcpy, and the largest difference from the slide kernel's
// output. Build and run on the GPU machine:
//   cmake --build --preset device --target ws_conv_ab && build-device/bench/ws_conv_ab
// Kernels: the slide's conv2d_tiled (the product's, through its launcher: conv_ab_common.hpp), the same
// with an L2::256B load hint, the slide's tile body in a
// persistent grid that prefetches the next tile's pixel while computing (2, 4, 8 blocks per SM), and
// conv2d_tiled_coarse with its old row loop and with cp.async at 4, 8 (the product's, through its
// launcher) and 16 outputs per thread. Results on the H200: docs/device/h200-ab-harnesses.md.
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "conv_ab_common.hpp"
constexpr int K = 5;
__constant__ float M[K * K];

// The slide's conv2d_tiled (the product's is launched from kernels/convolution) with every load of
// N carrying an L2::256B prefetch hint.
__global__ void tiled_hint(const float* N, float* P, int Width, int Height, int TILE_SIZE) {
  __shared__ float Ns[32 * 32];
  const int BLOCK_SIZE = blockDim.x;
  int tx = threadIdx.x, ty = threadIdx.y;
  int row_o = blockIdx.y * TILE_SIZE + ty, col_o = blockIdx.x * TILE_SIZE + tx;
  int row_i = row_o - K / 2, col_i = col_o - K / 2;
  float output = 0.0f;
  if (row_i >= 0 && row_i < Height && col_i >= 0 && col_i < Width) {
    float x;
    asm volatile("ld.global.nc.L2::256B.f32 %0, [%1];" : "=f"(x) : "l"(N + row_i * Width + col_i));
    Ns[ty * BLOCK_SIZE + tx] = x;
  } else
    Ns[ty * BLOCK_SIZE + tx] = 0.0f;
  __syncthreads();
  if (ty < TILE_SIZE && tx < TILE_SIZE) {
#pragma unroll
    for (int i = 0; i < K; i++)
#pragma unroll
      for (int j = 0; j < K; j++) output += M[i * K + j] * Ns[(i + ty) * BLOCK_SIZE + j + tx];
    if (row_o < Height && col_o < Width) P[row_o * Width + col_o] = output;
  }
}

// The slide's tile body in a persistent grid that loads the next tile's pixel into a register while
// computing the current tile.
__global__ void tiled_pipelined(const float* __restrict__ N, float* __restrict__ P, int Width, int Height,
                                int TILE_SIZE, int tiles_x, int tiles) {
  __shared__ float Ns[32 * 32];
  const int BLOCK_SIZE = 32;
  int tx = threadIdx.x, ty = threadIdx.y;
  auto load = [&](int t) {
    int by = t / tiles_x, bx = t - by * tiles_x;
    int row_i = by * TILE_SIZE + ty - K / 2, col_i = bx * TILE_SIZE + tx - K / 2;
    return (row_i >= 0 && row_i < Height && col_i >= 0 && col_i < Width) ? N[row_i * Width + col_i] : 0.0f;
  };
  int t = blockIdx.x;
  float v = t < tiles ? load(t) : 0.0f;
  for (; t < tiles; t += gridDim.x) {
    Ns[ty * BLOCK_SIZE + tx] = v;
    __syncthreads();
    if (t + gridDim.x < tiles) v = load(t + gridDim.x);
    int by = t / tiles_x, bx = t - by * tiles_x;
    int row_o = by * TILE_SIZE + ty, col_o = bx * TILE_SIZE + tx;
    if (ty < TILE_SIZE && tx < TILE_SIZE) {
      float output = 0.0f;
#pragma unroll
      for (int i = 0; i < K; i++)
#pragma unroll
        for (int j = 0; j < K; j++) output += M[i * K + j] * Ns[(i + ty) * BLOCK_SIZE + j + tx];
      if (row_o < Height && col_o < Width) P[row_o * Width + col_o] = output;
    }
    __syncthreads();
  }
}

__device__ __forceinline__ void cp4(float* dst, const float* src, bool in) {
  unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(d), "l"(src), "r"(in ? 4 : 0) : "memory");
}

// conv2d_tiled_coarse at COARSEN outputs per thread (the product, launched from kernels/convolution,
// is MODE 1 at 8). MODE 0: the old row-by-row loop; 1: cp.async, unrolled.
template <int MODE, int COARSEN>
__global__ void __launch_bounds__(256)
    coarse(const float* __restrict__ N, float* __restrict__ P, int Width, int Height) {
  constexpr int TILE_X = 32, TILE_Y = 8 * COARSEN, IN_X = TILE_X + K - 1, IN_Y = TILE_Y + K - 1;
  __shared__ float Ns[IN_Y][IN_X];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row_start = blockIdx.y * TILE_Y - K / 2, col_start = blockIdx.x * TILE_X - K / 2;
  if (MODE == 0) {
    for (int r = ty; r < IN_Y; r += blockDim.y) {
      const int row_i = row_start + r;
      for (int c = tx; c < IN_X; c += blockDim.x) {
        const int col_i = col_start + c;
        Ns[r][c] = (row_i >= 0 && row_i < Height && col_i >= 0 && col_i < Width) ? N[row_i * Width + col_i] : 0.0f;
      }
    }
  } else {
#pragma unroll
    for (int r0 = 0; r0 < IN_Y; r0 += 8) {
      const int r = r0 + ty;
      if (r < IN_Y) {
        const int row_i = row_start + r;
        const bool row_in = row_i >= 0 && row_i < Height;
#pragma unroll
        for (int c0 = 0; c0 < IN_X; c0 += 32) {
          const int c = c0 + tx;
          if (c < IN_X) {
            const int col_i = col_start + c;
            const bool in = row_in && col_i >= 0 && col_i < Width;
            cp4(&Ns[r][c], in ? N + (row_i * Width + col_i) : N, in);
          }
        }
      }
    }
    asm volatile("cp.async.wait_all;\n" ::: "memory");
  }
  __syncthreads();
  float output[COARSEN];
#pragma unroll
  for (int k = 0; k < COARSEN; k++) output[k] = 0.0f;
#pragma unroll
  for (int rr = 0; rr < COARSEN + K - 1; rr++) {
    float v[K];
#pragma unroll
    for (int j = 0; j < K; j++) v[j] = Ns[ty * COARSEN + rr][tx + j];
#pragma unroll
    for (int k = 0; k < COARSEN; k++) {
      const int i = rr - k;
      if (i >= 0 && i < K) {
#pragma unroll
        for (int j = 0; j < K; j++) output[k] += M[i * K + j] * v[j];
      }
    }
  }
  const int col_o = blockIdx.x * TILE_X + tx;
#pragma unroll
  for (int k = 0; k < COARSEN; k++) {
    const int row_o = blockIdx.y * TILE_Y + ty * COARSEN + k;
    if (row_o < Height && col_o < Width) P[row_o * Width + col_o] = output[k];
  }
}

int main() {
  const int W = 8192, H = 8192;
  const size_t n = size_t(W) * H;
  std::vector<float> h(n), ref(n), got(n);
  srand(1);
  for (auto& x : h) x = float(rand() % 1000) / 100.0f;
  float m[K * K];
  for (int i = 0; i < K * K; ++i) m[i] = float((i * 7) % 5 + 1) / 16.0f;
  CK(cudaMemcpyToSymbol(M, m, sizeof m));
  upload_product_mask(m, K);
  float *in, *out;
  CK(cudaMalloc(&in, n * 4));
  CK(cudaMalloc(&out, n * 4));
  CK(cudaMemcpy(in, h.data(), n * 4, cudaMemcpyHostToDevice));
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  auto time = [](auto&& f) { return median_ms(f); };
  const double bytes = 2.0 * n * 4;
  const float tcopy = time([&] { CK(cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDeviceToDevice)); });
  const double copy = bytes / (tcopy * 1e6);
  const float tcopy4 = time([&] { copy4<<<sms * 8, 256>>>((const float4*)in, (float4*)out, long(n / 4)); });
  printf("| kernel | ms | GB/s | x copy | max diff |\n|---|---:|---:|---:|---:|\n");
  printf("| cudaMemcpy D2D | %.4f | %.0f | 1.00 | |\n", tcopy, copy);
  printf("| copy float4 kernel | %.4f | %.0f | %.2f | |\n", tcopy4, bytes / (tcopy4 * 1e6),
         bytes / (tcopy4 * 1e6) / copy);
  const int T = 32 - K + 1;
  const dim3 tg((W + T - 1) / T, (H + T - 1) / T), tb(32, 32);
  auto report = [&](const char* name, float t, bool is_ref = false) {
    CK(cudaMemcpy(is_ref ? ref.data() : got.data(), out, n * 4, cudaMemcpyDeviceToHost));
    double worst = 0;
    if (!is_ref)
      for (size_t i = 0; i < n; ++i) worst = std::max(worst, double(std::abs(got[i] - ref[i])));
    printf("| %s | %.4f | %.0f | %.2f | %g |\n", name, t, bytes / (t * 1e6), bytes / (t * 1e6) / copy, worst);
  };
  ProductConv slide("stevens.conv2d_tiled", W, H, K, T), coarse8("stevens.conv2d_tiled_coarse", W, H, K, 0);
  report("slide tiled 32x32 (tile 28)", time([&] { slide.run(in, out); }), true);
  CK(cudaMemset(out, 0xff, n * 4));
  report("tiled + L2::256B load hint", time([&] { tiled_hint<<<tg, tb>>>(in, out, W, H, T); }));
  CK(cudaMemset(out, 0xff, n * 4));
  const int tiles = int(tg.x * tg.y);
  for (int per : {2, 4, 8}) {
    char name[80];
    snprintf(name, sizeof name, "tiled pipelined persistent (%d blocks/SM)", per);
    CK(cudaMemset(out, 0xff, n * 4));
    report(name, time([&] { tiled_pipelined<<<sms * per, tb>>>(in, out, W, H, T, int(tg.x), tiles); }));
  }
  CK(cudaMemset(out, 0xff, n * 4));
  const dim3 cb(32, 8);
  report("coarse 8 row loop (old)", time([&] { coarse<0, 8><<<dim3(W / 32, H / 64), cb>>>(in, out, W, H); }));
  CK(cudaMemset(out, 0xff, n * 4));
  report("coarse 8 cp.async (the product)", time([&] { coarse8.run(in, out); }));
  CK(cudaMemset(out, 0xff, n * 4));
  report("coarse 16 cp.async", time([&] { coarse<1, 16><<<dim3(W / 32, H / 128), cb>>>(in, out, W, H); }));
  CK(cudaMemset(out, 0xff, n * 4));
  report("coarse 4 cp.async", time([&] { coarse<1, 4><<<dim3(W / 32, H / 32), cb>>>(in, out, W, H); }));
  return 0;
}
