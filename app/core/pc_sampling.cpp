#include "pc_sampling.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "stall_reasons.hpp"

namespace ws {

using nlohmann::json;

double PcSampling::samples() const {
  double s = 0;
  for (const auto& k : kernels) s += k.samples;
  return s;
}

namespace {

std::vector<StallCount> sorted(const std::map<std::string, double>& by_reason) {
  std::vector<StallCount> out;
  for (const auto& [r, s] : by_reason) out.push_back({r, s});
  sort_by_samples(out);
  return out;
}

}  // namespace

void sort_by_samples(std::vector<StallCount>& reasons) {
  std::stable_sort(reasons.begin(), reasons.end(), [](const StallCount& a, const StallCount& b) {
    if (a.samples != b.samples) return a.samples > b.samples;
    return stall_reason_order(a.reason) < stall_reason_order(b.reason);
  });
}

std::vector<KernelStalls> aggregate_pc_records(const std::vector<PcRecord>& records) {
  struct Acc {
    double samples = 0, unmapped = 0;
    std::map<std::string, double> reasons;
    std::map<std::pair<std::string, int>, std::map<std::string, double>> lines;
  };
  std::map<std::string, Acc> by_kernel;
  for (const PcRecord& r : records)
    for (const auto& [cupti, n] : r.stalls) {
      const std::string reason = stall_reason_name(cupti);
      if (reason.empty() || !(n > 0)) continue;
      Acc& a = by_kernel[r.kernel];
      a.samples += n;
      a.reasons[reason] += n;
      if (r.line > 0)
        a.lines[{r.file, r.line}][reason] += n;
      else
        a.unmapped += n;
    }
  std::vector<KernelStalls> out;
  for (const auto& [name, a] : by_kernel) {
    KernelStalls k;
    k.kernel = name;
    k.samples = a.samples;
    k.unmapped_samples = a.unmapped;
    k.reasons = sorted(a.reasons);
    for (const auto& [where, reasons] : a.lines) {
      LineStalls l;
      l.file = where.first;
      l.line = where.second;
      l.reasons = sorted(reasons);
      for (const auto& c : l.reasons) l.samples += c.samples;
      k.lines.push_back(std::move(l));
    }
    out.push_back(std::move(k));
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const KernelStalls& a, const KernelStalls& b) { return a.samples > b.samples; });
  return out;
}

double share_in_file(const KernelStalls& k, const std::string& file) {
  if (!(k.samples > 0)) return 0;
  double in = 0;
  for (const auto& l : k.lines)
    if (l.file == file) in += l.samples;
  return in / k.samples;
}

std::vector<StallCount> total_reasons(const PcSampling& p) {
  std::map<std::string, double> sum;
  for (const auto& k : p.kernels)
    for (const auto& c : k.reasons) sum[c.reason] += c.samples;
  return sorted(sum);
}

namespace {

json reasons_to_json(const std::vector<StallCount>& rs) {
  json a = json::array();
  for (const auto& c : rs) a.push_back({{"reason", c.reason}, {"samples", c.samples}});
  return a;
}

[[noreturn]] void bad(const std::string& what) { throw std::runtime_error("pc_sampling: " + what); }

const json& field(const json& j, const char* key, const std::string& where) {
  if (!j.is_object() || !j.contains(key)) bad(where + ": missing \"" + key + "\"");
  return j.at(key);
}

double count(const json& j, const char* key, const std::string& where) {
  const json& v = field(j, key, where);
  if (!v.is_number()) bad(where + ": \"" + key + "\" is not a number");
  const double d = v.get<double>();
  if (!std::isfinite(d) || d < 0) bad(where + ": \"" + key + "\" must be a finite count >= 0");
  return d;
}

std::string text(const json& j, const char* key, const std::string& where) {
  const json& v = field(j, key, where);
  if (!v.is_string()) bad(where + ": \"" + key + "\" is not a string");
  return v.get<std::string>();
}

const json& array(const json& j, const char* key, const std::string& where) {
  const json& v = field(j, key, where);
  if (!v.is_array()) bad(where + ": \"" + key + "\" is not an array");
  return v;
}

std::vector<StallCount> reasons_from_json(const json& j, const std::string& where) {
  std::vector<StallCount> out;
  for (const auto& e : array(j, "reasons", where)) {
    StallCount c;
    c.reason = text(e, "reason", where + " reason");
    c.samples = count(e, "samples", where + " reason " + c.reason);
    if (c.reason.empty()) bad(where + ": a reason with an empty name");
    out.push_back(std::move(c));
  }
  return out;
}

double sum_of(const std::vector<StallCount>& rs) {
  double s = 0;
  for (const auto& c : rs) s += c.samples;
  return s;
}

bool near(double a, double b) { return std::fabs(a - b) <= 1e-6 * std::max(1.0, std::max(a, b)); }

}  // namespace

