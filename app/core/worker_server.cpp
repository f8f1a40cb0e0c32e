#include "worker_server.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <thread>

#include "collective/allreduce_sim.hpp"
#include "collective/link_model.hpp"
#include "json_read.hpp"
#include "launch_rules.hpp"
#include "limits.hpp"
#include "live_runner.hpp"
#include "pc_sampling_worker.hpp"
#include "registry.hpp"
#include "report.hpp"
#include "request.hpp"
#include "sim/sim.hpp"
#include "sweep.hpp"
#include "trace/trace_store.hpp"
#include "trace_request.hpp"
#include "user_trace.hpp"
#include "worker_protocol.hpp"

#include "version.hpp"

namespace ws {

using nlohmann::json;

namespace {

/// Host bytes a worker request needs at its peak, for the "needs about X" of its out-of-memory line: a run's
/// or trace's request (estimate_request_host_bytes), Live's requests together, a sweep's largest point;
/// -1 where that is not known (a request that does not parse, an input file).
std::int64_t request_host_bytes(const std::string& type, const json& req) {
  try {
    if ((type == "run" || type == "trace") && req.contains("request"))
      return estimate_request_host_bytes(request_from_json(req["request"]));
    if (type == "live_batch" && req.contains("requests") && req["requests"].is_array()) {
      std::int64_t sum = 0;
      for (const json& r : req["requests"]) {
        const std::int64_t bytes = estimate_request_host_bytes(request_from_json(r));
        if (bytes < 0) return -1;
        sum += bytes;
      }
      return sum;
    }
    if (type == "sweep" && req.contains("sweep")) {
      const SweepSpec spec = sweep_from_json(req["sweep"]).spec;
      std::int64_t most = -1;
      for (const std::string& id : spec.variants) {
        RunRequest r;
        r.variant = id;
        r.type = spec.type;
        r.input = spec.input;
        r.n = spec.by_keep() ? spec.n : std::int64_t(1) << std::clamp(spec.to_log2, 0, 30);
        most = std::max(most, estimate_request_host_bytes(r));
      }
      return most;
    }
  } catch (const std::exception&) {  // not parseable: the line says what failed without the amount
  }
  return -1;
}

/// After stdin ends, a request still running this long is abandoned: its client is gone (a hung
/// kernel on a remote machine must not keep the GPU forever).
constexpr auto kOrphanGrace = std::chrono::seconds(30);
/// Bounds of one live_batch: its time (the watchdog's unit) and its rounds.
constexpr double kLiveBatchMaxSeconds = 10;
constexpr int kLiveBatchMaxRounds = 1000000;

std::string host_name() {
  char buf[256] = "";
  if (gethostname(buf, sizeof buf - 1) != 0) return "unknown host";
  return buf;
}

/// Test mode only (WARPSCOPE_WORKER_TEST_SIM_TIMED): the sim model as the "cuda" backend, each run's
/// model time (host clock, ms) standing for every one of its launches, so Live and Sweep plot points
/// on a machine without a GPU (scripts/device-soak.sh's sim mode). The times are the CPU model's, not a
/// GPU's: nothing but tests starts a worker this way.
class TimedSimBackend final : public Backend {
 public:
  std::string name() const override { return sim_.name(); }
  const DeviceInfo& device() const override { return sim_.device(); }
  RunResult run(const VariantInfo& v, const RunRequest& req, const Input& in, const LaunchConfig& launch) override {
    const auto t0 = std::chrono::steady_clock::now();
    RunResult r = sim_.run(v, req, in, launch);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (r.timing.samples_ms.empty())
      r.timing = summarize(std::vector<double>(std::size_t(std::max(1, req.repeat)), ms));
    r.timed = true;
    return r;
  }

 private:
  sim::SimBackend sim_;
};

class Server {
 public:
  Server(int in_fd, int out_fd, WorkerServerOptions o) : in_(in_fd), out_(out_fd), o_(std::move(o)) {}

