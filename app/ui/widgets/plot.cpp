#include "widgets/plot.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "widgets/dashed_polyline.hpp"
#include "widgets/draw_shapes.hpp"
#include "widgets/layout_probe.hpp"
#include "widgets/theme.hpp"

namespace ws::ui {

namespace {

/// axis_fraction of one axis with the logarithms of its ends taken once (the same arithmetic, so the same
/// values): a plot maps every point of every series each frame.
struct AxisMap {
  bool log = false;
  double lo = 0, span = 0;
  explicit AxisMap(const AxisSpec& a) : log(a.log) {
    const double tiny = std::numeric_limits<double>::min();
    lo = log ? std::log(std::max(a.lo, tiny)) : a.lo;
    span = (log ? std::log(std::max(a.hi, tiny)) : a.hi) - lo;
  }
  double fraction(double v) const {
    if (span == 0) return 0.5;
    return ((log ? std::log(std::max(v, std::numeric_limits<double>::min())) : v) - lo) / span;
  }
};

struct Frame {
  Frame(const AxisSpec& ax, const AxisSpec& ay) : x(&ax), y(&ay), mx(ax), my(ay) {}
  ImVec2 min, max;  // plot area in screen pixels
  const AxisSpec* x;
  const AxisSpec* y;
  AxisMap mx, my;
  ImVec2 map(double vx, double vy) const {
    const double fx = mx.fraction(vx), fy = my.fraction(vy);
    return ImVec2(float(min.x + fx * (max.x - min.x)), float(max.y - fy * (max.y - min.y)));
  }
};

bool finite_point(const Frame& f, double x, double y) {
  if (!std::isfinite(x) || !std::isfinite(y)) return false;
  if (f.x->log && !(x > 0)) return false;
  if (f.y->log && !(y > 0)) return false;
  return true;
}

void dashed_line(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 col, float dash, float thickness) {
  const float len = std::hypot(b.x - a.x, b.y - a.y);
  if (len <= 0) return;
  const ImVec2 d((b.x - a.x) / len, (b.y - a.y) / len);
  for (float t = 0; t < len; t += 2 * dash) {
    const float e = std::min(len, t + dash);
    dl->AddLine(ImVec2(a.x + d.x * t, a.y + d.y * t), ImVec2(a.x + d.x * e, a.y + d.y * e), col, thickness);
  }
}

/// A polyline in a dash pattern (on/off lengths in pixels), the pattern carried across its vertices.
/// `phase` (0..1) shifts the pattern, so that parallel series do not line up their gaps into stripes.
void styled_polyline(ImDrawList* dl, const std::vector<ImVec2>& pts, ImU32 col, float thickness, PlotDash dash,
                     float unit, float phase = 0) {
  if (pts.size() < 2) return;
  if (dash == PlotDash::Solid) {
    // A whole number of pixels: ImGui then draws the anti-aliased line from its font atlas's baked line
    // texture (2 vertices a point) instead of building each joint's fringe (4 vertices and a dozen more
    // operations a point): a Live plot of 10,000 points takes half the time.
    dl->AddPolyline(pts.data(), int(pts.size()), col, 0, std::max(1.f, std::round(thickness)));
    return;
  }
  DashPattern pat;
  if (dash == PlotDash::Dashed) pat = {{4 * unit, 2.5f * unit}, 2};
  if (dash == PlotDash::Dotted) pat = {{1.2f * unit, 1.8f * unit}, 2};
  if (dash == PlotDash::DashDot) pat = {{4 * unit, 1.5f * unit, 1.2f * unit, 1.5f * unit}, 4};
  DashedPolyline(dl, pts, col, thickness, pat, phase);
}

/// A data point's marker of radius r.
void draw_marker(ImDrawList* dl, ImVec2 p, float r, ImU32 col, PlotMarker m) {
  switch (m) {
    case PlotMarker::Circle: dl->AddCircleFilled(p, r, col, 10); break;
    case PlotMarker::Square:
      dl->AddRectFilled(ImVec2(p.x - r * 0.9f, p.y - r * 0.9f), ImVec2(p.x + r * 0.9f, p.y + r * 0.9f), col);
      break;
    case PlotMarker::Triangle:
      dl->AddTriangleFilled(ImVec2(p.x, p.y - r * 1.2f), ImVec2(p.x + r * 1.1f, p.y + r * 0.8f),
                            ImVec2(p.x - r * 1.1f, p.y + r * 0.8f), col);
      break;
    case PlotMarker::Diamond:
      dl->AddQuadFilled(ImVec2(p.x, p.y - r * 1.3f), ImVec2(p.x + r * 1.1f, p.y), ImVec2(p.x, p.y + r * 1.3f),
                        ImVec2(p.x - r * 1.1f, p.y), col);
      break;
  }
}

/// The legend's swatch of series s in the box lo-hi: a short line in its dash with its marker (a
/// filled box for bars).
void legend_swatch(ImDrawList* dl, const PlotSeries& s, ImVec2 lo, ImVec2 hi, float unit) {
  if (s.style == PlotSeries::Bars) {
    if (s.flag.empty())
      dl->AddRectFilled(lo, hi, s.color);
    else
      HatchedRect(dl, lo, hi, s.color, std::max(1.f, unit * 0.6f));
    return;
  }
  const float y = (lo.y + hi.y) * 0.5f;
  if (s.style != PlotSeries::Scatter)
    styled_polyline(dl, {ImVec2(lo.x, y), ImVec2(hi.x, y)}, s.color, std::max(1.f, unit * 0.8f), s.dash, unit * 0.7f);
  if (s.style != PlotSeries::Line) draw_marker(dl, ImVec2((lo.x + hi.x) * 0.5f, y), unit * 1.1f, s.color, s.marker);
}

/// Screen points of a line series; long series keep each pixel column's first, min, max and last.
void line_points(const Frame& f, const PlotSeries& s, std::vector<ImVec2>& out) {
  out.clear();
  const bool thin = s.count > 2 * int(f.max.x - f.min.x);
  int column = std::numeric_limits<int>::min();
  ImVec2 first, lo, hi, last;
  auto flush = [&] {
    if (column == std::numeric_limits<int>::min()) return;
    out.push_back(first);
    if (lo.y != first.y || hi.y != first.y) {
      // min and max in the order they occurred does not matter for a one-pixel column
      out.push_back(lo);
      out.push_back(hi);
    }
    out.push_back(last);
  };
  for (int i = 0; i < s.count; ++i) {
    if (!finite_point(f, s.x[i], s.y[i])) continue;
    const ImVec2 p = f.map(s.x[i], s.y[i]);
    if (!thin) {
      out.push_back(p);
      continue;
    }
    const int c = int(std::floor(p.x));
    if (c != column) {
      flush();
      column = c;
      first = lo = hi = last = p;
    } else {
      if (p.y < lo.y) lo = p;
      if (p.y > hi.y) hi = p;
      last = p;
    }
  }
  if (thin) flush();
}

}  // namespace

ImU32 SeriesColor(int i) { return theme().colors().series[((i % 10) + 10) % 10]; }

PlotHover Plot(const char* id, const PlotConfig& cfg, const std::vector<PlotSeries>& series,
               const std::vector<PlotReference>& refs, ImVec2 size) {
  PlotHover hover;
  const Theme& t = theme();
  const Palette& pal = t.colors();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  if (size.x <= 0) size.x = ImGui::GetContentRegionAvail().x;
  if (size.y <= 0) size.y = ImGui::GetContentRegionAvail().y;
  size.x = std::max(size.x, t.px(120));
  size.y = std::max(size.y, t.px(90));
  ImGui::InvisibleButton(id, size);
  const bool hovered = ImGui::IsItemHovered();

  const float font = ImGui::GetFontSize();
  const ImU32 text = ImGui::GetColorU32(pal.text);
  const ImU32 dim = ImGui::GetColorU32(pal.text_dim);
  const ImU32 grid = ImGui::GetColorU32(ImGuiCol_TableBorderLight);
  const ImU32 axis = ImGui::GetColorU32(ImGuiCol_Border);
  // Every text of the plot at the cursor's font, its box noted in the layout probe.
  auto put_text = [&](ImVec2 pos, ImU32 col, const std::string& str) {
    dl->AddText(pos, col, str.c_str());
    const ImVec2 ts = ImGui::CalcTextSize(str.c_str());
    layout_probe().label(str, pos, ImVec2(pos.x + ts.x, pos.y + ts.y));
  };

  float top = origin.y;
  bool y_label_done = false;
  if (!cfg.title.empty()) {
    ImGui::PushFont(t.fonts().bold);
    put_text(ImVec2(origin.x, top), text, cfg.title);
    const float title_w = ImGui::CalcTextSize(cfg.title.c_str()).x;
    ImGui::PopFont();
    // The y axis title shares the title's line when it fits (more height for the data).
    const float yl_w = ImGui::CalcTextSize(cfg.y_label.c_str()).x;
    if (!cfg.y_label.empty() && title_w + t.px(24) + yl_w <= size.x) {
      put_text(ImVec2(origin.x + title_w + t.px(24), top), dim, cfg.y_label);
      y_label_done = true;
    }
    top += font * 1.3f;
  }
  if (!cfg.y_label.empty() && !y_label_done) {
    put_text(ImVec2(origin.x, top), dim, cfg.y_label);
    top += font * 1.2f;
  }
  float bottom = origin.y + size.y - font * (cfg.x_label.empty() ? 1.5f : 2.7f);
  // Many series: the legend goes right of the plot in columns, or, when that would take more than
  // 40 % of the width, in lines below the axis title.
  const float sw = font * 1.6f, pad = t.px(6), row = font * 1.15f;  // swatch wide enough to show the dash
  enum { Inside, Right, Below } legend_at = Inside;
  int legend_rows = 0, legend_cols = 0;
  int legend_shown = int(series.size());  ///< entries drawn (Below, when not all fit)
  float legend_col_w = 0;
  if (cfg.legend && series.size() > 4) {
    for (const auto& s : series) legend_col_w = std::max(legend_col_w, ImGui::CalcTextSize(s.label.c_str()).x);
    legend_col_w += sw + 2 * pad;
    legend_rows = std::max(1, int((bottom - top - font * 0.5f) / row));
    legend_cols = (int(series.size()) + legend_rows - 1) / legend_rows;
    legend_rows = (int(series.size()) + legend_cols - 1) / legend_cols;
    legend_at = legend_col_w * float(legend_cols) <= size.x * 0.4f ? Right : Below;
    if (legend_at == Below) {
      const int below_cols = std::max(1, int(size.x / legend_col_w));
      const int below_rows = (int(series.size()) + below_cols - 1) / below_cols;
      // A short plot (Live under a sweep): lines below would eat its height and leave one y tick, so
      // columns at the side take up to 60 % of the width instead.
      if (row * float(below_rows) + pad > (bottom - top) * 0.4f && legend_col_w * float(legend_cols) <= size.x * 0.6f) {
        legend_at = Right;
      } else {
        legend_cols = below_cols;
        legend_rows = below_rows;
        // Still too many lines: keep 40 % of the height for the legend, the last slot says how many
        // more there are (hovering a line names it).
        const int max_rows = std::max(1, int((bottom - top) * 0.4f / row));
        if (legend_rows > max_rows) {
          legend_rows = max_rows;
          legend_shown = legend_rows * legend_cols - 1;
        }
        bottom -= row * float(legend_rows) + pad;
      }
    }
  }
  // Tick counts follow the room there is, so labels never crowd at large font scales.
  const int max_y = std::clamp(int((bottom - top) / (font * 1.4f)), 2, std::max(2, cfg.max_y_ticks));
  const auto yticks = make_ticks(cfg.y, max_y);
  float ylabel_w = 0;
  for (const auto& tk : yticks) ylabel_w = std::max(ylabel_w, ImGui::CalcTextSize(tk.label.c_str()).x);
  Frame f(cfg.x, cfg.y);
  f.min = ImVec2(origin.x + ylabel_w + t.px(10), top + font * 0.5f);
  f.max = ImVec2(origin.x + size.x - t.px(8), bottom);
  if (legend_at == Right) f.max.x -= legend_col_w * float(legend_cols) + pad;
  std::vector<Tick> xticks;
  const int max_x = std::clamp(int((f.max.x - f.min.x) / (font * 3.5f)), 2, std::max(2, cfg.max_x_ticks));
  if (cfg.x_categories.empty()) xticks = make_ticks(cfg.x, max_x);
  for (std::size_t i = 0; i < cfg.x_categories.size(); ++i)
    xticks.push_back(Tick{double(i + 1), cfg.x_categories[i], true});
  const bool legend_outside = legend_at != Inside;
  if (f.max.x - f.min.x < t.px(40) || f.max.y - f.min.y < t.px(30)) return hover;
  layout_probe().picture(std::string("plot ") + id, f.min, f.max);

  dl->AddRectFilled(f.min, f.max, ImGui::GetColorU32(ImGuiCol_FrameBg, 0.35f));
  // Grid and tick labels.
  for (const auto& tk : yticks) {
    const float y = f.map(cfg.x.lo, tk.value).y;
    if (y < f.min.y - 1 || y > f.max.y + 1) continue;
    dl->AddLine(ImVec2(f.min.x, y), ImVec2(f.max.x, y), grid, tk.major ? 1.f : 0.5f);
    if (!tk.label.empty()) {
      const ImVec2 ts = ImGui::CalcTextSize(tk.label.c_str());
      put_text(ImVec2(f.min.x - t.px(6) - ts.x, y - ts.y * 0.5f), dim, tk.label);
    }
  }
  float last_label_end = -1e9f;
  for (const auto& tk : xticks) {
    const float x = f.map(tk.value, cfg.y.lo).x;
    if (x < f.min.x - 1 || x > f.max.x + 1) continue;
    dl->AddLine(ImVec2(x, f.min.y), ImVec2(x, f.max.y), grid, tk.major ? 1.f : 0.5f);
    if (!tk.label.empty()) {
      const ImVec2 ts = ImGui::CalcTextSize(tk.label.c_str());
      const float lx = std::clamp(x - ts.x * 0.5f, origin.x, origin.x + size.x - ts.x);
      if (lx > last_label_end + t.px(6)) {  // never overlap labels
        put_text(ImVec2(lx, f.max.y + t.px(4)), dim, tk.label);
        last_label_end = lx + ts.x;
      }
    }
  }
  dl->AddRect(f.min, f.max, axis);
  if (!cfg.x_label.empty()) {
    const ImVec2 ts = ImGui::CalcTextSize(cfg.x_label.c_str());
    put_text(ImVec2(f.max.x - ts.x, f.max.y + font * 1.35f), dim, cfg.x_label);
  }

  dl->PushClipRect(f.min, f.max, true);
  // Reference lines under the data.
  for (const auto& r : refs) {
    if (cfg.y.log && !(r.value > 0)) continue;
    const float y = f.map(cfg.x.lo, r.value).y;
    if (y < f.min.y || y > f.max.y) continue;
    dashed_line(dl, ImVec2(f.min.x, y), ImVec2(f.max.x, y), r.color, t.px(8), t.px(1.5f));
  }
  // Data.
  struct FlagLabel {
    std::string text;
    ImVec2 at;  ///< a bar's top centre, or a line's last point
    bool bar;
  };
  std::vector<FlagLabel> flag_labels;  // drawn over everything, so nothing hides a wrong result's mark
  std::vector<ImVec2> pts;
  std::vector<std::vector<ImVec2>> curves;  // what reference labels must not cover
  const float marker = t.px(3.f);
  for (const auto& s : series) {
    if (s.count <= 0 || !s.x || !s.y) continue;
    const float th = t.px(s.thickness);
    if (s.style == PlotSeries::Bars) {
      // Bar width: 70 % of the closest spacing of this series, or of one x unit for a single bar.
      float spacing = s.count > 1 ? f.max.x - f.min.x : std::fabs(f.map(s.x[0] + 1, 1).x - f.map(s.x[0], 1).x);
      for (int i = 1; i < s.count; ++i)
        spacing = std::min(spacing, std::fabs(f.map(s.x[i], 1).x - f.map(s.x[i - 1], 1).x));
      const float half = std::max(t.px(2), spacing * 0.35f);
      const double base = cfg.y.log ? cfg.y.lo : std::max(cfg.y.lo, 0.0);
      for (int i = 0; i < s.count; ++i) {
        if (!finite_point(f, s.x[i], s.y[i])) continue;
        const ImVec2 p = f.map(s.x[i], s.y[i]);
        const float y0 = f.map(s.x[i], base).y;
        if (s.flag.empty()) {
          dl->AddRectFilled(ImVec2(p.x - half, std::min(p.y, y0)), ImVec2(p.x + half, std::max(p.y, y0)), s.color);
          continue;
        }
        // A wrong result: hatched, its flag over it (inside the top when the bar runs off the scale).
        const float top_y = std::max(f.min.y, std::min(p.y, y0));
        HatchedRect(dl, ImVec2(p.x - half, top_y), ImVec2(p.x + half, std::max(p.y, y0)), s.color, t.px(2));
        if (p.y < f.min.y)
          dl->AddTriangleFilled(ImVec2(p.x, f.min.y), ImVec2(p.x - t.px(10), f.min.y + t.px(14)),
                                ImVec2(p.x + t.px(10), f.min.y + t.px(14)), ImGui::GetColorU32(theme().colors().bad));
        flag_labels.push_back({s.flag + (p.y < f.min.y ? " (off scale)" : ""), ImVec2(p.x, top_y), true});
      }
      continue;
    }
    if (s.style != PlotSeries::Scatter) {
      line_points(f, s, pts);
      styled_polyline(dl, pts, s.color, th, s.flag.empty() ? s.dash : PlotDash::Dotted, t.px(3), s.dash_phase);
      curves.push_back(pts);
      if (!s.flag.empty() && !pts.empty())
        flag_labels.push_back(
            {s.flag, ImVec2(std::clamp(pts.back().x, f.min.x, f.max.x), std::clamp(pts.back().y, f.min.y, f.max.y)),
             false});
    }
    if (s.style != PlotSeries::Line && s.count <= 400)
      for (int i = 0; i < s.count; ++i)
        if (finite_point(f, s.x[i], s.y[i])) {
          draw_marker(dl, f.map(s.x[i], s.y[i]), marker, s.color, s.marker);
          if (s.style == PlotSeries::Scatter) curves.push_back({f.map(s.x[i], s.y[i])});
        }
  }
  // Every label box inside the frame goes into `placed`, and none is drawn over another: a label that
  // finds no free place (a frame far too small) is left out and counted, never stacked.
  std::vector<ImVec4> placed;
  int left_out = 0;
  const float gap = t.px(4), m = t.px(3);
  auto draw_label = [&](const ImVec4& box, const std::string& txt, ImU32 col, float backing, ImVec2 anchor) {
    placed.push_back(box);
    dl->AddRectFilled(ImVec2(box.x, box.y), ImVec2(box.z, box.w), ImGui::GetColorU32(ImGuiCol_WindowBg, backing));
    // Moved away from what it names (its line, its bar's top): a leader line joins them.
    const float lx = std::clamp(anchor.x, box.x, box.z);
    const float edge = anchor.y < box.y - 2 * gap ? box.y : anchor.y > box.w + 2 * gap ? box.w : anchor.y;
    if (edge != anchor.y) {
      dl->AddLine(anchor, ImVec2(lx, edge), col, t.px(1.5f));
      // Later labels and leaders keep off this leader too.
      placed.push_back(ImVec4(std::min(anchor.x, lx) - 1, std::min(anchor.y, edge), std::max(anchor.x, lx) + 1,
                              std::max(anchor.y, edge)));
    }
    dl->AddText(ImVec2(box.x + m, box.y), col, txt.c_str());
    layout_probe().label(txt, ImVec2(box.x, box.y), ImVec2(box.z, box.w));
  };
  // A label moved away from what it names keeps its leader line clear of the labels already placed.
  auto leader_clear = [&](const ImVec4& box, ImVec2 anchor) {
    const float lx = std::clamp(anchor.x, box.x, box.z);
    const float edge = anchor.y < box.y ? box.y : anchor.y > box.w ? box.w : anchor.y;
    if (std::fabs(edge - anchor.y) <= 2 * gap) return true;
    return std::none_of(placed.begin(), placed.end(), [&](const ImVec4& t) {
      return segment_hits_rect(anchor, ImVec2(lx, edge), ImVec2(t.x, t.y), ImVec2(t.z, t.w));
    });
  };
  // The few-series legend sits inside the plot, in the emptiest corner: chosen first, so that the labels
  // below keep off it.
  const bool legend_inside = cfg.legend && !series.empty() && !legend_outside;
  ImVec2 legend_lo, legend_hi;
  if (legend_inside) {
    float w = 0;
    for (const auto& s : series) w = std::max(w, ImGui::CalcTextSize(s.label.c_str()).x);
    const ImVec2 box(sw + w + 3 * pad, row * float(series.size()) + pad);
    // The corner whose box covers the fewest data points (top-left on ties).
    const ImVec2 corners[4] = {ImVec2(f.min.x + pad, f.min.y + pad), ImVec2(f.max.x - pad - box.x, f.min.y + pad),
                               ImVec2(f.min.x + pad, f.max.y - pad - box.y),
                               ImVec2(f.max.x - pad - box.x, f.max.y - pad - box.y)};
    int best_corner = 0;
    long best_count = -1;
    for (int c = 0; c < 4; ++c) {
      long count = 0;
      const ImVec2 lo = corners[c], hi(lo.x + box.x, lo.y + box.y);
      for (const auto& s : series) {
        const int step = std::max(1, s.count / 2000);  // a sample is enough for long series
        for (int i = 0; i < s.count; i += step) {
          if (!finite_point(f, s.x[i], s.y[i])) continue;
          const ImVec2 p = f.map(s.x[i], s.y[i]);
          if (s.style == PlotSeries::Bars ? (p.x >= lo.x && p.x <= hi.x && p.y <= hi.y)
                                          : (p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y))
            count += step;
        }
      }
      if (best_count < 0 || count < best_count) best_count = count, best_corner = c;
    }
    legend_lo = corners[best_corner];
    legend_hi = ImVec2(legend_lo.x + box.x, legend_lo.y + box.y);
    placed.push_back(ImVec4(legend_lo.x, legend_lo.y, legend_hi.x, legend_hi.y));
  }
  // The wrong results' flags first (reference labels are then placed around them), in the failure colour
  // on a backing box: above a bar (inside its top when there is no room above) or left of a line's end,
  // else as near as a free place allows, one label height at a time up or down.
  int flagged = 0, flags_drawn = 0;
  for (const auto& s : series) flagged += !s.flag.empty() && s.count > 0;
  for (const FlagLabel& fl : flag_labels) {
    const ImVec2 ts = ImGui::CalcTextSize(fl.text.c_str());
    float x = fl.bar ? fl.at.x - ts.x * 0.5f : fl.at.x - ts.x - t.px(8);
    x = std::clamp(x, f.min.x + m, std::max(f.min.x + m, f.max.x - ts.x - m));
    std::vector<ImVec4> spots;
    const float below = fl.at.y + (fl.bar ? t.px(16) : gap);  // under an off-scale bar's triangle
    for (int k = 0; k < 12; ++k)
      for (float y : {fl.at.y - ts.y - gap - float(k) * (ts.y + gap), below + float(k) * (ts.y + gap)})
        if (y >= f.min.y && y + ts.y <= f.max.y && leader_clear(ImVec4(x - m, y, x + ts.x + m, y + ts.y), fl.at))
          spots.push_back(ImVec4(x - m, y, x + ts.x + m, y + ts.y));
    const int at = label_box_clear_of(spots, {}, placed);
    if (at < 0) {
      ++left_out;
      continue;
    }
    draw_label(spots[std::size_t(at)], fl.text, ImGui::GetColorU32(theme().colors().bad), 0.9f, fl.at);
    ++flags_drawn;
  }
  layout_probe().counts["plot wrong series"] += flagged;
  layout_probe().counts["plot wrong series marked"] += flags_drawn;
  // Reference labels over the data, so bars never hide them, each where its box crosses no curve and
  // no other label: beside its line at the right end, the left end or along it, above or below; else, with
  // a legend at the right that has room below its entries, as an entry there (a dashed swatch in the line's
  // colour); else up to seven label heights away with a leader line that crosses no label.
  std::vector<const PlotReference*> in_legend;
  int legend_free = 0;  // rows left under the last column of a legend at the right
  if (legend_at == Right) {
    const int per_col = std::max(1, int((f.max.y - f.min.y) / row));
    legend_free = per_col - (int(series.size()) - (legend_cols - 1) * legend_rows);
  }
  for (const auto& r : refs) {
    if (cfg.y.log && !(r.value > 0)) continue;
    const float y = f.map(cfg.x.lo, r.value).y;
    if (y < f.min.y || y > f.max.y) continue;
    const ImVec2 ts = ImGui::CalcTextSize(r.label.c_str());
    const float along = std::max(0.f, f.max.x - f.min.x - ts.x - t.px(12));
    auto spots_at = [&](int k0, int k1) {
      std::vector<ImVec4> spots;
      for (int k = k0; k < k1; ++k)
        for (float frac : {1.f, 0.f, 0.9f, 0.1f, 0.8f, 0.2f, 0.7f, 0.3f, 0.6f, 0.4f, 0.5f}) {
          const float x = f.min.x + t.px(6) + frac * along;
          for (float top : {y - ts.y - t.px(1) - float(k) * (ts.y + gap), y + t.px(2) + float(k) * (ts.y + gap)})
            if (top >= f.min.y && top + ts.y <= f.max.y && x + ts.x <= f.max.x &&
                leader_clear(ImVec4(x - m, top, x + ts.x + m, top + ts.y), ImVec2(x + ts.x * 0.5f, y)))
              spots.push_back(ImVec4(x - m, top, x + ts.x + m, top + ts.y));
        }
      return spots;
    };
    std::vector<ImVec4> spots = spots_at(0, 1);
    int at = label_box_clear_of(spots, curves, placed);
    if (at < 0 && legend_free > int(in_legend.size()) &&
        f.max.x + pad + legend_col_w * float(legend_cols - 1) + 2 * pad + sw + ts.x <= origin.x + size.x) {
      in_legend.push_back(&r);
      continue;
    }
    if (at < 0) {
      spots = spots_at(1, 8);
      at = label_box_clear_of(spots, curves, placed);
    }
    if (at < 0) {
      ++left_out;
      continue;
    }
    const ImVec4& box = spots[std::size_t(at)];
    draw_label(box, r.label, r.color, 0.8f, ImVec2(std::clamp((box.x + box.z) * 0.5f, f.min.x, f.max.x), y));
  }
  layout_probe().counts["plot labels left out"] += left_out;
  // Hover: the nearest point on screen.
  if (hovered) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    float best = t.px(12) * t.px(12);
    for (int si = 0; si < int(series.size()); ++si) {
      const auto& s = series[std::size_t(si)];
      for (int i = 0; i < s.count; ++i) {
        if (!finite_point(f, s.x[i], s.y[i])) continue;
        const ImVec2 p = f.map(s.x[i], s.y[i]);
        const float d = (p.x - m.x) * (p.x - m.x) + (p.y - m.y) * (p.y - m.y);
        if (d < best) best = d, hover = PlotHover{si, i, s.x[i], s.y[i]};
      }
    }
    if (hover.series >= 0) { dl->AddCircle(f.map(hover.x, hover.y), marker * 2.2f, text, 12, t.px(1.5f)); }
  }
  dl->PopClipRect();

