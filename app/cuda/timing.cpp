#include "timing.hpp"

#include <vector>

#include "common/check_cuda.hpp"

namespace ws::cuda {

Timing time_launches(CudaContext& ctx, const std::function<void()>& enqueue, int warmup, int repeat,
                     const std::function<void()>& before) {
  for (int i = 0; i < warmup; ++i) {
    if (before) before();
    enqueue();
  }
  std::vector<double> samples;
  for (int i = 0; i < repeat; ++i) {
    if (before) before();
    WS_CUDA(cudaEventRecord(ctx.start, ctx.stream));
    enqueue();
    WS_CUDA(cudaEventRecord(ctx.stop, ctx.stream));
    WS_CUDA(cudaEventSynchronize(ctx.stop));
    WS_CUDA(cudaGetLastError());
    float ms = 0;
    WS_CUDA(cudaEventElapsedTime(&ms, ctx.start, ctx.stop));
    samples.push_back(ms);
  }
  if (samples.empty()) {  // repeat = 0: still make sure the warm-up launches finished cleanly
    WS_CUDA(cudaStreamSynchronize(ctx.stream));
    WS_CUDA(cudaGetLastError());
    return Timing{};
  }
  return summarize(samples);
}

}  // namespace ws::cuda
