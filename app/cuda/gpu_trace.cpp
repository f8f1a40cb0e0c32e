// CudaBackend::record_trace: the step trace of one block, recorded on the GPU by the trace build of the
// kernels (issue 3, part 3). The input is uploaded exactly as for a timed run; the instrumented
// launcher runs once; the events of the traced block come back and become a Trace.
#include <map>
#include <string>
#include <vector>

#include "cuda_backend.hpp"
#include "sim/trace_compare.hpp"

namespace ws::cuda {

namespace {

struct TracedLauncher {
  kernels::ReduceLauncher launch = nullptr;
  kernels::traced::ArmFunction arm = nullptr;
};

const std::map<std::string, TracedLauncher>& traced_launchers() {
  static const std::map<std::string, TracedLauncher> table = [] {
    std::map<std::string, TracedLauncher> m;
    auto add = [&](const std::vector<kernels::LauncherEntry>& entries, kernels::traced::ArmFunction arm) {
      for (const auto& e : entries) m[e.id] = TracedLauncher{e.launch, arm};
    };
    add(kernels::traced::epita_launchers(), kernels::traced::epita_arm);
    add(kernels::traced::harris_launchers(), kernels::traced::harris_arm);
    add(kernels::traced::cs121_launchers(), kernels::traced::cs121_arm);
    add(kernels::traced::amp_launchers(), kernels::traced::amp_arm);
    return m;
  }();
  return table;
}

/// The launch the sim models trace (sim.hpp): the first that reads the input. cs121's max variants
/// first launch init_max, which only sets the accumulators.
int traced_launch_of(const std::string& id) { return id == "cs121.atomic_max" || id == "cs121.local_max" ? 1 : 0; }

/// Events the device buffer holds: 4 Mi x 40 bytes = 160 MiB.
constexpr unsigned long long kTraceCapacity = 4ull << 20;

}  // namespace

std::string CudaBackend::record_trace(const VariantInfo& v, const Input& in, const LaunchConfig& launch, int block_index,
                                      const Trace& model, Trace& out) {
  if (!device_.available) return "CUDA device unavailable: " + device_.error;
  if (v.racy)
    return v.id + " is racy: its interleaving changes from run to run, so it is not recorded on the GPU (the sim trace "
                  "states the interleaving it models)";
  const auto& table = traced_launchers();
  auto it = table.find(v.id);
  if (it == table.end()) return v.id + " has no trace build (library or host code)";
  if (block_index < 0 || block_index >= launch.grid)
    return "block index " + std::to_string(block_index) + " is outside the grid of " + std::to_string(launch.grid) + " blocks";
  try {
    void* pristine = nullptr;
    kernels::ReduceArgs a = upload(v, in, launch, pristine);
    auto* events = static_cast<TraceEvent*>(buffer("trace_events", kTraceCapacity * sizeof(TraceEvent)));
    auto* count = static_cast<unsigned long long*>(buffer("trace_count", sizeof(unsigned long long)));
    auto* enabled = static_cast<int*>(buffer("trace_enabled", sizeof(int)));
    WS_CUDA(cudaMemset(count, 0, sizeof(unsigned long long)));
    TraceSink sink;
    sink.events = events;
    sink.count = count;
    sink.capacity = kTraceCapacity;
    sink.block = block_index;
    sink.enabled = enabled;
    it->second.arm(sink, traced_launch_of(v.id), stream_);
    it->second.launch(a);
    WS_CUDA(cudaStreamSynchronize(stream_));
    WS_CUDA(cudaGetLastError());
    unsigned long long written = 0;
    WS_CUDA(cudaMemcpy(&written, count, sizeof written, cudaMemcpyDeviceToHost));
    if (written > kTraceCapacity)
      return "the trace of block " + std::to_string(block_index) + " needs " + std::to_string(written) +
             " events, more than the " + std::to_string(kTraceCapacity) + " the recorder holds: use a smaller n or block";
    std::vector<TraceEvent> host(written);
    if (written) WS_CUDA(cudaMemcpy(host.data(), events, written * sizeof(TraceEvent), cudaMemcpyDeviceToHost));
    out = trace_from_events(host, model, device_.name);
    return "";
  } catch (const std::exception& e) {
    cudaError_t sticky = cudaDeviceSynchronize();
    if (sticky != cudaSuccess) {
      device_.available = false;
      device_.error = std::string("the CUDA context was lost after the traced ") + v.id + " faulted (" +
                      cudaGetErrorString(sticky) + "); restart warpscope";
    }
    return e.what();
  }
}

}  // namespace ws::cuda
