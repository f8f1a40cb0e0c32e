#include "bound_search.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "limits.hpp"
#include "user_kernel.hpp"

namespace ws {

namespace {

constexpr const char* kDramRead = "dram__bytes_read.sum";
constexpr const char* kOccupancy = "sm__warps_active.avg.pct_of_peak_sustained_active";
/// The compute-only copy should move almost nothing: under this fraction of the original's bytes.
constexpr double kComputeBytesFraction = 0.10;

std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

std::string mb(double bytes) { return fmt("%.1f MB", bytes / 1e6); }

BoundCheck occupancy_check(const char* copy, const BoundMeasure& o, const BoundMeasure& c, double tol) {
  BoundCheck k;
  k.name = std::string(copy) + " keeps the original's occupancy";
  if (o.occupancy_pct < 0 || c.occupancy_pct < 0) {
    k.detail = "achieved occupancy not measured (run with metrics on a GPU)";
    return k;
  }
  const double diff = c.occupancy_pct - o.occupancy_pct;
  k.state = std::fabs(diff) <= tol * o.occupancy_pct ? BoundCheck::Passed : BoundCheck::Failed;
  k.detail = fmt("%.1f %%", c.occupancy_pct) + " vs " + fmt("%.1f %%", o.occupancy_pct) +
             (k.state == BoundCheck::Failed ? " (the slides: hold it with a dummy shared array)" : "");
  return k;
}

std::string ratio_text(double r) { return fmt("%.2fx", r); }

std::string read_text(const std::string& path) {
  std::string out;
  if (!read_file_bounded(path, kMaxKernelSourceBytes, "kernel", out).empty()) return "";
  return out;
}

/// Index just past the last `// warpscope:` header line of `text` (0 when there is none).
std::size_t after_header(const std::string& text) {
  std::size_t at = 0, pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(pos, end - pos);
    if (line.find("// warpscope:") != std::string::npos) at = std::min(end + 1, text.size());
    pos = end + 1;
  }
  return at;
}

const char* const kMemoryTodo =
    "// Memory-only copy (\"Code Optimizations\", J. Filipovic, slide \"Code Modifications\"). TODO:\n"
    "//  - comment out the computation (the arithmetic between the loads and the store);\n"
    "//  - keep using every loaded value, or the compiler drops the load: e.g. store it to the shared\n"
    "//    array before a __syncthreads(), or store it under a condition on the value itself;\n"
    "//  - keep the shared arrays and the header's `shared` (a dummy array if need be): same occupancy.\n"
    "// The panel checks that this copy moves the original's DRAM bytes and keeps its occupancy.\n";

const char* const kComputeTodo =
    "// Compute-only copy (\"Code Optimizations\", J. Filipovic, slide \"Code Modifications\"). TODO:\n"
    "//  - comment out the data movement: loads from global memory become values computed from the index\n"
    "//    (e.g. `int x = (int)i;`);\n"
    "//  - store the result only under a condition false at run time but not at compile time, e.g.\n"
    "//    `if (n == 0xffffffffu) out[blockIdx.x] = result;` (the host never passes that n);\n"
    "//  - keep the shared arrays and the header's `shared` (a dummy array if need be): same occupancy.\n";

std::string with_todo(const std::string& text, const char* todo) {
  std::string out = text;
  out.insert(after_header(text), todo);
  return out;
}

nlohmann::json measure_json(const RunResult& r) {
  const BoundMeasure m = bound_measure(r);
  nlohmann::json j;
  j["label"] = r.variant;
  j["status"] = to_string(r.status);
  j["median_ms"] = m.ms > 0 ? nlohmann::json(m.ms) : nlohmann::json(nullptr);
  j["dram_bytes"] = m.dram_bytes >= 0 ? nlohmann::json(m.dram_bytes) : nlohmann::json(nullptr);
  j["occupancy_pct"] = m.occupancy_pct >= 0 ? nlohmann::json(m.occupancy_pct) : nlohmann::json(nullptr);
  if (!r.message.empty()) j["message"] = r.message;
  return j;
}

const char* state_name(BoundCheck::State s) {
  return s == BoundCheck::Passed ? "pass" : s == BoundCheck::Failed ? "fail" : "unknown";
}

}  // namespace

const char* const kBoundMetrics =
    "dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active";

const char* to_string(BoundVerdict v) {
  switch (v) {
    case BoundVerdict::Memory: return "memory bound";
    case BoundVerdict::Compute: return "compute bound";
    case BoundVerdict::Latency: return "latency bound";
    case BoundVerdict::Both: return "optimize both";
    case BoundVerdict::Unclear: return "no rule fits";
    case BoundVerdict::NotTimed: return "not timed";
  }
  return "?";
}

bool BoundReading::fair() const {
  return std::none_of(checks.begin(), checks.end(), [](const BoundCheck& c) { return c.state == BoundCheck::Failed; });
}

