#include "widgets/plot_style.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "widgets/plot.hpp"

namespace ws::ui {

SeriesStyle series_style(int i) {
  const int k = ((i % kDistinctSeriesStyles) + kDistinctSeriesStyles) % kDistinctSeriesStyles;
  SeriesStyle s;
  s.color = SeriesColor(k % 10);
  s.dash = PlotDash(k / 10);
  s.marker = PlotMarker(k / 10);
  return s;
}

std::vector<int> coincident_series(const std::vector<std::vector<double>>& xs,
                                   const std::vector<std::vector<double>>& ys, double tolerance) {
  const std::size_t n = std::min(xs.size(), ys.size());
  std::vector<int> out(n, -1);
  auto same = [&](std::size_t a, std::size_t b) {
    if (xs[a].size() < 2 || xs[a] != xs[b] || ys[a].size() != xs[a].size() || ys[b].size() != xs[b].size())
      return false;
    for (std::size_t i = 0; i < xs[a].size(); ++i) {
      const double p = ys[a][i], q = ys[b][i];
      if (!std::isfinite(p) || !std::isfinite(q)) return false;
      if (std::fabs(p - q) > tolerance * std::max(std::fabs(p), std::fabs(q))) return false;
    }
    return true;
  };
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = n; b-- > a + 1;)  // the last one drawn over it
      if (same(a, b)) {
        out[a] = int(b);
        break;
      }
  return out;
}

std::string coincidence_label(const std::string& label, const std::string& same_as, double tolerance) {
  char pct[32];
  std::snprintf(pct, sizeof pct, "%g", tolerance * 100);
  return label + ": same as " + same_as + " (within " + pct + " %)";
}

bool clip_segment(ImVec2 a, ImVec2 b, ImVec2 lo, ImVec2 hi, double& t0, double& t1) {
  // Liang-Barsky clipping of the segment against the rectangle.
  t0 = 0, t1 = 1;
  const double dx = double(b.x) - a.x, dy = double(b.y) - a.y;
  const double p[4] = {-dx, dx, -dy, dy};
  const double q[4] = {double(a.x) - lo.x, double(hi.x) - a.x, double(a.y) - lo.y, double(hi.y) - a.y};
  for (int i = 0; i < 4; ++i) {
    if (p[i] == 0) {
      if (q[i] < 0) return false;
      continue;
    }
    const double r = q[i] / p[i];
    if (p[i] < 0)
      t0 = std::max(t0, r);
    else
      t1 = std::min(t1, r);
    if (t0 > t1) return false;
  }
  return true;
}

bool segment_hits_rect(ImVec2 a, ImVec2 b, ImVec2 lo, ImVec2 hi) {
  double t0 = 0, t1 = 0;
  return clip_segment(a, b, lo, hi, t0, t1);
}

int free_label_box(const std::vector<ImVec4>& candidates, const std::vector<std::vector<ImVec2>>& curves,
                   const std::vector<ImVec4>& taken) {
  int best = -1;
  long best_hits = 0;
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    const ImVec4& r = candidates[c];
    const ImVec2 lo(r.x, r.y), hi(r.z, r.w);
    long hits = 0;
    for (const auto& t : taken)
      if (r.x < t.z && r.z > t.x && r.y < t.w && r.w > t.y) hits += 1000;  // never stack labels
    for (const auto& pts : curves) {
      for (std::size_t i = 0; i + 1 < pts.size(); ++i) hits += segment_hits_rect(pts[i], pts[i + 1], lo, hi);
      if (pts.size() == 1) hits += pts[0].x >= lo.x && pts[0].x <= hi.x && pts[0].y >= lo.y && pts[0].y <= hi.y;
    }
    if (hits == 0) return int(c);
    if (best < 0 || hits < best_hits) best = int(c), best_hits = hits;
  }
  return best;
}

bool boxes_overlap(const ImVec4& a, const ImVec4& b) { return a.x < b.z && a.z > b.x && a.y < b.w && a.w > b.y; }

int label_box_clear_of(const std::vector<ImVec4>& candidates, const std::vector<std::vector<ImVec2>>& curves,
                       const std::vector<ImVec4>& taken) {
  std::vector<ImVec4> clear;
  std::vector<int> index;
  for (std::size_t c = 0; c < candidates.size(); ++c)
    if (std::none_of(taken.begin(), taken.end(), [&](const ImVec4& t) { return boxes_overlap(candidates[c], t); }))
      clear.push_back(candidates[c]), index.push_back(int(c));
  const int best = free_label_box(clear, curves, {});
  return best < 0 ? -1 : index[std::size_t(best)];
}

}  // namespace ws::ui
