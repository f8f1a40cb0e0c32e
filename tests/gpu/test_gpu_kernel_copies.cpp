// Copies of the slides' kernels (the Source view's "Edit a copy", app/controller/kernel_copy.cpp) run on the
// GPU as the editor sends them: the convolutions that read their mask from __constant__ memory keep it, and
// the worker fills it (the header's mask_symbol) as the slides' host code does with cudaMemcpyToSymbol.
// Its own executable (ws_gpu_editor_tests): it links the GUI's editor code, which ws_gpu_tests does not.
#include <gtest/gtest.h>

#include <cstdio>

#include "gpu_device.hpp"
#include "kernel_copy.hpp"
#include "kernel_sources.hpp"
#include "registry.hpp"
#include "request.hpp"

using namespace ws;

namespace {

/// The request the editor's Ctrl+Enter makes for variant `id`'s copy as made: --like the variant.
RunRequest copy_request(const std::string& id, std::int64_t n, int mask_width) {
  const VariantInfo* v = find_variant(id);
  EXPECT_NE(v, nullptr) << id;
  const controller::KernelCopy c = controller::make_kernel_copy(*v, controller::find_section(id));
  EXPECT_EQ(c.note, "") << id;
  RunRequest r;
  r.kernel.source = c.text;
  r.kernel.file = id.substr(id.find('.') + 1) + ".edited.cu";
  r.kernel.pattern = v->pattern;
  r.kernel.like = id;
  r.n = n;
  r.params.mask_width = mask_width;
  r.backend = BackendKind::Cuda;
  return r;
}

}  // namespace

// Every 1-D convolution copy that reads the mask from __constant__ memory runs correct against the CPU
// convolution, at several mask widths (the widest, 15, fills what the tiled copies' halo makes room for).
TEST(GpuKernelCopies, ConstantMaskConvolutionCopiesRunCorrect) {
  int ran = 0;
  for (const VariantInfo& v : all_variants()) {
    if (v.pattern != PatternKind::Convolution || !controller::why_not_editable(v).empty()) continue;
    const controller::KernelCopy c = controller::make_kernel_copy(v, controller::find_section(v.id));
    if (c.text.find("mask_symbol=") == std::string::npos) continue;
    for (int width : {3, 7, 15})
      for (std::int64_t n : {std::int64_t(1) << 20, std::int64_t(1024) * 37}) {
        const RunResult r = execute(copy_request(v.id, n, width), &test::gpu());
        EXPECT_EQ(r.status, RunStatus::Ok) << v.id << " mask " << width << " n " << n << ": " << r.message;
        if (n == std::int64_t(1) << 20 && width == 7)
          std::printf("[ gpu      ] %s copy, mask 7, n=2^20: %s, %.4f ms, %.0f GB/s\n", v.id.c_str(),
                      to_string(r.status), r.timing.median_ms, r.gbps);
      }
    ++ran;
  }
  EXPECT_GE(ran, 3) << "stevens.conv1d_const, conv1d_tiled and conv1d_tiled_cache read the mask from __constant__";
}

// A kernel whose __constant__ array is smaller than the run's mask is refused with one line, not run.
TEST(GpuKernelCopies, AConstantMaskTooSmallIsRefused) {
  RunRequest r = copy_request("stevens.conv1d_const", 1 << 16, 7);
  const std::string decl = "__constant__ float M[MAX_MASK_WIDTH * MAX_MASK_WIDTH];";
  const auto at = r.kernel.source.find(decl);
  ASSERT_NE(at, std::string::npos);
  r.kernel.source.replace(at, decl.size(), "__constant__ float M[5];");
  const RunResult got = execute(r, &test::gpu());
  EXPECT_EQ(got.status, RunStatus::Error);
  EXPECT_NE(got.message.find("__constant__ M holds 5 floats, the run's mask 7"), std::string::npos) << got.message;
  // A header that names no such array says so.
  RunRequest none = copy_request("stevens.conv1d_const", 1 << 16, 7);
  const std::string key = "mask_symbol=M";
  none.kernel.source.replace(none.kernel.source.find(key), key.size(), "mask_symbol=Mask");
  const RunResult missing = execute(none, &test::gpu());
  EXPECT_EQ(missing.status, RunStatus::Error);
  EXPECT_NE(missing.message.find("mask_symbol=Mask names no __constant__ array"), std::string::npos) << missing.message;
}
