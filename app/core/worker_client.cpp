#include "worker_client.hpp"

#include "json_read.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <thread>

#include "collective/schedule.hpp"
#include "report.hpp"
#include "types.hpp"
#include "user_kernel.hpp"

extern char** environ;

namespace ws {

using nlohmann::json;

namespace {

double now_s() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, s >= 10 || s == std::floor(s) ? "%.0f" : "%.1f", s);
  return buf;
}

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

/// Writes to a dead worker's stdin must fail with EPIPE, not end this process.
void ignore_sigpipe() {
  struct sigaction old {};
  if (sigaction(SIGPIPE, nullptr, &old) == 0 && old.sa_handler == SIG_DFL) {
    struct sigaction sa {};
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, nullptr);
  }
}

std::vector<std::string> split_words(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

/// Waits up to `seconds` for `pid` to end; true when it has (and is reaped).
bool reaped_within(pid_t pid, double seconds) {
  int status = 0;
  for (double waited = 0; waited < seconds; waited += 0.05) {
    if (waitpid(pid, &status, WNOHANG) == pid) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

}  // namespace

std::string parse_gpu_spec(const std::string& spec, const std::string& local_cli, WorkerLaunch& out,
                           const std::string& remote_cli) {
  std::string remote = remote_cli;
  if (remote.empty()) {
    const char* env = std::getenv("WARPSCOPE_REMOTE_CLI");
    remote = env && *env ? env : "warpscope-cli";
  }
  out = WorkerLaunch{};
  out.where = spec;
  if (spec == "local") {
    if (local_cli.empty()) return "--gpu local: warpscope-cli was not found beside this program (set WARPSCOPE_CLI)";
    out.argv = {local_cli, "worker"};
    return "";
  }
  if (spec.rfind("ssh:", 0) == 0) {
    const std::string host = spec.substr(4);
    if (host.empty() || host[0] == '-' || host.find_first_of(" \t\n") != std::string::npos)
      return "--gpu ssh:HOST needs a host name (got '" + host + "')";
    out.argv = {"ssh", "-o",   "BatchMode=yes", "-o", "ConnectTimeout=10", "-o", "ServerAliveInterval=15",
                host,  remote, "worker"};
    return "";
  }
  if (spec.rfind("slurm:", 0) == 0) {
    out.argv = {"srun", "--unbuffered"};
    for (auto& w : split_words(spec.substr(6))) out.argv.push_back(w);
    out.argv.push_back(remote);
    out.argv.push_back("worker");
    return "";
  }
  return "--gpu '" + spec + "' is not local, ssh:HOST or slurm:ARGS";
}

std::string find_local_cli() {
  if (const char* env = std::getenv("WARPSCOPE_CLI"); env && *env) return env;
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return "";
  const std::filesystem::path dir = exe.parent_path();
  for (const auto& p : {dir / "warpscope-cli", dir.parent_path() / "cli" / "warpscope-cli",
                        dir.parent_path() / "app" / "cli" / "warpscope-cli",
                        dir.parent_path().parent_path() / "app" / "cli" / "warpscope-cli"})
    if (std::filesystem::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0) return p.string();
  return "";
}

double expected_seconds(const RunRequest& req) {
  const double n = double(req.n > 0 ? req.n : std::int64_t(1) << 20);
  if (req.backend == BackendKind::Sim) return 1 + n * 2e-6;  // the thread-level model: about a microsecond per element
  const double launches = double(std::max(0, req.repeat) + std::max(0, req.warmup));
  double s = 2 + n * 8 / 1e9 + launches * n * 4 / 20e9;  // upload at >= 1 GB/s, launches at >= 20 GB/s
  if (!req.metrics.empty()) s += 30;                     // CUPTI passes and replays
  // A user's kernel compiles first: its limit fits in the watchdog (3 x this) with the run's own time.
  if (!req.kernel.empty()) s += kMaxKernelCompileSeconds / 3;
  return s;
}

double expected_seconds(const AllReduceAsk& ask) {
  const double gpus = ask.run.gpus > 0 ? ask.run.gpus : collective::kMaxGpus;
  const double bytes = double(ask.run.length) * 4 * gpus;
  // The model checks at most 2^20 elements per GPU on the host.
  if (ask.backend == BackendKind::Sim) return 1 + double(std::min<std::int64_t>(ask.run.length, 1 << 20)) * gpus * 1e-6;
  const double repeats = double(std::max(0, ask.run.warmup) + std::max(1, ask.run.repeats) + 2);
  return 20 + bytes * 3 / 1e9 + repeats * bytes / 20e9;  // start-up; inputs made, uploaded and checked; the runs
}

std::string missing_capability_message(const WorkerHello& hello, const std::string& type) {
  std::string offered;
  for (const std::string& c : hello.capabilities) offered += (offered.empty() ? "" : ", ") + c;
  return "the worker on " + (hello.host.empty() ? std::string("an unknown host") : hello.host) +
         (hello.version.empty() ? "" : " runs warpscope " + hello.version + ", which") + " does not answer '" + type +
         "' requests (it answers " + (offered.empty() ? "none named" : offered) +
         "): install this warpscope version there";
}

WorkerClient::WorkerClient(WorkerLaunch launch, WorkerClientOptions options)
    : launch_(std::move(launch)), o_(std::move(options)) {}

WorkerClient::~WorkerClient() { stop(); }

std::string WorkerClient::start() {
  if (running()) return "";
  if (launch_.argv.empty()) return "no worker command";
  ignore_sigpipe();
  int in[2], out[2], err[2];
  if (pipe2(in, O_CLOEXEC) != 0) return std::string("cannot create a pipe: ") + std::strerror(errno);
  if (pipe2(out, O_CLOEXEC) != 0) {
    ::close(in[0]), ::close(in[1]);
    return std::string("cannot create a pipe: ") + std::strerror(errno);
  }
  if (pipe2(err, O_CLOEXEC) != 0) {
    ::close(in[0]), ::close(in[1]), ::close(out[0]), ::close(out[1]);
    return std::string("cannot create a pipe: ") + std::strerror(errno);
  }
  // Everything the child needs is built before fork: after it only async-signal-safe calls.
  std::vector<std::string> env_store;
  for (char** e = environ; e && *e; ++e) {
    const std::string kv = *e;
    bool overridden = false;
    for (const auto& [k, v] : o_.env) overridden |= kv.rfind(k + "=", 0) == 0;
    if (!overridden) env_store.push_back(kv);
  }
  for (const auto& [k, v] : o_.env) env_store.push_back(k + "=" + v);
  std::vector<char*> envp, argv;
  for (auto& s : env_store) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> args = launch_.argv;
  for (auto& s : args) argv.push_back(s.data());
  argv.push_back(nullptr);
  const std::string exec_failed = "warpscope: cannot start '" + args[0] + "': ";

  const pid_t pid = fork();
  if (pid < 0) {
    for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]}) ::close(fd);
    return std::string("cannot fork: ") + std::strerror(errno);
  }
  if (pid == 0) {
    setpgid(0, 0);  // its own process group: a hang is killed with everything it started
    dup2(in[0], 0);
    dup2(out[1], 1);
    dup2(err[1], 2);
    execvpe(argv[0], argv.data(), envp.data());
    const char* why = std::strerror(errno);
    (void)!::write(2, exec_failed.data(), exec_failed.size());
    (void)!::write(2, why, std::strlen(why));
    (void)!::write(2, "\n", 1);
    _exit(127);
  }
  setpgid(pid, pid);
  ::close(in[0]), ::close(out[1]), ::close(err[1]);
  pid_ = pid;
  in_fd_ = in[1], out_fd_ = out[0], err_fd_ = err[0];
  fcntl(out_fd_, F_SETFL, fcntl(out_fd_, F_GETFL) | O_NONBLOCK);
  fcntl(err_fd_, F_SETFL, fcntl(err_fd_, F_GETFL) | O_NONBLOCK);
  out_buf_.clear();
  err_tail_.clear();

  const std::string who = "the worker (" + launch_.where + ")";
  std::string line;
  const int got = read_line(line, now_s() + o_.connect_timeout_s);
  std::string why;
  if (got == 0) {
    why = "no answer from " + who + " within " + seconds_text(o_.connect_timeout_s) + " s";
    if (const std::string tail = stderr_last_line(); !tail.empty()) why += " (" + tail + ")";
  } else if (got < 0) {
    why = death_reason();
  } else {
    try {
      hello_ = hello_from_json(parse_json_text(line, "hello"));
      if (hello_.protocol != kWorkerProtocolVersion)
        why = who + " on " + (hello_.host.empty() ? "an unknown host" : hello_.host) + " speaks protocol " +
              std::to_string(hello_.protocol) + ", this warpscope speaks " + std::to_string(kWorkerProtocolVersion) +
              ": install the same warpscope version there";
    } catch (const std::exception&) {
      why = who + " did not answer as a warpscope worker: '" + one_line(line, 80) + "'";
    }
  }
  if (!why.empty()) {
    kill_group();
    return why;
  }
  if (faulted_before_) ++restarts_;
  return "";
}

