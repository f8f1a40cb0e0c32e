// warpscope-cli's command line: every subcommand's options parsed and range-checked into a CliCommand,
// with nothing run, opened, read or printed. main.cpp dispatches what it returns; the fuzz target
// tests/fuzz/fuzz_cli.cpp feeds it arbitrary argv.
#pragma once
#include <string>
#include <vector>

#include "commands.hpp"
#include "progress.hpp"

namespace ws::cli {

/// What the command line asks for. Which fields matter depends on `command`.
struct CliCommand {
  std::string command;  ///< list, device, run, trace, metrics, report, sweep, worker, grade, bound, allreduce
  bool json = false, csv = false;
  std::string variant;                         ///< run, trace: --variant
  RunOptions run;                              ///< run and report: their run and pattern options
  RunOptions trace;                            ///< trace: its options (backend defaults to sim)
  long long block_index = 0;                   ///< trace: --block-index
  int blocks = 1;                              ///< trace: --blocks (1..8)
  bool ops = false, values = false;            ///< trace: --ops, --values
  std::string which = "all";                   ///< report: --variants
  std::string out_path, title;                 ///< report: --out, --title
  long long trace_n = 0;                       ///< report: --traces
  SweepOptions sweep;                          ///< sweep: its own options
  RunOptions sweep_run;                        ///< sweep: its run and pattern options
  ProgressMode progress = ProgressMode::Auto;  ///< report, sweep: --progress / --quiet
  std::string tool;                            ///< report show | compare | merge | filter ("" = report runs variants)
  std::vector<std::string> files;              ///< report tools: the reports read
  bool force = false;                          ///< report tools: --force (replace an existing --out)
  std::string exercise;                        ///< grade: --exercise
  BoundCopySource bound_copies = BoundCopySource::Default;  ///< bound: --hand-written / --from-text
  AllReduceOptions allreduce;                               ///< allreduce: its options
};

/// The outcome of parsing. exit < 0: `out` is ready to dispatch. Otherwise the process ends with `exit`:
/// 0 after help (`text` is the help, for stdout), 2 (kBadRequest) for a bad command line (`text` is one
/// line, without "warpscope-cli: ", for stderr).
struct CliParse {
  int exit = -1;
  std::string text;
};

/// Parses argv (argv[0] is the program) into `out`. Never throws; touches no file, device or stream.
CliParse parse_command_line(int argc, const char* const* argv, CliCommand& out);

}  // namespace ws::cli
