// The client's side of the worker protocol (docs/worker-protocol.md): starts `warpscope-cli worker`
// (locally, over `ssh HOST`, or as `srun ARGS`) in its own process group with pipes, sends requests,
// reads the answers with timeouts (poll), and turns a dead worker, a hang, garbage on its stdout, a
// sticky CUDA error or another protocol version into one line. After a fault the next request starts
// a fresh worker. Not thread-safe: one thread talks to one client.
#pragma once
#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "run_types.hpp"
#include "sweep.hpp"
#include "worker_protocol.hpp"

namespace ws {

/// How to start a worker: the command line and a short name of where it runs ("local", "ssh:HOST",
/// "slurm:ARGS").
struct WorkerLaunch {
  std::vector<std::string> argv;
  std::string where;
};

/// Parses `--gpu` (local | ssh:HOST | slurm:ARGS) into a launch. `local_cli`: this machine's
/// warpscope-cli; `remote_cli`: the program run on HOST or in the job step (default "warpscope-cli";
/// $WARPSCOPE_REMOTE_CLI overrides it). ssh runs with BatchMode=yes (no password prompt) and
/// ConnectTimeout; srun with --unbuffered. Returns "" or one line.
std::string parse_gpu_spec(const std::string& spec, const std::string& local_cli, WorkerLaunch& out,
                           const std::string& remote_cli = "");

/// This build's warpscope-cli, for local workers: $WARPSCOPE_CLI, else beside the running program
/// (bin/warpscope-cli of an install, app/cli/warpscope-cli of a build tree). "" when none is found.
std::string find_local_cli();

struct WorkerClientOptions {
  double connect_timeout_s = 60;  ///< from start to hello (ssh connects, srun waits for its allocation)
  double min_watchdog_s = 10;     ///< the least a request waits for an answer before the worker is killed
  double watchdog_s = 0;          ///< > 0: every request's watchdog, whatever its expected time
  /// Extra environment of the worker process (tests: WARPSCOPE_WORKER_TEST=1).
  std::vector<std::pair<std::string, std::string>> env;
};

/// The answer to one request. Ok: `message` is the final response; Error: the worker refused or failed
/// the request and goes on (`text`); Faulted: the request cost the worker (`text` says how: a sticky CUDA
/// error, a signal, a hang killed by the watchdog, garbage, a lost connection).
struct WorkerReply {
  enum class Kind { Ok, Error, Faulted } kind = Kind::Ok;
  nlohmann::json message;
  std::string text;
  bool ok() const { return kind == Kind::Ok; }
};

/// Seconds a request is expected to take, from n, the launches and the backend (a generous estimate:
/// the watchdog is 3x this, at least WorkerClientOptions::min_watchdog_s).
double expected_seconds(const RunRequest& req);
/// Seconds an all-reduce request is expected to take (the watchdog is 3x this, at least min_watchdog_s): the
/// sim's model is quick; on GPUs, starting NCCL and enabling peer access, every GPU's upload and check on the
/// host, and the warm-up and timed repetitions, each at a modest bandwidth.
double expected_seconds(const AllReduceAsk& ask);

/// The one line for a worker whose hello does not offer request `type` (an older warpscope on the far side):
/// "the worker on HOST runs warpscope VERSION, which does not answer 'allreduce' requests (it answers run, ...):
/// install this warpscope version there".
std::string missing_capability_message(const WorkerHello& hello, const std::string& type);

class WorkerClient {
 public:
  explicit WorkerClient(WorkerLaunch launch, WorkerClientOptions options = {});
  /// Asks the worker to shut down, kills its process group if it has not within 2 s.
  ~WorkerClient();
  WorkerClient(const WorkerClient&) = delete;
  WorkerClient& operator=(const WorkerClient&) = delete;

  /// Starts the worker and reads its hello. "" or one line naming the cause (cannot start the command,
  /// the connection or the job failed (its stderr's last line), no hello within connect_timeout_s,
  /// garbage, another protocol version). Nothing is left running after a failure.
  std::string start();
  bool running() const { return pid_ > 0; }
  /// The hello of the worker running now (or of the last one).
  const WorkerHello& hello() const { return hello_; }
  /// Workers started after a fault (a fresh one for the next request).
  int restarts() const { return restarts_; }
  /// The one-line reason of the latest fault ("" if none).
  const std::string& last_fault() const { return last_fault_; }
  const WorkerLaunch& launch() const { return launch_; }

