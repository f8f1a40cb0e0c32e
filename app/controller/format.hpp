// Numbers as people read them on a slide: element counts, times, bandwidths, percentages.
#pragma once
#include <cstdint>
#include <string>

#include "run_types.hpp"

namespace ws::controller {

/// "2^20" for powers of two from 2^10 up, else grouped digits "1,000,000".
std::string format_count(std::int64_t n);
/// Grouped digits: 1048576 -> "1,048,576".
std::string format_grouped(std::int64_t n);
/// Milliseconds with three decimals ("0.184"), or "-" when not timed.
std::string format_ms(double ms);
/// GB/s without decimals from 100 up ("4377"), one decimal below ("12.5").
std::string format_gbps(double gbps);
/// Percent with no decimals ("91 %"), or "-" when unknown (<= 0).
std::string format_pct(double pct);
/// "256 × 4096" (block × grid); "host" for CPU variants (block 0).
std::string format_launch(const LaunchConfig& l);
/// The check column: "ok", "race: expected X, got Y", "slide bug: ...", "wrong: ...", "error: ...".
std::string format_check(const RunResult& r);
/// The hover text of a run's time: the GPU's median (when timed) beside where the whole run's wall time
/// went on the host, one phase per line ("input 812 ms", ..., "total 1.31 s"); "" when neither is known.
std::string format_time_tooltip(const RunResult& r);
/// A variant id without its lesson prefix: "epita.reduce3" -> "reduce3" (an id without a dot stays).
std::string short_id(const std::string& id);
/// short_id, except for library baselines, which keep theirs ("cub.reduce": "reduce" alone would hide
/// that it is CUB). For plot series and comparisons that mix lessons.
std::string series_id(const std::string& id);
/// A date from an ISO-8601 stamp: "2026-11-21 23:09" ("" stays "").
std::string format_created(const std::string& iso);

}  // namespace ws::controller