BoundReading read_bound(const BoundMeasure& o, const BoundMeasure& m, const BoundMeasure& c,
                        const BoundTolerance& tol) {
  BoundReading r;
  // Fairness first: they qualify whatever the times say.
  BoundCheck bytes;
  bytes.name = "memory-only moves the original's DRAM bytes";
  if (o.dram_bytes > 0 && m.dram_bytes >= 0) {
    const double d = (m.dram_bytes - o.dram_bytes) / o.dram_bytes;
    bytes.state = std::fabs(d) <= tol.bytes ? BoundCheck::Passed : BoundCheck::Failed;
    bytes.detail =
        mb(m.dram_bytes) + " vs " + mb(o.dram_bytes) + " (" + fmt("%+.1f %%", 100 * d) + ")" +
        (bytes.state == BoundCheck::Failed ? ": the compiler dropped loads, or the copy moves other data" : "");
  } else {
    bytes.detail = "DRAM bytes not measured (run with metrics on a GPU)";
  }
  r.checks.push_back(bytes);
  BoundCheck little;
  little.name = "compute-only moves little data";
  if (o.dram_bytes > 0 && c.dram_bytes >= 0) {
    little.state = c.dram_bytes <= kComputeBytesFraction * o.dram_bytes ? BoundCheck::Passed : BoundCheck::Failed;
    little.detail = mb(c.dram_bytes) + " vs " + mb(o.dram_bytes) +
                    (little.state == BoundCheck::Failed ? ": some data movement is left in the copy" : "");
  } else {
    little.detail = "DRAM bytes not measured (run with metrics on a GPU)";
  }
  r.checks.push_back(little);
  r.checks.push_back(occupancy_check("memory-only", o, m, tol.occupancy));
  r.checks.push_back(occupancy_check("compute-only", o, c, tol.occupancy));

  if (o.ms <= 0 || m.ms <= 0 || c.ms <= 0) {
    r.verdict = BoundVerdict::NotTimed;
    r.reason = "the three runs must all be timed: the slides compare the original's time with each copy's.";
    return r;
  }
  const double rm = m.ms / o.ms, rc = c.ms / o.ms;
  const auto near1 = [&](double x) { return std::fabs(x - 1) <= tol.time; };
  const std::string times = "memory-only " + ratio_text(rm) + ", compute-only " + ratio_text(rc) +
                            " of the original's time (\"~\" = within " + fmt("%.0f %%", 100 * tol.time) + "): ";
  if (near1(rm) && near1(rc)) {
    r.verdict = BoundVerdict::Both;
    r.reason = times +
               "both copies take about as long as the original, so memory and computation each bound it: "
               "optimize both.";
    return r;
  }
  const bool latency = near1(rm + rc) && std::min(rm, rc) > tol.time;
  const bool memory = near1(rm) && rc < rm, compute = near1(rc) && rm < rc;
  const double single_err = memory ? std::fabs(rm - 1) : compute ? std::fabs(rc - 1) : 1e9;
  if (latency && std::fabs(rm + rc - 1) <= single_err) {
    r.verdict = BoundVerdict::Latency;
    r.reason = times + "their sum (" + ratio_text(rm + rc) +
               ") is close to the original's: memory and computation do not overlap, latency is the issue "
               "(more parallelism or independent work per thread hides it).";
  } else if (memory) {
    r.verdict = BoundVerdict::Memory;
    r.reason = times +
               "the memory-only copy alone takes about as long as the original, the computation hides "
               "under it: global memory bounds the kernel.";
  } else if (compute) {
    r.verdict = BoundVerdict::Compute;
    r.reason = times +
               "the compute-only copy alone takes about as long as the original, the loads hide under "
               "it: instructions bound the kernel.";
  } else {
    r.verdict = BoundVerdict::Unclear;
    if (std::max(rm, rc) > 1 + tol.time)
      r.reason = times + "a copy is slower than the original: it does work the original does not; check the copy.";
    else if (rm + rc < 1 - tol.time)
      r.reason = times +
                 "the original takes longer than both copies together: the copies removed more than memory "
                 "or computation (barriers, divergence?); check them.";
    else
      r.reason = times + "between the slides' readings (partly overlapped): nearest is " +
                 (std::fabs(rm + rc - 1) < std::fabs(std::max(rm, rc) - 1)
                      ? std::string("latency bound")
                      : std::string(rm > rc ? "memory bound" : "compute bound")) +
                 ".";
  }
  return r;
}

BoundMeasure bound_measure(const RunResult& r) {
  BoundMeasure m;
  if (r.timed && r.timing.median_ms > 0) m.ms = r.timing.median_ms;
  const auto& v = r.metrics.values;
  const auto rd = v.find(kDramRead), oc = v.find(kOccupancy);
  if (rd != v.end()) m.dram_bytes = rd->second;  // reads only: see BoundMeasure::dram_bytes
  if (oc != v.end()) m.occupancy_pct = oc->second;
  return m;
}

std::string bound_copies_dir(PatternKind pattern) { return kernel_include_dir() + "/" + to_string(pattern) + "/bound"; }

