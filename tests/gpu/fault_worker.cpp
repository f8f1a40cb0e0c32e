// ws_gpu_fault_worker: `warpscope-cli worker` plus one test-only request, {"type":"__fault","kind":K,
// "then":"VARIANT"}, that launches a fault kernel (fault_kernels.hpp). Without "then" it waits for the
// kernel and answers "faulted" with the CUDA error (sticky) or "error" (huge_alloc). With "then" it
// does not wait: it runs VARIANT on the CUDA backend as a `run` request does, so the worker's own
// lost-context check turns the fault into the "faulted" answer. Used by test_gpu_worker_faults.cpp.
// With WS_FAULT_VARIANT=ID and WS_FAULT_KIND=K in its environment, a `run` request of variant ID
// launches fault K instead and lets the run find the lost context: how the GUI's queue is shown a
// fault in its middle (warpscope --queue with WARPSCOPE_CLI pointing here; scripts/device-gui-fault.sh).
// With WS_FAULT_EVERY_S=S, the first request of any kind that comes S seconds or more after the worker
// started launches fault WS_FAULT_KIND (default oob_write) without waiting and is then served as usual, so
// the worker finds its lost context there and answers "faulted": Live through this worker loses its
// context every S seconds (the soak with faults, scripts/device-soak.sh SOAK_FAULT_EVERY).
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "backend_factory.hpp"
#include "device_info.hpp"
#include "fault_kernels.hpp"
#include "gpu_fault_marks.hpp"
#include "report.hpp"
#include "request.hpp"
#include "worker_protocol.hpp"
#include "worker_server.hpp"

int main() {
  ws::WorkerServerOptions o;
  o.open_cuda = [](std::string& error) { return ws::open_cuda_backend(error); };
  const auto started = std::chrono::steady_clock::now();
  const char* every = std::getenv("WS_FAULT_EVERY_S");
  const double every_s = every ? std::atof(every) : 0;
  o.extra = [started, every_s](const nlohmann::json& req, ws::Backend* cuda, nlohmann::json& response) {
    if (every_s > 0 && std::chrono::steady_clock::now() - started >= std::chrono::duration<double>(every_s)) {
      static bool launched = false;
      if (!launched) {
        launched = true;
        const char* kind = std::getenv("WS_FAULT_KIND");
        bool sticky = false;
        ws::test::launch_fault(kind ? kind : "oob_write", false, sticky);
      }
      return false;  // served as usual: the request meets the lost context
    }
    const char* fault_variant = std::getenv("WS_FAULT_VARIANT");
    if (req.value("type", "") == "run" && fault_variant && req.contains("request") &&
        req["request"].value("variant", "") == fault_variant) {
      const char* kind = std::getenv("WS_FAULT_KIND");
      bool sticky = false;
      ws::test::launch_fault(kind ? kind : "oob_write", false, sticky);
      ws::RunRequest r = ws::request_from_json(req["request"]);
      response = ws::worker_response(req["id"].get<std::int64_t>(), "result",
                                     {{"run", ws::run_to_wire(ws::execute(r, cuda))}});
      return true;
    }
    if (req.value("type", "") != "__fault") return false;
    const std::int64_t id = req["id"];
    const std::string then = req.value("then", "");
    bool sticky = false;
    const ws::GpuIdentity gpu = ws::cuda::query_gpu_identity(0);  // before the fault: after it CUDA may not say
    const std::string err = ws::test::launch_fault(req.value("kind", ""), then.empty(), sticky);
    if (!then.empty()) {
      ws::RunRequest r;
      r.variant = then;
      r.n = 1 << 20;
      response = ws::worker_response(id, "result", {{"run", ws::run_to_wire(ws::execute(r, cuda))}});
    } else if (sticky) {
      ws::mark_gpu_faulted(gpu, err);  // as CudaBackend does for a run's fault: the GUI reads it
      response = ws::worker_faulted(id, err);
    } else {
      response = err.empty() ? ws::worker_response(id, "result") : ws::worker_error(id, err);
    }
    return true;
  };
  const int code = ws::run_worker_server(STDIN_FILENO, STDOUT_FILENO, o);
  std::fflush(stderr);
  std::_Exit(code);
}
