// TEST CODE ONLY: ws_synthetic_worker, `warpscope-cli worker` whose "cuda" backend is the synthetic
// fake (synthetic_backend.hpp: made-up times, reference results), so Live through a worker process,
// which needs timed runs, can be tested on machines without a GPU.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <memory>

#include "synthetic_backend.hpp"
#include "worker_server.hpp"

int main() {
  ws::WorkerServerOptions o;
  o.open_cuda = [](std::string&) -> std::unique_ptr<ws::Backend> {
    return std::make_unique<ws::test::SyntheticBackend>();
  };
  const int code = ws::run_worker_server(STDIN_FILENO, STDOUT_FILENO, o);
  std::fflush(stderr);
  std::_Exit(code);  // the request reader may still be blocked on stdin
}
