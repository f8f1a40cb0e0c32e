#include "views/compare_model.hpp"

#include "registry.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "file_write.hpp"
#include "format.hpp"
#include "trace/analyses.hpp"
#include "trace_source.hpp"
#include "user_kernel.hpp"

namespace ws::ui {

using controller::compute_trace;
using controller::series_id;
using controller::TraceKey;

namespace {

std::optional<double> metric_value(const RunResult& r, const char* name) {
  auto it = r.metrics.values.find(name);
  if (it == r.metrics.values.end() || !std::isfinite(it->second)) return std::nullopt;
  return it->second;
}

std::string num(double v, int decimals) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

bool counts(const RunResult& r) { return ran_as_taught(r.status); }

}  // namespace

Predicted predict(const VariantInfo& v, std::int64_t n, DType type) {
  Predicted p;
  TraceKey key;
  key.variant = v.id;
  key.n = n;
  key.type = type;
  key.input = "random";
  std::optional<Trace> t = compute_trace(v, key, p.why);
  if (!t) return p;
  long active = 0, divergent = 0;
  for (const auto& step : t->steps) {
    const StepSummary sum = summarize_step(*t, step);
    active += sum.activity.active_warps;
    divergent += sum.activity.divergent_warps;
    for (int w : sum.conflict_ways) p.worst_ways = std::max(p.worst_ways, w);
  }
  const AtomicStats a = atomic_stats(*t);
  p.atomics = a.ops;
  p.longest_chain = a.longest_chain;
  p.divergent_pct = active > 0 ? 100.0 * double(divergent) / double(active) : 0;
  p.have = true;
  return p;
}

std::vector<CompareRow> build_compare(const Report& report, const std::vector<std::string>& ids,
                                      const std::string& baseline, const std::map<std::string, Predicted>& predicted) {
  std::vector<CompareRow> rows;
  for (const auto& id : ids) {
    CompareRow row;
    row.variant = id;
    for (const auto& r : report.runs)
      if (r.variant == id) row.run = &r;  // the latest
    // A report holding only sweeps: the newest sweep's run of the variant at its largest n (a
    // kept-fraction sweep: the run nearest half kept, the comparison point).
    for (auto sw = report.sweeps.rbegin(); !row.run && sw != report.sweeps.rend(); ++sw)
      for (const RunResult* r : sw->runs_of(id)) {
        if (r->status == RunStatus::Skipped) continue;
        if (!sw->spec.by_keep() || !row.run ||
            std::fabs(r->params.keep_fraction - 0.5) < std::fabs(row.run->params.keep_fraction - 0.5))
          row.run = r;  // runs_of sorts by n: the last is the largest
      }
    if (row.run) {
      const RunResult& r = *row.run;
      row.flagged = r.status != RunStatus::Ok && r.status != RunStatus::Skipped;
      row.timed = r.timed && r.timing.median_ms > 0 && counts(r);
      if (row.timed) {
        row.time_ms = r.timing.median_ms;
        row.gbps = r.gbps;
        row.pct_peak = r.pct_theoretical;
      }
      row.occupancy = metric_value(r, metric::kOccupancy);
      row.lanes = metric_value(r, metric::kLanesPerInst);
      if (!row.lanes) row.lanes = metric_value(r, metric::kLanesPerInstBare);
      const auto conf = metric_value(r, metric::kSharedLdConflicts), ld = metric_value(r, metric::kSharedLdInst);
      if (conf && ld && *ld > 0) row.conflicts_per_ld = *conf / *ld;
      // Global atomics per warp request (L1 counters, older reports) or per warp instruction (the
      // default set's SASS counters): one request per instruction, so either serves the column.
      auto atom = metric_value(r, metric::kGlobalAtom), red = metric_value(r, metric::kGlobalRed);
      if (!atom && !red) {
        atom = metric_value(r, metric::kGlobalAtomInst);
        red = metric_value(r, metric::kGlobalRedInst);
      }
      if (atom || red) row.atomics = atom.value_or(0) + red.value_or(0);
    }
    if (auto it = predicted.find(id); it != predicted.end()) row.predicted = it->second;
    rows.push_back(std::move(row));
  }
  // The default baseline is the first correct variant: never a racy one or a slide's bug kept on
  // purpose (their times are of a wrong answer), nor a run that failed its check.
  auto correct = [](const CompareRow& r) {
    const VariantInfo* v = find_variant(r.variant);
    return v && !v->racy && !v->cautionary && r.run && r.run->status == RunStatus::Ok;
  };
  const CompareRow* base = nullptr;
  for (const auto& r : rows)
    if (r.timed && (baseline.empty() ? correct(r) : r.variant == baseline)) {
      base = &r;
      break;
    }
  double best = 0;
  for (auto& r : rows) {
    // A wrong answer is no speedup, however fast: its row shows the time alone.
    if (base && r.timed && (!r.flagged || &r == base) && r.run->n == base->run->n)
      r.speedup = base->time_ms / r.time_ms;
    if (r.timed && r.run->status == RunStatus::Ok) best = std::max(best, r.gbps);
  }
  for (auto& r : rows) r.best = best > 0 && r.timed && r.run->status == RunStatus::Ok && r.gbps == best;
  return rows;
}

std::vector<std::string> with_edited_runs(const Report& report, const std::vector<std::string>& ids) {
  std::vector<std::string> out;
  for (const auto& id : ids) {
    out.push_back(id);
    UserKernel k;
    k.like = id;
    const std::string edited = user_kernel_label(k);
    if (std::any_of(report.runs.begin(), report.runs.end(), [&](const RunResult& r) { return r.variant == edited; }))
      out.push_back(edited);
  }
  return out;
}

bool fit_for_baseline(const Report& report, const std::string& id) {
  const VariantInfo* v = find_variant(id);
  if (!v || v->racy || v->cautionary) return false;
  const RunResult* last = nullptr;
  for (const auto& r : report.runs)
    if (r.variant == id) last = &r;
  return !last || last->status == RunStatus::Ok;
}

std::string next_baseline(const Report& report, const std::vector<std::string>& ids, const std::string& current,
                          std::vector<std::string>& skipped) {
  skipped.clear();
  if (ids.empty()) return current;
  const auto it = std::find(ids.begin(), ids.end(), current);
  const std::size_t start = it == ids.end() ? ids.size() - 1 : std::size_t(it - ids.begin());
  for (std::size_t k = 1; k <= ids.size(); ++k) {
    const std::string& id = ids[(start + k) % ids.size()];
    if (fit_for_baseline(report, id)) return id;
    if (id != current) skipped.push_back(id);
  }
  return current;
}

const char* const* compare_metric_names() {
  static const char* const names[] = {"GB/s",
                                      "time (ms)",
                                      "speedup",
                                      "% of peak",
                                      "occupancy %",
                                      "lanes per instruction",
                                      "conflicts per shared load",
                                      "atomic requests",
                                      "predicted divergence %",
                                      "predicted conflict ways",
                                      "predicted atomics per block"};
  return names;
}

std::optional<double> compare_value(const CompareRow& r, CompareMetric m) {
  switch (m) {
    case CompareMetric::GBps: return r.timed ? std::optional<double>(r.gbps) : std::nullopt;
    case CompareMetric::TimeMs: return r.timed ? std::optional<double>(r.time_ms) : std::nullopt;
    case CompareMetric::Speedup: return r.speedup > 0 ? std::optional<double>(r.speedup) : std::nullopt;
    case CompareMetric::PctPeak: return r.timed && r.pct_peak > 0 ? std::optional<double>(r.pct_peak) : std::nullopt;
    case CompareMetric::Occupancy: return r.occupancy;
    case CompareMetric::Lanes: return r.lanes;
    case CompareMetric::ConflictsPerLd: return r.conflicts_per_ld;
    case CompareMetric::Atomics: return r.atomics;
    case CompareMetric::PredDivergent:
      return r.predicted.have ? std::optional<double>(r.predicted.divergent_pct) : std::nullopt;
    case CompareMetric::PredWays:
      return r.predicted.have ? std::optional<double>(r.predicted.worst_ways) : std::nullopt;
    case CompareMetric::PredAtomics:
      return r.predicted.have ? std::optional<double>(r.predicted.atomics) : std::nullopt;
    default: return std::nullopt;
  }
}

std::string what_changed(const CompareRow& a, const CompareRow& b) {
  std::string out = series_id(a.variant) + " \u2192 " + series_id(b.variant) + ":";
  std::vector<std::string> parts;
  if (a.timed && b.timed && a.run->n == b.run->n && (a.flagged || b.flagged)) {
    const CompareRow& w = b.flagged ? b : a;
    parts.push_back(num(a.time_ms, 3) + " \u2192 " + num(b.time_ms, 3) + " ms, no speedup: " + series_id(w.variant) +
                    "'s result is wrong (" + to_string(w.run->status) + ")");
  } else if (a.timed && b.timed && a.run->n == b.run->n) {
    const double ratio = a.time_ms / b.time_ms;
    std::string s = num(a.time_ms, 3) + " \u2192 " + num(b.time_ms, 3) + " ms (";
    s += ratio >= 1 ? num(ratio, ratio >= 10 ? 0 : 1) + "x faster)"
                    : num(1 / ratio, 1 / ratio >= 10 ? 0 : 1) + "x slower)";
    parts.push_back(s);
  }
  auto delta = [&](const std::optional<double>& x, const std::optional<double>& y, const char* what, int decimals) {
    if (!x || !y) return;
    if (num(*x, decimals) == num(*y, decimals)) return;
    parts.push_back(std::string(what) + " " + num(*x, decimals) + " \u2192 " + num(*y, decimals));
  };
  delta(a.conflicts_per_ld, b.conflicts_per_ld, "bank conflicts per shared load", 2);
  delta(a.lanes, b.lanes, "active lanes per instruction", 1);
  delta(a.occupancy, b.occupancy, "occupancy %", 0);
  delta(a.atomics, b.atomics, "atomic requests", 0);
  if (a.predicted.have && b.predicted.have) {
    if (a.predicted.worst_ways != b.predicted.worst_ways && a.predicted.worst_ways > 0 && b.predicted.worst_ways > 0)
      parts.push_back("predicted worst bank conflict " + std::to_string(a.predicted.worst_ways) + "-way \u2192 " +
                      std::to_string(b.predicted.worst_ways) + "-way");
    if (num(a.predicted.divergent_pct, 0) != num(b.predicted.divergent_pct, 0))
      parts.push_back("predicted divergent warp-steps " + num(a.predicted.divergent_pct, 0) + " % \u2192 " +
                      num(b.predicted.divergent_pct, 0) + " %");
    if (a.predicted.atomics != b.predicted.atomics)
      parts.push_back("predicted atomics per block " + std::to_string(a.predicted.atomics) + " \u2192 " +
                      std::to_string(b.predicted.atomics));
  }
  if (parts.empty()) return out + " no measured or predicted difference";
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? "; " : " ") + parts[i];
  return out;
}

