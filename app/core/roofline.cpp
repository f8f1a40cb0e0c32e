#include "roofline.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "patterns.hpp"
#include "registry.hpp"

namespace ws {

namespace {

std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

/// "1.2 T", "350 G": ops/s and bytes/s with SI prefixes.
std::string si(double v) {
  const char* p[] = {"", "k", "M", "G", "T", "P"};
  int k = 0;
  while (std::fabs(v) >= 1000 && k < 5) v /= 1000, ++k;
  return fmt(v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v) + " " + p[k];
}

std::string xml_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '<')
      o += "&lt;";
    else if (c == '>')
      o += "&gt;";
    else if (c == '&')
      o += "&amp;";
    else if (c == '"')
      o += "&quot;";
    else
      o += c;
  }
  return o;
}

double lower_decade(double v) { return std::pow(10.0, std::floor(std::log10(v))); }
double upper_decade(double v) { return std::pow(10.0, std::ceil(std::log10(v))); }

}  // namespace

int add_lanes_per_sm(int cc_major, int cc_minor, DType type) {
  const int cc = cc_major * 10 + cc_minor;
  if (type == DType::Float32) {
    if (cc >= 70 && cc <= 80) return 64;
    if (cc == 86 || cc == 87 || cc == 89 || cc == 90) return 128;
    return 0;
  }
  if (cc >= 70 && cc <= 90) return 64;
  return 0;
}

Roofline build_roofline(const Report& r, const std::vector<std::size_t>& runs, bool range_wrong) {
  Roofline rl;
  std::vector<DType> types;
  for (std::size_t i : runs) {
    if (i >= r.runs.size()) continue;
    const RunResult& run = r.runs[i];
    const VariantInfo* v = find_variant(run.variant);
    auto skip = [&](const std::string& why) { rl.left_out.push_back(run.variant + ": " + why); };
    if (!v) {
      skip("not a variant of this build");
      continue;
    }
    const PatternSpec& spec = pattern_of(*v);
    if (run.status == RunStatus::Wrong) {
      skip("wrong result");
      continue;
    }
    if (!ran_as_taught(run.status)) {
      skip("did not run (" + std::string(to_string(run.status)) + ")");
      continue;
    }
    if (!spec.operations) {
      skip("its pattern has no operation count");
      continue;
    }
    const auto& mv = run.metrics.values;
    const auto rd = mv.find("dram__bytes_read.sum"), wr = mv.find("dram__bytes_write.sum");
    if (rd == mv.end() || wr == mv.end()) {
      skip("no DRAM bytes measured (run with --metrics default)");
      continue;
    }
    RooflinePoint p;
    p.variant = run.variant;
    const auto dot = run.variant.find('.');
    p.label = dot == std::string::npos || v->baseline ? run.variant : run.variant.substr(dot + 1);  // cub.* in full
    // A wrong sum's point is what the kernel did, not a valid reduction: the label says which.
    if (run.status == RunStatus::Race && p.label.find("race") == std::string::npos) p.label += " (race)";
    if (run.status == RunStatus::SlideBug) p.label += " (slide bug)";
    p.wrong = run.status != RunStatus::Ok;
    p.type = run.type;
    p.n = run.n;
    p.operations = spec.operations(*v, run.params, run.n);
    p.dram_bytes = rd->second + wr->second;
    p.seconds = run.timing.median_ms * 1e-3;
    if (p.operations <= 0 || p.dram_bytes <= 0 || p.seconds <= 0) {
      skip("no operations, DRAM bytes or time to divide by");
      continue;
    }
    p.intensity = p.operations / p.dram_bytes;
    p.ops_per_s = p.operations / p.seconds;
    rl.points.push_back(p);
    // Bytes (histograms) are counted in int32 lanes: the bins are ints.
    const DType lanes_type = p.type == DType::Float32 ? DType::Float32 : DType::Int32;
    if (std::find(types.begin(), types.end(), lanes_type) == types.end()) types.push_back(lanes_type);
  }
  const DeviceInfo& d = r.device;
  if (d.theoretical_gbps > 0)
    rl.roofs.push_back(
        {"theoretical DRAM " + fmt("%.0f", d.theoretical_gbps) + " GB/s", d.theoretical_gbps * 1e9, 0, false});
  if (d.copy_gbps > 0)
    rl.roofs.push_back({"device copy " + fmt("%.0f", d.copy_gbps) + " GB/s (measured)", d.copy_gbps * 1e9, 0, true});
  if (types.empty()) types.push_back(DType::Int32);
  std::sort(types.begin(), types.end(), [](DType a, DType b) { return int(a) < int(b); });
  for (DType t : types) {
    const int lanes = add_lanes_per_sm(d.cc_major, d.cc_minor, t);
    if (d.sm_clock_mhz <= 0 || d.sm_count <= 0) {
      rl.compute_note = "no peak add rate: the report has no SM clock (recorded before warpscope stored it)";
      continue;
    }
    if (lanes == 0) {
      rl.compute_note = "no peak add rate: add lanes per SM unknown for compute capability " +
                        std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor);
      continue;
    }
    const double peak = double(d.sm_count) * d.sm_clock_mhz * 1e6 * lanes;
    rl.roofs.push_back({std::string(to_string(t)) + " add peak " + si(peak) + "op/s (" + std::to_string(d.sm_count) +
                            " SMs x " + fmt("%.0f", d.sm_clock_mhz) + " MHz x " + std::to_string(lanes) + " lanes)",
                        0, peak, false});
  }
  // Axes: decades around the points and each flat roof's ridge (where it meets the theoretical roof).
  double x0 = 1e300, x1 = 0, y0 = 1e300, y1 = 0;
  for (const RooflinePoint& p : rl.points) {
    if (p.wrong && !range_wrong) continue;  // a wrong answer's outlier must not squeeze the correct ones
    x0 = std::min(x0, p.intensity), x1 = std::max(x1, p.intensity);
    y0 = std::min(y0, p.ops_per_s), y1 = std::max(y1, p.ops_per_s);
  }
  const double bw = rl.roofs.empty() || rl.roofs[0].bytes_per_s <= 0 ? 0 : rl.roofs[0].bytes_per_s;
  for (const RooflineRoof& f : rl.roofs)
    if (f.ops_per_s > 0) {
      y1 = std::max(y1, f.ops_per_s);
      if (bw > 0) x1 = std::max(x1, f.ops_per_s / bw);
    }
  if (x1 <= 0) x0 = 0.1, x1 = 10;
  if (y1 <= 0) y0 = 1e9, y1 = 1e12;
  rl.x_min = lower_decade(x0 / 2);
  rl.x_max = upper_decade(x1 * 2);
  if (bw > 0) y0 = std::min(y0, bw * rl.x_min);
  rl.y_min = lower_decade(y0);
  rl.y_max = upper_decade(y1 * 1.5);
  return rl;
}