void WorkerClient::drain_stderr() {
  if (err_fd_ < 0) return;
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(err_fd_, buf, sizeof buf);
    if (n <= 0) break;
    err_tail_.append(buf, std::size_t(n));
  }
  if (err_tail_.size() > 8192) err_tail_.erase(0, err_tail_.size() - 8192);
}

int WorkerClient::read_line(std::string& line, double deadline) {
  for (;;) {
    if (auto nl = out_buf_.find('\n'); nl != std::string::npos) {
      line = out_buf_.substr(0, nl);
      out_buf_.erase(0, nl + 1);
      return 1;
    }
    if (out_fd_ < 0) return -1;
    const double left = deadline - now_s();
    if (left <= 0) return 0;
    pollfd fds[2] = {{out_fd_, POLLIN, 0}, {err_fd_, POLLIN, 0}};
    const int r = ::poll(fds, err_fd_ >= 0 ? 2 : 1, int(std::min(left, 0.25) * 1000) + 1);
    if (r < 0 && errno != EINTR) return -1;
    if (err_fd_ >= 0 && (fds[1].revents & (POLLIN | POLLHUP))) {
      drain_stderr();
      if (fds[1].revents & POLLHUP && !(fds[1].revents & POLLIN)) close_fd(err_fd_);
    }
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      char buf[65536];
      const ssize_t n = ::read(out_fd_, buf, sizeof buf);
      if (n > 0)
        out_buf_.append(buf, std::size_t(n));
      else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
        close_fd(out_fd_);
        if (out_buf_.find('\n') == std::string::npos) return -1;
      }
    }
  }
}

