// warpscope-cli subcommands. Each returns the process exit code:
// 0 success (a racy variant's lost updates and a cautionary variant's slide bug are successes),
// 1 wrong result or a runtime error, 2 bad request, 3 no CUDA device, 4 a kernel faulted the GPU (the
// CUDA context was lost: in-process, nothing after it ran on the GPU; through --gpu, its worker restarted).
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "backend.hpp"
#include "file_write.hpp"
#include "progress.hpp"
#include "run_types.hpp"
#include "trace/trace_store.hpp"
#include "worker_client.hpp"

namespace ws::cli {

enum Exit { kOk = 0, kFailed = 1, kBadRequest = 2, kNoDevice = 3, kFaulted = 4 };

/// Lists the variants: a table, --json ({"format": "warpscope-variants", "variants": [...]}) or --csv (one row each).
int cmd_list(bool json, bool csv = false);
/// The CUDA device: a table, --json (format warpscope-device) or --csv (one row); exit 3 without one.
int cmd_device(bool json, bool csv = false);

/// Options shared by run and report.
struct RunOptions {
  std::string n;  ///< as typed: "1048576", "2^20", "1<<20"; empty = default
  int block = 0;
  long long grid = 0;
  int repeat = 10;
  int warmup = 2;  ///< untimed launches before the timed ones
  std::string type = "int32";
  std::string input = "random";
  unsigned long long seed = 1;
  BackendKind backend = BackendKind::Cuda;  ///< --backend: cuda or sim
  PatternParams params;                     ///< scan / convolution / atomics options (--exclusive, --mask-width, ...)
  std::string metrics;                      ///< --metrics: "" = none, default | all | NAME,...
  std::vector<std::string> given;  ///< pattern options given on the command line ("--mask-width", "--keep", ...)
  std::string gpu;                 ///< --gpu: "" = in-process; local | ssh:HOST | slurm:ARGS = through a worker
  double watchdog_s = 0;           ///< --watchdog: seconds a worker may go without answering (0 = from the request)
  double connect_timeout_s = 0;    ///< --connect-timeout: seconds to the worker's hello (0 = 60)
  std::string kernel_file;         ///< run --kernel: a .cu file of device code (docs/your-kernel.md)
  std::string kernel_pattern;      ///< --pattern: whose contract it follows ("" = the header's, --like's, reduction)
  std::string kernel_entry;        ///< --entry: the kernel to launch ("" = the header's, else "kernel")
  std::string kernel_like;         ///< --like: the variant whose launch and name the run takes
  bool force = false;              ///< --force: replace an existing output file (or a symbolic link, not its target)
};

/// Reads o.kernel_file into req.kernel (pattern from --pattern, the file's header or --like; default
/// reduction). Returns "" or one line (unreadable file, over 1 MiB, unknown pattern, bad header).
std::string load_kernel_request(const RunOptions& o, RunRequest& req);

/// The one-line answer when a user's kernel cannot run for want of a GPU: it compiles it here when this
/// build has NVRTC (printing its diagnostics on stderr) and says how to run it (here, ssh, Slurm). Returns
/// the exit code: kFailed when it does not compile, else kNoDevice.
int kernel_without_gpu(const RunRequest& req, const std::string& why);

/// warpscope-cli grade: compiles and runs `kernel_file` against exercise `exercise` (lessons' exercises),
/// prints a verdict per check (hidden cases by number only) and returns 0 only when every check passed.
int cmd_grade(const std::string& exercise, const std::string& kernel_file, const RunOptions& o, bool json);

/// Where `bound`'s memory-only and compute-only copies come from.
enum class BoundCopySource {
  Default,      ///< the hand-written pair for a variant alone, starting points (TODOs) with --kernel
  HandWritten,  ///< --hand-written: kernels/<pattern>/bound/<variant>.{memory,compute}.cu, an error when none
  FromText,     ///< --from-text: the original's text twice, the slides' steps as TODO comments (make_bound_copies)
};

/// warpscope-cli bound: the bottleneck search of "Code Optimizations" (J. Filipovic, slides "Code
/// Modifications"). Runs the original (`variant`'s hand-written kernels/<pattern>/bound/<variant>.original.cu,
/// or o.kernel_file run like `variant`), its memory-only and its compute-only copy, in that order and in one
/// worker session (o.gpu) or process, each with kBoundMetrics (DRAM bytes, achieved occupancy), then prints
/// format_bound's table and the slides' verdict (json: bound_to_json with "variant" and "copies"). Exit 0 when
/// the original checks ok (the copies' answers are wrong by design), 2 for a bad request (unknown variant, no
/// copies, unreadable kernel; one line), 3 without a GPU (one line: here, over ssh, through Slurm, as run
/// --kernel says it), 1 when a run fails (4 when it faults).
int cmd_bound(const std::string& variant, const RunOptions& o, BoundCopySource source, bool json);

/// "" when every pattern option given (RunOptions::given) applies to one of `variants`, else one line:
/// "--mask-width applies to convolutions only (epita.reduce3 is a reduction)".
std::string pattern_option_refusal(const RunOptions& o, const std::vector<std::string>& variants);

/// Starts the worker `o.gpu` names and prints its hello (machine, device) on stderr; nullptr and a
/// one-line `error` when it cannot (bad spec, no connection, refused job, other protocol, garbage).
std::unique_ptr<WorkerClient> start_gpu_worker(const RunOptions& o, std::string& error);
/// "" when the worker runs `backend`; otherwise one line naming the machine and why not.
std::string worker_lacks(const WorkerClient& client, BackendKind backend);

/// Where a user's kernels run for `bound` and `grade`: the worker `o.gpu` names, or this process's CUDA
/// backend. `run` executes one request there; `worker` / `backend` own what it uses.
struct KernelRunner {
  std::unique_ptr<WorkerClient> worker;
  std::unique_ptr<Backend> backend;
  std::function<RunResult(const RunRequest&)> run;
};

/// Opens a KernelRunner. Returns -1 on success; otherwise prints one line on stderr and returns the exit
/// code: kFailed when the worker cannot start, kNoDevice when it has no CUDA backend ("warpscope-cli: `what`
/// runs ...: <why>") or this process has no GPU (kernel_without_gpu(probe, ...)'s line and code).
int open_kernel_runner(const RunOptions& o, const RunRequest& probe, const std::string& what, KernelRunner& out);

/// A Backend whose runs and trace recordings go to a worker: the device is the worker's. Used where the
/// CLI's code takes a Backend (report --traces). Generated inputs only (the worker regenerates them from
/// kind, n, type and seed; a file path is read on the worker's machine).
class WorkerTraceBackend final : public Backend {
 public:
  explicit WorkerTraceBackend(WorkerClient& client);
  std::string name() const override { return "cuda"; }
  const DeviceInfo& device() const override { return device_; }
  RunResult run(const VariantInfo& v, const RunRequest& req, const Input& in, const LaunchConfig& launch) override;
  /// The worker's answer to a trace request: its recording, or its error's message with the status the
  /// worker sent beside it (docs/worker-protocol.md: "trace_status" "no_trace_build"), else Failed.
  TraceRecordResult record_trace(const VariantInfo& v, const Input& in, const LaunchConfig& launch, int block_index,
                                 const Trace& model, Trace& out,
                                 const PatternParams& params = PatternParams{}) override;

