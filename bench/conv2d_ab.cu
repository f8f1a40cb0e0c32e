// A/B harness for the 2D convolution bar (float32, 5x5 on 8192 x 8192, >= 0.8x the device copy,
// bytes = input + output). Not part of the product: an optional CMake target (bench/CMakeLists.txt).
// One process measures, beside a device-to-device cudaMemcpy: the slide kernel (stevens.conv2d_tiled,
// the product's kernel through its launcher: conv_ab_common.hpp) at every tile its block allows, the
// register-tiled candidates (each thread VW adjacent outputs of R rows, input rows loaded once per
// thread column with vector loads straight from global memory, halo through L1/L2, accumulated with
// the constant-memory mask in the order i, j of the slides), and prints for the slide kernel the
// shared-memory lower bound on time (wavefronts / (SMs x 1 wavefront per clock x SM clock)).
// Every output is checked against the slide kernel (tile 28) on the same input (max |diff|, poisoned
// output before each candidate); `check` mode sweeps odd mask widths 1..15 and awkward sizes.
// Build and run on the GPU machine:
//   cmake --build --preset device --target ws_conv2d_ab && build-device/bench/ws_conv2d_ab [time|check|ncu]
// ncu mode launches each profiled kernel once (for `ncu -k regex:'convolution_2D_tiled|reg_conv' ...`).
// Results on the H200: docs/device/h200-ab-harnesses.md.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "conv_ab_common.hpp"

constexpr int MAXK = 15;
__constant__ float M[MAXK * MAXK];

// Register tiling: thread (tx, ty) of a 32 x BY block computes outputs [x0, x0 + VW) x [y0, y0 + R),
// x0 = (bx * 32 + tx) * VW, y0 = (by * BY + ty) * R. It walks the R + K - 1 input rows under its
// columns once; each row's VW + K - 1 values (VEC: the aligned VW-wide chunks that cover them, 0
// outside the image) sit in registers and are added into every output row they touch, mask row
// i = rr - k, columns j ascending: per output the slides' order i, j. LDG: 0 plain loads, 1 __ldg.
// ST: 0 plain stores, 1 __stcs (streaming). VEC false: scalar loads and stores (any width).
template <int VW>
struct Vec;
template <>
struct Vec<4> {
  using T = float4;
};
template <>
struct Vec<2> {
  using T = float2;
};

template <int K, int VW, int R, int BY, int LDG, int ST, bool VEC>
__global__ void __launch_bounds__(32 * BY) reg_conv(const float* __restrict__ N, float* __restrict__ P, int W, int H) {
  constexpr int r = K / 2;
  constexpr int HC = VEC ? (r + VW - 1) / VW : 0;  // halo chunks per side
  constexpr int NV = VEC ? VW * (1 + 2 * HC) : VW + K - 1;
  constexpr int OFF = VEC ? VW * HC - r : 0;  // v[OFF + q + j] is input column x0 + q + j - r
  using V = typename Vec<VW>::T;
  const int x0 = (blockIdx.x * 32 + threadIdx.x) * VW;
  const int y0 = (blockIdx.y * BY + threadIdx.y) * R;
  if (x0 >= W || y0 >= H) return;
  float acc[R][VW];
#pragma unroll
  for (int k = 0; k < R; ++k)
#pragma unroll
    for (int q = 0; q < VW; ++q) acc[k][q] = 0.0f;
#pragma unroll
  for (int rr = 0; rr < R + K - 1; ++rr) {
    const int y = y0 - r + rr;
    const bool row_in = y >= 0 && y < H;
    const float* row = N + std::size_t(row_in ? y : 0) * W;
    float v[NV];
    if (VEC) {
#pragma unroll
      for (int c = 0; c < NV / VW; ++c) {
        const int xc = x0 + VW * (c - HC);
        V q;
        if (row_in && xc >= 0 && xc < W)
          q = LDG ? __ldg(reinterpret_cast<const V*>(row + xc)) : *reinterpret_cast<const V*>(row + xc);
        else
          memset(&q, 0, sizeof q);
        memcpy(&v[c * VW], &q, sizeof q);
      }
    } else {
#pragma unroll
      for (int c = 0; c < NV; ++c) {
        const int x = x0 - r + c;
        v[c] = (row_in && x >= 0 && x < W) ? (LDG ? __ldg(row + x) : row[x]) : 0.0f;
      }
    }
#pragma unroll
    for (int k = 0; k < R; ++k) {
      const int i = rr - k;
      if (i >= 0 && i < K) {
#pragma unroll
        for (int j = 0; j < K; ++j)
#pragma unroll
          for (int q = 0; q < VW; ++q) acc[k][q] += M[i * K + j] * v[OFF + q + j];
      }
    }
  }
#pragma unroll
  for (int k = 0; k < R; ++k) {
    if (y0 + k >= H) break;
    float* out = P + std::size_t(y0 + k) * W + x0;
    if (VEC) {
      V q;
      memcpy(&q, acc[k], sizeof q);
      if (ST)
        __stcs(reinterpret_cast<V*>(out), q);
      else
        *reinterpret_cast<V*>(out) = q;
    } else {
#pragma unroll
      for (int q = 0; q < VW; ++q)
        if (x0 + q < W) out[q] = acc[k][q];
    }
  }
}

