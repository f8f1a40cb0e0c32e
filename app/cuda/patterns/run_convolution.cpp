// The CUDA runner of the convolution pattern (docs/patterns.md): "CS 677 Lecture 6", Mordohai's
// kernels through kernels/convolution/conv_launch.hpp.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/check_cuda.hpp"
#include "convolution/conv_launch.hpp"
#include "cupti/cupti_metrics.hpp"
#include "parallel.hpp"
#include "pattern_runner.hpp"
#include "patterns/convolution/pattern_convolution.hpp"
#include "timing.hpp"

namespace ws::cuda {

namespace {

const kernels::ConvLauncherEntry* find_launcher(const std::string& id) {
  static const std::unordered_map<std::string, kernels::ConvLauncherEntry> table = [] {
    std::unordered_map<std::string, kernels::ConvLauncherEntry> t;
    for (const auto& e : kernels::stevens_conv_launchers()) t.emplace(e.id, e);
    return t;
  }();
  auto it = table.find(id);
  return it == table.end() ? nullptr : &it->second;
}

/// Uploads the input (zero-padded to the geometry's capacity: the 1D slide kernels read every thread's
/// N[i]) and the mask (global copy for the basic kernels, constant memory for the others), times the
/// kernel and downloads the outputs. Nothing is written to the input, so nothing is restored.
RunResult run_convolution(CudaContext& ctx, const VariantInfo& v, const RunRequest& req, const Input& in,
                          const LaunchConfig&) {
  ConvSetup s;
  std::string err = conv_setup(v, req.params, req.launch.block, in, s);
  if (!err.empty()) throw std::runtime_error(err);
  const kernels::ConvLauncherEntry* entry = find_launcher(v.id);
  if (!entry) throw std::runtime_error(v.id + ": no CUDA kernel in this build");
  const kernels::ConvLauncher launch = entry->launch;
  const ConvGeometry& g = s.g;
  const std::size_t cap = std::size_t(g.capacity), n = std::size_t(in.n());

  HostClock clock;
  auto* input = static_cast<float*>(ctx.buffer("conv_input", cap * sizeof(float)));
  auto* output = static_cast<float*>(ctx.buffer("conv_output", cap * sizeof(float)));
  auto* mask = static_cast<float*>(ctx.buffer("conv_mask", s.mask.size() * sizeof(float)));
  // Every upload on the run's stream, then one sync: a legacy-stream copy from pageable memory may
  // return before its DMA lands, and the non-blocking stream would not wait for it. The input goes
  // through the pinned staging buffers (ctx.upload, which waits for it).
  ctx.upload(input, in.f32.data(), n * sizeof(float));
  // Memsets on the run's (non-blocking) stream: on the legacy stream they would not be ordered before
  // the kernels. 0.0f is all-zero bits; 0xff bytes are a NaN, so an output no thread writes shows up.
  if (cap > n) WS_CUDA(cudaMemsetAsync(input + n, 0, (cap - n) * sizeof(float), ctx.stream));
  WS_CUDA(cudaMemsetAsync(output, 0xff, cap * sizeof(float), ctx.stream));
  WS_CUDA(cudaMemcpyAsync(mask, s.mask.data(), s.mask.size() * sizeof(float), cudaMemcpyHostToDevice, ctx.stream));
  kernels::upload_conv_mask(s.mask.data(), int(s.mask.size()), ctx.stream);
  WS_CUDA(cudaStreamSynchronize(ctx.stream));

  kernels::ConvArgs a;
  a.input = input;
  a.output = output;
  a.mask = mask;
  a.g = g.shape();
  a.stream = ctx.stream;
  int launches = 0;
  RunResult r;
  r.host_ms.upload = clock.lap();
  r.timing = time_launches(
      ctx, [&] { launches = launch(a); }, req.warmup, req.repeat);
  r.host_ms.launches = clock.lap();
  r.output.resize(n);  // widened to double straight from the staging buffer
  ctx.download(output, n * sizeof(float), [&](std::size_t off, const void* host, std::size_t len) {
    widen_to_double(static_cast<const float*>(host), std::int64_t(len / sizeof(float)),
                    r.output.data() + off / sizeof(float));
  });

  r.variant = v.id;
  r.lesson = v.lesson;
  r.backend = BackendKind::Cuda;
  r.device = ctx.device.name;
  r.n = in.n();
  r.type = DType::Float32;
  r.input = in.kind;
  r.seed = req.seed;
  r.launch = LaunchConfig{g.threads(), g.blocks()};
  r.timed = true;
  r.launches = launches;
  r.output_rows = g.dims == 2 ? g.height : 0;
  r.output_cols = g.width;
  r.message = g.describe();
  r.status = RunStatus::Ran;
  r.code_path = kernels::arch_path_taken(entry->paths, ctx.device.cc_major * 10 + ctx.device.cc_minor);
  r.host_ms.download = clock.lap();
  // Hardware metrics after the output is downloaded: replayed launches of the same
  // launcher, which resets whatever it accumulates into (nothing of the input is overwritten).
  if (!req.metrics.empty()) {
    r.metrics = collect_metrics(req.metrics, 0, ctx.stream, [&] { launch(a); });
    r.host_ms.metrics = clock.lap();
  }
  return r;
}

}  // namespace

std::vector<PatternRunEntry> convolution_pattern_runs() { return {{PatternKind::Convolution, run_convolution}}; }

}  // namespace ws::cuda