  int run() {
    if (o_.open_cuda) {
      try {
        cuda_ = o_.open_cuda(cuda_error_);
      } catch (const std::exception& e) {
        cuda_.reset();
        cuda_error_ = e.what();
      }
      if (cuda_ && !cuda_->device().available) {
        cuda_error_ = cuda_->device().error;
        cuda_.reset();
      }
    } else {
      cuda_error_ = "this worker was started without a CUDA backend";
    }
    if (o_.test_sim_as_cuda) {  // test mode: "cuda" requests run on the CPU model
      if (o_.test_sim_timed)
        cuda_ = std::make_unique<TimedSimBackend>();
      else
        cuda_ = std::make_unique<sim::SimBackend>();
      cuda_error_.clear();
    }
    WorkerHello h;
    h.protocol = o_.announced_protocol > 0 ? o_.announced_protocol : kWorkerProtocolVersion;
    h.host = host_name();
    h.pid = long(getpid());
    h.version = std::string(WS_VERSION) + " (" + WS_GIT_REV + ")";
    h.backends = {BackendKind::Sim};
    if (cuda_) {
      h.device = cuda_->device();
      h.backends.push_back(BackendKind::Cuda);
    } else {
      h.device.available = false;
      h.device.error = cuda_error_;
    }
    h.capabilities = worker_request_types();
    h.visible_gpus = o_.visible_gpus ? o_.visible_gpus() : 0;
    send(hello_to_json(h));
    std::fprintf(stderr, "warpscope worker %ld on %s: %s\n", h.pid, h.host.c_str(),
                 cuda_ ? cuda_->device().name.c_str() : ("sim only (" + cuda_error_ + ")").c_str());

    std::thread reader([this] { read_loop(); });
    reader.detach();  // blocked in read(); the process ends with the executor
    // CUPTI's first-request set-up now, not in the user's first metrics request (issue 31): warm_up_metrics.
    // Logged as "warpscope worker PID: ...", a line WorkerClient's stderr tail skips like the start-up line.
    if (cuda_) {
      const auto t0 = std::chrono::steady_clock::now();
      try {
        if (const std::string did = cuda_->warm_up_metrics(); !did.empty()) {
          std::fprintf(stderr, "warpscope worker %ld: metrics warm-up %.0f ms: %s\n", h.pid,
                       std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count(),
                       did.c_str());
          // PC sampling's fresh process too: one started now waits for the first such request.
          prepare_pc_sampling_worker();
        }
      } catch (const std::exception& e) {
        std::fprintf(stderr, "warpscope worker %ld: metrics warm-up failed (the worker goes on): %s\n", h.pid,
                     e.what());
      } catch (...) {
        std::fprintf(stderr, "warpscope worker %ld: metrics warm-up failed (the worker goes on)\n", h.pid);
      }
    }
    prepare_when_idle();
    const int code = execute_loop();
    release_pc_sampling_worker();  // the worker kept ready for PC sampling ends with this one
    {
      std::lock_guard<std::mutex> lock(m_);
      finished_ = true;
    }
    cv_.notify_all();
    return code;
  }

 private:
  void send(const json& j) {
    std::string line = j.dump(-1, ' ', false, json::error_handler_t::replace);
    line += '\n';
    std::lock_guard<std::mutex> lock(out_m_);
    const char* p = line.data();
    std::size_t left = line.size();
    while (left > 0) {
      const ssize_t w = ::write(out_, p, left);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) return;  // the client is gone; SIGPIPE usually ends us first
      p += w;
      left -= std::size_t(w);
    }
  }

  static std::int64_t id_of(const json& j) {
    return j.contains("id") && j["id"].is_number_integer() ? j["id"].get<std::int64_t>() : -1;
  }

  void read_loop() {
    std::string buf;
    char chunk[65536];
    for (;;) {
      const ssize_t n = ::read(in_, chunk, sizeof chunk);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      buf.append(chunk, std::size_t(n));
      std::size_t nl;
      while ((nl = buf.find('\n')) != std::string::npos) {
        const std::string line = buf.substr(0, nl);
        buf.erase(0, nl + 1);
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        if (!accept(line)) return;  // shutdown: read nothing more
      }
    }
    std::unique_lock<std::mutex> lock(m_);
    eof_ = true;
    cv_.notify_all();
    if (!cv_.wait_for(lock, kOrphanGrace, [this] { return finished_ || (queue_.empty() && running_id_ < 0); })) {
      std::fprintf(stderr, "warpscope worker: stdin closed and request %lld still running after %lld s: exiting\n",
                   (long long)running_id_, (long long)kOrphanGrace.count());
      std::_Exit(3);
    }
  }

