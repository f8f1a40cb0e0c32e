// Live mode's data: per-launch times from the worker, kept in bounded buffers the
// Plots view draws as scrolling lines. The worker produces LivePoints; the UI thread owns LiveData.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "run_types.hpp"

namespace ws::controller {

/// One timed launch of a live variant: launch = running index since Live started for it (0-based),
/// ms = that launch's time (CUDA events), gbps = bytes read / ms.
struct LivePoint {
  std::string variant;
  std::int64_t launch = 0;
  double ms = 0, gbps = 0;
};

/// The newest `capacity` points of one variant, contiguous (oldest first) for the plot.
/// Its store of 2 x capacity points is allocated and written once, at construction, so a series'
/// memory is the same from its first point to its millionth (a lecture's Live runs for an hour):
/// when the store fills, the newest half moves to the front (amortised O(1) per push).
class LiveSeries {
 public:
  explicit LiveSeries(std::size_t capacity = 10000);
  void push(double launch, double ms, double gbps);
  std::size_t size() const { return stored_ - begin(); }
  std::size_t capacity() const { return capacity_; }
  const double* launches() const { return x_.data() + begin(); }
  const double* ms() const { return ms_.data() + begin(); }
  const double* gbps() const { return gbps_.data() + begin(); }
  std::int64_t total() const { return total_; }  ///< points ever pushed
  /// Median time (ms) of the newest `last` points (0 when empty).
  double median_ms(std::size_t last) const;
  void clear();

 private:
  std::size_t begin() const { return stored_ > capacity_ ? stored_ - capacity_ : 0; }
  std::size_t capacity_;
  std::vector<double> x_, ms_, gbps_;  // 2 x capacity each; the first stored_ are points
  std::size_t stored_ = 0;
  std::int64_t total_ = 0;
};

/// Everything Live shows: a series per variant and the latest full result of each (its metrics too).
struct LiveData {
  std::size_t capacity = 10000;
  std::map<std::string, LiveSeries> series;
  std::map<std::string, RunResult> latest;
  void add(const std::vector<LivePoint>& points);
  void add_result(const RunResult& r) { latest[r.variant] = r; }
  void clear() { series.clear(), latest.clear(); }
  std::size_t points() const;
};

/// The points of one finished live run: one per timed launch (its samples_ms), numbered from
/// `first_launch`; none for untimed or failed runs (live_plottable).
std::vector<LivePoint> live_points(const RunResult& r, std::int64_t first_launch);
/// The points of launches of `variant` that moved `bytes` each and took `times_ms` (a live batch's
/// times of one request), numbered from `first_launch`; times <= 0 are left out.
std::vector<LivePoint> live_points(const std::string& variant, const std::vector<double>& times_ms, double bytes,
                                   std::int64_t first_launch);

}  // namespace ws::controller
