#include "live.hpp"

#include <algorithm>

#include "live_runner.hpp"

namespace ws::controller {

LiveSeries::LiveSeries(std::size_t capacity)
    : capacity_(capacity < 1 ? 1 : capacity), x_(2 * capacity_), ms_(2 * capacity_), gbps_(2 * capacity_) {}

void LiveSeries::push(double launch, double ms, double gbps) {
  if (stored_ == x_.size()) {
    const auto keep = [this](std::vector<double>& v) {
      std::copy(v.begin() + std::ptrdiff_t(stored_ - capacity_), v.end(), v.begin());
    };
    keep(x_), keep(ms_), keep(gbps_);
    stored_ = capacity_;
  }
  x_[stored_] = launch;
  ms_[stored_] = ms;
  gbps_[stored_] = gbps;
  ++stored_;
  ++total_;
}

double LiveSeries::median_ms(std::size_t last) const {
  const std::size_t n = std::min(last, size());
  if (n == 0) return 0;
  std::vector<double> v(ms() + (size() - n), ms() + size());
  std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(n / 2), v.end());
  double m = v[n / 2];
  if (n % 2 == 0) m = (m + *std::max_element(v.begin(), v.begin() + std::ptrdiff_t(n / 2))) / 2;
  return m;
}

void LiveSeries::clear() {
  stored_ = 0;
  total_ = 0;
}

void LiveData::add(const std::vector<LivePoint>& points) {
  for (const auto& p : points) {
    auto it = series.find(p.variant);
    if (it == series.end()) it = series.emplace(p.variant, LiveSeries(capacity)).first;
    it->second.push(double(p.launch), p.ms, p.gbps);
  }
}

std::size_t LiveData::points() const {
  std::size_t n = 0;
  for (const auto& [id, s] : series) n += s.size();
  return n;
}

std::vector<LivePoint> live_points(const RunResult& r, std::int64_t first_launch) {
  if (!live_plottable(r)) return {};
  return live_points(r.variant, r.timing.samples_ms, r.bytes, first_launch);
}

std::vector<LivePoint> live_points(const std::string& variant, const std::vector<double>& times_ms, double bytes,
                                   std::int64_t first_launch) {
  std::vector<LivePoint> out;
  out.reserve(times_ms.size());
  for (double ms : times_ms) {
    if (!(ms > 0)) continue;
    out.push_back(LivePoint{variant, first_launch + std::int64_t(out.size()), ms, bytes / (ms * 1e6)});
  }
  return out;
}

}  // namespace ws::controller