double roof_at(const Roofline& rl, double x) {
  double slope = 0, flat = 0;
  for (const RooflineRoof& f : rl.roofs) {
    if (f.bytes_per_s > 0 && slope == 0) slope = f.bytes_per_s * x;
    if (f.ops_per_s > 0) flat = flat == 0 ? f.ops_per_s : std::min(flat, f.ops_per_s);
  }
  if (slope == 0) return flat;
  return flat == 0 ? slope : std::min(slope, flat);
}

double RooflineLayout::x_of(double v) const { return left + (std::log10(v) - lx0) / (lx1 - lx0) * width; }
double RooflineLayout::y_of(double v) const { return top + height - (std::log10(v) - ly0) / (ly1 - ly0) * height; }

RooflineLayout roofline_layout(const Roofline& rl, double left, double top, double width, double height,
                               double line_h) {
  RooflineLayout L;
  L.left = left, L.top = top, L.width = width, L.height = height;
  L.lx0 = std::log10(rl.x_min), L.lx1 = std::log10(rl.x_max);
  L.ly0 = std::log10(rl.y_min), L.ly1 = std::log10(rl.y_max);
  const std::size_t n = rl.points.size();
  L.px.resize(n), L.py.resize(n), L.label_x.resize(n), L.label_y.resize(n), L.off_scale.assign(n, false);
  for (std::size_t i = 0; i < n; ++i) {
    const double x = L.x_of(rl.points[i].intensity), y = L.y_of(rl.points[i].ops_per_s);
    L.px[i] = std::clamp(x, left, left + width);
    L.py[i] = std::clamp(y, top, top + height);
    L.off_scale[i] = L.px[i] != x || L.py[i] != y;
    L.label_x[i] = L.px[i] + line_h * 0.8;
  }
  // Labels top to bottom, each at least line_h below the one above; then the column is moved up if
  // it runs past the bottom of the plot.
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return L.py[a] < L.py[b]; });
  double prev = -1e300;
  for (std::size_t i : order) {
    L.label_y[i] = std::max(L.py[i], prev + line_h);
    prev = L.label_y[i];
  }
  const double over = n ? prev - (top + height - line_h * 0.5) : 0;
  if (over > 0)
    for (std::size_t i = 0; i < n; ++i) L.label_y[i] -= over;
  return L;
}

