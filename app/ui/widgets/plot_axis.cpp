#include "widgets/plot_axis.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace ws::ui {

namespace {

constexpr double kEps = 1e-9;

double log_in(double v, double base) { return std::log(v) / std::log(base); }

/// Power-of-two exponent of v when v is (within rounding) 2^k, k >= 1; else -1.
int pow2_exponent(double v) {
  if (!(v >= 2) || !std::isfinite(v)) return -1;
  const double k = std::round(std::log2(v));
  return std::fabs(std::exp2(k) - v) <= v * 1e-9 ? int(k) : -1;
}

std::string strip_zeros(std::string s) {
  if (s.find('.') == std::string::npos) return s;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", std::clamp(decimals, 0, 12), v);
  std::string s = buf;
  if (s == "-0") s = "0";
  return s;
}

/// Decimals needed so that ticks `step` apart print differently.
int step_decimals(double step) {
  if (!(step > 0) || !std::isfinite(step)) return 2;
  return std::max(0, int(-std::floor(std::log10(step) + kEps)));
}

}  // namespace

double nice_number(double x, bool round) {
  if (!(x > 0) || !std::isfinite(x)) return 0;
  const double e = std::floor(std::log10(x));
  const double p = std::pow(10.0, e);
  const double f = x / p;  // 1 <= f < 10
  double nf;
  if (round)
    nf = f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10;
  else
    nf = f <= 1 + kEps ? 1 : f <= 2 + kEps ? 2 : f <= 5 + kEps ? 5 : 10;
  return nf * p;
}

std::vector<double> linear_ticks(double lo, double hi, int max_ticks) {
  std::vector<double> out;
  if (!std::isfinite(lo) || !std::isfinite(hi) || lo >= hi) return out;
  max_ticks = std::max(2, max_ticks);
  double step = nice_number((hi - lo) / (max_ticks - 1), true);
  for (int attempt = 0; attempt < 8; ++attempt) {
    out.clear();
    const double first = std::ceil(lo / step - kEps) * step;
    for (int i = 0;; ++i) {
      const double v = first + i * step;
      if (v > hi + step * kEps) break;
      out.push_back(std::fabs(v) < step * kEps ? 0.0 : v);
    }
    if (int(out.size()) <= max_ticks) break;
    step = nice_number(step * 1.01, false);  // the next nice step up
  }
  return out;
}

std::vector<double> log_ticks(double lo, double hi, double base, int max_ticks) {
  std::vector<double> out;
  if (!(lo > 0) || !(hi > lo) || !std::isfinite(hi) || !(base > 1)) return out;
  max_ticks = std::max(1, max_ticks);
  const int kmin = int(std::ceil(log_in(lo, base) - kEps));
  const int kmax = int(std::floor(log_in(hi, base) + kEps));
  if (kmax < kmin) return out;
  const int count = kmax - kmin + 1;
  const int m = (count + max_ticks - 1) / max_ticks;
  for (int k = kmin; k <= kmax; ++k)
    if (((k % m) + m) % m == 0) out.push_back(std::pow(base, k));
  return out;
}

std::vector<double> log_minor_ticks(double lo, double hi, double base) {
  std::vector<double> out;
  if (base != 10 || !(lo > 0) || !(hi > lo)) return out;
  const int kmin = int(std::floor(std::log10(lo)));
  const int kmax = int(std::ceil(std::log10(hi)));
  for (int k = kmin; k <= kmax; ++k)
    for (int d = 2; d <= 9; ++d) {
      const double v = d * std::pow(10.0, k);
      if (v >= lo * (1 - kEps) && v <= hi * (1 + kEps)) out.push_back(v);
    }
  return out;
}

std::vector<Tick> make_ticks(const AxisSpec& a, int max_ticks) {
  std::vector<Tick> out;
  if (a.log) {
    const auto major = log_ticks(a.lo, a.hi, a.log_base, max_ticks);
    for (double v : major) out.push_back(Tick{v, format_axis_value(v, a.unit, 0), true});
    if (a.log_base == 10 && a.hi / a.lo <= 1e4 + 1)
      for (double v : log_minor_ticks(a.lo, a.hi, 10)) out.push_back(Tick{v, "", false});
    // Fewer than two labelled powers (a narrow range): label nice linear values instead.
    if (major.size() < 2) {
      out.clear();
      const auto lin = linear_ticks(a.lo, a.hi, max_ticks);
      const double step = lin.size() > 1 ? lin[1] - lin[0] : 0;
      for (double v : lin)
        if (v > 0) out.push_back(Tick{v, format_axis_value(v, a.unit, step), true});
    }
    return out;
  }
  const auto lin = linear_ticks(a.lo, a.hi, max_ticks);
  const double step = lin.size() > 1 ? lin[1] - lin[0] : 0;
  for (double v : lin) out.push_back(Tick{v, format_axis_value(v, a.unit, step), true});
  return out;
}