bool read_bound_file(PatternKind pattern, const std::string& variant, const std::string& kind, std::string& out) {
  if (variant.empty() || variant.find('/') != std::string::npos) return false;
  out = read_text(bound_copies_dir(pattern) + "/" + variant + "." + kind + ".cu");
  return !out.empty();
}

BoundCopies make_bound_copies(const std::string& variant, PatternKind pattern, const std::string& text,
                              bool use_hand_written) {
  BoundCopies c;
  if (use_hand_written && read_bound_file(pattern, variant, "memory", c.memory) &&
      read_bound_file(pattern, variant, "compute", c.compute)) {
    c.hand_written = true;
    c.note = "written for " + variant +
             " as the slides do it: run them as they are, or adjust them; the checks say whether they are fair.";
    return c;
  }
  c.memory = with_todo(text, kMemoryTodo);
  c.compute = with_todo(text, kComputeTodo);
  c.note =
      "starting points: both copies are your kernel as it is; make the changes their TODO comments say, "
      "then run the three.";
  return c;
}

std::vector<std::string> bound_labels(const std::string& like) {
  return {like + " (bound: original)", like + " (memory-only)", like + " (compute-only)"};
}

std::vector<RunRequest> bound_requests(const RunRequest& base, PatternKind pattern, const std::string& like,
                                       const std::string& original, const BoundCopies& copies,
                                       const std::string& file_stem) {
  const std::vector<std::string> labels = bound_labels(like);
  const std::string texts[3] = {original, copies.memory, copies.compute};
  const char* suffix[3] = {".bound.cu", ".memory.cu", ".compute.cu"};
  std::vector<RunRequest> out;
  for (int i = 0; i < 3; ++i) {
    RunRequest r = base;
    r.variant.clear();
    r.metrics = kBoundMetrics;
    r.kernel.source = texts[i];
    r.kernel.file = file_stem + suffix[i];
    r.kernel.pattern = pattern;
    r.kernel.like = like;
    r.kernel.label = labels[std::size_t(i)];
    out.push_back(std::move(r));
  }
  return out;
}

std::string format_bound(const std::vector<RunResult>& runs, const BoundReading& reading) {
  std::ostringstream o;
  const char* names[3] = {"original", "memory-only", "compute-only"};
  char line[256];
  std::snprintf(line, sizeof line, "%-13s %10s %8s %12s %10s  %s\n", "copy", "time ms", "x orig", "DRAM rd MB",
                "occupancy", "check");
  o << line;
  const double t0 = runs.empty() ? 0 : bound_measure(runs[0]).ms;
  for (std::size_t i = 0; i < runs.size() && i < 3; ++i) {
    const BoundMeasure m = bound_measure(runs[i]);
    const std::string t = m.ms > 0 ? fmt("%.4f", m.ms) : "-";
    const std::string x = m.ms > 0 && t0 > 0 ? fmt("%.2f", m.ms / t0) : "-";
    const std::string b = m.dram_bytes >= 0 ? fmt("%.2f", m.dram_bytes / 1e6) : "-";
    const std::string occ = m.occupancy_pct >= 0 ? fmt("%.1f %%", m.occupancy_pct) : "-";
    // The copies' answers are wrong by design: only the original's check matters.
    const std::string check = i == 0 ? to_string(runs[i].status)
                              : runs[i].status == RunStatus::Error || runs[i].status == RunStatus::Faulted
                                  ? to_string(runs[i].status)
                                  : "ran (answer not checked: a copy)";
    std::snprintf(line, sizeof line, "%-13s %10s %8s %12s %10s  %s\n", names[i], t.c_str(), x.c_str(), b.c_str(),
                  occ.c_str(), check.c_str());
    o << line;
    if ((runs[i].status == RunStatus::Error || runs[i].status == RunStatus::Faulted) && !runs[i].message.empty())
      o << "  " << runs[i].message << "\n";
  }
  for (const BoundCheck& c : reading.checks)
    o << (c.state == BoundCheck::Passed   ? "fair   "
          : c.state == BoundCheck::Failed ? "UNFAIR "
                                          : "?      ")
      << c.name << ": " << c.detail << "\n";
  o << "verdict: " << to_string(reading.verdict) << ": " << reading.reason << "\n";
  return o.str();
}

std::string bound_to_json(const std::vector<RunResult>& runs, const BoundReading& reading) {
  nlohmann::json j;
  j["format"] = "warpscope-bound";
  j["runs"] = nlohmann::json::array();
  const char* names[3] = {"original", "memory-only", "compute-only"};
  for (std::size_t i = 0; i < runs.size() && i < 3; ++i) {
    nlohmann::json r = measure_json(runs[i]);
    r["copy"] = names[i];
    j["runs"].push_back(r);
  }
  j["verdict"] = to_string(reading.verdict);
  j["reason"] = reading.reason;
  j["fair"] = reading.fair();
  j["checks"] = nlohmann::json::array();
  for (const BoundCheck& c : reading.checks)
    j["checks"].push_back({{"name", c.name}, {"state", state_name(c.state)}, {"detail", c.detail}});
  return j.dump();
}

}  // namespace ws