std::string WorkerClient::death_reason() {
  const std::string who = "the worker (" + launch_.where + ")";
  int status = 0;
  pid_t got = 0;
  for (int i = 0; i < 40 && got == 0; ++i) {  // stdout closed: the process ends within moments
    got = waitpid(pid_, &status, WNOHANG);
    if (got == 0) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const std::string tail = stderr_last_line();
  std::string why;
  if (got == pid_ && WIFSIGNALED(status)) {
    why = who + " died from signal " + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) + ")";
  } else if (got == pid_ && WIFEXITED(status)) {
    const int code = WEXITSTATUS(status);
    why = who + " exited with code " + std::to_string(code);
    // ssh and srun turn the far side's death into an exit code: say what it means there.
    const std::string prog = std::filesystem::path(launch_.argv.front()).filename().string();
    const std::string far = hello_.host.empty() ? "the far side" : hello_.host;
    if (prog == "ssh" && code == 255 && tail.empty())
      why += " (ssh: the connection ended, or the worker died from a signal on " + far + ")";
    else if (prog == "srun" && code > 128 && code < 128 + 32)
      why += " (the job step was killed by signal " + std::to_string(code - 128) + " (" + strsignal(code - 128) +
             ") on " + far + ")";
  } else {
    why = who + " closed its output";
  }
  if (got == pid_) pid_ = -1;
  if (!tail.empty()) why += ": " + tail;
  return why;
}

std::string WorkerClient::stderr_last_line() {
  drain_stderr();
  // The last stderr line that is not the worker's own start-up log says why (ssh, srun, a crash).
  std::istringstream in(err_tail_);
  std::string tail;
  for (std::string l; std::getline(in, l);)
    if (l.find_first_not_of(" \t\r") != std::string::npos && l.rfind("warpscope worker ", 0) != 0) tail = l;
  return tail.empty() ? "" : one_line(tail);
}

bool WorkerClient::send_line(const std::string& line) {
  const char* p = line.data();
  std::size_t left = line.size();
  while (left > 0) {
    const ssize_t w = ::write(in_fd_, p, left);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    left -= std::size_t(w);
  }
  return true;
}

