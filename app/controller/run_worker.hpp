// The one thread that runs the GUI's work: queued RunRequests in order, sweeps and Live. GPU work goes
// either to an in-process Backend (the Opener) or, with a WorkerLaunch, to a `warpscope-cli worker`
// process (worker_client.hpp): a run that faults there costs that run ("faulted"), and a fresh worker
// takes the next one. Sim runs stay in this process. The UI only submits requests and takes
// snapshots, so the window never blocks. The browser build has no threads (WS_NO_THREADS): there take()
// runs the next job itself, one per call (per frame), so that the page draws the progress between jobs.
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

#include <atomic>
#include <optional>

#include "backend.hpp"
#include "live.hpp"
#ifndef WS_NO_WORKERS
#include "live_pipeline.hpp"
#endif
#include "run_types.hpp"
#include "sweep.hpp"
#include "worker_client.hpp"

namespace ws::controller {

/// The step trace of a user's kernel recorded for the GUI (submit_trace), or why there is none.
struct TraceDone {
  RunRequest request;
  int block_index = 0;
  std::optional<Trace> trace;
  std::string error;  ///< "" with a trace
};

/// An all-reduce of the lesson "Reduction across GPUs" run for the GUI (submit_allreduce), or why it did not run.
/// `result` is what the machine answered: ran = false with its one-line error when it could not run the method
/// (no CUDA device, fewer GPUs than asked, no NCCL). `error` is set instead when there is no answer at all (the
/// worker could not be started, refused the request, or died: then `faulted`).
struct AllReduceDone {
  AllReduceAsk ask;
  collective::AllReduceResult result;
  int visible_gpus = 0;  ///< the GPUs the answering machine sees (0 without CUDA, and for a sim ask run here)
  std::string error;     ///< "" with an answer
  bool faulted = false;  ///< the request cost the worker (a fresh one takes the next)
};

class RunWorker {
 public:
  /// Opens the backend (on the worker thread); nullptr + a one-line error when there is no device.
  using Opener = std::function<std::unique_ptr<Backend>(std::string& error)>;

  /// What the UI may know, copied under the mutex.
  struct Snapshot {
    bool opened = false;                  ///< the opener has returned
    DeviceInfo device;                    ///< available = false when there is no device
    std::string backend_name;             ///< Backend::name(), or "" without a backend
    std::string open_error;               ///< why there is no backend
    bool busy = false;                    ///< a run is in progress or queued
    std::string running;                  ///< variant id of the run in progress
    int batch_done = 0, batch_total = 0;  ///< progress since the worker was last idle
    std::vector<RunResult> finished;      ///< results since the previous take()
    // Sweeps (one at a time; queued runs go first).
    bool sweeping = false;  ///< a sweep is queued or running
    int sweep_done = 0, sweep_total = 0;
    std::vector<RunResult> sweep_runs;   ///< runs of the current sweep finished since the previous take()
    std::vector<Sweep> sweeps_finished;  ///< sweeps ended (complete or cancelled) since the previous take()
    // Live: the live requests run again and again while nothing else is queued.
    bool live = false;
    std::vector<LivePoint> live_points;   ///< launches since the previous take()
    std::vector<RunResult> live_results;  ///< the live runs those launches came from (metrics, checks)
    // The worker process (WorkerLaunch mode only).
    std::string worker;             ///< e.g. "worker 4711 on gpu7 (ssh:gpu7)"; "" in-process
    int worker_restarts = 0;        ///< fresh workers started after a fault
    std::string worker_fault;       ///< the latest fault's one-line reason
    std::string worker_where;       ///< where a worker was asked for ("local", "ssh:gpu7"), "" in-process
    int visible_gpus = -1;          ///< the GPUs the worker's machine sees (its hello); -1 unknown or in-process
    std::vector<TraceDone> traces;  ///< users' kernels' step traces finished since the previous take()
    std::vector<AllReduceDone> allreduces;  ///< all-reduces finished since the previous take()
  };

  /// Starts the thread, which first calls `open` (about 0.2 s for CUDA).
  explicit RunWorker(Opener open);
  /// Starts the thread, which starts a worker process with `launch` and reads its hello (the device).
  /// CUDA runs, sweeps and Live go to it; sim runs stay here.
  RunWorker(WorkerLaunch launch, WorkerClientOptions options);
  /// stop(): drops queued runs, lets the current one finish, joins.
  ~RunWorker();
  RunWorker(const RunWorker&) = delete;
  RunWorker& operator=(const RunWorker&) = delete;

