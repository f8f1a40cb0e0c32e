// Live's engine: the live requests run again and again, each prepared once (input generated once and
// lent to every request that reads the same one). The GUI's run thread takes one run per turn
// (step); the worker process answers `live_batch` with rounds of every request for a stretch of time
// (batch) and sends back only what Live draws: each request's launch times and its newest run.
#pragma once
#include <atomic>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "backend.hpp"
#include "request.hpp"
#include "run_types.hpp"

namespace ws {

/// True when Live plots the launches of `r`: timed, and ok, a race (its lesson) or a slide bug.
bool live_plottable(const RunResult& r);

/// One live request's share of a batch: the runs made, the launch times (ms, in order) of those Live
/// plots, and the newest run in full (its result, check, metrics, host times; absent when none ran).
struct LiveRequestRuns {
  int runs = 0;
  std::vector<double> times_ms;
  std::optional<RunResult> last;
};

/// What one batch ran: one entry per request, in the requests' order.
struct LiveBatch {
  std::vector<LiveRequestRuns> requests;
  int rounds = 0;          ///< rounds begun (the last may be cut short by a cancel or a failed run)
  bool cancelled = false;  ///< stopped early by `cancel`
  bool failed = false;     ///< stopped early after a run Live does not plot that was not merely untimed
                           ///< (an error, a wrong result, a fault): that run is its request's `last`
};

class LiveRunner {
 public:
  /// Nothing is prepared until the first run.
  explicit LiveRunner(std::vector<RunRequest> requests);
  const std::vector<RunRequest>& requests() const { return requests_; }

  /// Runs the next request (round robin) once on `backend` (execute_prepared; a request that cannot be
  /// prepared gives a run with status "error" and its reason). Returns the request's index.
  std::size_t step(Backend* backend, const std::string& no_device_reason, RunResult& out);

  /// Rounds of every request, in order, until `seconds` have passed since the call (checked between
  /// rounds; at least one round; 0: no time limit), `max_rounds` rounds, `cancel` turns true, a run fails
  /// (LiveBatch::failed)
  /// or `backend`'s device is lost. Starts each round at the first request.
  LiveBatch batch(Backend* backend, const std::string& no_device_reason, double seconds, int max_rounds,
                  const std::atomic<bool>* cancel = nullptr);

 private:
  std::vector<RunRequest> requests_;
  std::vector<std::optional<PreparedRun>> prepared_;
  std::vector<std::string> errors_;      ///< per request: why it cannot be prepared ("" = fine)
  std::vector<std::string> share_keys_;  ///< per request: input_share_key
  std::map<std::string, Input> inputs_;  ///< one input per share key, lent to each run
  std::size_t next_ = 0;
};

}  // namespace ws