  /// Takes one request line; false after a shutdown.
  bool accept(const std::string& line) {
    json j;
    try {
      // Bounded, and a key twice refused: {"type":"run","type":"shutdown"} must not shut the worker down.
      j = parse_json_text(line, "request");
    } catch (const std::exception& e) {
      send(worker_error(-1, std::string(e.what()) + ": '" + one_line(line, 80) + "'"));
      return true;
    }
    const std::int64_t id = id_of(j);
    if (!j.is_object() || id < 0 || !j.contains("type") || !j["type"].is_string()) {
      send(worker_error(id, "a request is an object with an integer \"id\" >= 0 and a string \"type\""));
      return true;
    }
    const std::string type = j["type"];
    std::lock_guard<std::mutex> lock(m_);
    if (type == "cancel") {
      const std::int64_t target =
          j.contains("target") && j["target"].is_number_integer() ? j["target"].get<std::int64_t>() : -1;
      std::string state = "unknown";
      if (target >= 0 && target == running_id_) {
        cancel_ = true;
        state = "running";
      } else {
        for (auto it = queue_.begin(); it != queue_.end(); ++it)
          if (id_of(*it) == target) {
            queue_.erase(it);
            send(worker_error(target, "cancelled before it started"));
            state = "queued";
            break;
          }
      }
      send(worker_response(id, "cancel", {{"target", target}, {"state", state}}));
      return true;
    }
    queue_.push_back(std::move(j));
    cv_.notify_all();
    return type != "shutdown";
  }

  int execute_loop() {
    for (;;) {
      json req;
      {
        std::unique_lock<std::mutex> lock(m_);
        cv_.wait(lock, [this] { return !queue_.empty() || eof_; });
        if (queue_.empty()) return 0;  // stdin ended and everything asked was answered
        req = std::move(queue_.front());
        queue_.pop_front();
        running_id_ = id_of(req);
        cancel_ = false;
      }
      const std::int64_t id = id_of(req);
      const std::string type = req["type"];
      if (type == "shutdown") {
        send(worker_response(id, "bye"));
        return 0;
      }
      const bool had_cuda = cuda_ && cuda_->device().available;
      json response;
      try {
        response = handle(id, type, req);
      } catch (const std::exception& e) {
        response = worker_error(id, type + ": " + describe_exception(e, request_host_bytes(type, req)));
      }
      // A kernel fault leaves the CUDA context unusable for the life of this process: say so, and end.
      if (had_cuda && !cuda_->device().available) { response = worker_faulted(id, cuda_->device().error); }
      {
        std::lock_guard<std::mutex> lock(m_);
        running_id_ = -1;
      }
      cv_.notify_all();
      send(response);
      if (response.value("type", "") == "faulted") return 4;
      prepare_when_idle();
    }
  }

  /// With nothing queued: the next metrics request's set-up, done now (Backend::prepare_next_metrics: the kept
  /// range-profiler session's Start, 17 ms on the H100, and after a PC sampling request the session itself).
  /// A request that arrives meanwhile waits for the step under way only. Said on stderr under
  /// WS_METRICS_TIMING; a failure always (the worker goes on).
  void prepare_when_idle() {
    if (!cuda_) return;
    for (int step = 0; step < kPrepareSteps; ++step) {  // a step at a time: a request waits for one at most
      {
        std::lock_guard<std::mutex> lock(m_);
        if (!queue_.empty() || eof_) return;
      }
      try {
        const std::string did = cuda_->prepare_next_metrics();
        if (did.empty()) return;
        if (std::getenv("WS_METRICS_TIMING"))
          std::fprintf(stderr, "warpscope worker %ld: %s\n", long(getpid()), did.c_str());
      } catch (const std::exception& e) {
        std::fprintf(stderr, "warpscope worker %ld: preparing the next metrics request failed (it sets up again): %s\n",
                     long(getpid()), e.what());
        return;
      }
    }
  }
  /// prepare_next_metrics steps in one idle moment: a session of its own, the kept one, its Start.
  static constexpr int kPrepareSteps = 4;