template <int K, int VW, int R, int BY, int LDG, int ST>
void launch_reg(const float* in, float* out, int W, int H, bool vec) {
  const dim3 grid((W + 32 * VW - 1) / (32 * VW), (H + R * BY - 1) / (R * BY)), block(32, BY);
  if (vec)
    reg_conv<K, VW, R, BY, LDG, ST, true><<<grid, block>>>(in, out, W, H);
  else
    reg_conv<K, VW, R, BY, LDG, ST, false><<<grid, block>>>(in, out, W, H);
}

// Shared-memory wavefronts of one slide block (tile T, mask K): one per warp for the store into Ns, and
// K*K per warp with a computing lane (a warp's 32 addresses are lane + constant: one wavefront each).
long slide_wavefronts_per_block(int T, int K) {
  const int B = T + K - 1, threads = B * B, warps = (threads + 31) / 32;
  long computing = 0;
  for (int w = 0; w < warps; ++w) {
    bool any = false;
    for (int l = w * 32; l < std::min(threads, w * 32 + 32); ++l) any = any || (l / B < T && l % B < T);
    computing += any;
  }
  return warps + long(K) * K * computing;
}

std::vector<float> random_floats(std::size_t n, unsigned seed) {
  std::vector<float> v(n);
  srand(seed);
  for (auto& x : v) x = float(rand() % 2001 - 1000) / 256.0f;
  return v;
}

void set_mask(int K, unsigned seed) {
  const auto m = random_floats(std::size_t(K) * K, seed);
  CK(cudaMemcpyToSymbol(M, m.data(), m.size() * 4));
  upload_product_mask(m.data(), K);
}

struct Case {
  const char* name;
  void (*run)(const float*, float*, int, int, bool);
  bool vec;
};

#define REG(K, VW, R, BY, LDG, ST) launch_reg<K, VW, R, BY, LDG, ST>

// A CPU double reference of one output (ghost cells 0).
double cpu_ref(const std::vector<float>& n, const std::vector<float>& m, int K, int W, int H, int y, int x) {
  double s = 0;
  for (int i = 0; i < K; ++i)
    for (int j = 0; j < K; ++j) {
      const int yy = y - K / 2 + i, xx = x - K / 2 + j;
      if (yy >= 0 && yy < H && xx >= 0 && xx < W) s += double(m[i * K + j]) * n[std::size_t(yy) * W + xx];
    }
  return s;
}