std::string keep_quantities_together(const std::string& text) {
  static const std::string arrow = "\u2192", nbsp = "\u00a0";
  static const char* units[] = {"ms", "%", "x", "GB/s", "us", "s"};
  auto has_digit = [](const std::string& w) {  // a quantity: "0.073", "16-way", "-3"
    const std::size_t i = !w.empty() && w[0] == '-' ? 1 : 0;
    return i < w.size() && w[i] >= '0' && w[i] <= '9';
  };
  auto is_unit = [&](std::string w) {
    while (!w.empty() && (w.back() == ';' || w.back() == ',' || w.back() == ')' || w.back() == ':')) w.pop_back();
    for (const char* u : units)
      if (w == u) return true;
    return false;
  };
  // Split on plain spaces, then decide for each space from the words beside it.
  std::vector<std::string> words;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i)
    if (i == text.size() || text[i] == ' ') {
      words.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  std::string out = words[0];
  for (std::size_t k = 1; k < words.size(); ++k) {
    const std::string &l = words[k - 1], &r = words[k];
    const bool glue = ((has_digit(l) || is_unit(l)) && (r == arrow || is_unit(r))) || (l == arrow && has_digit(r));
    out += (glue ? nbsp : " ") + r;
  }
  return out;
}

std::string run_flag(const RunResult& r) {
  if (r.status == RunStatus::Ok || r.status == RunStatus::Skipped) return "";
  if (r.status == RunStatus::Race || r.status == RunStatus::SlideBug)
    return std::string("WRONG: ") + to_string(r.status);
  return "WRONG";
}