 private:
  WorkerClient& client_;
  DeviceInfo device_;
};

/// `warpscope-cli worker`: answers the worker protocol on stdin/stdout until shutdown (cmd_worker.cpp).
int cmd_worker();

/// Turns options into a request for `variant`; returns "" or a one-line error.
std::string to_request(const RunOptions& o, const std::string& variant, RunRequest& req);

/// Checks an output file before anything runs (file_write.hpp check_output_path): its directory is
/// writable, it is not the --input or --mask file, and it does not exist (nor is a symbolic link) unless
/// o.force. `what` names the option. Returns "" or one line.
std::string check_output(const RunOptions& o, const std::string& path, const std::string& what);

int cmd_run(const std::string& variant, const RunOptions& o, bool json, bool csv);

/// Prints the trace of block `block_index` of a variant (sim backend; cuda answers that GPU recording
/// is not in this build, exit 1). json: trace_to_json() plus result, expected, launches; ops: with every
/// thread op. Bad requests (including a block index outside the grid) exit 2 before anything runs.
/// values: after the table, the shared array after every step (the tree as text, written slots in brackets).
/// blocks (1..8): traces blocks block_index .. block_index + blocks - 1 (all inside the grid, else exit 2);
/// with more than one, the JSON adds "blocks": one trace object per block (the top level is the first's).
/// csv: one row per step (and block), the JSON's steps flattened.
int cmd_trace(const std::string& variant, const RunOptions& o, long long block_index, bool json, bool ops,
              bool values = false, int blocks = 1, bool csv = false);

/// Runs a set of variants and writes a report. `which`: "all", a lesson id, or comma-separated ids.
/// trace_n > 0: also stores in the report the trace of block 0 of every traceable variant on trace_n
/// random int32 elements (cuda: recorded on the GPU, compared with the model; sim: the model's).
/// The table goes to stdout (one row per variant as it finishes); with json (the report) or csv (its runs)
/// stdout carries the data alone and progress goes to stderr (progress.hpp). An existing out_path is kept
/// unless o.force.
int cmd_report(const std::string& which, const RunOptions& o, const std::string& out_path, const std::string& title,
               bool json, long long trace_n = 0, bool csv = false, ProgressMode progress = ProgressMode::Auto);

/// `report show FILE`: the report's runs (those `which` names: all, a lesson, a pattern or ids) as a
/// table, --csv (runs flattened) or --json (the report, filtered). Exit 2 for an unreadable report.
int cmd_report_show(const std::string& file, const std::string& which, bool json, bool csv);
/// `report compare A B`: per variant in both, time, GB/s and metrics side by side with the ratio B / A,
/// and each run's GB/s relative to the baseline (a library variant) of its own pattern in its report.
int cmd_report_compare(const std::string& a, const std::string& b, const std::string& which, bool json, bool csv);
/// `report merge A B... --out M`: A's runs, where A's did not run (skipped, error) the same variant's run of
/// a later report, other runs appended; traces and sweeps appended. Reports of another device or format
/// version are refused. `title` replaces A's title when not empty.
int cmd_report_merge(const std::vector<std::string>& files, const std::string& out, const std::string& title,
                     bool force);
/// `report filter FILE --variants SEL --out F`: the report with only the runs (sweeps' runs, traces) of the
/// variants named; out "" with json prints it instead.
int cmd_report_filter(const std::string& file, const std::string& which, const std::string& out, bool force, bool json);

/// Lists the metric catalog (units, explanations, default set); no GPU needed.
/// --json: {"format": "warpscope-metrics", "metrics": [...]}; --csv: one row per metric.
int cmd_metrics(bool json, bool csv = false);
/// The metrics block of `run`'s human output (cmd_metrics.cpp).
std::string human_metrics(const KernelMetrics& m);
/// The pcsampling part of human_metrics: per kernel, the reasons (>= 1 %) and the 8 lines with the most samples.
std::string human_stalls(const PcSampling& p);

/// The variant ids `which` names: "all", a lesson id, or comma-separated ids. Returns "" or one line.
std::string select_variants(const std::string& which, std::vector<std::string>& ids);

/// Options of `sweep` besides the run options (n comes from the range).
struct SweepOptions {
  std::string variants = "all";
  int from_log2 = 10, to_log2 = 28;
  std::string report_path, title;  ///< --out (or the deprecated --report: never overwrites), --title
  bool deprecated_report = false;  ///< the path came from --report
  std::string keep_fractions;      ///< --keep-fraction A:B:STEP or F1,F2,...: a kept-fraction sweep of filters at --n
  bool range_given = false;        ///< --from or --to was given
  bool keep_given = false;         ///< --keep was given
  bool keep_fractions_given = false;  ///< --keep-fraction was given (perhaps empty)
};
/// Runs a size sweep (sweep.hpp): a table by variant and n, or --json (the sweep object), or --csv
/// (one row per run); --report also writes a report holding the sweep. With --keep-fraction, a sweep of
/// filters over the kept fraction at one n (default 2^24): the table's second column is the fraction the
/// input really kept, the CSV starts with keep_fraction,kept_fraction. Exit codes as for report.
/// Rows go to stdout as the table (each point as it finishes); with json/csv progress goes to stderr.
int cmd_sweep(const SweepOptions& s, const RunOptions& o, bool json, bool csv,
              ProgressMode progress = ProgressMode::Auto);

/// Options of `allreduce` (cmd_allreduce.cpp), as typed; cmd_allreduce checks them.
struct AllReduceOptions {
  std::string method =
      "all";     ///< --method: ring | tree | nccl_ring | nccl_tree | host_add | peer_to_gpu0 | all, or a comma list
  int gpus = 0;  ///< --gpus: 1..8 (not given: 4 in the sim, every visible GPU with cuda)
  bool gpus_given = false;
  std::string length;                      ///< --length: elements per GPU (1048576, 2^20, 1<<20); "" = 2^26 (256 MiB)
  std::string bytes;                       ///< --bytes: bytes per GPU (4096, 4KiB, 256MiB, 1GiB; a multiple of 4)
  std::string sweep;                       ///< --sweep FROM:TO in bytes (4KiB:1GiB): doubling sizes
  std::string link;                        ///< --link: the sim's machine, nvlink4 (default) | pcie5
  BackendKind backend = BackendKind::Sim;  ///< --backend: sim (default) | cuda
  bool steps = false;                      ///< --steps: the ring's and the tree's steps with contributors
  int warmup = 3, repeats = 20;            ///< --warmup, --repeat: cuda only
  std::string gpu;                         ///< --gpu: "" = in-process; local | ssh:HOST | slurm:ARGS = in a worker
  double watchdog_s = 0;                   ///< --watchdog: with --gpu, as run's
  double connect_timeout_s = 0;            ///< --connect-timeout: with --gpu, as run's
};

/// `warpscope-cli allreduce`: the lesson "Reduction across GPUs" (issue 30, docs/collective.md). Runs each
/// method of o.method on o.gpus GPUs, in the sim (collective/allreduce_sim.hpp) or on this machine's GPUs
/// (collective::run_allreduce_on_gpus), and prints a table (method, GPUs, bytes, ms, algbw, busbw, peer
/// GB/s, link, correct); --steps adds the ring's and tree's steps with each chunk's contributors; --sweep
/// prints busbw per size and method and the ring/tree crossover; json prints the results as a
/// "warpscope-allreduce" file (collective/allreduce_json.hpp). With o.gpu every method and size goes to a
/// worker (one "allreduce" request each, docs/worker-protocol.md), which runs it on its machine's GPUs (or in
/// the sim): stdout is what the same command prints in-process; stderr names the worker's host and, with
/// cuda, the GPUs the run used. Exit 0, 2 for a bad request (one line, before any worker starts), 3 with cuda
/// where no GPU is visible (here or to the worker) or the build has no CUDA (the entry point's one line) or
/// fewer GPUs than --gpus are visible, 1 when a method did not run or its result was wrong, or the worker
/// could not start or does not answer all-reduce requests (one line), 4 when a request cost the worker.
int cmd_allreduce(const AllReduceOptions& o, bool json);

// Formatting (format.cpp)
std::string human_run(const RunResult& r);
/// The table of a report's runs (report, report show): variant, n, time, GB/s, % peak, host ms, check.
std::string runs_table_header(int id_w);
std::string runs_table_row(const RunResult& r, int id_w);
/// Exit code for a finished run (see Exit).
int exit_code(const RunResult& r);
/// Exit code of a command whose runs were `runs`: kFaulted when one faulted, kFailed when one was wrong
/// or failed, else kOk.
int exit_code(const std::vector<RunResult>& runs);
/// The line for a run that faulted the GPU: its message, and for an in-process run (`in_process`)
/// that nothing more could run on the GPU in this process and how --gpu avoids that.
std::string fault_line(const RunResult& r, bool in_process);
/// A table cell of a run's timing: `v` printed with `fmt`, or "-" for a run that was not timed
/// (sim, skipped, errors), which has no time or bandwidth to show.
std::string timed_cell(const RunResult& r, const char* fmt, double v);
/// Width of a table's variant column: the longest of `ids` and `header`.
int column_width(const std::vector<std::string>& ids, const std::string& header);

}  // namespace ws::cli