// Sweep: odd mask widths, awkward sizes, both load paths, against the CPU reference on every pixel.
template <int K>
int check_k(float* in, float* out) {
  const int sizes[][2] = {{1, 1}, {7, 7}, {37, 53}, {777, 1000}, {33, 2048}, {1001, 999}, {5, 130}, {300, 4}};
  int bad = 0;
  set_mask(K, 100 + K);
  std::vector<float> m(K * K);
  CK(cudaMemcpyFromSymbol(m.data(), M, m.size() * 4));
  for (auto& s : sizes) {
    const int H = s[0], W = s[1];
    const auto h = random_floats(std::size_t(W) * H, W * 31 + H);
    CK(cudaMemcpy(in, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
    for (int path = 0; path < 4; ++path) {
      const bool vec = path % 2 == 0;
      if (vec && W % 4) continue;
      CK(cudaMemset(out, 0xff, h.size() * 4));
      if (path < 2)
        launch_reg<K, 4, 8, 4, 1, 1>(in, out, W, H, vec);
      else
        launch_reg<K, 4, 16, 4, 1, 1>(in, out, W, H, vec);
      CK(cudaGetLastError());
      std::vector<float> got(h.size());
      CK(cudaMemcpy(got.data(), out, got.size() * 4, cudaMemcpyDeviceToHost));
      double worst = 0, scale = 1;
      for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
          const double ref = cpu_ref(h, m, K, W, H, y, x);
          const double g = got[std::size_t(y) * W + x];
          scale = std::max(scale, std::abs(ref));
          worst = std::isnan(g) ? 1e30 : std::max(worst, std::abs(g - ref));
        }
      const bool ok = worst <= 1e-5 * scale * K;
      if (!ok) {
        ++bad;
        printf("FAIL K=%d %dx%d path %d: max diff %g (scale %g)\n", K, H, W, path, worst, scale);
      }
    }
  }
  printf("check K=%d: %s\n", K, bad ? "FAIL" : "ok");
  return bad;
}

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "time";
  int dev = 0, sms = 0, clock_khz = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  CK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, dev));
  const int W = 8192, H = 8192;
  const size_t n = size_t(W) * H;
  float *in, *out;
  CK(cudaMalloc(&in, n * 4));
  CK(cudaMalloc(&out, n * 4));

  if (mode == "check") {
    int bad = check_k<1>(in, out) + check_k<3>(in, out) + check_k<5>(in, out) + check_k<7>(in, out) +
              check_k<9>(in, out) + check_k<11>(in, out) + check_k<13>(in, out) + check_k<15>(in, out);
    printf("check: %d failures\n", bad);
    return bad != 0;
  }

  const auto h = random_floats(n, 1);
  CK(cudaMemcpy(in, h.data(), n * 4, cudaMemcpyHostToDevice));
  set_mask(5, 7);

  ProductConv slide28("stevens.conv2d_tiled", W, H, 5, 28);
  if (mode == "ncu") {  // one launch each
    slide28.run(in, out);
    launch_reg<5, 4, 8, 4, 1, 1>(in, out, W, H, true);
    launch_reg<5, 4, 16, 4, 1, 1>(in, out, W, H, true);
    CK(cudaDeviceSynchronize());
    return 0;
  }

  std::vector<float> ref(n), got(n);
  auto time = [](auto&& f) { return median_ms(f); };
  const double bytes = 2.0 * n * 4;
  const float tcopy = time([&] { CK(cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDeviceToDevice)); });
  const float tcopy2 = time([&] { CK(cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDeviceToDevice)); });
  const double copy = bytes / (tcopy * 1e6);
  const float tcopy4 = time([&] { copy4<<<sms * 8, 256>>>((const float4*)in, (float4*)out, long(n / 4)); });
  printf("device %d SMs, cudaDevAttrClockRate %d kHz; copy twice %.4f / %.4f ms\n", sms, clock_khz, tcopy, tcopy2);
  printf("| kernel | ms | GB/s | x copy | max diff vs slide | smem bound ms |\n|---|---:|---:|---:|---:|---:|\n");
  printf("| cudaMemcpy D2D | %.4f | %.0f | 1.00 | | |\n", tcopy, copy);
  printf("| copy float4 kernel | %.4f | %.0f | %.2f | | |\n", tcopy4, bytes / (tcopy4 * 1e6),
         bytes / (tcopy4 * 1e6) / copy);
  auto report = [&](const std::string& name, float t, bool is_ref, double bound_ms) {
    CK(cudaMemcpy(is_ref ? ref.data() : got.data(), out, n * 4, cudaMemcpyDeviceToHost));
    double worst = 0;
    if (!is_ref)
      for (size_t i = 0; i < n; ++i)
        worst = std::isnan(got[i]) ? 1e30 : std::max(worst, double(std::abs(got[i] - ref[i])));
    char bound[32] = "";
    if (bound_ms > 0) snprintf(bound, sizeof bound, "%.4f", bound_ms);
    printf("| %s | %.4f | %.0f | %.2f | %g | %s |\n", name.c_str(), t, bytes / (t * 1e6), bytes / (t * 1e6) / copy,
           worst, bound);
    fflush(stdout);
  };
  for (int tile : {28, 24, 20, 16, 12, 8}) {
    const long blocks = long((W + tile - 1) / tile) * ((H + tile - 1) / tile);
    const double wf = double(blocks) * slide_wavefronts_per_block(tile, 5);
    const double bound = wf / (double(sms) * clock_khz * 1e3) * 1e3;
    ProductConv slide("stevens.conv2d_tiled", W, H, 5, tile);
    CK(cudaMemset(out, 0xff, n * 4));
    const float t = time([&] { slide.run(in, out); });
    report("slide conv2d_tiled tile " + std::to_string(tile) + " (" + std::to_string(long(wf / 1e6)) + "M wavefronts)",
           t, tile == 28, bound);
  }
  const Case cases[] = {
      {"reg VW4 R4 BY4 ldg stcs", REG(5, 4, 4, 4, 1, 1), true},
      {"reg VW4 R8 BY2 ldg stcs", REG(5, 4, 8, 2, 1, 1), true},
      {"reg VW4 R8 BY4 ldg stcs", REG(5, 4, 8, 4, 1, 1), true},
      {"reg VW4 R8 BY8 ldg stcs", REG(5, 4, 8, 8, 1, 1), true},
      {"reg VW4 R8 BY4 plain plain", REG(5, 4, 8, 4, 0, 0), true},
      {"reg VW4 R8 BY4 ldg plain", REG(5, 4, 8, 4, 1, 0), true},
      {"reg VW4 R16 BY2 ldg stcs", REG(5, 4, 16, 2, 1, 1), true},
      {"reg VW4 R16 BY4 ldg stcs", REG(5, 4, 16, 4, 1, 1), true},
      {"reg VW4 R16 BY8 ldg stcs", REG(5, 4, 16, 8, 1, 1), true},
      {"reg VW4 R32 BY4 ldg stcs", REG(5, 4, 32, 4, 1, 1), true},
      {"reg VW2 R8 BY4 ldg stcs", REG(5, 2, 8, 4, 1, 1), true},
      {"reg VW2 R16 BY4 ldg stcs", REG(5, 2, 16, 4, 1, 1), true},
      {"reg VW2 R16 BY8 ldg stcs", REG(5, 2, 16, 8, 1, 1), true},
      {"reg VW4 R8 BY4 scalar path", REG(5, 4, 8, 4, 1, 1), false},
      {"reg VW4 R16 BY4 scalar path", REG(5, 4, 16, 4, 1, 1), false},
  };
  for (const auto& c : cases) {
    CK(cudaMemset(out, 0xff, n * 4));
    const float t = time([&] { c.run(in, out, W, H, c.vec); });
    report(c.name, t, false, 0);
  }
  // the same kernels again, to see the run-to-run spread
  CK(cudaMemset(out, 0xff, n * 4));
  report("slide conv2d_tiled tile 28 (again)", time([&] { slide28.run(in, out); }), false, 0);
  CK(cudaMemset(out, 0xff, n * 4));
  report("reg VW4 R8 BY4 ldg stcs (again)", time([&] { launch_reg<5, 4, 8, 4, 1, 1>(in, out, W, H, true); }), false, 0);
  CK(cudaMemset(out, 0xff, n * 4));
  report("reg VW4 R16 BY4 ldg stcs (again)", time([&] { launch_reg<5, 4, 16, 4, 1, 1>(in, out, W, H, true); }), false,
         0);
  report("cudaMemcpy D2D (again)", time([&] { CK(cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDeviceToDevice)); }), false,
         0);
  return 0;
}
