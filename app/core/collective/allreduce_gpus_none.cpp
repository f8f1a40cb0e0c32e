// The multi-GPU entry points in a build without CUDA (linked through ws_backend_none): a one-line refusal.
#include "collective/allreduce_run.hpp"

namespace ws::collective {

AllReduceResult run_allreduce_on_gpus(const AllReduceRequest& r) {
  AllReduceResult out;
  out.method = r.method;
  out.gpus = r.gpus;
  out.length = r.length;
  out.error = "this build has no CUDA backend: run the lesson in the sim, or open the bundled report";
  return out;
}

int visible_gpu_count() { return 0; }

}  // namespace ws::collective