  /// Queues requests to run in order; ignored after stop().
  void submit(const std::vector<RunRequest>& requests);
  /// Queues the step trace of block `block_index` of a user's kernel (req.kernel, a traced edit: trace_user_kernel),
  /// after the queued runs; it comes back in Snapshot::traces. Ignored after stop().
  void submit_trace(const RunRequest& req, int block_index);
  /// Queues all-reduces (after the queued runs and traces; before a sweep): a cuda ask goes to the worker process,
  /// which runs it on `ask.run.gpus` GPUs of its machine; in-process (no worker) a cuda ask comes back with a
  /// one-line error saying so; a sim ask runs collective::simulate_allreduce here. Each comes back in
  /// Snapshot::allreduces. Ignored after stop().
  void submit_allreduce(const std::vector<AllReduceAsk>& asks);
  /// Drops the queued runs and traces (not the one running, not the held ones, not all-reduces); returns how many
  /// runs were dropped.
  int cancel_queued();
  /// A user's own kernel (RunRequest::kernel) may fault, and NVIDIA's driver resets a GL context that draws on
  /// the GPU at that moment (docs/device/gl-after-fault.md). While holding (the GUI sets it when its picture
  /// draws on an NVIDIA GPU and the runs go to this machine's GPU), a submit() that holds a user's kernel waits,
  /// with every later submit, until release_user_kernels(): the picture moves off the GPU first.
  void hold_user_kernels(bool hold);
  /// Whether submitted runs wait for release_user_kernels().
  bool user_kernels_waiting() const;
  /// Queues the held runs, in the order they were submitted, and stops holding.
  void release_user_kernels();
  /// Whether the runs go to this machine's GPU: in-process, or a worker with `--gpu local`.
  bool runs_on_this_machine() const { return !launch_ || launch_->where.empty() || launch_->where == "local"; }
  /// Copies the state and moves out the results finished since the last call.
  Snapshot take();
  /// Waits until the opener has returned; false on timeout.
  bool wait_opened(std::chrono::milliseconds timeout);
  /// Stops accepting work, waits for the run in progress and joins the thread. Idempotent.
  /// A sweep in progress is cancelled (it stops after its current run) and Live is switched off.
  void stop();

  /// Queues a sweep (after the queued runs). False when one is already queued or running.
  bool submit_sweep(const SweepSpec& spec);
  /// Asks the sweep in progress to stop after its current run; it is still reported, cancelled.
  void cancel_sweep();
  /// Live: runs `requests` (each one variant) again and again whenever nothing else is queued;
  /// an empty list switches Live off. Each run's timed launches become LivePoints.
  void set_live(const std::vector<RunRequest>& requests);

 private:
  struct LoopState;  // what the loop's thread owns: backend or worker process, Live's runner (run_worker.cpp)
  struct Job;        // the next piece of work taken from the queues

  /// The thread's body: opens the backend, then takes jobs until stop() (WS_NO_THREADS: one per call).
  void loop();
  /// Opens the in-process backend or starts the worker process, and publishes the device in the snapshot.
  void open_backend(LoopState& st);
  /// Waits for (threads) or takes (WS_NO_THREADS, the first call only) the next job: queued runs first,
  /// then traces, the sweep, Live. False when the loop should end.
  bool next_job(LoopState& st, Job& job, int& jobs);
  /// One sweep, in-process or through the worker; its runs reach the snapshot as they finish.
  void run_sweep_job(LoopState& st, const SweepSpec& spec);
  /// One Live step: one launch in-process, or the next batch from the worker's pipeline.
  void run_live_job(LoopState& st);
  /// One user kernel's step trace (trace_user_kernel), in-process or through the worker.
  TraceDone run_trace_job(LoopState& st, const RunRequest& req, int trace_block);
  /// One all-reduce, through the worker (cuda) or here; never throws.
  AllReduceDone run_allreduce_job(LoopState& st, const AllReduceAsk& ask);
  /// One queued run; never throws (a fault in the worker is its result's status).
  RunResult run_request(LoopState& st, const RunRequest& req);
  /// Ends the Live batches in flight in the worker (their runs still count).
  void finish_pipeline(LoopState& st);
#ifndef WS_NO_WORKERS
  /// One Live batch from the worker: its launches and newest runs, as in-process Live shows them.
  void take_batch(LoopState& st, const LivePipeline::Reply& rep);
#endif
  void stop_live_locked();  ///< under mutex_: Live ends (its results say why)
  void trim_live_locked();  ///< under mutex_: keeps the newest points and results of a long backlog
  /// After a fault: records the reason, starts a fresh worker at once (so the status bar shows it).
  void note_fault(WorkerClient& client, const std::string& why);
  std::string worker_line(const WorkerClient& client) const;

  Opener open_;
  std::optional<WorkerLaunch> launch_;
  WorkerClientOptions launch_options_;
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<RunRequest> queue_;
  std::deque<std::pair<RunRequest, int>> traces_;  ///< submit_trace's requests and blocks
  std::deque<AllReduceAsk> allreduces_;            ///< submit_allreduce's asks
  std::vector<RunRequest> held_;                   // submitted while holding, behind a user's kernel
  bool hold_user_kernels_ = false;
  bool stopping_ = false;
  std::optional<SweepSpec> sweep_;  ///< queued or running
  std::atomic<bool> cancel_sweep_{false};
  std::vector<RunRequest> live_;  ///< empty = Live off
  int live_generation_ = 0;       ///< bumped by set_live and when Live stops itself
  /// Set when other work or other live requests arrive: the live batch being waited for is cancelled.
  std::atomic<bool> live_interrupt_{false};
  Snapshot shared_;
  std::thread thread_;
  bool in_loop_ = false;  ///< WS_NO_THREADS: take() is running loop()
};

}  // namespace ws::controller
