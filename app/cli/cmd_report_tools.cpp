// warpscope-cli report show | compare | merge | filter: reports in and out as tables (what
// scripts/bench_table.py and scripts/merge_reports.py did, installed with the program).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

#include "commands.hpp"
#include "pattern_kind.hpp"
#include "registry.hpp"
#include "report.hpp"
#include "table.hpp"

namespace ws::cli {

using nlohmann::json;

namespace {

/// Loads `path`; "" or one line naming it and why not.
std::string load(const std::string& path, Report& out) {
  try {
    out = load_report(path);
    return "";
  } catch (const std::exception& e) { return "cannot read report '" + path + "': " + e.what(); }
}

/// The variants `which` names ("all" keeps every run, those of older builds too); "" or one line.
std::string chosen(const std::string& which, std::set<std::string>& ids, bool& all) {
  all = which == "all";
  if (all) return "";
  std::vector<std::string> v;
  if (PatternKind pattern; parse_pattern(which, pattern)) {  // a pattern first: lesson "scan" holds one variant
    for (const auto& info : all_variants())
      if (info.pattern == pattern) ids.insert(info.id);
    return "";
  }
  std::string err = select_variants(which, v);
  ids.insert(v.begin(), v.end());
  return err;
}

/// The run of `report` a run's GB/s is measured against: a timed library baseline (list: baseline) of the
/// same pattern and kind of atomics (a histogram is not ranked against a filter), same n and type. nullptr
/// when there is none (convolutions have no library baseline).
const RunResult* baseline_for(const Report& report, const RunResult& r) {
  const VariantInfo* v = find_variant(r.variant);
  if (!v) return nullptr;
  for (const auto& b : report.runs) {
    const VariantInfo* vb = find_variant(b.variant);
    if (vb && vb->baseline && vb->pattern == v->pattern && vb->atomics == v->atomics && b.n == r.n &&
        b.type == r.type && b.timed && b.gbps > 0)
      return &b;
  }
  return nullptr;
}

json ratio(double b, double a, bool has) { return has && a > 0 && std::isfinite(b / a) ? json(b / a) : json(nullptr); }
json timed_or_null(const RunResult* r, double v) { return r && r->timed ? json(v) : json(nullptr); }

std::string cell(const json& v, const char* fmt) {
  if (!v.is_number()) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v.get<double>());
  return buf;
}

/// A sweep point's identity across reports: variant, element type, and x (n, or the kept fraction of a
/// kept-fraction sweep).
struct SweepKey {
  std::string variant;
  DType type = DType::Int32;
  bool by_keep = false;
  double x = 0;
  bool operator<(const SweepKey& o) const {
    return std::tie(variant, type, by_keep, x) < std::tie(o.variant, o.type, o.by_keep, o.x);
  }
};

/// Every sweep point of `r` whose variant is chosen, in the report's order (first of duplicates kept).
std::vector<std::pair<SweepKey, const RunResult*>> sweep_points(const Report& r, bool all,
                                                                const std::set<std::string>& ids) {
  std::vector<std::pair<SweepKey, const RunResult*>> out;
  std::set<SweepKey> seen;
  for (const Sweep& sw : r.sweeps)
    for (const RunResult& run : sw.runs) {
      if (!all && !ids.count(run.variant)) continue;
      const SweepKey k{run.variant, run.type, sw.spec.by_keep(), sw.x_of(run)};
      if (seen.insert(k).second) out.emplace_back(k, &run);
    }
  return out;
}

/// One row of `report compare`'s sweep_points: the point of A and of B at the same variant, type and x.
/// GPU time and GB/s where both are timed; the CPU model's host time (sim sweeps) where both have it.
json sweep_row(const SweepKey& k, const RunResult& a, const RunResult& b) {
  json row;
  row["variant"] = k.variant;
  row["type"] = to_string(k.type);
  if (k.by_keep)
    row["keep_fraction"] = k.x;
  else
    row["n"] = std::int64_t(k.x);
  row["status_a"] = to_string(a.status);
  row["status_b"] = to_string(b.status);
  row["time_ms_a"] = timed_or_null(&a, a.timing.median_ms);
  row["time_ms_b"] = timed_or_null(&b, b.timing.median_ms);
  row["time_ratio"] = ratio(b.timing.median_ms, a.timing.median_ms, a.timed && b.timed);
  row["gbps_a"] = timed_or_null(&a, a.gbps);
  row["gbps_b"] = timed_or_null(&b, b.gbps);
  row["gbps_ratio"] = ratio(b.gbps, a.gbps, a.timed && b.timed);
  const bool host = a.host_ms.recorded() && b.host_ms.recorded();
  row["host_ms_a"] = a.host_ms.recorded() ? json(a.host_ms.total) : json(nullptr);
  row["host_ms_b"] = b.host_ms.recorded() ? json(b.host_ms.total) : json(nullptr);
  row["host_ratio"] = ratio(b.host_ms.total, a.host_ms.total, host);
  return row;
}

int fail(const std::string& line, int code = kBadRequest) {
  std::fprintf(stderr, "warpscope-cli: %s\n", line.c_str());
  return code;
}

}  // namespace

