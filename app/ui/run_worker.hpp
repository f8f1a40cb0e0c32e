// The one thread that owns the Backend: it opens the device, then runs queued RunRequests in order
// with ws::execute. The UI only submits requests and takes snapshots, so the window never blocks.
#pragma once
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "backend.hpp"
#include "run_types.hpp"

namespace ws::ui {

class RunWorker {
 public:
  /// Opens the backend (on the worker thread); nullptr + a one-line error when there is no device.
  using Opener = std::function<std::unique_ptr<Backend>(std::string& error)>;

  /// What the UI may know, copied under the mutex.
  struct Snapshot {
    bool opened = false;           ///< the opener has returned
    DeviceInfo device;             ///< available = false when there is no device
    std::string backend_name;      ///< Backend::name(), or "" without a backend
    std::string open_error;        ///< why there is no backend
    bool busy = false;             ///< a run is in progress or queued
    std::string running;           ///< variant id of the run in progress
    int batch_done = 0, batch_total = 0;  ///< progress since the worker was last idle
    std::vector<RunResult> finished;      ///< results since the previous take()
  };

  /// Starts the thread, which first calls `open` (about 0.2 s for CUDA).
  explicit RunWorker(Opener open);
  /// stop(): drops queued runs, lets the current one finish, joins.
  ~RunWorker();
  RunWorker(const RunWorker&) = delete;
  RunWorker& operator=(const RunWorker&) = delete;

  /// Queues requests to run in order; ignored after stop().
  void submit(const std::vector<RunRequest>& requests);
  /// Drops the queued requests (not the one running); returns how many were dropped.
  int cancel_queued();
  /// Copies the state and moves out the results finished since the last call.
  Snapshot take();
  /// Waits until the opener has returned; false on timeout.
  bool wait_opened(std::chrono::milliseconds timeout);
  /// Stops accepting work, waits for the run in progress and joins the thread. Idempotent.
  void stop();

 private:
  void loop();

  Opener open_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<RunRequest> queue_;
  bool stopping_ = false;
  Snapshot shared_;
  std::thread thread_;
};

}  // namespace ws::ui
