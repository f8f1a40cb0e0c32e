#include "format.hpp"

#include <cstdio>

#include "patterns/reduction/reference.hpp"
#include "registry.hpp"

namespace ws::controller {

std::string format_grouped(std::int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return n < 0 ? "-" + out : out;
}

std::string format_count(std::int64_t n) {
  if (n >= 1024 && (n & (n - 1)) == 0) {
    int k = 0;
    while ((std::int64_t(1) << k) < n) ++k;
    return "2^" + std::to_string(k);
  }
  return format_grouped(n);
}

std::string format_ms(double ms) {
  if (ms <= 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, ms < 1000 ? "%.3f" : "%.0f", ms);
  return buf;
}

std::string format_gbps(double gbps) {
  if (gbps <= 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, gbps >= 100 ? "%.0f" : "%.1f", gbps);
  return buf;
}

std::string format_pct(double pct) {
  if (pct <= 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, pct >= 10 ? "%.0f %%" : "%.1f %%", pct);
  return buf;
}

std::string format_launch(const LaunchConfig& l) {
  if (l.block == 0) return "host";
  return std::to_string(l.block) + " \u00d7 " + format_grouped(l.grid);
}

std::string format_check(const RunResult& r) {
  const std::string got = format_value(r.type, r.result), want = format_value(r.type, r.expected);
  if (r.status == RunStatus::Ok) return r.racy ? "ok (race hid this time)" : "ok";
  if (r.status == RunStatus::Race) return "race: expected " + want + ", got " + got;
  if (r.status == RunStatus::SlideBug) return "slide bug: expected " + want + ", got " + got;
  if (r.status == RunStatus::Wrong) return "wrong: expected " + want + ", got " + got;
  if (r.status == RunStatus::Error) return "error: " + r.message;
  if (r.status == RunStatus::Faulted) return "faulted: " + r.message;  // the run cost its worker process
  return r.status == RunStatus::Unchecked ? "?" : to_string(r.status);
}

std::string format_created(const std::string& iso) {
  // "2026-11-21T23:09:41Z" -> "2026-11-21 23:09"
  if (iso.size() >= 16 && iso[10] == 'T') return iso.substr(0, 10) + " " + iso.substr(11, 5);
  return iso;
}

std::string format_time_tooltip(const RunResult& r) {
  std::string text;
  if (r.timed)
    text = "GPU: median " + format_ms(r.timing.median_ms) + " ms of " + std::to_string(r.timing.samples_ms.size()) +
           " launches (min " + format_ms(r.timing.min_ms) + " .. max " + format_ms(r.timing.max_ms) + " ms)";
  const HostTimes& h = r.host_ms;
  if (!h.recorded()) return text;
  text += std::string(text.empty() ? "" : "\n\n") + "Wall time of the whole run on the host:";
  for (const auto& [name, ms] : h.phases()) {
    if (ms < 0.05 && std::string(name) != "total") continue;
    char line[64];
    if (ms >= 1000)
      std::snprintf(line, sizeof line, "\n  %s: %.2f s", name, ms / 1000);
    else
      std::snprintf(line, sizeof line, "\n  %s: %.1f ms", name, ms);
    text += line;
  }
  return text;
}

std::string short_id(const std::string& id) {
  const auto dot = id.find('.');
  return dot == std::string::npos ? id : id.substr(dot + 1);
}

std::string series_id(const std::string& id) {
  const VariantInfo* v = find_variant(id);
  return v && v->baseline ? id : short_id(id);
}

}  // namespace ws::controller