int cmd_report_show(const std::string& file, const std::string& which, bool json_out, bool csv) {
  Report rep;
  std::set<std::string> ids;
  bool all = true;
  std::string err = load(file, rep);
  if (err.empty()) err = chosen(which, ids, all);
  if (!err.empty()) return fail(err);
  std::vector<RunResult> runs;
  for (const auto& r : rep.runs)
    if (all || ids.count(r.variant)) runs.push_back(r);
  if (json_out) {
    rep.runs = runs;
    std::printf("%s\n", report_to_json(rep).dump(2).c_str());
    return kOk;
  }
  if (csv) {
    std::vector<json> rows;
    for (const auto& r : runs) rows.push_back(run_to_json(r));
    std::fputs(csv_table(rows, {"variant", "lesson", "n", "type"}).c_str(), stdout);
    return kOk;
  }
  std::printf("%s\n%s", rep.title.c_str(),
              rep.device.name.empty() ? "" : ("device: " + rep.device.name + "\n").c_str());
  std::vector<std::string> names;
  for (const auto& r : runs) names.push_back(r.variant);
  const int id_w = column_width(names, "variant");
  std::fputs(runs_table_header(id_w).c_str(), stdout);
  for (const auto& r : runs) std::fputs(runs_table_row(r, id_w).c_str(), stdout);
  if (!rep.sweeps.empty()) std::printf("(and %zu sweeps: --json has them)\n", rep.sweeps.size());
  return kOk;
}

