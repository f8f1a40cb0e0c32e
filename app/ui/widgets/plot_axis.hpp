// Axis maths for the plot widget: nice tick values on linear and log axes, the mapping between data
// and [0, 1] along an axis, and tick labels with units ("2^20", "1.2 GB/s", "350 us"). Pure: no
// ImGui, so tests/gui checks it without a window.
#pragma once
#include <string>
#include <vector>

namespace ws::ui {

/// What a value on an axis means, for its tick labels.
enum class AxisUnit {
  Plain,    ///< a number: "0.5", "1200", "1.5e+06"
  Count,    ///< element counts: powers of two as "2^20", else "1.2 M", "350 k"
  Ms,       ///< a time in milliseconds, printed in s, ms, us or ns: "350 us", "1.2 ms"
  GBps,     ///< bandwidth in GB/s (1e9 bytes/s): "1.2 GB/s", "350 MB/s", "4418 GB/s"
  Percent,  ///< "25 %"
  Ratio,    ///< a speedup: "2x", "0.5x"
  Launch,   ///< launch index: a plain integer
  Bytes,    ///< a message size in bytes: powers of two as "4 KiB", "256 MiB", "1 GiB", else "1.5e+06 B"
};

/// One axis: range (lo < hi, both > 0 on a log axis), scale and unit.
struct AxisSpec {
  double lo = 0, hi = 1;
  bool log = false;
  double log_base = 10;  ///< 2 for n axes (ticks at powers of two), 10 for times and bandwidths
  AxisUnit unit = AxisUnit::Plain;
};

struct Tick {
  double value = 0;
  std::string label;  ///< empty for minor ticks
  bool major = true;
};

/// Heckbert's nice number: the 1, 2, 5 or 10 times a power of ten closest to x (round) or the
/// smallest not below x (!round). x > 0; returns 0 for x <= 0.
double nice_number(double x, bool round);

/// Major ticks on a linear axis: multiples of a nice step covering [lo, hi], at most about
/// max_ticks of them (>= 2), all inside [lo, hi]. Empty when lo >= hi or either is not finite.
std::vector<double> linear_ticks(double lo, double hi, int max_ticks);

/// Major ticks on a log axis: the powers base^k in [lo, hi], taking every m-th power so that at
/// most max_ticks remain (m = 1, 2, 3, ...). Requires 0 < lo < hi; else empty.
std::vector<double> log_ticks(double lo, double hi, double base, int max_ticks);

/// Minor ticks of a log10 axis: 2..9 x 10^k inside [lo, hi] (none for other bases).
std::vector<double> log_minor_ticks(double lo, double hi, double base);

/// Major ticks with labels (and log10 minor ticks when the range spans <= 4 decades).
std::vector<Tick> make_ticks(const AxisSpec& a, int max_ticks);

/// Position of v along the axis in [0, 1] (outside for values out of range; log axes clamp v to a
/// tiny positive value first). lo == hi maps everything to 0.5.
double axis_fraction(const AxisSpec& a, double v);
/// Inverse of axis_fraction.
double axis_value(const AxisSpec& a, double fraction);

/// A range that contains [min, max] with some margin: linear axes widen by `pad` of the span and
/// snap to nice steps (a zero-based axis stays at 0 when min >= 0 and zero_based); log axes snap to
/// whole powers of the base. Handles min == max and non-positive values on log axes (clamped to
/// the smallest positive value, or 1).
AxisSpec fit_axis(double min, double max, bool log, double log_base, AxisUnit unit, bool zero_based = true,
                  double pad = 0.05);

/// A label for v in the unit; `step` (the tick spacing, 0 = unknown) decides the decimals.
std::string format_axis_value(double v, AxisUnit unit, double step = 0);

/// Time with its unit: 0.35 -> "350 us", 1.234 -> "1.23 ms", 2500 -> "2.5 s", 0.00002 -> "20 ns".
std::string format_duration_ms(double ms);
/// Bandwidth with its unit: 1.2 -> "1.2 GB/s", 0.35 -> "350 MB/s", 4418 -> "4418 GB/s" (GB/s up
/// to 10^4, as the results table prints it), 12500 -> "12.5 TB/s".
std::string format_bandwidth_gbps(double gbps);
/// "2^k" when n is a power of two >= 2, else "1.2 M", "350 k", "999".
std::string format_count_short(double n);
/// Up to `digits` significant digits without trailing zeros: 1.20 -> "1.2", 350 -> "350".
std::string format_significant(double v, int digits = 3);

}  // namespace ws::ui
