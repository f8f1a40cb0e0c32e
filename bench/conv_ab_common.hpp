// What the two convolution A/B harnesses (conv_ab.cu, conv2d_ab.cu) share: the error check, the
// float4 copy kernel and the event timing they compare against, and the product's 2-D convolution
// kernels (kernels/convolution/stevens_conv.cu) launched through their launchers (conv_launch.hpp) with
// the launch core resolves for the variant (conv_geometry), so a harness times what the app times
// instead of a copy of the kernel.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "ck.hpp"
#include "convolution/conv_launch.hpp"
#include "patterns/convolution/conv_geometry.hpp"
#include "registry.hpp"

/// b[i] = a[i] for n4 float4s, grid-stride: the copy kernel the harnesses set beside cudaMemcpy.
__global__ void copy4(const float4* __restrict__ a, float4* __restrict__ b, long n4) {
  for (long i = blockIdx.x * long(blockDim.x) + threadIdx.x; i < n4; i += long(gridDim.x) * blockDim.x) b[i] = a[i];
}

/// Median milliseconds of 20 runs of `enqueue` (after 3 untimed ones), each between two events on the
/// default stream.
template <class F>
float median_ms(F&& enqueue) {
  static cudaEvent_t a = nullptr, b = nullptr;
  if (!a) {
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
  }
  std::vector<float> ms;
  for (int r = 0; r < 23; ++r) {
    CK(cudaEventRecord(a));
    enqueue();
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    float t;
    cudaEventElapsedTime(&t, a, b);
    if (r >= 3) ms.push_back(t);
  }
  CK(cudaGetLastError());
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

/// One product variant resolved once (outside the timed region): `id` at mask width K and tile `tile`
/// (0: the variant's default) on a W x H float image. Exits with a message when the variant refuses it.
struct ProductConv {
  ws::kernels::ConvLauncher launcher = nullptr;
  ws::kernels::ConvArgs args;

  ProductConv(const char* id, int W, int H, int K, int tile) {
    const ws::VariantInfo* v = ws::find_variant(id);
    ws::ConvGeometry g;
    const std::string err = v ? ws::conv_geometry(*v, K, tile, 0, W, H, g) : std::string("not a variant");
    if (!err.empty()) {
      std::printf("%s at mask %d, tile %d, %d x %d: %s\n", id, K, tile, W, H, err.c_str());
      std::exit(1);
    }
    for (const auto& e : ws::kernels::stevens_conv_launchers())
      if (std::strcmp(e.id, id) == 0) launcher = e.launch;
    if (!launcher) {
      std::printf("%s: no launcher in kernels/convolution\n", id);
      std::exit(1);
    }
    args.g = g.shape();
  }

  /// Enqueues the variant's kernel on the default stream: `in` and `out` hold W x H floats.
  void run(const float* in, float* out) {
    args.input = in;
    args.output = out;
    launcher(args);
  }
};

/// Puts the K x K mask into the product kernels' constant memory (the harness's own candidates keep theirs).
inline void upload_product_mask(const float* m, int K) { ws::kernels::upload_conv_mask(m, K * K, nullptr); }
