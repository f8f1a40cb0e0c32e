// The first two methods of the lesson "Reduction across GPUs": every GPU reduces its own int32 shard to one
// value with the best single-GPU kernel of the reduction lessons (epita.tuned, after "Reduction Pattern",
// Carlinet and Chazalon, EPITA 2023: reduce7's wide loads and one launch), then the partials meet:
//   HostAdd     each GPU's partial comes back to the host, which adds them in int64 (CS121's deviceReduce
//               finishes on the host the same way, "GPUs and CUDA 3: Intrinsics");
//   PeerToGpu0  the partials travel to GPU 0 by peer copies (NVLink or PCIe), and one more launch there adds
//               them: the second pass of the lessons' two-pass reduction, across devices.
#include <algorithm>
#include <limits>
#include <memory>
#include <stdexcept>

#include "collective/collective_launch.hpp"
#include "collective/methods.hpp"
#include "common/check_cuda.hpp"
#include "reduction/reduce_launch.hpp"

namespace ws::cuda::collective {

namespace wc = ws::collective;

namespace {

constexpr int kBlock = 1024;        // epita.tuned's default block (its VariantInfo)
constexpr int kItemsPerThread = 4;  // its window: one int4 per thread and tile row

kernels::ReduceLauncher tuned_launcher() {
  for (const kernels::LauncherEntry& e : kernels::reduction_launchers())
    if (std::string(e.id) == "epita.tuned") return e.launch;
  throw std::runtime_error("epita.tuned has no launcher in this build");
}

/// One GPU's shard and the buffers epita.tuned needs (reduce_launch.hpp's ReduceArgs contract).
struct Shard {
  DeviceBuffer data, scratch, result;
  kernels::ReduceArgs args;
};

Shard upload_shard(int gpu, std::int64_t n, cudaStream_t stream) {
  const std::int64_t window = std::int64_t(kBlock) * kItemsPerThread;
  const std::int64_t capacity =
      ((n + window - 1) / window * window + kernels::kPadGranule - 1) / kernels::kPadGranule * kernels::kPadGranule;
  const std::int64_t scratch_elems = 2 * ((n + 31) / 32 + kernels::kPadGranule);
  Shard s;
  s.data = DeviceBuffer(gpu, std::size_t(capacity) * sizeof(std::int32_t));
  s.scratch = DeviceBuffer(gpu, std::size_t(scratch_elems) * sizeof(std::int32_t));
  s.result = DeviceBuffer(gpu, kernels::kResultElems * sizeof(std::int32_t));
  std::vector<std::int32_t> host(std::size_t(capacity), 0);  // padded with the sum's identity
  for (std::int64_t i = 0; i < n; ++i) host[std::size_t(i)] = wc::input_value(gpu, i);
  WS_CUDA(cudaMemcpy(s.data.ptr, host.data(), host.size() * sizeof(std::int32_t), cudaMemcpyHostToDevice));
  int sms = 0, threads_per_sm = 0;
  WS_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, gpu));
  WS_CUDA(cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, gpu));
  // One wave of blocks, as launch_rules resolves a grid-stride variant's grid (blocks take tiles until none).
  const std::int64_t windows = (n + window - 1) / window;
  const std::int64_t wave = std::int64_t(sms) * std::max(1, threads_per_sm / kBlock);
  s.args.data = s.data.ptr;
  s.args.n = n;
  s.args.capacity = capacity;
  s.args.scratch = s.scratch.ptr;
  s.args.scratch_elems = scratch_elems;
  s.args.result = s.result.ptr;
  s.args.block = kBlock;
  s.args.grid = std::max<std::int64_t>(1, std::min(windows, wave));
  s.args.type = DType::Int32;
  s.args.stream = stream;
  return s;
}

struct PinnedDeleter {
  void operator()(void* p) const { cudaFreeHost(p); }
};

}  // namespace

void run_scalar_reduce(const wc::AllReduceRequest& r, int gpus, wc::AllReduceResult& out) {
  const kernels::ReduceLauncher launch = tuned_launcher();
  GpuGroup group(gpus);
  std::vector<Shard> shards;
  for (int g = 0; g < gpus; ++g) shards.push_back(upload_shard(g, r.length, group.stream(g)));
  // Pinned host slots: the partials (HostAdd) or GPU 0's int64 total (PeerToGpu0).
  void* pinned_raw = nullptr;
  WS_CUDA(cudaHostAlloc(&pinned_raw, 16 * sizeof(std::int64_t), cudaHostAllocPortable));
  std::unique_ptr<void, PinnedDeleter> pinned(pinned_raw);
  auto* host_partials = static_cast<std::int32_t*>(pinned_raw);
  auto* host_total = static_cast<std::int64_t*>(pinned_raw) + 8;
  DeviceBuffer partials_on_0(0, 8 * sizeof(std::int32_t)), total_on_0(0, sizeof(std::int64_t));
  const bool to_gpu0 = r.method == wc::Method::PeerToGpu0;

  auto enqueue = [&] {
    for (int g = 0; g < gpus; ++g) {
      WS_CUDA(cudaSetDevice(g));  // the launcher finds its counters on the current device
      const kernels::ReduceOutcome o = launch(shards[g].args);
      if (!to_gpu0) {
        WS_CUDA(cudaMemcpyAsync(host_partials + g, o.partials, sizeof(std::int32_t), cudaMemcpyDeviceToHost,
                                group.stream(g)));
      } else {
        // The partial crosses the link to GPU 0's slot g (GPU 0's own is a copy on the device).
        WS_CUDA(cudaMemcpyPeerAsync(partials_on_0.as<std::int32_t>() + g, 0, o.partials, g, sizeof(std::int32_t),
                                    group.stream(g)));
      }
    }
    if (to_gpu0) {
      group.barrier(0);  // GPU 0 waits for every partial
      WS_CUDA(cudaSetDevice(0));
      kernels::collective::launch_add_partials(total_on_0.as<std::int64_t>(), partials_on_0.as<std::int32_t>(), gpus,
                                               group.stream(0));
      WS_CUDA(
          cudaMemcpyAsync(host_total, total_on_0.ptr, sizeof(std::int64_t), cudaMemcpyDeviceToHost, group.stream(0)));
    }
  };
  const int marks = to_gpu0 ? 1 : 0;
  std::vector<std::vector<double>> unused;
  // Before each repeat, outside the clock: the host slots are poisoned, so a result that never arrived shows.
  auto poison = [&] {
    for (int g = 0; g < 8; ++g) host_partials[g] = std::numeric_limits<std::int32_t>::min();
    *host_total = std::numeric_limits<std::int64_t>::min();
  };
  std::vector<double> ms = group.time_repeats(r.warmup, r.repeats, poison, enqueue, marks, &unused);
  if (r.repeats == 0 && r.warmup == 0) {
    poison();
    enqueue();
    group.synchronize();
  }
  out.median_ms = median(ms);

  std::int64_t total = 0;
  if (to_gpu0) {
    total = *host_total;
  } else {
    for (int g = 0; g < gpus; ++g) total += host_partials[g];  // the host's add, in int64
  }
  std::int64_t reference = 0;
  for (int g = 0; g < gpus; ++g)
    for (std::int64_t i = 0; i < r.length; ++i) reference += wc::input_value(g, i);
  out.correct = total == reference;
  if (!out.correct) out.detail = "total " + std::to_string(total) + " (reference " + std::to_string(reference) + ")";
  out.ran = true;
}

}  // namespace ws::cuda::collective