  if (legend_outside) {
    // When not every entry fits, those marked keep_in_legend (a coincidence note) stay, the rest in order.
    std::vector<std::size_t> shown;
    int keep = 0;
    for (const auto& s : series) keep += s.keep_in_legend;
    for (std::size_t i = 0; i < series.size(); ++i)
      if (series[i].keep_in_legend || int(shown.size()) + keep < legend_shown) {
        keep -= series[i].keep_in_legend;
        shown.push_back(i);
      }
    for (std::size_t i = 0; i <= series.size() && int(i) <= legend_shown; ++i) {
      const bool right = legend_at == Right;
      const int col = right ? int(i) / legend_rows : int(i) % legend_cols;
      const int line = right ? int(i) % legend_rows : int(i) / legend_cols;
      const float x = (right ? f.max.x + pad : origin.x) + legend_col_w * float(col);
      const float y = (right ? f.min.y : origin.y + size.y - row * float(legend_rows)) + row * float(line);
      if (int(i) == legend_shown) {
        if (legend_shown < int(series.size()))
          put_text(ImVec2(x + 2 * pad + sw, y), dim, "+" + std::to_string(int(series.size()) - legend_shown) + " more");
        break;
      }
      if (i >= shown.size()) break;
      const PlotSeries& e = series[shown[i]];
      legend_swatch(dl, e, ImVec2(x + pad, y + row * 0.3f), ImVec2(x + pad + sw, y + row * 0.7f), t.px(3));
      put_text(ImVec2(x + 2 * pad + sw, y), text, e.label);
    }
    // Reference lines with no free place beside them: under the last column, in their own colour.
    const int last_col_rows = int(series.size()) - (legend_cols - 1) * legend_rows;
    for (std::size_t j = 0; j < in_legend.size(); ++j) {
      const float x = f.max.x + pad + legend_col_w * float(legend_cols - 1);
      const float y = f.min.y + row * float(last_col_rows + int(j));
      dashed_line(dl, ImVec2(x + pad, y + row * 0.5f), ImVec2(x + pad + sw, y + row * 0.5f), in_legend[j]->color,
                  t.px(5), t.px(2));
      put_text(ImVec2(x + 2 * pad + sw, y), in_legend[j]->color, in_legend[j]->label);
    }
  }
  if (legend_inside) {
    dl->AddRectFilled(legend_lo, legend_hi, ImGui::GetColorU32(ImGuiCol_WindowBg, 0.85f), t.px(3));
    for (std::size_t i = 0; i < series.size(); ++i) {
      const float y = legend_lo.y + pad * 0.5f + row * float(i);
      legend_swatch(dl, series[i], ImVec2(legend_lo.x + pad, y + row * 0.3f),
                    ImVec2(legend_lo.x + pad + sw, y + row * 0.7f), t.px(3));
      put_text(ImVec2(legend_lo.x + 2 * pad + sw, y), text, series[i].label);
    }
  }
  if (hover.series >= 0) {
    const auto& s = series[std::size_t(hover.series)];
    ImGui::BeginTooltip();
    ImGui::TextUnformatted(s.label.c_str());
    ImGui::TextDisabled("%s", cfg.x_label.c_str());
    ImGui::SameLine();
    ImGui::TextUnformatted(format_axis_value(hover.x, cfg.x.unit).c_str());
    ImGui::TextDisabled("%s", cfg.y_label.c_str());
    ImGui::SameLine();
    ImGui::TextUnformatted(format_axis_value(hover.y, cfg.y.unit).c_str());
    ImGui::EndTooltip();
  }
  return hover;
}

}  // namespace ws::ui