void WorkerClient::kill_group() {
  if (pid_ > 0 && std::filesystem::path(launch_.argv.front()).filename() == "srun") {
    // A killed srun leaves its job step running (a hung worker would hold the GPU until the job's time
    // limit); srun forwards SIGTERM to the step and ends when it does; two SIGINTs within a second make
    // it cancel the step outright.
    ::kill(pid_, SIGTERM);
    if (reaped_within(pid_, 3)) {
      pid_ = -1;
    } else {
      ::kill(pid_, SIGINT);
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      ::kill(pid_, SIGINT);
      if (reaped_within(pid_, 3)) pid_ = -1;
    }
  }
  if (pid_ > 0) {
    ::kill(-pid_, SIGKILL);
    ::kill(pid_, SIGKILL);
    int status = 0;
    waitpid(pid_, &status, 0);
  }
  pid_ = -1;
  close_fd(in_fd_);
  close_fd(out_fd_);
  close_fd(err_fd_);
  out_buf_.clear();
  pending_.clear();  // the worker that would have answered them is gone
  early_.clear();
}

std::string WorkerClient::fault(const std::string& why) {
  kill_group();
  last_fault_ = why;
  faulted_before_ = true;
  return why;
}

std::int64_t WorkerClient::send(const std::string& type, json body, double expected_s, WorkerReply& failure) {
  if (!running()) {
    if (std::string err = start(); !err.empty()) {
      failure.kind = WorkerReply::Kind::Error;
      failure.text = err;
      return -1;
    }
  }
  const std::int64_t id = next_id_++;
  json msg = body.is_object() ? std::move(body) : json::object();
  msg["id"] = id;
  msg["type"] = type;
  if (!send_line(msg.dump(-1, ' ', false, json::error_handler_t::replace) + "\n")) {
    std::string line;
    read_line(line, now_s() + 1);  // a dead worker: say why it died
    failure.kind = WorkerReply::Kind::Faulted;
    failure.text = fault(death_reason());
    return -1;
  }
  pending_[id] = o_.watchdog_s > 0 ? o_.watchdog_s : std::max(o_.min_watchdog_s, 3 * expected_s);
  return id;
}

void WorkerClient::cancel(std::int64_t id) {
  if (running() && pending_.count(id))
    send_line(json{{"id", next_id_++}, {"type", "cancel"}, {"target", id}}.dump() + "\n");
}

WorkerReply WorkerClient::wait(std::int64_t id, const std::function<void(const json&)>& on_event,
                               const std::atomic<bool>* cancel) {
  WorkerReply reply;
  const auto it = pending_.find(id);
  if (it == pending_.end()) {
    reply.kind = WorkerReply::Kind::Error;
    reply.text = "request " + std::to_string(id) + " is not in flight (its worker was replaced after a fault)";
    return reply;
  }
  const double watchdog = it->second;
  auto faulted = [&](const std::string& why) {
    reply.kind = WorkerReply::Kind::Faulted;
    reply.text = fault(why);
    return reply;
  };
  // Takes one message for `id`: true when it is the final answer (reply is set).
  auto take = [&](json m) {
    const std::string t = m["type"].is_string() ? m["type"].get<std::string>() : "";
    if (t == "progress") {
      if (on_event) on_event(m);
      return false;
    }
    if (t == "faulted") {
      const std::string why = m.value("message", std::string("the device faulted"));
      std::string ignored;
      read_line(ignored, now_s() + 2);  // the worker exits after a fault: reap it
      faulted(why);
      return true;
    }
    pending_.erase(id);
    early_.erase(id);
    if (t == "error") {
      reply.kind = WorkerReply::Kind::Error;
      reply.text = m.value("message", std::string("the worker refused the request"));
    }
    reply.message = std::move(m);
    return true;
  };
  if (auto e = early_.find(id); e != early_.end()) {
    while (!e->second.empty()) {
      json m = std::move(e->second.front());
      e->second.pop_front();
      if (take(std::move(m))) return reply;
    }
  }
  double deadline = now_s() + watchdog;
  bool cancel_sent = false;
  for (;;) {
    if (cancel && *cancel && !cancel_sent) {
      cancel_sent = true;
      this->cancel(id);
    }
    std::string line;
    const int got = read_line(line, std::min(deadline, now_s() + 0.1));
    if (got == 0) {
      if (now_s() < deadline) continue;
      return faulted("killed after " + seconds_text(watchdog) + " s without an answer");
    }
    if (got < 0) return faulted(death_reason());
    json m;
    try {
      m = parse_json_text(line, "the worker's answer");  // bounded; a key twice is refused
    } catch (const std::exception& e) {
      return faulted("the worker wrote garbage: '" + one_line(line, 80) + "' (" + e.what() + ")");
    }
    if (!m.is_object() || !m.contains("type")) return faulted("the worker wrote garbage: '" + one_line(line, 80) + "'");
    const std::int64_t mid = m.contains("id") && m["id"].is_number_integer() ? m["id"].get<std::int64_t>() : -1;
    if (mid != id) {
      if (pending_.count(mid)) early_[mid].push_back(std::move(m));  // another request in flight: its wait takes it
      continue;  // otherwise the answer to a cancel, or to an abandoned request
    }
    if (m["type"].is_string() && m["type"] == "progress") deadline = now_s() + watchdog;
    if (take(std::move(m))) return reply;
  }
}