double axis_fraction(const AxisSpec& a, double v) {
  if (a.log) {
    const double tiny = std::numeric_limits<double>::min();
    const double lo = std::log(std::max(a.lo, tiny)), hi = std::log(std::max(a.hi, tiny));
    if (hi == lo) return 0.5;
    return (std::log(std::max(v, tiny)) - lo) / (hi - lo);
  }
  if (a.hi == a.lo) return 0.5;
  return (v - a.lo) / (a.hi - a.lo);
}

double axis_value(const AxisSpec& a, double fraction) {
  if (a.log) {
    const double lo = std::log(a.lo), hi = std::log(a.hi);
    return std::exp(lo + fraction * (hi - lo));
  }
  return a.lo + fraction * (a.hi - a.lo);
}

AxisSpec fit_axis(double min, double max, bool log, double log_base, AxisUnit unit, bool zero_based, double pad) {
  AxisSpec a;
  a.log = log;
  a.log_base = log_base;
  a.unit = unit;
  if (!std::isfinite(min) || !std::isfinite(max) || min > max) min = max = log ? 1 : 0;
  if (log) {
    if (!(max > 0)) min = max = 1;
    if (!(min > 0)) min = max;
    const double kmin = std::floor(log_in(min, log_base) + kEps);
    double kmax = std::ceil(log_in(max, log_base) - kEps);
    if (kmax <= kmin) kmax = kmin + 1;
    a.lo = std::pow(log_base, kmin);
    a.hi = std::pow(log_base, kmax);
    return a;
  }
  if (min == max) {
    const double d = min == 0 ? 1 : std::fabs(min) * 0.1;
    min -= d;
    max += d;
    if (zero_based && min < 0 && max - d >= 0) min = 0;
  }
  const bool nonneg = min >= 0;
  const double span = max - min;
  double lo = min - pad * span, hi = max + pad * span;
  if (zero_based && nonneg) lo = 0;
  const double step = nice_number((hi - lo) / 5, true);
  if (step > 0) {
    lo = std::floor(lo / step + kEps) * step;
    hi = std::ceil(hi / step - kEps) * step;
  }
  if (nonneg && lo < 0) lo = 0;
  if (hi <= lo) hi = lo + 1;
  a.lo = lo;
  a.hi = hi;
  return a;
}

std::string format_significant(double v, int digits) {
  if (!std::isfinite(v)) return "-";
  if (v == 0) return "0";
  digits = std::max(1, digits);
  const double mag = std::floor(std::log10(std::fabs(v)) + kEps);
  if (mag >= digits - 1) return fixed(std::round(v), 0);
  return strip_zeros(fixed(v, int(digits - 1 - mag)));
}

std::string format_duration_ms(double ms) {
  if (!std::isfinite(ms)) return "-";
  const double a = std::fabs(ms);
  if (a == 0) return "0 s";
  if (a >= 1000) return format_significant(ms / 1000, 3) + " s";
  if (a >= 1) return format_significant(ms, 3) + " ms";
  if (a >= 1e-3) return format_significant(ms * 1e3, 3) + " us";
  return format_significant(ms * 1e6, 3) + " ns";
}

std::string format_bandwidth_gbps(double gbps) {
  if (!std::isfinite(gbps)) return "-";
  const double a = std::fabs(gbps);
  if (a == 0) return "0 GB/s";
  if (a >= 10000) return format_significant(gbps / 1000, 3) + " TB/s";
  if (a >= 1) return format_significant(gbps, 3) + " GB/s";
  return format_significant(gbps * 1000, 3) + " MB/s";
}

std::string format_count_short(double n) {
  if (!std::isfinite(n)) return "-";
  if (const int k = pow2_exponent(n); k >= 1) return "2^" + std::to_string(k);
  const double a = std::fabs(n);
  if (a >= 1e9) return format_significant(n / 1e9, 3) + " G";
  if (a >= 1e6) return format_significant(n / 1e6, 3) + " M";
  if (a >= 1e4) return format_significant(n / 1e3, 3) + " k";
  return format_significant(n, 4);
}

std::string format_axis_value(double v, AxisUnit unit, double step) {
  switch (unit) {
    case AxisUnit::Count: return format_count_short(v);
    case AxisUnit::Ms: return format_duration_ms(v);
    case AxisUnit::GBps: return format_bandwidth_gbps(v);
    case AxisUnit::Percent:
      return (step > 0 ? strip_zeros(fixed(v, step_decimals(step))) : format_significant(v, 3)) + " %";
    case AxisUnit::Ratio:
      return (step > 0 ? strip_zeros(fixed(v, step_decimals(step))) : format_significant(v, 3)) + "x";
    case AxisUnit::Launch: return fixed(std::round(v), 0);
    case AxisUnit::Bytes: {
      static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
      if (const int k = pow2_exponent(v); k >= 0)
        return std::to_string(1 << (k % 10)) + " " + kUnits[std::min(k / 10, 4)];
      return format_significant(v, 3) + " B";
    }
    case AxisUnit::Plain:
    default:
      if (std::fabs(v) >= 1e6 || (v != 0 && std::fabs(v) < 1e-4)) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.2g", v);
        return buf;
      }
      return step > 0 ? strip_zeros(fixed(v, step_decimals(step))) : format_significant(v, 4);
  }
}

}  // namespace ws::ui