int cmd_report_compare(const std::string& path_a, const std::string& path_b, const std::string& which, bool json_out,
                       bool csv) {
  Report a, b;
  std::set<std::string> ids;
  bool all = true;
  std::string err = load(path_a, a);
  if (err.empty()) err = load(path_b, b);
  if (err.empty()) err = chosen(which, ids, all);
  if (!err.empty()) return fail(err);
  auto first_of = [](const Report& r, const std::string& id) -> const RunResult* {
    for (const auto& run : r.runs)
      if (run.variant == id) return &run;
    return nullptr;
  };
  std::vector<json> rows;
  json only_a = json::array(), only_b = json::array();
  std::set<std::string> seen;
  for (const auto& ra : a.runs) {
    if ((!all && !ids.count(ra.variant)) || !seen.insert(ra.variant).second) continue;
    const RunResult* rb = first_of(b, ra.variant);
    if (!rb) {
      only_a.push_back(ra.variant);
      continue;
    }
    const RunResult* ba = baseline_for(a, ra);
    const RunResult* bb = baseline_for(b, *rb);
    const VariantInfo* v = find_variant(ra.variant);
    json row;
    row["variant"] = ra.variant;
    row["pattern"] = v ? json(to_string(v->pattern)) : json(nullptr);
    row["n_a"] = ra.n;
    row["n_b"] = rb->n;
    row["status_a"] = to_string(ra.status);
    row["status_b"] = to_string(rb->status);
    row["time_ms_a"] = timed_or_null(&ra, ra.timing.median_ms);
    row["time_ms_b"] = timed_or_null(rb, rb->timing.median_ms);
    row["time_ratio"] = ratio(rb->timing.median_ms, ra.timing.median_ms, ra.timed && rb->timed);
    row["gbps_a"] = timed_or_null(&ra, ra.gbps);
    row["gbps_b"] = timed_or_null(rb, rb->gbps);
    row["gbps_ratio"] = ratio(rb->gbps, ra.gbps, ra.timed && rb->timed);
    row["baseline_a"] = ba ? json(ba->variant) : json(nullptr);
    row["x_baseline_a"] = ratio(ra.gbps, ba ? ba->gbps : 0, ba && ra.timed);
    row["baseline_b"] = bb ? json(bb->variant) : json(nullptr);
    row["x_baseline_b"] = ratio(rb->gbps, bb ? bb->gbps : 0, bb && rb->timed);
    json metrics = json::object();
    for (const auto& [name, va] : ra.metrics.values) {
      auto it = rb->metrics.values.find(name);
      if (it == rb->metrics.values.end()) continue;
      metrics[name] = {{"a", va}, {"b", it->second}, {"ratio", ratio(it->second, va, true)}};
    }
    if (!metrics.empty()) row["metrics"] = metrics;
    rows.push_back(std::move(row));
  }
  for (const auto& rb : b.runs)
    if ((all || ids.count(rb.variant)) && !first_of(a, rb.variant) && seen.insert(rb.variant).second)
      only_b.push_back(rb.variant);
  // Sweeps: each point of A's sweeps beside B's point of the same variant, type and n (or kept fraction).
  std::vector<json> points;
  const auto pa = sweep_points(a, all, ids), pb = sweep_points(b, all, ids);
  std::map<SweepKey, const RunResult*> in_b(pb.begin(), pb.end());
  std::size_t only_a_points = 0;
  for (const auto& [k, ra] : pa) {
    auto it = in_b.find(k);
    if (it == in_b.end()) {
      ++only_a_points;
      continue;
    }
    points.push_back(sweep_row(k, *ra, *it->second));
    in_b.erase(it);
  }
  const std::size_t only_b_points = in_b.size();
  if (json_out) {
    json j;
    j["a"] = {{"file", path_a}, {"title", a.title}, {"device", a.device.name}};
    j["b"] = {{"file", path_b}, {"title", b.title}, {"device", b.device.name}};
    j["variants"] = rows;
    j["only_a"] = only_a;
    j["only_b"] = only_b;
    j["sweep_points"] = points;
    j["sweep_points_only_a"] = only_a_points;
    j["sweep_points_only_b"] = only_b_points;
    std::printf("%s\n", with_format(j, "compare").dump(2).c_str());
    return kOk;
  }
  if (csv) {
    // One table: the variants' rows, then the sweep points' (with n or keep_fraction; "sweep" is true).
    for (auto& r : points) r["sweep"] = true;
    std::vector<json> all_rows = rows;
    all_rows.insert(all_rows.end(), points.begin(), points.end());
    std::fputs(csv_table(all_rows, {"variant", "sweep", "n", "keep_fraction", "type"}).c_str(), stdout);
    return kOk;
  }
  std::printf("A: %s (%s)\nB: %s (%s)\n", path_a.c_str(), a.device.name.c_str(), path_b.c_str(), b.device.name.c_str());
  std::vector<std::string> names;
  for (const auto& r : rows) names.push_back(r["variant"].get<std::string>());
  for (const auto& r : points) names.push_back(r["variant"].get<std::string>());
  const int w = column_width(names, "variant");
  if (rows.empty()) {
    std::printf("no variant has runs in both reports\n");
  } else {
    std::printf("%-*s %11s %11s %7s %9s %9s %7s %8s %8s\n", w, "variant", "ms A", "ms B", "B/A", "GB/s A", "GB/s B",
                "B/A", "xbase A", "xbase B");
    for (const auto& r : rows) {
      std::printf("%-*s %11s %11s %7s %9s %9s %7s %8s %8s\n", w, r["variant"].get<std::string>().c_str(),
                  cell(r["time_ms_a"], "%.4f").c_str(), cell(r["time_ms_b"], "%.4f").c_str(),
                  cell(r["time_ratio"], "%.3f").c_str(), cell(r["gbps_a"], "%.1f").c_str(),
                  cell(r["gbps_b"], "%.1f").c_str(), cell(r["gbps_ratio"], "%.3f").c_str(),
                  cell(r["x_baseline_a"], "%.3f").c_str(), cell(r["x_baseline_b"], "%.3f").c_str());
      if (r.contains("metrics"))
        for (auto it = r["metrics"].begin(); it != r["metrics"].end(); ++it)
          std::printf("  %-*s %14s %14s %7s\n", w + 10, it.key().c_str(), cell((*it)["a"], "%.6g").c_str(),
                      cell((*it)["b"], "%.6g").c_str(), cell((*it)["ratio"], "%.3f").c_str());
    }
    std::printf("xbase: GB/s over the library baseline of the same pattern in the same report (- where none)\n");
  }
  if (!only_a.empty()) std::printf("only in A: %s\n", only_a.dump().c_str());
  if (!only_b.empty()) std::printf("only in B: %s\n", only_b.dump().c_str());
  if (!points.empty()) {
    // Sweep points side by side: GPU time where both are timed, else the CPU model's host time (sim sweeps).
    std::printf("\nsweep points in both (%zu):\n", points.size());
    std::printf("%-*s %10s %11s %11s %7s %9s %9s %7s\n", w, "variant", "n", "ms A", "ms B", "B/A", "GB/s A", "GB/s B",
                "B/A");
    for (const auto& r : points) {
      const bool gpu = r["time_ratio"].is_number();
      const char* t = gpu ? "time_ms_" : "host_ms_";
      std::printf("%-*s %10s %11s %11s %7s %9s %9s %7s%s\n", w, r["variant"].get<std::string>().c_str(),
                  r.contains("n") ? std::to_string(r["n"].get<std::int64_t>()).c_str()
                                  : cell(r["keep_fraction"], "kept %.2f").c_str(),
                  cell(r[std::string(t) + "a"], "%.4f").c_str(), cell(r[std::string(t) + "b"], "%.4f").c_str(),
                  cell(gpu ? r["time_ratio"] : r["host_ratio"], "%.3f").c_str(), cell(r["gbps_a"], "%.1f").c_str(),
                  cell(r["gbps_b"], "%.1f").c_str(), cell(r["gbps_ratio"], "%.3f").c_str(),
                  gpu || !r["host_ratio"].is_number() ? "" : "  (host time, CPU model)");
    }
  }
  if (only_a_points || only_b_points)
    std::printf("sweep points only in A: %zu, only in B: %zu\n", only_a_points, only_b_points);
  return kOk;
}

