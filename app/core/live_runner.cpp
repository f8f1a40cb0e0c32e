#include "live_runner.hpp"

#include <chrono>
#include <utility>

#include "limits.hpp"
#include "sweep.hpp"

namespace ws {

bool live_plottable(const RunResult& r) { return r.timed && ran_as_taught(r.status); }

LiveRunner::LiveRunner(std::vector<RunRequest> requests)
    : requests_(std::move(requests)),
      prepared_(requests_.size()),
      errors_(requests_.size()),
      share_keys_(requests_.size()) {}

std::size_t LiveRunner::step(Backend* backend, const std::string& no_device_reason, RunResult& out) {
  const std::size_t i = next_++ % requests_.size();
  const RunRequest& req = requests_[i];
  if (!prepared_[i] && errors_[i].empty()) {
    PreparedRun p;
    // The device's shape: the launch is resolved once here, not on every run.
    const DeviceShape shape = req.backend == BackendKind::Sim || !backend ? DeviceShape{} : backend->device().shape();
    std::string err;
    try {
      err = prepare_run(req, p, nullptr, &shape);
    } catch (const std::exception& e) {  // generating the input can run out of memory
      err = describe_exception(e, estimate_request_host_bytes(req));
    }
    if (!err.empty()) {
      errors_[i] = err;
    } else {
      // Requests that read the same input share one copy: ten variants at 2^24 hold 64 MB, not 640 MB.
      share_keys_[i] = input_share_key(*p.variant, req);
      auto it = inputs_.find(share_keys_[i]);
      if (it == inputs_.end()) inputs_.emplace(share_keys_[i], std::move(p.input));
      p.input = Input{};
      prepared_[i] = std::move(p);
    }
  }
  if (!errors_[i].empty()) {
    out = unrun_result(req, RunStatus::Error, errors_[i]);
    return i;
  }
  PreparedRun& p = *prepared_[i];
  Input& shared = inputs_[share_keys_[i]];
  std::swap(p.input, shared);  // lend the input without copying it
  out = execute_prepared(req, p, backend, no_device_reason);
  std::swap(p.input, shared);
  return i;
}

LiveBatch LiveRunner::batch(Backend* backend, const std::string& no_device_reason, double seconds, int max_rounds,
                            const std::atomic<bool>* cancel) {
  using Clock = std::chrono::steady_clock;
  const auto until = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  const bool had_device = backend && backend->device().available;
  LiveBatch b;
  b.requests.resize(requests_.size());
  next_ = 0;
  while (b.rounds < max_rounds && (b.rounds == 0 || seconds <= 0 || Clock::now() < until)) {
    ++b.rounds;
    for (std::size_t k = 0; k < requests_.size(); ++k) {
      if (cancel && *cancel) {
        b.cancelled = true;
        return b;
      }
      RunResult r;
      LiveRequestRuns& slot = b.requests[step(backend, no_device_reason, r)];
      ++slot.runs;
      const bool plotted = live_plottable(r);
      if (plotted) slot.times_ms.insert(slot.times_ms.end(), r.timing.samples_ms.begin(), r.timing.samples_ms.end());
      // An untimed run that is otherwise fine (the sim model) is no failure: the client sees no times.
      const bool fine = plotted || (!r.timed && ran_as_taught(r.status));
      slot.last = std::move(r);
      if (!fine) {
        b.failed = true;
        return b;
      }
      if (had_device && !backend->device().available) return b;  // the context is lost: the caller says so
    }
  }
  return b;
}

}  // namespace ws
