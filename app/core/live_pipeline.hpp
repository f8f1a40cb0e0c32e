// Live through a worker process: `depth` live_batch requests in flight, so the worker starts the next
// batch while the client reads the last one, and each batch runs for a stretch of time (not a count),
// so the round trip and the answer's JSON are paid once per stretch, not once per run. What comes back
// is what in-process Live makes (live_runner.hpp): the same runs, launch times and newest results.
#pragma once
#include <atomic>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "live_runner.hpp"
#include "worker_client.hpp"

namespace ws {

/// Seconds one live batch runs in the worker: short enough that Live's plot moves smoothly, long
/// enough that a batch's answer and round trip cost little against its runs.
constexpr double kLiveBatchSeconds = 0.025;

class LivePipeline {
 public:
  /// The answer to one batch. Ok: `batch` holds what ran (maybe cut short: batch.cancelled). Error: the
  /// worker refused it (Live should stop and show `text`). Faulted: it cost the worker (`text`); every
  /// batch in flight is lost with it. `dropped`: a batch cancelled before it started (nothing ran).
  struct Reply {
    WorkerReply::Kind kind = WorkerReply::Kind::Ok;
    std::string text;
    LiveBatch batch;
    bool dropped = false;
  };

  /// Nothing is sent until next(). `depth` >= 1 batches in flight; `batch_seconds` > 0 (0: one round each).
  LivePipeline(WorkerClient& client, std::vector<RunRequest> requests, double batch_seconds = kLiveBatchSeconds,
               int depth = 2);
  LivePipeline(const LivePipeline&) = delete;
  LivePipeline& operator=(const LivePipeline&) = delete;

  /// Sends batches until `depth` are in flight (none when `interrupt` is already true), then waits for
  /// the oldest. When `interrupt` turns true meanwhile, that batch is cancelled: it answers with the
  /// runs it made.
  Reply next(const std::atomic<bool>* interrupt = nullptr);
  /// Cancels every batch in flight and returns their answers, oldest first: the running one with what
  /// it ran, the queued ones dropped. Afterwards nothing is in flight.
  std::vector<Reply> drain();
  std::size_t in_flight() const { return in_flight_.size(); }
  const std::vector<RunRequest>& requests() const { return requests_; }

 private:
  Reply collect(std::int64_t id, bool cancelled, const std::atomic<bool>* interrupt);
  WorkerClient& client_;
  std::vector<RunRequest> requests_;
  nlohmann::json body_;    ///< the live_batch request, built once
  double expected_s_ = 0;  ///< one batch's expected time (the watchdog's base)
  int depth_;
  std::deque<std::int64_t> in_flight_;
};

}  // namespace ws