int cmd_report_merge(const std::vector<std::string>& files, const std::string& out, const std::string& title,
                     bool force) {
  if (files.size() < 2) return fail("report merge needs two reports or more");
  std::string err = check_output_path(out, files, "--out", output_policy(force));
  Report main;
  if (err.empty()) err = load(files[0], main);
  if (!err.empty()) return fail(err);
  for (std::size_t i = 1; i < files.size(); ++i) {
    Report part;
    if (std::string e = load(files[i], part); !e.empty()) return fail(e);
    if (part.device.name != main.device.name)
      return fail(files[i] + " was recorded on '" + part.device.name + "', " + files[0] + " on '" + main.device.name +
                  "': merge reports of one device");
    for (auto& run : part.runs) {
      if (run.status == RunStatus::Skipped || run.status == RunStatus::Error) continue;
      auto slot = std::find_if(main.runs.begin(), main.runs.end(), [&](const RunResult& r) {
        return r.variant == run.variant && (r.status == RunStatus::Skipped || r.status == RunStatus::Error);
      });
      if (slot != main.runs.end())
        *slot = std::move(run);
      else
        main.runs.push_back(std::move(run));
    }
    for (auto& t : part.traces) main.traces.push_back(std::move(t));
    for (auto& s : part.sweeps) main.sweeps.push_back(std::move(s));
  }
  if (main.runs.size() > kMaxReportRuns || main.traces.size() > kMaxReportTraces ||
      main.sweeps.size() > kMaxReportSweeps)
    return fail("the merged report would hold more than a report may (" + std::to_string(kMaxReportRuns) + " runs, " +
                std::to_string(kMaxReportTraces) + " traces, " + std::to_string(kMaxReportSweeps) + " sweeps)");
  if (!title.empty()) main.title = title;
  try {
    save_report(main, out, output_policy(force));
  } catch (const std::exception& e) { return fail(e.what(), kFailed); }
  int left = 0;
  for (const auto& r : main.runs) left += r.status == RunStatus::Skipped || r.status == RunStatus::Error;
  std::fprintf(stderr, "wrote %s (%zu runs, %d not run, %zu traces, %zu sweeps)\n", out.c_str(), main.runs.size(), left,
               main.traces.size(), main.sweeps.size());
  return kOk;
}