  /// Sends {"id", "type", ...body} and waits for the response with that id; other messages with that id
  /// ("progress") go to `on_event`, each one restarting the watchdog. Starts a worker first when none
  /// runs (a start failure is an Error). `expected_s`: the request's expected time (watchdog). When
  /// `cancel` becomes true a cancel request is sent once (the answer still comes, maybe shortened).
  WorkerReply call(const std::string& type, nlohmann::json body, double expected_s,
                   const std::function<void(const nlohmann::json&)>& on_event = {},
                   const std::atomic<bool>* cancel = nullptr);

  /// Sends {"id", "type", ...body} and returns its id without waiting (several may be in flight: the
  /// worker answers them in order). Starts a worker first when none runs. -1 when it could not be sent:
  /// `failure` then says why (Error: the worker could not be started; Faulted: it had died).
  std::int64_t send(const std::string& type, nlohmann::json body, double expected_s, WorkerReply& failure);
  /// Waits for the answer to `id` (from send()), as call() does; answers to other requests in flight
  /// that arrive meanwhile are kept for their own wait(). The watchdog starts now: a request queued
  /// behind another is not charged for the other's time. After a fault every request in flight is
  /// lost (the worker was killed): waiting for one of them is an Error at once.
  WorkerReply wait(std::int64_t id, const std::function<void(const nlohmann::json&)>& on_event = {},
                   const std::atomic<bool>* cancel = nullptr);
  /// Asks the worker to cancel request `id`: a running one stops after its current run and answers;
  /// a queued one is answered with the error "cancelled before it started".
  void cancel(std::int64_t id);
  /// Requests sent and not yet answered.
  std::size_t in_flight() const { return pending_.size(); }

  /// A run through the worker: the RunResult it answered, or one with status "error" (refused, or the
  /// worker could not be started) or "faulted" (the request cost the worker) and the reason as message.
  RunResult run(const RunRequest& req);
  /// True when the worker running now (its hello's capabilities) answers requests of `type`.
  bool offers(const std::string& type) const;

  /// An all-reduce through the worker ("allreduce", docs/worker-protocol.md). Starts a worker first when none
  /// runs. Ok: `out` is the worker's result (not run, with its one-line error, when the worker's machine
  /// could not run it: no GPU, fewer GPUs than asked, no NCCL) and `visible_gpus` the GPUs it sees. Error:
  /// the worker could not be started, does not offer "allreduce" (missing_capability_message), refused the
  /// request, or answered something that is not a result; Faulted: the request cost the worker. Never throws.
  WorkerReply allreduce(const AllReduceAsk& ask, collective::AllReduceResult& out, int& visible_gpus);

  /// Runs a sweep in the worker; `progress` after each run. On an error or fault `error` is set and the
  /// sweep holds the runs made before it, marked cancelled.
  Sweep sweep(const SweepSpec& spec, const std::string& title, const std::atomic<bool>* cancel,
              const std::function<void(const SweepProgress&)>& progress, std::string& error);

  /// Ends the worker: shutdown, then SIGKILL to its process group after `grace_s`. Idempotent.
  void stop(double grace_s = 2);

 private:
  std::string fault(const std::string& why);  ///< kills the worker, records the reason, returns it
  void kill_group();
  /// Reads until a full line, `deadline` (steady seconds) or the end of stdout. 1: line, 0: timeout, -1: EOF.
  int read_line(std::string& line, double deadline);
  /// The one-line epitaph of a worker whose stdout ended: exit status or signal, and its stderr's last line.
  std::string death_reason();
  bool send_line(const std::string& line);
  /// The last line of the worker's stderr that is not its start-up log ("" if none).
  std::string stderr_last_line();
  void drain_stderr();

  WorkerLaunch launch_;
  WorkerClientOptions o_;
  pid_t pid_ = -1;
  int in_fd_ = -1, out_fd_ = -1, err_fd_ = -1;
  std::string out_buf_, err_tail_;
  WorkerHello hello_;
  std::int64_t next_id_ = 1;
  std::map<std::int64_t, double> pending_;                    ///< requests in flight: id -> watchdog seconds
  std::map<std::int64_t, std::deque<nlohmann::json>> early_;  ///< messages for requests in flight not yet waited for
  int restarts_ = 0;
  bool faulted_before_ = false;
  std::string last_fault_;
};

}  // namespace ws
