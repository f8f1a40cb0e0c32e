// warpscope-cli worker: the long-lived process that owns the GPU (docs/worker-protocol.md).
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "backend_factory.hpp"
#include "collective/allreduce_run.hpp"
#include "commands.hpp"
#include "worker_server.hpp"

namespace ws::cli {

int cmd_worker() {
  WorkerServerOptions o;
  o.open_cuda = [](std::string& error) { return open_cuda_backend(error); };
  // All-reduce requests run on every GPU of this machine (or the job step's: srun --gres=gpu:4).
  o.run_allreduce = [](const collective::AllReduceRequest& r) { return collective::run_allreduce_on_gpus(r); };
  o.visible_gpus = [] { return collective::visible_gpu_count(); };
  const char* test = std::getenv("WARPSCOPE_WORKER_TEST");
  o.test_hooks = test && std::strcmp(test, "1") == 0;
  if (o.test_hooks) {
    if (const char* v = std::getenv("WARPSCOPE_WORKER_TEST_PROTOCOL")) o.announced_protocol = std::atoi(v);
    const char* sim = std::getenv("WARPSCOPE_WORKER_TEST_SIM_AS_CUDA");
    o.test_sim_as_cuda = sim && std::strcmp(sim, "1") == 0;
    const char* timed = std::getenv("WARPSCOPE_WORKER_TEST_SIM_TIMED");
    o.test_sim_timed = timed && std::strcmp(timed, "1") == 0;
  }
  const int code = run_worker_server(STDIN_FILENO, STDOUT_FILENO, o);
  std::fflush(stderr);
  std::_Exit(code);  // the request reader may still be blocked on stdin
}

}  // namespace ws::cli
