#include <algorithm>
#include <cstdio>
#include <sstream>

#include "commands.hpp"
#include "patterns/reduction/reference.hpp"

namespace ws::cli {

namespace {
std::string num(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}
/// The check as one phrase. The messages of race, wrong and slide-bug runs already begin by naming
/// the status ("race: expected X, got Y", "wrong result: ...", "slide bug reproduced: ..."), so they
/// stand alone; the others follow their status ("ok: race did not show this time ...").
std::string check_text(const RunResult& r) {
  if (r.message.empty()) return to_string(r.status);
  if (r.status == RunStatus::Race || r.status == RunStatus::Wrong || r.status == RunStatus::SlideBug) return r.message;
  return std::string(to_string(r.status)) + ": " + r.message;
}
}  // namespace

std::string timed_cell(const RunResult& r, const char* fmt, double v) { return r.timed ? num(fmt, v) : "-"; }

int column_width(const std::vector<std::string>& ids, const std::string& header) {
  std::size_t w = header.size();
  for (const auto& id : ids) w = std::max(w, id.size());
  return int(w);
}

int exit_code(const RunResult& r) {
  if (ran_as_taught(r.status)) return kOk;
  return r.status == RunStatus::Faulted ? kFaulted : kFailed;
}

int exit_code(const std::vector<RunResult>& runs) {
  int code = kOk;
  for (const auto& r : runs) {
    if (r.status == RunStatus::Faulted) return kFaulted;
    if (r.status == RunStatus::Wrong || r.status == RunStatus::Error) code = kFailed;
  }
  return code;
}

std::string fault_line(const RunResult& r, bool in_process) {
  if (!in_process) return r.message;
  return r.message +
         ": nothing more can run on the GPU in this process (--gpu local runs each request in a worker "
         "process that is restarted after a fault)";
}

std::string human_run(const RunResult& r) {
  std::ostringstream o;
  o << r.variant << "  n=" << r.n << " " << to_string(r.type) << " input=" << r.input;
  if (r.launch.block) o << "  block=" << r.launch.block << " grid=" << r.launch.grid;
  o << "  [" << r.backend << (r.device.empty() ? "" : ": " + r.device) << "]\n";
  o << "  result   " << format_value(r.type, r.result) << "   expected " << format_value(r.type, r.expected) << "   "
    << check_text(r) << "\n";
  if (!r.code_path.empty()) o << "  path     " << r.code_path << "\n";
  if (!r.output.empty()) {  // array patterns: result/expected above are the summary (a scan's last element)
    o << "  output  ";
    const std::size_t shown = std::min<std::size_t>(r.output.size(), 8);
    for (std::size_t i = 0; i < shown; ++i) o << " " << format_value(r.type, r.output[i]);
    if (shown < r.output.size()) o << " ...";
    o << "  (" << r.output.size() << " elements";
    if (r.output_rows > 0) o << ", " << r.output_rows << " x " << r.output_cols;
    o << "; result = summary)\n";
  }
  if (r.timed) {
    o << "  time     " << num("%.4f", r.timing.median_ms) << " ms median of " << r.timing.samples_ms.size() << " (min "
      << num("%.4f", r.timing.min_ms) << ", max " << num("%.4f", r.timing.max_ms) << ")";
    if (r.launches > 1) o << ", " << r.launches << " kernel launches per run";
    o << "\n  speed    " << num("%.1f", r.gbps) << " GB/s";
    if (r.pct_theoretical > 0) o << " = " << num("%.1f", r.pct_theoretical) << "% of theoretical";
    if (r.pct_copy > 0) o << ", " << num("%.1f", r.pct_copy) << "% of device copy";
    o << "\n";
  }
  if (r.host_ms.recorded()) o << "  host     " << format_host_times(r.host_ms) << "\n";
  return o.str();
}

std::string runs_table_header(int id_w) {
  char line[256];
  std::snprintf(line, sizeof line, "%-*s %8s %12s %10s %8s %10s  %s\n", id_w, "variant", "n", "time ms", "GB/s",
                "% peak", "host ms", "check");
  return line;
}

std::string runs_table_row(const RunResult& r, int id_w) {
  std::ostringstream o;
  char head[512];
  std::snprintf(head, sizeof head, "%-*s %8lld %12s %10s %8s %10s  ", id_w, r.variant.c_str(), (long long)r.n,
                timed_cell(r, "%.4f", r.timing.median_ms).c_str(), timed_cell(r, "%.1f", r.gbps).c_str(),
                (r.pct_theoretical > 0 ? timed_cell(r, "%.1f", r.pct_theoretical) : "-").c_str(),
                r.host_ms.recorded() ? num("%.1f", r.host_ms.total).c_str() : "-");
  o << head << check_text(r) << "\n";
  return o.str();
}

}  // namespace ws::cli