int cmd_report_filter(const std::string& file, const std::string& which, const std::string& out, bool force,
                      bool json_out) {
  if (out.empty() && !json_out) return fail("report filter needs --out FILE or --json");
  Report rep;
  std::set<std::string> ids;
  bool all = true;
  std::string err = out.empty() ? "" : check_output_path(out, {file}, "--out", output_policy(force));
  if (err.empty()) err = load(file, rep);
  if (err.empty()) err = chosen(which, ids, all);
  if (!err.empty()) return fail(err);
  auto drop = [&](const std::string& id) { return !all && !ids.count(id); };
  rep.runs.erase(std::remove_if(rep.runs.begin(), rep.runs.end(), [&](const RunResult& r) { return drop(r.variant); }),
                 rep.runs.end());
  rep.traces.erase(
      std::remove_if(rep.traces.begin(), rep.traces.end(), [&](const Trace& t) { return drop(t.variant); }),
      rep.traces.end());
  for (auto& s : rep.sweeps) {
    s.runs.erase(std::remove_if(s.runs.begin(), s.runs.end(), [&](const RunResult& r) { return drop(r.variant); }),
                 s.runs.end());
    s.spec.variants.erase(std::remove_if(s.spec.variants.begin(), s.spec.variants.end(), drop), s.spec.variants.end());
  }
  rep.sweeps.erase(std::remove_if(rep.sweeps.begin(), rep.sweeps.end(), [](const Sweep& s) { return s.runs.empty(); }),
                   rep.sweeps.end());
  if (json_out) std::printf("%s\n", report_to_json(rep).dump(2).c_str());
  if (!out.empty()) {
    try {
      save_report(rep, out, output_policy(force));
    } catch (const std::exception& e) { return fail(e.what(), kFailed); }
    std::fprintf(stderr, "wrote %s (%zu runs, %zu traces, %zu sweeps)\n", out.c_str(), rep.runs.size(),
                 rep.traces.size(), rep.sweeps.size());
  }
  return kOk;
}

}  // namespace ws::cli
