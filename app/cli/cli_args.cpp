// warpscope-cli's option parsing (cli_args.hpp): CLI11 with the project's own range checks.
#include "cli_args.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <limits>
#include <sstream>
#include <type_traits>

#include "limits.hpp"
#include "pattern_kind.hpp"

#include "version.hpp"

namespace ws::cli {

namespace {

const char* const kBlockLimit = "a block has at most 1024 threads";
const char* const kGridLimit = "a grid has at most 2^31 - 1 blocks";
const char* const kSeedLimit = "a seed is a whole number from 0 to 2^64 - 1";
/// --watchdog and --connect-timeout: a day at most (a larger wait is no watchdog at all).
constexpr double kMaxWaitSeconds = 86400;
const char* const kElementLimit = "at most 2^30 elements, so the kernels' int indices cannot overflow";

/// Refuses, before CLI11 converts it, a whole number that does not fit the option's type T: CLI11
/// would saturate it (--grid 99999999999999999999 became 2^63 - 1) or wrap a negative into an
/// unsigned one (--seed -1 became 2^64 - 1) and run with that. `limit` names the option's real bound.
/// Values that fit go on to the option's own range check, which names the same bound.
template <class T>
CLI::Validator fits(const std::string& limit) {
  return CLI::Validator(
      [limit](std::string& text) -> std::string {
        if (text.empty()) return "an empty value is not a number (" + limit + ")";  // CLI11 would read 0
        const bool negative = !text.empty() && text[0] == '-';
        const std::string digits = text.substr(negative || (!text.empty() && text[0] == '+') ? 1 : 0);
        if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
          return "";  // CLI11: "Could not convert"
        if (negative && std::is_unsigned<T>::value) return text + " is negative (" + limit + ")";
        errno = 0;
        const unsigned long long magnitude = std::strtoull(digits.c_str(), nullptr, 10);
        const unsigned long long most = negative ? 0ull - static_cast<unsigned long long>(std::numeric_limits<T>::min())
                                                 : static_cast<unsigned long long>(std::numeric_limits<T>::max());
        if (errno == ERANGE || magnitude > most)
          return text + (negative ? " is negative (" : " is too large (") + limit + ")";
        return "";
      },
      "", "fits");
}

/// Refuses, before CLI11 converts it, a floating value that is not a finite number in [lo, hi]:
/// CLI11 reads "nan", "inf" and 1e309, and NaN passes every range check (--watchdog inf was no timeout).
CLI::Validator finite(double lo, double hi, const std::string& unit = "") {
  return CLI::Validator([=](std::string& text) -> std::string { return check_number_option("", text, lo, hi, unit); },
                        "", "finite");
}

/// `text` with control characters escaped (\n, \t, \xNN): CLI11 quotes arguments as typed, and an
/// argument holding a newline must not break the one-line error in two.
std::string printable(const std::string& text) {
  static const char* const hex = "0123456789abcdef";
  std::string out;
  for (unsigned char ch : text) {
    if (ch == '\n')
      out += "\\n";
    else if (ch == '\t')
      out += "\\t";
    else if (ch < 32 || ch == 127)
      out += std::string("\\x") + hex[ch >> 4] + hex[ch & 15];
    else
      out += char(ch);
  }
  return out;
}

/// "--force": an existing output file (or a symbolic link, which is replaced, not followed) may be replaced.
void add_force_flag(CLI::App* c, bool& force) {
  c->add_flag("--force,-f", force,
              "replace an existing output file; a symbolic link there is replaced itself, its target is left alone "
              "(default: an existing output is kept and the command refused)");
}

/// --progress / --quiet of the long commands.
void add_progress_flags(CLI::App* c, ProgressMode& mode) {
  c->add_flag_callback(
      "--progress", [&mode] { mode = ProgressMode::On; },
      "show progress on stderr even with the table (one line per item, or a cleared line on a "
      "terminal)");
  c->add_flag_callback(
      "--quiet,-q", [&mode] { mode = ProgressMode::Off; }, "no progress on stderr");
}

/// Examples at the end of a subcommand's --help.
void examples(CLI::App* c, std::initializer_list<const char*> lines) {
  std::string text = "Examples:";
  for (const char* l : lines) text += std::string("\n  ") + l;
  c->footer(text);
}

/// The subcommands, in help order.
const char* const kSubcommands[] = {"list",    "device", "run",   "grade",  "bound",    "trace",
                                    "metrics", "report", "sweep", "worker", "allreduce"};

/// Records which pattern options were given on the command line (their values alone cannot say).
void note_given(CLI::App* c, RunOptions& o) {
  for (const char* name : {"--mask-width", "--tile", "--width", "--height", "--mask", "--keep"})
    if (c->count(name) > 0) o.given.push_back(name);
}

/// --backend: "cuda" or "sim" into `out`; any other name is refused with unknown_backend_message.
void add_backend_option(CLI::App* c, BackendKind& out, const std::string& help) {
  c->add_option_function<std::string>(
      "--backend",
      [&out](const std::string& name) {
        BackendKind b;
        if (!parse_backend(name, b) || b == BackendKind::Cpu) throw CLI::ValidationError(unknown_backend_message(name));
        out = b;
      },
      help);
}

void add_run_options(CLI::App* c, RunOptions& o) {
  c->add_option("--n", o.n, "number of elements: 1048576, 2^20 or 1<<20 (default 2^20, or the file's count)");
  c->add_option("--block", o.block, "threads per block (default: the variant's)")->check(fits<int>(kBlockLimit));
  c->add_option("--grid", o.grid, "blocks (default: derived from n, or one full wave for grid-stride kernels)")
      ->check(fits<long long>(kGridLimit));
  c->add_option("--repeat", o.repeat, "timed launches; median, min and max are reported (default 10)")
      ->check(fits<int>("at most 100000 timed launches"));
  c->add_option("--type", o.type, "int32 | float32 | uint8 (default int32; histograms read uint8)");
  c->add_option("--input", o.input, "random | ones | sequence | PATH of a text file of numbers (default random)");
  c->add_option("--seed", o.seed, "seed of the random input (default 1)")->check(fits<unsigned long long>(kSeedLimit));
  add_backend_option(c, o.backend, "cuda | sim (default cuda)");
  c->add_option("--metrics", o.metrics, "hardware metrics (CUPTI): default | all | NAME,... (see the metrics command)");
  c->add_option("--gpu", o.gpu,
                "run through a worker process: local | ssh:HOST | slurm:ARGS (default: in this process)");
  c->add_option("--watchdog", o.watchdog_s,
                "with --gpu: seconds a request may go without an answer before the worker is killed (default: from the "
                "request, at least 10)")
      ->check(finite(0, kMaxWaitSeconds, "seconds"));
  c->add_option("--connect-timeout", o.connect_timeout_s,
                "with --gpu: seconds to wait for the worker's hello (default 60)")
      ->check(finite(0, kMaxWaitSeconds, "seconds"));
}
/// Options of the array patterns (docs/patterns.md); each pattern checks the ones it uses.
void add_pattern_options(CLI::App* c, RunOptions& o) {
  c->add_flag("--exclusive", o.params.exclusive, "scan: exclusive prefix sums (out[0] = 0); default inclusive");
  c->add_option("--mask-width", o.params.mask_width, "convolution: mask width, odd (default 5)")
      ->check(fits<int>("masks are odd widths from 1 to 15"));
  c->add_option("--tile", o.params.tile, "convolution: output tile width (default: the variant's)")
      ->check(fits<int>(kBlockLimit));
  c->add_option("--width", o.params.width, "convolution 2D: image width")->check(fits<std::int64_t>(kElementLimit));
  c->add_option("--height", o.params.height, "convolution 2D: image height")->check(fits<std::int64_t>(kElementLimit));
  c->add_option("--mask", o.params.mask, "convolution: box | gauss | PATH of a text file (default box)");
  c->add_option("--keep", o.params.keep_fraction, "filters: fraction of the values kept, 0..1 (default 0.5)")
      ->check(finite(0, 1));
}
}  // namespace

CliParse parse_command_line(int argc, const char* const* argv, CliCommand& out) {
  out = CliCommand{};
  out.trace.backend = BackendKind::Sim;
  CLI::App app{
      "warpscope-cli: run the kernels of every lesson (reduction, scan, convolution, atomics) on the GPU or its "
      "thread-level CPU model, check them against the CPU, time them, trace their steps and write reports",
      "warpscope-cli"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("warpscope-cli ") + WS_VERSION);
  examples(&app, {"warpscope-cli list", "warpscope-cli run --variant epita.reduce3 --backend sim",
                  "warpscope-cli report show assets/reports/nvidia-h100.json --csv > runs.csv",
                  "warpscope-cli SUBCOMMAND --help"});

  auto* list = app.add_subcommand("list", "list every variant");
  list->add_flag("--json", out.json, "JSON object: format, version and the variants");
  list->add_flag("--csv", out.csv, "CSV: one row per variant (rules.* columns)");
  examples(list, {"warpscope-cli list", "warpscope-cli list --csv > variants.csv"});

  auto* device = app.add_subcommand("device", "the CUDA device and its bandwidth");
  device->add_flag("--json", out.json, "JSON object");
  device->add_flag("--csv", out.csv, "CSV header and one row");
  examples(device, {"warpscope-cli device", "warpscope-cli device --json"});

  auto* run = app.add_subcommand("run", "run one variant, check it against the CPU and time it");
  run->add_option("--variant", out.variant, "variant id (see list)");
  run->add_option("--kernel", out.run.kernel_file,
                  "instead of --variant: a .cu file of device code following a pattern's kernel contract "
                  "(docs/your-kernel.md), compiled with NVRTC where it runs");
  run->add_option("--pattern", out.run.kernel_pattern,
                  "with --kernel: reduction | scan | atomics (default: the "
                  "file's `// warpscope: pattern=` header, --like's, reduction)");
  run->add_option("--entry", out.run.kernel_entry, "with --kernel: the kernel to launch (default `kernel`)");
  run->add_option("--like", out.run.kernel_like,
                  "with --kernel: the variant whose launch (block, items per thread) and name the run takes");
  add_run_options(run, out.run);
  run->add_option("--warmup", out.run.warmup,
                  "untimed launches before the timed ones (default 2; --warmup 0 --repeat 1: one launch)")
      ->check(fits<int>("at most 1000 untimed launches"))
      ->check(CLI::Range(0, 1000));
  add_pattern_options(run, out.run);
  run->add_option("--output", out.run.params.output_path,
                  "array patterns: write the whole output here as text (one value per line; 2D: one row per line)");
  run->add_flag("--json", out.json, "one JSON object");
  run->add_flag("--csv", out.csv, "CSV header and one row (the JSON object flattened: host_ms.total, params.tile)");
  add_force_flag(run, out.run.force);
  examples(run, {"warpscope-cli run --variant epita.reduce3 --n 2^24",
                 "warpscope-cli run --variant epita.reduce3 --backend sim --type float32 --csv",
                 "warpscope-cli run --variant stevens.kogge_stone --backend sim --output scan.txt"});

  auto* grade =
      app.add_subcommand("grade", "grade a kernel against an exercise: a verdict per check, exit 0 only when all pass");
  grade->add_option("--exercise", out.exercise, "exercise id (assets/exercises/ID; an unknown id lists them)");
  grade->add_option("--kernel", out.run.kernel_file, "the .cu file to grade");
  grade->add_option("--gpu", out.run.gpu,
                    "run through a worker process: local | ssh:HOST | slurm:ARGS (default: in this process)");
  grade->add_flag("--json", out.json, "one JSON object");

  auto* bound = app.add_subcommand(
      "bound",
      "find a kernel's bound as the Filipovic slides teach it: the original, a memory-only and a compute-only "
      "copy, timed with DRAM bytes and occupancy, and the slides' verdict");
  bound->add_option("--variant", out.variant, "variant id (hand-written copies: the variants bound names)");
  bound->add_option("--kernel", out.run.kernel_file,
                    "your .cu file, run like --variant (copies start from its text, with the slides' steps as TODOs)");
  bound->add_option("--n", out.run.n, "number of elements: 1048576, 2^20 or 1<<20 (default 2^20)");
  bound->add_option("--block", out.run.block, "threads per block (default: the variant's)")
      ->check(fits<int>(kBlockLimit));
  bound->add_option("--repeat", out.run.repeat, "timed launches; the median is compared (default 10)")
      ->check(fits<int>("at most 100000 timed launches"));
  bound->add_option("--seed", out.run.seed, "seed of the random input (default 1)")
      ->check(fits<unsigned long long>(kSeedLimit));
  bound->add_option("--gpu", out.run.gpu,
                    "run through a worker process: local | ssh:HOST | slurm:ARGS (default: in this process)");
  bound
      ->add_option("--watchdog", out.run.watchdog_s,
                   "with --gpu: seconds a request may go without an answer before the worker is killed")
      ->check(finite(0, kMaxWaitSeconds, "seconds"));
  bound
      ->add_option("--connect-timeout", out.run.connect_timeout_s,
                   "with --gpu: seconds to wait for the worker's hello (default 60)")
      ->check(finite(0, kMaxWaitSeconds, "seconds"));
  bool bound_hand = false, bound_text = false;
  bound->add_flag("--hand-written", bound_hand,
                  "use kernels/<pattern>/bound/<variant>.{memory,compute}.cu (the default without --kernel)");
  bound->add_flag("--from-text", bound_text,
                  "copies of the original's text with the slides' steps as TODO comments (the default with --kernel)");
  bound->add_flag("--json", out.json, "one JSON object (format warpscope-bound)");
  examples(bound, {"warpscope-cli bound --variant epita.reduce3 --n 2^24",
                   "warpscope-cli bound --variant harris.impl1 --gpu ssh:gpuhost --json",
                   "warpscope-cli bound --variant epita.reduce3 --kernel my_reduce.cu"});

  auto* trace = app.add_subcommand(
      "trace", "step through one block of a variant: active lanes, divergence, bank conflicts per step");
  trace->add_option("--variant", out.variant, "variant id (see list)")->required();
  trace->add_option("--n", out.trace.n,
                    "number of elements: 1048576, 2^20 or 1<<20 (default 2^20, or the file's count)");
  trace->add_option("--block", out.trace.block, "threads per block (default: the variant's)")
      ->check(fits<int>(kBlockLimit));
  trace->add_option("--grid", out.trace.grid, "blocks (default: derived from n; grid-stride kernels: at most 1024)")
      ->check(fits<long long>(kGridLimit));
  trace->add_option("--block-index", out.block_index, "which block to trace (default 0)")
      ->check(fits<long long>("a block index is below the grid's block count"));
  trace
      ->add_option("--blocks", out.blocks,
                   "trace this many consecutive blocks from --block-index (1 to 8, default 1): the JSON's \"blocks\" "
                   "holds them all")
      ->check(fits<int>("1 to 8 blocks"))
      ->check(CLI::Range(1, 8));
  trace->add_option("--type", out.trace.type, "int32 | float32 | uint8 (default int32; histograms read uint8)");
  trace->add_option("--input", out.trace.input,
                    "random | ones | sequence | PATH of a text file of numbers (default random)");
  trace->add_option("--seed", out.trace.seed, "seed of the random input (default 1)")
      ->check(fits<unsigned long long>(kSeedLimit));
  add_backend_option(trace, out.trace.backend,
                     "sim | cuda (default sim; cuda records the block on the GPU with the instrumented kernels and "
                     "compares it with the sim model)");
  add_pattern_options(trace, out.trace);
  trace->add_flag("--json", out.json, "one JSON object with the steps");
  trace->add_flag("--csv", out.csv, "CSV: one row per step (and block), the JSON's steps flattened");
  examples(trace, {"warpscope-cli trace --variant epita.reduce2 --n 16 --block 16 --values",
                   "warpscope-cli trace --variant harris.impl2 --n 512 --csv > steps.csv"});
  trace->add_flag("--ops", out.ops, "with --json: include every thread's operations");
  trace->add_flag("--values", out.values,
                  "after the table, the tree as text: the shared array after every step, written slots in [brackets] "
                  "(--json always has them)");

  auto* metrics =
      app.add_subcommand("metrics", "list the hardware metrics run --metrics can collect, with units and explanations");
  metrics->add_flag("--json", out.json, "JSON object: format, version and the metrics");
  metrics->add_flag("--csv", out.csv, "CSV: one row per metric");
  examples(metrics, {"warpscope-cli metrics", "warpscope-cli run --variant epita.reduce3 --metrics default"});

  auto* report = app.add_subcommand("report", "run several variants and write a versioned JSON report");
  report->add_option("--variants", out.which,
                     "all | a lesson id (epita, harris, cs121, amp, stevens) | a pattern (" + pattern_names() +
                         ") | comma-separated ids (default all)");
  report->add_option("--out,-o", out.out_path, "report file to write (an existing one is kept unless --force)");
  report->add_option("--title", out.title, "report title");
  add_run_options(report, out.run);
  add_pattern_options(report, out.run);
  report->add_flag("--json", out.json, "print the report to stdout too (the table goes away; progress on stderr)");
  report->add_flag("--csv", out.csv, "print the report's runs to stdout as CSV (the table goes away)");
  add_force_flag(report, out.run.force);
  add_progress_flags(report, out.progress);
  examples(report, {"warpscope-cli report --variants epita --backend sim --out epita.json",
                    "warpscope-cli report show assets/reports/nvidia-h100.json --variants reduction --csv",
                    "warpscope-cli report compare assets/reports/nvidia-h100.json assets/reports/nvidia-h200.json"});
  report->require_subcommand(0, 1);
  auto* show = report->add_subcommand("show", "print a report's runs as a table, CSV or JSON");
  show->add_option("report", out.files, "report file (JSON)")->required()->expected(1);
  show->add_option("--variants", out.which, "all | a lesson | a pattern | comma-separated ids (default all)");
  show->add_flag("--json", out.json, "the report with the chosen runs (format warpscope-report)");
  show->add_flag("--csv", out.csv, "one row per run: the run objects flattened (host_ms.total, params.mask_width)");
  examples(show, {"warpscope-cli report show assets/reports/nvidia-h100.json",
                  "warpscope-cli report show assets/reports/nvidia-h100-lessons.json --variants stevens --csv"});
  auto* compare = report->add_subcommand(
      "compare",
      "compare two reports per variant: time, GB/s and metrics side by side, ratios B / A, and each "
      "run against the baseline of its own pattern; and their sweeps point by point (the same variant, type "
      "and n or kept fraction): GPU time and GB/s, or the CPU model's host time for sim sweeps, with ratios B / A");
  compare->add_option("reports", out.files, "report A, report B")->required()->expected(2);
  compare->add_option("--variants", out.which, "all | a lesson | a pattern | comma-separated ids (default all)");
  compare->add_flag("--json", out.json,
                    "JSON object (format warpscope-compare): the variants, and sweep_points with the points found "
                    "in only one report");
  compare->add_flag("--csv", out.csv, "one row per variant, then one per sweep point (column sweep = true)");
  examples(compare, {"warpscope-cli report compare assets/reports/nvidia-h100.json assets/reports/nvidia-h200.json",
                     "warpscope-cli report compare a.json b.json --variants reduction --csv > ratios.csv",
                     "warpscope-cli report compare sweep-h100.json sweep-h200.json --variants epita.reduce3"});
  auto* merge = report->add_subcommand(
      "merge",
      "merge reports of one device: runs that did not run in the first are taken from the others, "
      "other runs, traces and sweeps appended");
  merge->add_option("reports", out.files, "the reports, the first one's runs first")->required()->expected(2, 1024);
  merge->add_option("--out,-o", out.out_path, "merged report to write")->required();
  merge->add_option("--title", out.title, "title of the merged report (default: the first one's)");
  add_force_flag(merge, out.force);
  examples(merge, {"warpscope-cli report merge lessons.json part-conv.json part-scan.json --out all.json"});
  auto* filter = report->add_subcommand("filter", "keep the runs, sweep runs and traces of some variants");
  filter->add_option("report", out.files, "report file (JSON)")->required()->expected(1);
  filter->add_option("--variants", out.which, "all | a lesson | a pattern | comma-separated ids")->required();
  filter->add_option("--out,-o", out.out_path, "report to write");
  filter->add_flag("--json", out.json, "print the filtered report to stdout");
  add_force_flag(filter, out.force);
  examples(filter, {"warpscope-cli report filter assets/reports/nvidia-h100-lessons.json --variants scan --out "
                    "scan.json"});
  report
      ->add_option("--traces", out.trace_n,
                   "also store the step trace of block 0 of every traceable variant, run on N random int32 elements "
                   "with its default block (cuda: recorded on the GPU and compared with the model)")
      ->check(fits<long long>("at most 16777216 = 2^24 elements"));

  auto* sweep = app.add_subcommand("sweep", "run variants at n = 2^from .. 2^to: time and GB/s against n");
  sweep->add_option("--variants", out.sweep.variants,
                    "all | a lesson id | a pattern (" + pattern_names() +
                        ") | comma-separated ids (default all: every reduction; every filter with --keep-fraction)");
  sweep->add_option("--from", out.sweep.from_log2, "smallest n as a power of two (default 10: n = 2^10)")
      ->check(fits<int>("exponents go from 1 to 30: n = 2^from .. 2^to"));
  sweep->add_option("--to", out.sweep.to_log2, "largest n as a power of two (default 28: n = 2^28)")
      ->check(fits<int>("exponents go from 1 to 30: n = 2^from .. 2^to"));
  sweep->add_option("--out,-o", out.sweep.report_path,
                    "also write a report holding the sweep (the GUI's Plots view draws it; an existing file is kept "
                    "unless --force)");
  auto* deprecated_report =
      sweep->add_option("--report", out.sweep.report_path, "deprecated name of --out; it never replaces a file");
  sweep->add_option("--title", out.sweep.title, "title of the sweep");
  sweep->add_option("--keep-fraction", out.sweep.keep_fractions,
                    "filters: sweep the fraction of values kept at one n (--n, default 2^24) instead of n: A:B:STEP "
                    "(0:1:0.1) or F1,F2,...");
  add_run_options(sweep, out.sweep_run);
  add_pattern_options(sweep, out.sweep_run);
  sweep->add_flag("--json", out.json, "one JSON object: the sweep with its runs and the device");
  sweep->add_flag("--csv", out.csv, "CSV header and one row per run (as run --csv; host_ms.total is the host time)");
  add_force_flag(sweep, out.sweep_run.force);
  add_progress_flags(sweep, out.progress);
  examples(sweep, {"warpscope-cli sweep --variants epita --from 10 --to 24 --backend sim --csv > sweep.csv",
                   "warpscope-cli sweep --variants reduction --from 10 --to 28 --out sweep.json",
                   "warpscope-cli sweep --variants atomics --keep-fraction 0:1:0.1 --n 2^24"});

  auto* worker =
      app.add_subcommand("worker", "answer the worker protocol on stdin/stdout (JSON lines; docs/worker-protocol.md)");
  examples(worker, {"echo '{\"type\":\"shutdown\"}' | warpscope-cli worker"});

  auto* allreduce = app.add_subcommand(
      "allreduce",
      "reduction across GPUs: the ring, the tree, NCCL and two simpler methods, in the sim or on this machine's GPUs");
  AllReduceOptions& ar = out.allreduce;
  allreduce->add_option(
      "--method", ar.method,
      "ring | tree | nccl_ring | nccl_tree | host_add | peer_to_gpu0 | all, or a comma list (default all)");
  allreduce
      ->add_option_function<int>(
          "--gpus",
          [&ar](int n) {
            ar.gpus = n;
            ar.gpus_given = true;
          },
          "GPUs, 1 to 8 (default: 4 in the sim, every visible GPU with --backend cuda)")
      ->check(fits<int>("1 to 8 GPUs"));
  allreduce->add_option("--length", ar.length,
                        "float32 elements per GPU: 1048576, 2^20 or 1<<20 (default 2^26 = 256 MiB)");
  allreduce->add_option("--bytes", ar.bytes, "instead of --length: bytes per GPU, 4096, 4KiB, 256MiB or 1GiB");
  allreduce->add_option("--sweep", ar.sweep,
                        "message sizes FROM:TO in bytes, doubling (4KiB:1GiB): busbw and the crossover");
  allreduce->add_option("--link", ar.link, "the sim's machine: nvlink4 (H100/H200, default) | pcie5");
  add_backend_option(allreduce, ar.backend, "sim | cuda (default sim: the model of docs/collective.md)");
  allreduce->add_flag("--steps", ar.steps, "print the ring's and the tree's steps: chunks moved, time, contributors");
  allreduce->add_option("--warmup", ar.warmup, "cuda: untimed repetitions (default 3)")
      ->check(fits<int>("at most 1000 untimed repetitions"))
      ->check(CLI::Range(0, 1000));
  allreduce->add_option("--repeat", ar.repeats, "cuda: timed repetitions, the median is reported (default 20)")
      ->check(fits<int>("1 to 100000 timed repetitions"))
      ->check(CLI::Range(1, 100000));
  allreduce->add_option("--gpu", ar.gpu,
                        "run in a worker process, on all of its machine's GPUs: local | ssh:HOST | slurm:ARGS "
                        "(default: in this process)");
  allreduce
      ->add_option("--watchdog", ar.watchdog_s,
                   "with --gpu: seconds a request may go without an answer before the worker is killed")
      ->check(finite(0, kMaxWaitSeconds, "seconds"));
  allreduce
      ->add_option("--connect-timeout", ar.connect_timeout_s,
                   "with --gpu: seconds to wait for the worker's hello (default 60)")
      ->check(finite(0, kMaxWaitSeconds, "seconds"));
  allreduce->add_flag("--json", out.json, "the results as JSON (format warpscope-allreduce)");
  examples(allreduce, {"warpscope-cli allreduce --gpus 4 --bytes 256MiB",
                       "warpscope-cli allreduce --method ring --gpus 4 --bytes 64MiB --steps",
                       "warpscope-cli allreduce --method ring,tree --gpus 8 --sweep 4KiB:1GiB",
                       "warpscope-cli allreduce --backend cuda --gpus 2 --json > allreduce-2gpu.json",
                       "warpscope-cli allreduce --backend cuda --method ring --gpus 4 --gpu slurm:'--gres=gpu:4'"});

  CliParse res;
  // Every message quotes arguments as typed: one holding a newline would break the one-line error
  // (and the tables) in two. No option takes one, so it is refused before anything else.
  for (int i = 1; i < argc; ++i)
    for (const char* c = argv[i]; *c; ++c)
      if ((static_cast<unsigned char>(*c) < 32 && *c != '\t') || *c == 127) {
        res.exit = kBadRequest;
        res.text = "argument " + std::to_string(i) + " holds a control character: '" + printable(argv[i]) + "'";
        return res;
      }
  // An unknown subcommand is named as such (CLI11 would only say that one is required).
  if (argc > 1 && argv[1][0] != '-' &&
      std::find(std::begin(kSubcommands), std::end(kSubcommands), std::string(argv[1])) == std::end(kSubcommands)) {
    res.exit = kBadRequest;
    res.text = "unknown subcommand '" + printable(argv[1]) +
               "' (subcommands: list, device, run, grade, bound, trace, metrics, report, sweep, worker, allreduce; try "
               "--help)";
    return res;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    std::ostringstream text, err;
    res.exit = app.exit(e, text, err);
    res.text = text.str() + err.str();
    return res;
  } catch (const CLI::CallForVersion& e) {
    std::ostringstream text, err;
    res.exit = app.exit(e, text, err);
    res.text = text.str() + err.str();
    return res;
  } catch (const CLI::CallForAllHelp& e) {
    std::ostringstream text, err;
    res.exit = app.exit(e, text, err);
    res.text = text.str() + err.str();
    return res;
  } catch (const CLI::ValidationError& e) {  // one of our checks: its text says what is wrong
    res.exit = kBadRequest;
    res.text = printable(e.what());
    return res;
  } catch (const CLI::ParseError& e) {
    res.exit = kBadRequest;
    res.text = printable(e.what()) + " (try --help)";
    return res;
  } catch (const std::exception& e) {
    res.exit = kBadRequest;
    res.text = printable(describe_exception(e));
    return res;
  }
  note_given(run, out.run);
  note_given(report, out.run);
  note_given(trace, out.trace);
  note_given(sweep, out.sweep_run);
  for (const auto& [sub, name] : std::initializer_list<std::pair<CLI::App*, const char*>>{{list, "list"},
                                                                                          {device, "device"},
                                                                                          {run, "run"},
                                                                                          {trace, "trace"},
                                                                                          {metrics, "metrics"},
                                                                                          {report, "report"},
                                                                                          {sweep, "sweep"},
                                                                                          {grade, "grade"},
                                                                                          {bound, "bound"},
                                                                                          {worker, "worker"},
                                                                                          {allreduce, "allreduce"}})
    if (*sub) out.command = name;
  if (out.command == "run" && out.variant.empty() == out.run.kernel_file.empty()) {
    res.exit = kBadRequest;
    res.text =
        out.variant.empty() ? "run needs --variant ID or --kernel FILE.cu" : "give --variant or --kernel, not both";
    return res;
  }
  if (out.command == "run" && out.run.kernel_file.empty() &&
      !(out.run.kernel_pattern.empty() && out.run.kernel_entry.empty() && out.run.kernel_like.empty())) {
    res.exit = kBadRequest;
    res.text = "--pattern, --entry and --like go with --kernel FILE.cu";
    return res;
  }
  if (out.command == "grade" && (out.exercise.empty() || out.run.kernel_file.empty())) {
    res.exit = kBadRequest;
    res.text = "grade needs --exercise ID and --kernel FILE.cu";
    return res;
  }
  if (out.command == "bound" && out.variant.empty()) {
    res.exit = kBadRequest;
    res.text = "bound needs --variant ID (with --kernel FILE.cu: the variant your kernel runs like)";
    return res;
  }
  if (out.command == "bound" && bound_hand && bound_text) {
    res.exit = kBadRequest;
    res.text = "choose one of --hand-written and --from-text";
    return res;
  }
  if (bound_hand) out.bound_copies = BoundCopySource::HandWritten;
  if (bound_text) out.bound_copies = BoundCopySource::FromText;
  for (const auto& [sub, name] : std::initializer_list<std::pair<CLI::App*, const char*>>{
           {show, "show"}, {compare, "compare"}, {merge, "merge"}, {filter, "filter"}})
    if (*sub) out.tool = name;
  if (out.command == "report" && out.tool.empty() && out.out_path.empty()) {
    res.exit = kBadRequest;
    res.text =
        "report needs --out FILE (the report to write), or one of its tools: show, compare, merge, filter "
        "(try report --help)";
    return res;
  }
  if (out.command == "sweep" && deprecated_report->count() > 0) out.sweep.deprecated_report = true;
  if (out.command == "sweep" && deprecated_report->count() > 0 && sweep->count("--out") > 0) {
    res.exit = kBadRequest;
    res.text = "give --out only (--report is its deprecated name)";
    return res;
  }
  if (out.json && out.csv) {
    res.exit = kBadRequest;
    res.text = "choose one of --json and --csv";
    return res;
  }
  if (out.command == "sweep") {
    out.sweep.range_given = sweep->count("--from") + sweep->count("--to") > 0;
    out.sweep.keep_given = sweep->count("--keep") > 0;
    out.sweep.keep_fractions_given = sweep->count("--keep-fraction") > 0;
  }
  return res;
}

}  // namespace ws::cli