std::string flag_text(const CompareRow& r) { return r.flagged ? run_flag(*r.run) : ""; }

std::string compare_csv(const std::vector<CompareRow>& rows) {
  std::string out = "variant,n,status,wrong_result";
  const auto names = compare_metric_names();
  for (int m = 0; m < int(CompareMetric::Count); ++m) out += std::string(",\"") + names[m] + "\"";
  out += ",best\n";
  for (const auto& r : rows) {
    out += r.variant + "," + (r.run ? std::to_string(r.run->n) : "") + "," +
           (r.run ? to_string(r.run->status) : "no run") + (r.flagged ? ",yes" : ",");
    for (int m = 0; m < int(CompareMetric::Count); ++m) {
      out += ",";
      if (auto v = compare_value(r, CompareMetric(m))) out += num(*v, 6);
    }
    out += r.best ? ",best\n" : ",\n";
  }
  return out;
}

std::string sweep_csv(const Sweep& s) {
  const bool keep = s.spec.by_keep();
  std::string out = std::string("variant,n,status,time_ms,gbps,pct_theoretical") +
                    (keep ? ",keep_fraction,kept_fraction" : "") + "\n";
  for (const auto& r : s.runs) {
    out += r.variant + "," + std::to_string(r.n) + "," + to_string(r.status) + ",";
    if (r.timed)
      out += num(r.timing.median_ms, 6) + "," + num(r.gbps, 3) + "," +
             (r.pct_theoretical > 0 ? num(r.pct_theoretical, 3) : "");
    else
      out += ",,";
    if (keep)
      out += "," + num(r.params.keep_fraction, 3) + "," + (kept_fraction(r) >= 0 ? num(kept_fraction(r), 6) : "");
    out += "\n";
  }
  return out;
}

std::string write_text_file(const std::string& path, const std::string& text, const OutputPolicy& policy) {
  return write_file_atomic(path, text, policy);
}

}  // namespace ws::ui