WorkerReply WorkerClient::call(const std::string& type, json body, double expected_s,
                               const std::function<void(const json&)>& on_event, const std::atomic<bool>* cancel) {
  WorkerReply failure;
  const std::int64_t id = send(type, std::move(body), expected_s, failure);
  if (id < 0) return failure;
  return wait(id, on_event, cancel);
}

RunResult WorkerClient::run(const RunRequest& req) {
  RunResult r;
  WorkerReply reply = call("run", {{"request", request_to_json(req)}}, expected_seconds(req));
  if (reply.ok()) {
    try {
      r = run_from_wire(reply.message.at("run"));
      return r;
    } catch (const std::exception& e) {
      reply.kind = WorkerReply::Kind::Error;
      reply.text = std::string("the worker's answer is not a run: ") + e.what();
    }
  }
  r = unrun_result(req, reply.kind == WorkerReply::Kind::Faulted ? RunStatus::Faulted : RunStatus::Error, reply.text);
  r.device = hello_.device.name;
  return r;
}

bool WorkerClient::offers(const std::string& type) const {
  return std::find(hello_.capabilities.begin(), hello_.capabilities.end(), type) != hello_.capabilities.end();
}

WorkerReply WorkerClient::allreduce(const AllReduceAsk& ask, collective::AllReduceResult& out, int& visible_gpus) {
  WorkerReply reply;
  if (!running()) {
    if (std::string err = start(); !err.empty()) {
      reply.kind = WorkerReply::Kind::Error;
      reply.text = err;
      return reply;
    }
  }
  if (!offers("allreduce")) {
    reply.kind = WorkerReply::Kind::Error;
    reply.text = missing_capability_message(hello_, "allreduce");
    return reply;
  }
  reply = call("allreduce", {{"request", allreduce_ask_to_json(ask)}}, expected_seconds(ask));
  if (!reply.ok()) return reply;
  try {
    out = allreduce_answer_from_json(reply.message, visible_gpus);
  } catch (const std::exception& e) {
    reply.kind = WorkerReply::Kind::Error;
    reply.text = std::string("the worker's answer is not an all-reduce result: ") + e.what();
  }
  return reply;
}

Sweep WorkerClient::sweep(const SweepSpec& spec, const std::string& title, const std::atomic<bool>* cancel,
                          const std::function<void(const SweepProgress&)>& progress, std::string& error) {
  Sweep asked;
  asked.spec = spec;
  asked.title = title;
  RunRequest probe;
  probe.backend = spec.backend;
  probe.repeat = spec.repeat;
  probe.n = spec.by_keep() ? spec.n : std::int64_t(1) << std::min(spec.to_log2, 30);
  // The watchdog restarts with every progress message: it covers one run at the sweep's largest n.
  WorkerReply reply = call(
      "sweep", {{"sweep", sweep_to_json(asked)}}, expected_seconds(probe),
      [&](const json& m) {
        try {
          RunResult r = run_from_wire(m.at("run"));
          asked.runs.push_back(r);  // kept if the sweep ends badly: the runs made so far
          SweepProgress p;
          p.done = m.value("done", 0);
          p.total = m.value("total", 0);
          p.last = &r;
          if (progress) progress(p);
        } catch (const std::exception&) {}
      },
      cancel);
  if (!reply.ok()) {
    error = reply.text;
    asked.cancelled = true;
    return asked;
  }
  try {
    Sweep s = sweep_from_json(reply.message.at("sweep"));
    s.title = title;
    return s;
  } catch (const std::exception& e) {
    error = std::string("the worker's answer is not a sweep: ") + e.what();
    asked.cancelled = true;
    return asked;
  }
}

void WorkerClient::stop(double grace_s) {
  if (!running()) return;
  if (send_line(json{{"id", next_id_++}, {"type", "shutdown"}}.dump() + "\n")) {
    close_fd(in_fd_);  // and stdin ends, whatever it was doing
    const double deadline = now_s() + grace_s;
    int status = 0;
    while (now_s() < deadline) {
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  kill_group();
}

}  // namespace ws
