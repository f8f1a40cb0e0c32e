#include "run_worker.hpp"

#include <exception>

#include "request.hpp"

namespace ws::ui {

RunWorker::RunWorker(Opener open) : open_(std::move(open)) { thread_ = std::thread([this] { loop(); }); }

RunWorker::~RunWorker() { stop(); }

void RunWorker::submit(const std::vector<RunRequest>& requests) {
  if (requests.empty()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) return;
    if (!shared_.busy) shared_.batch_done = shared_.batch_total = 0;
    for (const auto& r : requests) queue_.push_back(r);
    shared_.batch_total += int(requests.size());
    shared_.busy = true;
  }
  cv_.notify_all();
}

int RunWorker::cancel_queued() {
  std::lock_guard<std::mutex> lock(mutex_);
  const int dropped = int(queue_.size());
  queue_.clear();
  shared_.batch_total -= dropped;
  if (shared_.running.empty()) shared_.busy = false;
  return dropped;
}

RunWorker::Snapshot RunWorker::take() {
  std::lock_guard<std::mutex> lock(mutex_);
  Snapshot s = shared_;
  shared_.finished.clear();
  return s;
}

bool RunWorker::wait_opened(std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mutex_);
  return cv_.wait_for(lock, timeout, [this] { return shared_.opened; });
}

void RunWorker::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    queue_.clear();
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  std::lock_guard<std::mutex> lock(mutex_);
  shared_.busy = false;
  shared_.running.clear();
}

void RunWorker::loop() {
  std::unique_ptr<Backend> backend;
  std::string error;
  try {
    backend = open_ ? open_(error) : nullptr;
  } catch (const std::exception& e) {
    backend.reset();
    error = e.what();
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    shared_.opened = true;
    if (backend) {
      shared_.device = backend->device();
      shared_.backend_name = backend->name();
    } else {
      shared_.device.available = false;
      shared_.device.error = error;
    }
    shared_.open_error = error;
  }
  cv_.notify_all();

  for (;;) {
    RunRequest req;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (stopping_) break;
      req = queue_.front();
      queue_.pop_front();
      shared_.running = req.variant;
    }
    RunResult r = execute(req, backend.get(), error);  // never throws
    {
      std::lock_guard<std::mutex> lock(mutex_);
      shared_.finished.push_back(std::move(r));
      ++shared_.batch_done;
      shared_.running.clear();
      if (queue_.empty()) shared_.busy = false;
      if (stopping_) break;
    }
  }
  backend.reset();  // the backend is created and destroyed on this thread
}

}  // namespace ws::ui