std::string roofline_svg(const Roofline& rl, const std::string& title, int width, int height) {
  const double fs = std::max(11.0, height / 60.0);  // font size, px
  // The roofs' legend sits between the title and the plot, where no point can cover it.
  const double left = fs * 6, right = fs * 8, top = fs * (3.2 + 1.3 * double(rl.roofs.size())), bottom = fs * 4;
  const RooflineLayout L = roofline_layout(rl, left, top, width - left - right, height - top - bottom, fs * 1.2);
  std::string s;
  s += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(width) + "\" height=\"" +
       std::to_string(height) + "\" viewBox=\"0 0 " + std::to_string(width) + " " + std::to_string(height) +
       "\" font-family=\"DejaVu Sans, sans-serif\" font-size=\"" + fmt("%.0f", fs) + "\">\n";
  s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  s += "<text x=\"" + fmt("%.1f", left) + "\" y=\"" + fmt("%.1f", fs * 1.8) + "\" font-weight=\"bold\">" +
       xml_escape(title) + "</text>\n";
  // Axes and decade grid.
  s += "<rect x=\"" + fmt("%.1f", L.left) + "\" y=\"" + fmt("%.1f", L.top) + "\" width=\"" + fmt("%.1f", L.width) +
       "\" height=\"" + fmt("%.1f", L.height) + "\" fill=\"none\" stroke=\"#444\"/>\n";
  for (double e = std::ceil(L.lx0 - 1e-9); e <= L.lx1 + 1e-9; e += 1) {
    const double x = L.x_of(std::pow(10.0, e));
    s += "<line x1=\"" + fmt("%.1f", x) + "\" y1=\"" + fmt("%.1f", L.top) + "\" x2=\"" + fmt("%.1f", x) + "\" y2=\"" +
         fmt("%.1f", L.top + L.height) + "\" stroke=\"#ddd\"/>\n";
    s += "<text x=\"" + fmt("%.1f", x) + "\" y=\"" + fmt("%.1f", L.top + L.height + fs * 1.3) +
         "\" text-anchor=\"middle\">" + xml_escape(fmt("%g", std::pow(10.0, e))) + "</text>\n";
  }
  for (double e = std::ceil(L.ly0 - 1e-9); e <= L.ly1 + 1e-9; e += 1) {
    const double y = L.y_of(std::pow(10.0, e));
    s += "<line x1=\"" + fmt("%.1f", L.left) + "\" y1=\"" + fmt("%.1f", y) + "\" x2=\"" +
         fmt("%.1f", L.left + L.width) + "\" y2=\"" + fmt("%.1f", y) + "\" stroke=\"#ddd\"/>\n";
    s += "<text x=\"" + fmt("%.1f", L.left - fs * 0.4) + "\" y=\"" + fmt("%.1f", y + fs * 0.35) +
         "\" text-anchor=\"end\">" + xml_escape(si(std::pow(10.0, e))) + "</text>\n";
  }
  s += "<text x=\"" + fmt("%.1f", L.left + L.width / 2) + "\" y=\"" + fmt("%.1f", height - fs * 1.2) +
       "\" text-anchor=\"middle\">arithmetic intensity (operations per DRAM byte)</text>\n";
  s += "<text transform=\"translate(" + fmt("%.1f", fs * 1.3) + " " + fmt("%.1f", L.top + L.height / 2) +
       ") rotate(-90)\" text-anchor=\"middle\">achieved operations per second</text>\n";
  // Roofs, clipped to the plot area.
  s += "<clipPath id=\"plot\"><rect x=\"" + fmt("%.1f", L.left) + "\" y=\"" + fmt("%.1f", L.top) + "\" width=\"" +
       fmt("%.1f", L.width) + "\" height=\"" + fmt("%.1f", L.height) +
       "\"/></clipPath>\n<g clip-path=\"url(#plot)\">\n";
  double label_y = fs * 3.4;
  std::string roof_labels;
  for (const RooflineRoof& f : rl.roofs) {
    double x0 = rl.x_min, x1 = rl.x_max, y0, y1;
    if (f.bytes_per_s > 0)
      y0 = f.bytes_per_s * x0, y1 = f.bytes_per_s * x1;
    else
      y0 = y1 = f.ops_per_s;
    const char* colour = f.ops_per_s > 0 ? "#b03a2e" : f.measured ? "#1f77b4" : "#2c3e50";
    s += "<line x1=\"" + fmt("%.1f", L.x_of(x0)) + "\" y1=\"" + fmt("%.1f", L.y_of(y0)) + "\" x2=\"" +
         fmt("%.1f", L.x_of(x1)) + "\" y2=\"" + fmt("%.1f", L.y_of(y1)) + "\" stroke=\"" + colour +
         "\" stroke-width=\"2\"" + (f.measured ? " stroke-dasharray=\"8 5\"" : "") + "/>\n";
    roof_labels += "<text x=\"" + fmt("%.1f", L.left) + "\" y=\"" + fmt("%.1f", label_y) + "\" fill=\"" + colour +
                   "\">" + xml_escape(f.label) + "</text>\n";
    label_y += fs * 1.3;
  }
  s += "</g>\n" + roof_labels;
  for (std::size_t i = 0; i < rl.points.size(); ++i) {
    const RooflinePoint& p = rl.points[i];
    const std::string tip = p.variant + ": " + fmt("%.4g", p.intensity) + " ops/byte, " + si(p.ops_per_s) + "op/s (" +
                            fmt("%.4g", p.operations) + " ops, " + fmt("%.4g", p.dram_bytes) + " DRAM bytes, " +
                            fmt("%.4g", p.seconds * 1e3) + " ms)";
    s += "<g><title>" + xml_escape(tip) + "</title>";
    if (p.wrong) {  // a cross in the failure colour: not a valid answer
      const double d = fs * 0.4;
      for (double sgn : {1.0, -1.0})
        s += "<line x1=\"" + fmt("%.1f", L.px[i] - d) + "\" y1=\"" + fmt("%.1f", L.py[i] - sgn * d) + "\" x2=\"" +
             fmt("%.1f", L.px[i] + d) + "\" y2=\"" + fmt("%.1f", L.py[i] + sgn * d) +
             "\" stroke=\"#c0392b\" stroke-width=\"3\"/>";
    } else {
      s += "<circle cx=\"" + fmt("%.1f", L.px[i]) + "\" cy=\"" + fmt("%.1f", L.py[i]) + "\" r=\"" +
           fmt("%.1f", fs * 0.35) + "\" fill=\"#e67e22\" stroke=\"#333\"/>";
    }
    if (std::fabs(L.label_y[i] - L.py[i]) > 1)
      s += "<line x1=\"" + fmt("%.1f", L.px[i]) + "\" y1=\"" + fmt("%.1f", L.py[i]) + "\" x2=\"" +
           fmt("%.1f", L.label_x[i] - 2) + "\" y2=\"" + fmt("%.1f", L.label_y[i]) + "\" stroke=\"#999\"/>";
    s += "<text x=\"" + fmt("%.1f", L.label_x[i]) + "\" y=\"" + fmt("%.1f", L.label_y[i] + fs * 0.35) + "\"" +
         (p.wrong ? " fill=\"#c0392b\"" : "") + ">" + xml_escape(p.label + (L.off_scale[i] ? " (off scale)" : "")) +
         "</text></g>\n";
  }
  s += "</svg>\n";
  return s;
}

}  // namespace ws