  json handle(std::int64_t id, const std::string& type, const json& req) {
    json response;
    if (o_.extra && o_.extra(req, cuda_.get(), response)) return response;  // a test worker's own requests first
    if (type == "run") {
      const RunRequest r = request_from_json(req.at("request"));
      // Test mode: a run of variant "__test_crash" (...) is that test request, so a queue can fault midway.
      if (o_.test_hooks && r.variant.rfind("__test_", 0) == 0) return test_hook(id, r.variant);
      return worker_response(id, "result", {{"run", run_to_wire(execute(r, cuda_.get(), cuda_error_))}});
    }
    if (type == "trace") return trace(id, req);
    if (type == "sweep") return sweep(id, req);
    if (type == "live_batch") return live_batch(id, req);
    if (type == "allreduce") return allreduce(id, req);
    if (o_.test_hooks && type.rfind("__test_", 0) == 0) return test_hook(id, type);
    return worker_error(id, "unknown request type '" + type + "'");
  }

  /// A trace request's error: its message, and its TraceStatus's name in "trace_status", so the client tells
  /// a variant without a trace build from a failure without reading the words (WorkerTraceBackend).
  static json trace_error(std::int64_t id, TraceStatus status, const std::string& message) {
    json e = worker_error(id, message);
    e["trace_status"] = to_string(status);
    return e;
  }

  json trace(std::int64_t id, const json& j) {
    const RunRequest req = request_from_json(j.at("request"));
    const long long block_index = j.value("block_index", 0LL);
    if (!req.kernel.empty()) {
      if (req.backend == BackendKind::Cuda && !cuda_) return worker_error(id, no_device_hint(cuda_error_));
      return user_trace(id, req, int(block_index), req.backend == BackendKind::Cuda ? cuda_.get() : nullptr);
    }
    PreparedRun p;
    if (std::string err = prepare_run(req, p); !err.empty()) return worker_error(id, err);
    std::string err;
    if (TraceStatus s = check_traceable(*p.variant, err); s != TraceStatus::Ok) return trace_error(id, s, err);
    Backend* gpu = req.backend == BackendKind::Cuda ? cuda_.get() : nullptr;
    if (req.backend == BackendKind::Cuda && !gpu) return worker_error(id, no_device_hint(cuda_error_));
    PreparedTrace prepared;
    const TraceAsk ask{req.launch, block_index, 1};
    if (TraceStatus s = prepare_trace(*p.variant, p.input.n(), req.type, ask,
                                      gpu ? gpu->device().shape() : DeviceShape{}, prepared, err);
        s != TraceStatus::Ok)
      return trace_error(id, s, err);
    // The model's out-of-memory throws on to execute_loop, which words it for the request.
    TraceOutcome traced = execute_trace(prepared, p.input, req.params, gpu);
    if (traced.status != TraceStatus::Ok) return trace_error(id, traced.status, traced.message);
    const sim::SimOutput& out = traced.outs[0];
    const std::string& difference = traced.differences[0];
    const LaunchConfig& launch = prepared.launch;
    return worker_response(id, "trace",
                           {{"trace", trace_to_store_json(out.trace)},
                            {"recorded", gpu != nullptr},
                            {"difference", difference},
                            {"result", out.result},
                            {"launches", out.launches},
                            {"block", launch.block},
                            {"grid", launch.grid}});
  }

  /// A trace of a user's kernel (req.kernel: a traced edit), recorded on the GPU (trace_user_kernel).
  json user_trace(std::int64_t id, const RunRequest& req, int block_index, Backend* gpu) {
    Trace recorded;
    std::string difference;
    if (std::string err = trace_user_kernel(req, block_index, gpu, recorded, difference); !err.empty())
      return worker_error(id, err);
    return worker_response(id, "trace",
                           {{"trace", trace_to_store_json(recorded)},
                            {"recorded", true},
                            {"difference", difference},
                            {"result", recorded.block_result},
                            {"launches", 1},
                            {"block", recorded.launch.block},
                            {"grid", recorded.launch.grid}});
  }

  json sweep(std::int64_t id, const json& j) {
    const Sweep asked = sweep_from_json(j.at("sweep"));
    if (std::string err = validate_sweep(asked.spec); !err.empty()) return worker_error(id, err);
    auto progress = [&](const SweepProgress& p) {
      send(worker_response(id, "progress", {{"done", p.done}, {"total", p.total}, {"run", run_to_wire(*p.last)}}));
    };
    std::string err;
    Sweep done = run_sweep(asked.spec, cuda_.get(), cuda_error_, &cancel_, progress, &err);
    if (!err.empty()) return worker_error(id, err);
    done.title = asked.title;
    return worker_response(id, "sweep", {{"sweep", sweep_to_json(done)}});
  }

