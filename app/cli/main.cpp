// warpscope-cli: the headless face of warpscope (list, device, run, grade, bound, trace, metrics, report, sweep,
// worker, allreduce).
// The command line is parsed in cli_args.cpp; this file only dispatches.
#include <cstdio>
#include <exception>

#include "cli_args.hpp"
#include "commands.hpp"
#include "limits.hpp"

using namespace ws::cli;

int main(int argc, char** argv) {
  CliCommand c;
  const CliParse parsed = parse_command_line(argc, argv, c);
  if (parsed.exit >= 0) {
    if (parsed.exit == 0)
      std::fputs(parsed.text.c_str(), stdout);
    else
      std::fprintf(stderr, "warpscope-cli: %s\n", parsed.text.c_str());
    return parsed.exit;
  }
  try {
    if (c.command == "worker") return cmd_worker();
    if (c.command == "list") return cmd_list(c.json, c.csv);
    if (c.command == "device") return cmd_device(c.json, c.csv);
    if (c.command == "run") return cmd_run(c.variant, c.run, c.json, c.csv);
    if (c.command == "metrics") return cmd_metrics(c.json, c.csv);
    if (c.command == "bound") return cmd_bound(c.variant, c.run, c.bound_copies, c.json);
    if (c.command == "grade") return cmd_grade(c.exercise, c.run.kernel_file, c.run, c.json);
    if (c.command == "trace")
      return cmd_trace(c.variant, c.trace, c.block_index, c.json, c.ops, c.values, c.blocks, c.csv);
    if (c.command == "report" && c.tool == "show") return cmd_report_show(c.files.at(0), c.which, c.json, c.csv);
    if (c.command == "report" && c.tool == "compare")
      return cmd_report_compare(c.files.at(0), c.files.at(1), c.which, c.json, c.csv);
    if (c.command == "report" && c.tool == "merge") return cmd_report_merge(c.files, c.out_path, c.title, c.force);
    if (c.command == "report" && c.tool == "filter")
      return cmd_report_filter(c.files.at(0), c.which, c.out_path, c.force, c.json);
    if (c.command == "report")
      return cmd_report(c.which, c.run, c.out_path, c.title, c.json, c.trace_n, c.csv, c.progress);
    if (c.command == "sweep") return cmd_sweep(c.sweep, c.sweep_run, c.json, c.csv, c.progress);
    if (c.command == "allreduce") return cmd_allreduce(c.allreduce, c.json);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "warpscope-cli: %s\n", ws::describe_exception(e).c_str());
    return kFailed;
  }
  return kBadRequest;
}
