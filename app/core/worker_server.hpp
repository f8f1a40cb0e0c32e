// The worker's side of the protocol (worker_protocol.hpp, docs/worker-protocol.md): the loop behind
// `warpscope-cli worker`. It owns the CUDA backend for its whole life; a request that breaks the
// device (a sticky CUDA error) is answered "faulted" and the worker exits, so a client starts a
// fresh one. Sim requests run the CPU models as in-process runs do.
#pragma once
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "backend.hpp"
#include "collective/allreduce_run.hpp"

namespace ws {

struct WorkerServerOptions {
  /// Opens the CUDA backend (open_cuda_backend); nullptr or a null result: the worker runs sim only
  /// and says why in hello's device.error.
  std::function<std::unique_ptr<Backend>(std::string& error)> open_cuda;
  /// Accept the test-only requests (__test_crash, __test_hang, __test_garbage, __test_sticky; as request
  /// types, or as the variant of a run request) and
  /// WARPSCOPE_WORKER_TEST_PROTOCOL (a protocol version to announce): only when WARPSCOPE_WORKER_TEST=1.
  bool test_hooks = false;
  int announced_protocol = 0;  ///< 0: kWorkerProtocolVersion
  /// Test mode (WARPSCOPE_WORKER_TEST_SIM_AS_CUDA=1 with WARPSCOPE_WORKER_TEST=1): the worker's "cuda"
  /// backend is the sim model, so clients' GPU paths can be tested on machines without a GPU.
  bool test_sim_as_cuda = false;
  bool test_sim_timed = false;  ///< with test_sim_as_cuda: runs carry the model's host time as launch times
  /// The lesson "Reduction across GPUs" on the worker's GPUs: collective::run_allreduce_on_gpus and
  /// collective::visible_gpu_count of the backend library the program links (ws_core leaves them to it).
  /// "allreduce" requests with backend cuda run there, on every GPU the worker's process sees; sim ones run
  /// the model here. Null run_allreduce: cuda requests come back not run, saying so; null visible_gpus: 0.
  std::function<collective::AllReduceResult(const collective::AllReduceRequest&)> run_allreduce;
  std::function<int()> visible_gpus;
  /// Extra request types (the GPU fault tests' kernels): called for a type the worker does not know, with
  /// the request and the CUDA backend (may be null). Returns false when it does not know the type either;
  /// otherwise sets `response` (worker_response / worker_error / worker_faulted; a "faulted" one ends the worker).
  std::function<bool(const nlohmann::json& request, Backend* cuda, nlohmann::json& response)> extra;
};

/// Runs the worker on file descriptors `in_fd` (requests) and `out_fd` (hello, then responses), one
/// JSON object per line; logs go to stderr. Returns when a shutdown was answered (0), when `in_fd` ends
/// (0), or after a "faulted" response (4). Once per process: exit soon after it returns (a thread may
/// still be blocked reading `in_fd`). Never throws.
int run_worker_server(int in_fd, int out_fd, const WorkerServerOptions& options);

}  // namespace ws