  /// Live: rounds of every request for up to `seconds` (at most `rounds` rounds; at least one). The
  /// requests stay prepared (inputs generated once) while the same list comes back; the answer carries
  /// each request's launch times and newest run (live_batch_to_json), not every run.
  json live_batch(std::int64_t id, const json& j) {
    const json& list = j.at("requests");
    if (!list.is_array() || list.empty()) return worker_error(id, "live_batch: 'requests' must be a non-empty array");
    const double seconds = j.value("seconds", 0.0);
    if (!(seconds >= 0 && seconds <= kLiveBatchMaxSeconds))
      return worker_error(id, "live_batch: 'seconds' must be 0.." + std::to_string(int(kLiveBatchMaxSeconds)));
    const int rounds =
        std::max(1, std::min(kLiveBatchMaxRounds, j.value("rounds", seconds > 0 ? kLiveBatchMaxRounds : 1)));
    const std::string key = list.dump();
    if (!live_ || key != live_key_) {
      std::vector<RunRequest> reqs;
      for (const auto& r : list) reqs.push_back(request_from_json(r));
      live_ = std::make_unique<LiveRunner>(std::move(reqs));
      live_key_ = key;
    }
    const LiveBatch b = live_->batch(cuda_.get(), cuda_error_, seconds, rounds, &cancel_);
    return worker_response(id, "live_batch", live_batch_to_json(b));
  }

  /// The lesson "Reduction across GPUs": one method at one size (AllReduceAsk), in the model or on every GPU
  /// this process sees (options.run_allreduce). A run that cannot happen (no GPU, fewer than asked, no NCCL)
  /// is still an "allreduce" answer, its result not ran and saying why, so the client words it as in-process.
  json allreduce(std::int64_t id, const json& j) {
    if (!j.contains("request") || !j["request"].is_object())
      return worker_error(id, "allreduce: the request needs a \"request\" object");
    const AllReduceAsk ask = allreduce_ask_from_json(j["request"]);
    const int visible = o_.visible_gpus ? o_.visible_gpus() : 0;
    collective::AllReduceResult r;
    if (ask.backend == BackendKind::Sim) {
      collective::LinkModel link;
      collective::link_model_by_name(ask.link, link);  // checked by allreduce_ask_from_json
      r = collective::simulate_allreduce(ask.run, link);
    } else if (o_.run_allreduce) {
      r = o_.run_allreduce(ask.run);
    } else {
      r.method = ask.run.method;
      r.gpus = ask.run.gpus;
      r.length = ask.run.length;
      r.error = "this worker was started without multi-GPU support (run the sim: backend sim)";
    }
    return worker_response(id, "allreduce", allreduce_answer_to_json(r, visible));
  }

  json test_hook(std::int64_t id, const std::string& type) {
    if (type == "__test_crash") {
      std::signal(SIGSEGV, SIG_DFL);
      std::raise(SIGSEGV);
    }
    if (type == "__test_hang")
      for (;;) pause();
    if (type == "__test_garbage") {
      static const char garbage[] = "Segmentation fault? no: this line is not JSON\n";
      std::lock_guard<std::mutex> lock(out_m_);
      if (::write(out_, garbage, sizeof garbage - 1) < 0) std::_Exit(5);
      return worker_response(id, "result");
    }
    if (type == "__test_sticky") return worker_faulted(id, "an illegal memory access was encountered (test hook)");
    return worker_error(id, "unknown test request '" + type + "'");
  }

  int in_, out_;
  const WorkerServerOptions o_;
  std::unique_ptr<Backend> cuda_;
  std::string cuda_error_;
  std::mutex out_m_;
  std::mutex m_;
  std::condition_variable cv_;
  std::deque<json> queue_;
  bool eof_ = false, finished_ = false;
  std::int64_t running_id_ = -1;
  std::atomic<bool> cancel_{false};
  std::unique_ptr<LiveRunner> live_;  ///< Live's requests, prepared, while the same list comes back
  std::string live_key_;              ///< that list as JSON
};

}  // namespace

int run_worker_server(int in_fd, int out_fd, const WorkerServerOptions& options) {
  try {
    // Never freed: the reader thread stays blocked in read() on it until the process exits.
    Server* s = new Server(in_fd, out_fd, options);
    return s->run();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "warpscope worker: %s\n", e.what());
    return 1;
  }
}

}  // namespace ws