json pc_sampling_to_json(const PcSampling& p) {
  json j;
  j["collected"] = p.collected;
  j["period_log2"] = p.period_log2;
  j["hardware_samples"] = p.hardware_samples;
  j["dropped_samples"] = p.dropped_samples;
  j["hardware_buffer_full"] = p.hardware_buffer_full;
  json ks = json::array();
  for (const auto& k : p.kernels) {
    json lines = json::array();
    for (const auto& l : k.lines)
      lines.push_back(
          {{"file", l.file}, {"line", l.line}, {"samples", l.samples}, {"reasons", reasons_to_json(l.reasons)}});
    ks.push_back({{"kernel", k.kernel},
                  {"samples", k.samples},
                  {"unmapped_samples", k.unmapped_samples},
                  {"reasons", reasons_to_json(k.reasons)},
                  {"lines", lines}});
  }
  j["kernels"] = ks;
  return j;
}

PcSampling pc_sampling_from_json(const json& j) {
  PcSampling p;
  const std::string top = "run metrics";
  const json& c = field(j, "collected", top);
  if (!c.is_boolean()) bad("\"collected\" is not true/false");
  p.collected = c.get<bool>();
  const json& per = field(j, "period_log2", top);
  if (!per.is_number_integer() || per.get<long long>() < 0 || per.get<long long>() > 31)
    bad("\"period_log2\" must be an integer 0..31");
  p.period_log2 = per.get<int>();
  p.hardware_samples = count(j, "hardware_samples", top);
  p.dropped_samples = count(j, "dropped_samples", top);
  if (const auto full = j.find("hardware_buffer_full"); full != j.end()) {
    if (!full->is_boolean()) bad("\"hardware_buffer_full\" is not true/false");
    p.hardware_buffer_full = full->get<bool>();
  }
  for (const auto& e : array(j, "kernels", top)) {
    KernelStalls k;
    k.kernel = text(e, "kernel", "kernel");
    const std::string kw = "kernel " + k.kernel;
    k.samples = count(e, "samples", kw);
    k.unmapped_samples = count(e, "unmapped_samples", kw);
    k.reasons = reasons_from_json(e, kw);
    if (!near(sum_of(k.reasons), k.samples))
      bad(kw + ": its reasons add up to " + std::to_string(sum_of(k.reasons)) + " samples, not " +
          std::to_string(k.samples));
    double on_lines = 0;
    for (const auto& l : array(e, "lines", kw)) {
      LineStalls x;
      x.file = text(l, "file", kw + " line");
      const json& n = field(l, "line", kw + " line");
      if (!n.is_number_integer() || n.get<long long>() < 1 || n.get<long long>() > 10000000)
        bad(kw + ": a line number must be an integer >= 1");
      x.line = n.get<int>();
      const std::string lw = kw + " " + x.file + ":" + std::to_string(x.line);
      x.samples = count(l, "samples", lw);
      x.reasons = reasons_from_json(l, lw);
      if (!near(sum_of(x.reasons), x.samples)) bad(lw + ": its reasons do not add up to its samples");
      on_lines += x.samples;
      k.lines.push_back(std::move(x));
    }
    if (!near(on_lines + k.unmapped_samples, k.samples))
      bad(kw + ": lines and unmapped samples do not add up to the kernel's samples");
    p.kernels.push_back(std::move(k));
  }
  return p;
}

}  // namespace ws
