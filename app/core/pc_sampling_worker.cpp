#include "pc_sampling_worker.hpp"

#include <cstdlib>
#include <exception>
#include <string>

#include "worker_client.hpp"

namespace ws {

namespace {
/// Set in the child's environment: a worker started for PC sampling never starts another.
constexpr const char* kInFreshWorker = "WARPSCOPE_PC_SAMPLING_WORKER";
}  // namespace

void sample_pcs_in_fresh_worker(const RunRequest& req, RunResult& r) {
  KernelMetrics& m = r.metrics;
  m.pc_sampling_needs_fresh_process = false;
  auto warn = [&](const std::string& why) { m.warnings.push_back("PC sampling: " + why); };
  if (const char* env = std::getenv(kInFreshWorker); env && *env) {
    warn("not collected: even a fresh worker process had profiled before its PC sampling pass");
    return;
  }
  const std::string cli = find_local_cli();
  if (cli.empty()) {
    warn(
        "not collected: it needs a fresh process, and no warpscope-cli was found beside this program (set "
        "$WARPSCOPE_CLI)");
    return;
  }
  try {
    RunRequest sub = req;
    sub.metrics = "pcsampling";
    sub.repeat = 1;
    sub.warmup = 0;
    WorkerClientOptions o;
    o.env.emplace_back(kInFreshWorker, "1");
    WorkerClient worker(WorkerLaunch{{cli, "worker"}, "local"}, o);
    RunResult got = worker.run(sub);
    worker.stop();
    if (got.status == RunStatus::Error || got.status == RunStatus::Faulted) {
      warn("not collected: the fresh worker process answered: " + got.message);
      return;
    }
    if (!got.metrics.error.empty()) {
      warn("not collected: " + got.metrics.error);
      return;
    }
    m.pc_sampling = std::move(got.metrics.pc_sampling);
    if (const auto it = got.metrics.values.find("ws__pc_samples"); it != got.metrics.values.end())
      m.values[it->first] = it->second;
    m.warnings.push_back(
        "PC sampling ran in a fresh worker process (CUPTI gives PC records to one collection per process)");
    m.warnings.insert(m.warnings.end(), got.metrics.warnings.begin(), got.metrics.warnings.end());
    m.collected = m.collected || m.pc_sampling.collected;
  } catch (const std::exception& e) { warn(std::string("not collected: ") + e.what()); }
}

}  // namespace ws
