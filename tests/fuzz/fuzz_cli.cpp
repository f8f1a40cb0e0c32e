// warpscope-cli's command line: arbitrary argv (the input split at NUL bytes, after "warpscope-cli")
// through parse_command_line, then the checks each command makes before it runs anything that need no
// file, device or worker (variant selection, pattern options, the request's ranges, --keep-fraction).
// Nothing is run, read or written. A parse must end in a ready command or one line with exit 0 or 2.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "cli_args.hpp"
#include "registry.hpp"
#include "sweep.hpp"

namespace {

/// The checks of a parsed command that touch nothing outside the process; returns "" or one line.
std::string validate(const ws::cli::CliCommand& c) {
  using namespace ws::cli;
  ws::RunRequest req;
  if (c.command == "run" || c.command == "trace") {
    const RunOptions& o = c.command == "run" ? c.run : c.trace;
    if (std::string e = pattern_option_refusal(o, {c.variant}); !e.empty()) return e;
    return to_request(o, c.variant, req);
  }
  if (c.command == "report") {
    std::vector<std::string> ids;
    if (std::string e = select_variants(c.which, ids); !e.empty()) return e;
    if (std::string e = pattern_option_refusal(c.run, ids); !e.empty()) return e;
    return to_request(c.run, ids.front(), req);
  }
  if (c.command == "sweep") {
    std::vector<std::string> ids;
    if (std::string e = select_variants(c.sweep.variants, ids); !e.empty()) return e;
    if (std::string e = pattern_option_refusal(c.sweep_run, ids); !e.empty()) return e;
    std::vector<double> fractions;
    if (!c.sweep.keep_fractions.empty())
      if (std::string e = ws::parse_keep_fractions(c.sweep.keep_fractions, fractions); !e.empty()) return e;
    RunOptions o = c.sweep_run;
    o.n.clear();
    return to_request(o, ids.front(), req);
  }
  return "";
}

bool one_line(const std::string& s) { return !s.empty() && s.find('\n') == std::string::npos; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args = {"warpscope-cli"};
  std::string arg;
  for (std::size_t i = 0; i < size && args.size() < 64; ++i) {
    if (data[i] == 0) {
      args.push_back(arg);
      arg.clear();
    } else {
      arg += char(data[i]);
    }
  }
  if (!arg.empty() && args.size() < 64) args.push_back(arg);
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  argv.push_back(nullptr);

  ws::cli::CliCommand c;
  const ws::cli::CliParse p = ws::cli::parse_command_line(int(args.size()), argv.data(), c);
  if (p.exit >= 0) {
    if (p.exit != 0 && p.exit != ws::cli::kBadRequest) __builtin_trap();
    if (p.exit == ws::cli::kBadRequest && !one_line(p.text)) __builtin_trap();  // the user sees one line
    return 0;
  }
  if (c.command.empty()) __builtin_trap();  // a parse that succeeds names its command
  // Floating options that parse are finite (NaN passes every range check: --grid-warps NaN looped).
  for (const ws::cli::RunOptions* o : {&c.run, &c.trace, &c.sweep_run})
    if (!std::isfinite(o->watchdog_s) || !std::isfinite(o->connect_timeout_s) ||
        !std::isfinite(o->params.keep_fraction))
      __builtin_trap();
  const std::string err = validate(c);
  if (!err.empty() && !one_line(err)) __builtin_trap();
  return 0;
}
