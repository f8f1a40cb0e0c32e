#include "widgets/plot_svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ws::ui {

namespace {

std::string num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f", v);
  return b;
}

/// "#rrggbb" of an ImU32 (ImGui packs ABGR).
std::string hex(ImU32 c) {
  char b[8];
  std::snprintf(b, sizeof b, "#%02x%02x%02x", unsigned(c & 0xff), unsigned((c >> 8) & 0xff),
                unsigned((c >> 16) & 0xff));
  return b;
}

std::string opacity(ImU32 c) {
  const unsigned a = (c >> 24) & 0xff;
  return a == 255 ? std::string() : " opacity=\"" + num(a / 255.0) + "\"";
}

std::string escape(const std::string& s) {
  std::string o;
  for (char c : s) switch (c) {
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '&': o += "&amp;"; break;
      case '"': o += "&quot;"; break;
      default: o += c;
    }
  return o;
}

const char* dash_array(PlotDash d) {
  switch (d) {
    case PlotDash::Solid: return "";
    case PlotDash::Dashed: return " stroke-dasharray=\"10 6\"";
    default: return " stroke-dasharray=\"2 5\"";
  }
}

}  // namespace

std::string PlotSvg(const PlotConfig& cfg, const std::vector<PlotSeries>& series,
                    const std::vector<PlotReference>& refs, int width, int height, ImU32 background, ImU32 ink) {
  const double fs = std::max(12.0, height / 50.0);  // text size, px
  int legend_rows = 0;
  for (const PlotSeries& s : series) legend_rows += s.count > 0 && cfg.legend;
  const int legend_cols = std::max(1, int(width / (fs * 16)));
  const double legend_h = fs * 1.4 * std::ceil(double(legend_rows) / legend_cols);
  const double left = fs * 5.5, right = fs * 1.5, top = fs * (cfg.title.empty() ? 1.0 : 2.6) + legend_h,
               bottom = fs * 3.6;
  const double pw = std::max(1.0, width - left - right), ph = std::max(1.0, height - top - bottom);
  auto X = [&](double v) { return left + axis_fraction(cfg.x, v) * pw; };
  auto Y = [&](double v) { return top + (1 - axis_fraction(cfg.y, v)) * ph; };
  const std::string fg = hex(ink);
  std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(width) + "\" height=\"" +
                  std::to_string(height) + "\" viewBox=\"0 0 " + std::to_string(width) + " " + std::to_string(height) +
                  "\" font-family=\"DejaVu Sans, sans-serif\" font-size=\"" + num(fs) + "\" fill=\"" + fg + "\">\n";
  s += "<rect width=\"100%\" height=\"100%\" fill=\"" + hex(background) + "\"/>\n";
  if (!cfg.title.empty())
    s += "<text x=\"" + num(left) + "\" y=\"" + num(fs * 1.6) + "\" font-weight=\"bold\">" + escape(cfg.title) +
         "</text>\n";
  // Legend: a swatch and the label per series, in columns under the title.
  int k = 0;
  for (const PlotSeries& ps : series) {
    if (ps.count <= 0 || !cfg.legend) continue;
    const double lx = left + (k % legend_cols) * (pw / legend_cols);
    const double ly = fs * (cfg.title.empty() ? 1.0 : 2.6) + fs * 1.4 * (k / legend_cols) + fs * 0.5;
    s += "<line x1=\"" + num(lx) + "\" y1=\"" + num(ly) + "\" x2=\"" + num(lx + fs * 1.6) + "\" y2=\"" + num(ly) +
         "\" stroke=\"" + hex(ps.color) + "\" stroke-width=\"3\"" + dash_array(ps.dash) + "/>";
    s += "<text x=\"" + num(lx + fs * 2) + "\" y=\"" + num(ly + fs * 0.35) + "\">" +
         escape(ps.label + (ps.flag.empty() ? "" : " (" + ps.flag + ")")) + "</text>\n";
    ++k;
  }
  // Frame, grid and ticks.
  s += "<rect x=\"" + num(left) + "\" y=\"" + num(top) + "\" width=\"" + num(pw) + "\" height=\"" + num(ph) +
       "\" fill=\"none\" stroke=\"" + fg + "\" stroke-opacity=\"0.6\"/>\n";
  std::vector<Tick> xt = make_ticks(cfg.x, cfg.max_x_ticks);
  if (!cfg.x_categories.empty()) {
    xt.clear();
    for (std::size_t i = 0; i < cfg.x_categories.size(); ++i) xt.push_back({double(i + 1), cfg.x_categories[i], true});
  }
  for (const Tick& t : xt) {
    if (t.value < std::min(cfg.x.lo, cfg.x.hi) || t.value > std::max(cfg.x.lo, cfg.x.hi)) continue;
    const double x = X(t.value);
    s += "<line x1=\"" + num(x) + "\" y1=\"" + num(top) + "\" x2=\"" + num(x) + "\" y2=\"" + num(top + ph) +
         "\" stroke=\"" + fg + "\" stroke-opacity=\"" + (t.major ? "0.18" : "0.07") + "\"/>\n";
    if (!t.label.empty())
      s += "<text x=\"" + num(x) + "\" y=\"" + num(top + ph + fs * 1.3) + "\" text-anchor=\"middle\">" +
           escape(t.label) + "</text>\n";
  }
  for (const Tick& t : make_ticks(cfg.y, cfg.max_y_ticks)) {
    if (t.value < std::min(cfg.y.lo, cfg.y.hi) || t.value > std::max(cfg.y.lo, cfg.y.hi)) continue;
    const double y = Y(t.value);
    s += "<line x1=\"" + num(left) + "\" y1=\"" + num(y) + "\" x2=\"" + num(left + pw) + "\" y2=\"" + num(y) +
         "\" stroke=\"" + fg + "\" stroke-opacity=\"" + (t.major ? "0.18" : "0.07") + "\"/>\n";
    if (!t.label.empty())
      s += "<text x=\"" + num(left - fs * 0.4) + "\" y=\"" + num(y + fs * 0.35) + "\" text-anchor=\"end\">" +
           escape(t.label) + "</text>\n";
  }
  s += "<text x=\"" + num(left + pw / 2) + "\" y=\"" + num(height - fs * 0.8) + "\" text-anchor=\"middle\">" +
       escape(cfg.x_label) + "</text>\n";
  s += "<text transform=\"translate(" + num(fs * 1.2) + " " + num(top + ph / 2) +
       ") rotate(-90)\" text-anchor=\"middle\">" + escape(cfg.y_label) + "</text>\n";
  // Data, clipped to the plot area (values off the axes run to its edge).
  s += "<clipPath id=\"plot\"><rect x=\"" + num(left) + "\" y=\"" + num(top) + "\" width=\"" + num(pw) +
       "\" height=\"" + num(ph) + "\"/></clipPath>\n<g clip-path=\"url(#plot)\">\n";
  const double bar_w = cfg.x_categories.empty() ? pw / 40 : pw / double(cfg.x_categories.size() + 1) * 0.6;
  for (const PlotSeries& ps : series) {
    if (ps.count <= 0 || !ps.x || !ps.y) continue;
    const std::string col = hex(ps.color);
    if (ps.style == PlotSeries::Bars) {
      const double y0 = cfg.y.log ? cfg.y.lo : std::max(cfg.y.lo, 0.0);
      for (int i = 0; i < ps.count; ++i) {
        const double x = X(ps.x[i]), y = Y(ps.y[i]), base = Y(y0);
        s += "<rect x=\"" + num(x - bar_w / 2) + "\" y=\"" + num(std::min(y, base)) + "\" width=\"" + num(bar_w) +
             "\" height=\"" + num(std::fabs(base - y)) + "\" fill=\"" + col + "\"" + opacity(ps.color) +
             (ps.flag.empty() ? "" : " fill-opacity=\"0.35\" stroke=\"" + col + "\" stroke-dasharray=\"4 3\"") +
             "><title>" + escape(ps.label + (ps.flag.empty() ? "" : " " + ps.flag)) + "</title></rect>\n";
      }
      continue;
    }
    if (ps.style != PlotSeries::Scatter) {
      s += "<polyline fill=\"none\" stroke=\"" + col + "\" stroke-width=\"" + num(ps.thickness * 1.5) + "\"" +
           dash_array(ps.flag.empty() ? ps.dash : PlotDash::Dashed) + " points=\"";
      for (int i = 0; i < ps.count; ++i) s += num(X(ps.x[i])) + "," + num(Y(ps.y[i])) + " ";
      s += "\"><title>" + escape(ps.label) + "</title></polyline>\n";
    }
    if (ps.style != PlotSeries::Line)
      for (int i = 0; i < ps.count; ++i)
        s += "<circle cx=\"" + num(X(ps.x[i])) + "\" cy=\"" + num(Y(ps.y[i])) + "\" r=\"" + num(fs * 0.28) +
             "\" fill=\"" + col + "\"/>\n";
  }
  s += "</g>\n";
  // References: dashed lines, labelled at their left end with a halo of the background; a label that
  // would touch the one above goes under its line.
  double last_label_y = -1e9;
  for (const PlotReference& r : refs) {
    if (r.value < std::min(cfg.y.lo, cfg.y.hi) || r.value > std::max(cfg.y.lo, cfg.y.hi)) continue;
    const double y = Y(r.value);
    s += "<line x1=\"" + num(left) + "\" y1=\"" + num(y) + "\" x2=\"" + num(left + pw) + "\" y2=\"" + num(y) +
         "\" stroke=\"" + hex(r.color) + "\" stroke-width=\"1.5\" stroke-dasharray=\"8 5\"/>\n";
    double ty = y - fs * 0.35;
    if (std::fabs(ty - last_label_y) < fs * 1.1) ty = y + fs * 1.1;
    last_label_y = ty;
    s += "<text x=\"" + num(left + fs * 0.4) + "\" y=\"" + num(ty) + "\" fill=\"" + hex(r.color) + "\" stroke=\"" +
         hex(background) + "\" stroke-width=\"4\" paint-order=\"stroke\">" + escape(r.label) + "</text>\n";
  }
  s += "</svg>\n";
  return s;
}

}  // namespace ws::ui
