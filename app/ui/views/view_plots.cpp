#include "views/view_plots.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "format.hpp"
#include "registry.hpp"
#include "views/compare_model.hpp"
#include "views/view_registry.hpp"
#include "widgets/plot.hpp"
#include "widgets/plot_svg.hpp"
#include "widgets/theme.hpp"
#include "widgets/widgets.hpp"

namespace ws::ui {

using controller::chosen_variants;
using controller::export_path;
using controller::export_policy;
using controller::format_count;
using controller::format_gbps;
using controller::format_ms;
using controller::make_sweep_spec;
using controller::Message;
using controller::PerfState;
using controller::series_id;
using controller::ViewActions;
using controller::ViewContext;
using controller::why_no_timing;

namespace {

/// Serves an SVG export request (PerfState::svg_request) with the plot about to be drawn: the first plot
/// of the view (the sweep, or the bars of the runs) in the theme's colours.
void serve_svg_request(PerfState& p, const PlotConfig& cfg, const std::vector<PlotSeries>& series,
                       const std::vector<PlotReference>& refs) {
  if (p.svg_request.empty()) return;
  p.svg_error = write_text_file(p.svg_request,
                                PlotSvg(cfg, series, refs, p.svg_size[0], p.svg_size[1],
                                        ImGui::GetColorU32(ImGuiCol_WindowBg), ImGui::GetColorU32(ImGuiCol_Text)),
                                export_policy(p));
  p.svg_request.clear();
}

bool timed_ok(const RunResult& r) { return r.timed && r.timing.median_ms > 0 && ran_as_taught(r.status); }

/// A point of a host-time sweep: the run's host time (the sim model's), which every sim run records.
bool host_ok(const RunResult& r) { return r.host_ms.recorded() && r.host_ms.total > 0 && ran_as_taught(r.status); }

}  // namespace

bool plots_host_time(const Sweep& sw) {
  return std::none_of(sw.runs.begin(), sw.runs.end(), timed_ok) && std::any_of(sw.runs.begin(), sw.runs.end(), host_ok);
}

std::vector<PlotSeries> sweep_series(const Sweep& sw, const std::vector<std::string>& vars, bool plot_time,
                                     std::vector<std::vector<double>>& xs, std::vector<std::vector<double>>& ys) {
  xs.assign(vars.size(), {});
  ys.assign(vars.size(), {});
  const bool host = plots_host_time(sw);
  for (std::size_t i = 0; i < vars.size(); ++i)
    for (const RunResult* r : sw.runs_of(vars[i])) {
      if (!(host ? host_ok(*r) : timed_ok(*r))) continue;
      xs[i].push_back(sw.x_of(*r));
      ys[i].push_back(host ? r->host_ms.total : plot_time ? r->timing.median_ms : r->gbps);
    }
  const std::vector<int> same = coincident_series(xs, ys, kCoincideTolerance);
  std::vector<PlotSeries> series;
  for (std::size_t i = 0; i < vars.size(); ++i) {
    PlotSeries ps;
    ps.label = same[i] >= 0
                   ? coincidence_label(series_id(vars[i]), series_id(vars[std::size_t(same[i])]), kCoincideTolerance)
                   : series_id(vars[i]);
    for (const RunResult* r : sw.runs_of(vars[i]))  // one wrong run marks the whole curve
      if (timed_ok(*r) && ps.flag.empty()) ps.flag = run_flag(*r);
    if (!ps.flag.empty()) ps.label += "  " + ps.flag, ps.keep_in_legend = true;
    ps.set_style(int(i));
    ps.keep_in_legend |= same[i] >= 0 || std::find(same.begin(), same.end(), int(i)) != same.end();
    ps.x = xs[i].data();
    ps.y = ys[i].data();
    ps.count = int(xs[i].size());
    series.push_back(ps);
  }
  return series;
}

float PlotsView::draw_allreduce_sweep(const ViewContext& c, float height) {
  const Lesson* l = c.lesson;
  if (!l || std::none_of(l->steps.begin(), l->steps.end(), [](const LessonStep& st) { return st.collective; }))
    return 0;
  const float y0 = ImGui::GetCursorPosY();
  TextDim("All-reduce over message size (the All-reduce tab steps through one size):");
  allreduce_.draw(std::clamp(c.allreduce.gpus, 2, collective::kMaxGpus), c.allreduce.bytes_log2,
                  ImVec2(ImGui::GetContentRegionAvail().x, height));
  return ImGui::GetCursorPosY() - y0;
}

void PlotsView::draw(const ViewContext& c, ViewActions& act) {
  if (Handout()) {  // a handout picture: the plot alone, and Live only where it has launches
    draw_sweep(c, act,
               c.perf.live.series.empty() ? ImGui::GetContentRegionAvail().y : ImGui::GetContentRegionAvail().y * 0.5f);
    if (!c.perf.live.series.empty()) draw_live(c, act, ImGui::GetContentRegionAvail().y);
    return;
  }
  draw_controls(c, act);
  // The lesson "Reduction across GPUs": its sweep is over message size, ring against tree (issue 30); the one-GPU
  // plots below get the rest when it can hold a readable plot, else the all-reduce sweep takes the view.
  const float whole = ImGui::GetContentRegionAvail().y;
  const bool room_below = whole * 0.45f >= theme().px(300);
  if (draw_allreduce_sweep(
          c, room_below ? std::floor(whole * 0.55f) : whole - 2 * ImGui::GetTextLineHeightWithSpacing()) > 0) {
    if (!room_below) {
      TextDim("the one-GPU plots need more room here: a smaller text scale shows them below, Compare ranks the runs");
      return;
    }
  }
  const float avail = ImGui::GetContentRegionAvail().y;
  // No GPU here: Live can never start (the controls' line says so), so the sweep plot takes the whole height.
  if (!why_no_timing(c.device).empty() && c.perf.live.series.empty()) {
    draw_sweep(c, act, avail);
    return;
  }
  // Without live data the Live area is one line of text: the sweep plot takes the rest.
  const float live_min = ImGui::GetTextLineHeightWithSpacing() * 2;
  // With live data Live gets 55 % of the height (its legend often sits below it): at least three y ticks.
  const float sweep_h = c.perf.live.series.empty() ? std::max(theme().px(200), avail - live_min)
                                                   : std::max(theme().px(200), avail * 0.45f);
  draw_sweep(c, act, sweep_h);
  draw_live(c, act, ImGui::GetContentRegionAvail().y);
}

void PlotsView::draw_timing_controls(const ViewContext& c, ViewActions& act, const std::vector<std::string>& ids,
                                     bool filters) {
  const Theme& t = theme();
  PerfState& p = act.perf();
  if (p.sweep_by_keep) {
    TextDim("Sweep kept 0..1 at");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(t.px(130));
    ImGui::SliderInt("##keep_n", &p.keep_log2, 10, 28, "n = 2^%d");
    ItemTooltip("the filters run at this n with 0, 10 %, .. 100 % of the values kept (the slide's filter ratio)");
  } else {
    TextDim("Sweep n = 2^");
    ImGui::SameLine(0, 0);
    ImGui::SetNextItemWidth(t.px(180));
    ImGui::DragIntRange2("##range", &p.sweep_from, &p.sweep_to, 0.1f, kSweepMinLog2, kSweepMaxLog2, "%d", "..2^%d");
    ItemTooltip("the sizes of the sweep: n = 2^from .. 2^to (drag, or Ctrl+click to type)");
  }
  if (filters) {
    SameLineIfFits(ImGui::GetFrameHeight() + ImGui::CalcTextSize("by kept").x, t.px(8));
    ImGui::Checkbox("by kept", &p.sweep_by_keep);
    ItemTooltip(
        "sweep the filters over the fraction of values kept (throughput against the filter ratio, as on the "
        "slides) instead of over n");
  }
  SameLineIfFits(ButtonWidth("Sweep"));
  ImGui::BeginDisabled(p.sweeping || ids.empty());
  if (ImGui::Button("Sweep")) {
    SweepSpec spec = make_sweep_spec(c.perf, c.params, ids);
    if (std::string err = validate_sweep(spec); !err.empty())
      act.say(Message::Warning, err);
    else
      p.sweep_to_start = spec;
  }
  ImGui::EndDisabled();
  ItemTooltip("run the compared variants at every n of the range (each with its own default launch)");
  if (p.sweeping) {
    ImGui::SameLine();
    const float frac = p.sweep_total > 0 ? float(p.sweep_done) / float(p.sweep_total) : 0.f;
    const std::string label = std::to_string(p.sweep_done) + " / " + std::to_string(p.sweep_total);
    ImGui::ProgressBar(frac, ImVec2(t.px(200), 0), label.c_str());
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) p.sweep_cancel = true;
  }
  SameLineIfFits(ImGui::GetFrameHeight() + ImGui::CalcTextSize("Live").x, t.px(24));
  ImGui::BeginDisabled(ids.empty());
  bool live = p.live_wanted;
  if (ImGui::Checkbox("Live", &live)) {
    p.live_wanted = live;
    if (live) p.live_variants = ids;
  }
  ImGui::EndDisabled();
  ItemTooltip("launch the compared variants again and again; the plot scrolls (L toggles)");
  SameLineIfFits(t.px(110));
  ImGui::SetNextItemWidth(t.px(110));
  ImGui::BeginDisabled(p.live_wanted);
  ImGui::SliderInt("##live_n", &p.live_log2, 10, 28, "n = 2^%d");
  ImGui::EndDisabled();
  ItemTooltip("n of the Live launches");
}

void PlotsView::draw_controls(const ViewContext& c, ViewActions& act) {
  const Theme& t = theme();
  PerfState& p = act.perf();
  const std::string why = why_no_timing(c.device);
  const std::vector<std::string> ids = chosen_variants(c.perf, c.lesson);

  const bool filters = std::any_of(ids.begin(), ids.end(), [](const std::string& id) {
    const VariantInfo* v = find_variant(id);
    return v && is_filter_variant(*v);
  });
  if (!filters) p.sweep_by_keep = false;
  ImGui::AlignTextToFramePadding();
  // Without a GPU, Sweep and Live could never run: their controls give their room to the plot, and one
  // line (the reason on hover) says why they are missing.
  if (why.empty()) {
    draw_timing_controls(c, act, ids, filters);
    SameLineIfFits(ImGui::GetFrameHeight() * 2 + ImGui::CalcTextSize("GB/s time").x + t.px(20), t.px(24));
  }
  if (ImGui::RadioButton("GB/s", !c.perf.plot_time)) act.perf().plot_time = false;
  ImGui::SameLine();
  if (ImGui::RadioButton("time", c.perf.plot_time)) act.perf().plot_time = true;
  SameLineIfFits(ImGui::GetFrameHeight() + ImGui::CalcTextSize("scale to wrong").x, t.px(24));
  ImGui::Checkbox("scale to wrong", &p.range_wrong);
  ItemTooltip(
      "widen the axes to the runs whose check is not ok (race, slide-bug: hatched or dotted, marked WRONG); off, "
      "such a bar or line runs off the top, marked off scale");
  SameLineIfFits(ButtonWidth("PNG"), t.px(24));
  if (ImGui::Button("PNG")) p.png_request = export_path(p, "warpscope-plots.png");
  ItemTooltip("save this view as a PNG for slides (warpscope-plots.png in the export folder)");
  SameLineIfFits(ButtonWidth("CSV"));
  if (ImGui::Button("CSV")) {
    const Report& rep = c.shown;
    if (rep.sweeps.empty()) {
      act.say(Message::Warning, "no sweep to export in the report shown");
    } else {
      const int i =
          p.sweep_shown < 0 || p.sweep_shown >= int(rep.sweeps.size()) ? int(rep.sweeps.size()) - 1 : p.sweep_shown;
      const std::string path = export_path(p, "warpscope-sweep.csv");
      if (std::string err = write_text_file(path, sweep_csv(rep.sweeps[std::size_t(i)]), export_policy(p));
          !err.empty())
        act.say(Message::Error, err);
      else
        act.say(Message::Info, "wrote " + path);
    }
  }
  ItemTooltip("export the sweep shown as CSV (warpscope-sweep.csv in the export folder)");
  if (!why.empty()) {
    const char* off = "Sweep and Live are off (hover for why)";
    SameLineIfFits(ImGui::CalcTextSize(off).x, t.px(24));
    TextDim(off);
    ItemTooltip(why);
  }
  if (!p.live_stopped.empty()) TextWrappedColored(t.colors().lesson, "Live stopped: " + p.live_stopped);
}

void PlotsView::draw_sweep(const ViewContext& c, ViewActions& act, float height) {
  const Theme& t = theme();
  const Report& rep = c.shown;
  const Sweep* sw = nullptr;
  if (c.perf.sweep_partial && !c.showing_replay)
    sw = &*c.perf.sweep_partial;
  else if (!rep.sweeps.empty())
    sw = &rep.sweeps[std::size_t(c.perf.sweep_shown < 0 || c.perf.sweep_shown >= int(rep.sweeps.size())
                                     ? int(rep.sweeps.size()) - 1
                                     : c.perf.sweep_shown)];
  ImGui::BeginChild("sweep_plot", ImVec2(0, height));
  if (!sw) {
    draw_runs(c, act, rep);
    ImGui::EndChild();
    return;
  }
  const bool partial = c.perf.sweep_partial && sw == &*c.perf.sweep_partial;
  if (rep.sweeps.size() > 1 && !partial && !Handout()) {
    ImGui::SetNextItemWidth(t.px(420));
    const int cur = c.perf.sweep_shown < 0 ? int(rep.sweeps.size()) - 1 : c.perf.sweep_shown;
    if (ImGui::BeginCombo("sweep", rep.sweeps[std::size_t(cur)].title.c_str())) {
      for (int i = 0; i < int(rep.sweeps.size()); ++i)
        if (ImGui::Selectable((rep.sweeps[std::size_t(i)].title + "##" + std::to_string(i)).c_str(), i == cur))
          act.perf().sweep_shown = i;
      ImGui::EndCombo();
    }
  }
  // One series per variant: the timed, correct runs by n (or by kept fraction). Only the compared
  // variants (and the CUB baselines of their patterns) when the sweep has any of them, so a sweep of
  // every variant reads lesson by lesson.
  const bool by_keep = sw->spec.by_keep();
  std::vector<std::string> vars;
  {
    const auto chosen = chosen_variants(c.perf, c.lesson);
    for (const auto& v : sw->spec.variants)
      if (std::find(chosen.begin(), chosen.end(), v) != chosen.end()) vars.push_back(v);
    if (vars.empty()) {
      vars = sw->spec.variants;
    } else {
      for (const auto& id : sw->spec.variants) {  // cub.reduce / cub.scan / cub.histogram / cub.select
        const VariantInfo* b = find_variant(id);
        if (!b || !b->baseline || std::find(vars.begin(), vars.end(), id) != vars.end()) continue;
        for (const auto& v : vars)
          if (const VariantInfo* c = find_variant(v);
              c && c->pattern == b->pattern && c->rules.bytes_input == b->rules.bytes_input) {
            vars.push_back(id);
            break;
          }
      }
    }
  }
  const std::vector<PlotSeries> series = sweep_series(*sw, vars, c.perf.plot_time, xs_, ys_);
  const bool host = plots_host_time(*sw);  // a sim sweep: the model's host time, not GPU time
  double ymin = 1e300, ymax = 0;
  struct Baseline {
    std::string id;
    double gbps = 0, x = 0;
  };
  std::vector<Baseline> baselines;  // each CUB baseline's GB/s at its largest n (kept fraction 0.5 or nearest)
  std::string elem = "int32";
  for (std::size_t i = 0; i < vars.size(); ++i) {
    const VariantInfo* info = find_variant(vars[i]);
    Baseline b{vars[i], 0, -1};
    for (const RunResult* r : sw->runs_of(vars[i])) {
      if (!(host ? host_ok(*r) : timed_ok(*r))) continue;
      const double y = host ? r->host_ms.total : c.perf.plot_time ? r->timing.median_ms : r->gbps;
      // A wrong answer's outlier stays off the axis range unless asked (it is drawn to the edge, marked).
      if (r->status == RunStatus::Ok || c.perf.range_wrong) ymin = std::min(ymin, y), ymax = std::max(ymax, y);
      if (i == 0) elem = to_string(r->type);
      const bool better =
          by_keep ? std::fabs(r->params.keep_fraction - 0.5) < std::fabs(b.x - 0.5) : double(r->n) >= b.x;
      if (info && info->baseline && (b.x < 0 || better))
        b.gbps = r->gbps, b.x = by_keep ? r->params.keep_fraction : double(r->n);
    }
    if (b.gbps > 0) baselines.push_back(b);
  }
  // A library baseline of the swept pattern from the report's runs when the sweep did not include it.
  if (baselines.empty() && !by_keep)
    for (const auto& r : rep.runs) {
      const VariantInfo* b = find_variant(r.variant);
      auto same_pattern = [b](const std::string& v) {
        const VariantInfo* i = find_variant(v);
        return i && i->pattern == b->pattern;
      };
      if (b && b->baseline && timed_ok(r) && std::find(vars.begin(), vars.end(), r.variant) == vars.end() &&
          std::any_of(vars.begin(), vars.end(), same_pattern))
        baselines.assign(1, Baseline{r.variant, r.gbps, double(r.n)});
    }
  PlotConfig cfg;
  cfg.title = sw->title.empty() ? "sweep" : sw->title;
  if (partial) cfg.title = "sweep in progress (" + std::to_string(sw->runs.size()) + " runs)";
  std::vector<PlotReference> refs;
  const DeviceInfo& d = rep.device;
  if (by_keep) {
    // The slides' plot (seed 003, "Performance"): throughput against the filter ratio, both linear.
    cfg.x_label = "fraction of the values kept (filter ratio), n = " + format_count(sw->spec.n);
    cfg.x = AxisSpec{-0.02, 1.02, false, 10, AxisUnit::Plain};
    cfg.y_label = c.perf.plot_time ? "median time per run" : "effective bandwidth GB/s (read n + write the kept)";
  } else {
    cfg.x_label = "n (" + elem + " elements, log2)";
    cfg.y_label = c.perf.plot_time ? "median time per run (log)" : "effective bandwidth GB/s (log)";
    cfg.x = fit_axis(double(std::int64_t(1) << sw->spec.from_log2), double(std::int64_t(1) << sw->spec.to_log2), true,
                     2, AxisUnit::Count);
  }
  const bool plot_time = c.perf.plot_time || host;
  if (host) {
    cfg.title += " (sim: host time of the CPU model, not GPU time)";
    cfg.y_label = "host time per run, CPU model (log)";
  }
  if (!plot_time) {
    if (d.theoretical_gbps > 0) {
      refs.push_back({"theoretical peak " + format_gbps(d.theoretical_gbps) + " GB/s", d.theoretical_gbps,
                      ImGui::GetColorU32(t.colors().bad)});
      ymax = std::max(ymax, d.theoretical_gbps);
    }
    if (d.copy_gbps > 0)
      refs.push_back(
          {"device copy " + format_gbps(d.copy_gbps) + " GB/s", d.copy_gbps, ImGui::GetColorU32(t.colors().lesson)});
    for (const auto& b : baselines) {
      char at[48];
      if (by_keep) std::snprintf(at, sizeof at, "kept %.2f", b.x);
      const std::string where = by_keep ? std::string(at) : format_count(std::int64_t(b.x));
      refs.push_back({series_id(b.id) + " " + format_gbps(b.gbps) + " GB/s at " + where, b.gbps,
                      ImGui::GetColorU32(t.colors().baseline)});
    }
  }
  if (ymax <= 0) ymin = 1, ymax = 10;
  if (by_keep) {
    cfg.y = fit_axis(0, ymax, false, 10, plot_time ? AxisUnit::Ms : AxisUnit::GBps);
  } else {
    // Log y with a margin of 1.6x each way (not whole decades: they would waste half the height).
    cfg.y = AxisSpec{ymin / 1.6, ymax * 1.6, true, 10, plot_time ? AxisUnit::Ms : AxisUnit::GBps};
  }
  serve_svg_request(act.perf(), cfg, series, refs);
  Plot("##sweep", cfg, series, refs, ImVec2(0, ImGui::GetContentRegionAvail().y));
  ImGui::EndChild();
}

void PlotsView::draw_runs(const ViewContext& c, ViewActions& act, const Report& rep) {
  const Theme& t = theme();
  if (!Handout())
    TextDim(
        "No sweep in the report shown (Sweep with a GPU, or open one recorded with warpscope-cli sweep --report): "
        "the bars are its runs of the compared variants.",
        true);
  const std::vector<std::string> ids = chosen_variants(c.perf, c.lesson);
  std::vector<PlotSeries> series;
  xs_.assign(ids.size(), {});
  ys_.assign(ids.size(), {});
  double ymax = 0;
  std::int64_t n = 0;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const RunResult* last = nullptr;
    for (const auto& r : rep.runs)
      if (r.variant == ids[i] && timed_ok(r)) last = &r;
    if (!last) continue;
    xs_[i].push_back(double(i + 1));
    ys_[i].push_back(c.perf.plot_time ? last->timing.median_ms : last->gbps);
    PlotSeries ps;
    ps.flag = run_flag(*last);
    if (ps.flag.empty() || c.perf.range_wrong) ymax = std::max(ymax, ys_[i].back());
    n = std::max(n, last->n);
    ps.label = series_id(ids[i]) + (ps.flag.empty() ? "" : "  " + ps.flag);
    ps.set_style(int(i));
    ps.x = xs_[i].data();
    ps.y = ys_[i].data();
    ps.count = 1;
    ps.style = PlotSeries::Bars;
    series.push_back(ps);
  }
  if (series.empty()) {
    TextDim("The report shown has no timed runs of these variants either.", true);
    return;
  }
  if (ymax <= 0)  // only wrong results: their range, rather than none
    for (const auto& y : ys_)
      for (double v : y) ymax = std::max(ymax, v);
  PlotConfig cfg;
  cfg.title = std::string(c.perf.plot_time ? "time" : "GB/s") + " per variant, n = " + format_count(n) +
              " (runs of the report)";
  cfg.x_label = "";
  cfg.y_label = c.perf.plot_time ? "median time" : "effective bandwidth GB/s";
  cfg.x = AxisSpec{0.3, double(ids.size()) + 0.7, false, 10, AxisUnit::Launch};
  std::vector<PlotReference> refs;
  if (!c.perf.plot_time) {
    if (rep.device.theoretical_gbps > 0) {
      refs.push_back({"theoretical peak " + format_gbps(rep.device.theoretical_gbps) + " GB/s",
                      rep.device.theoretical_gbps, ImGui::GetColorU32(t.colors().bad)});
      ymax = std::max(ymax, rep.device.theoretical_gbps);
    }
    if (rep.device.copy_gbps > 0)
      refs.push_back({"device copy " + format_gbps(rep.device.copy_gbps) + " GB/s", rep.device.copy_gbps,
                      ImGui::GetColorU32(t.colors().lesson)});
  }
  cfg.y = fit_axis(0, ymax, false, 10, c.perf.plot_time ? AxisUnit::Ms : AxisUnit::GBps);
  cfg.legend = false;
  for (const auto& id : ids) cfg.x_categories.push_back(series_id(id));
  serve_svg_request(act.perf(), cfg, series, refs);
  Plot("##runs", cfg, series, refs, ImVec2(0, ImGui::GetContentRegionAvail().y));
}

namespace {
/// "occ 85 %, 24.1 lanes/inst" from a live run's CUPTI metrics ("" without them).
std::string live_metrics(const RunResult& r) {
  std::string out;
  auto add = [&](const char* name, const char* fmt) {
    auto it = r.metrics.values.find(name);
    if (it == r.metrics.values.end()) return;
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, it->second);
    out += (out.empty() ? "" : ", ") + std::string(buf);
  };
  add(metric::kOccupancy, "occ %.0f %%");
  add(metric::kLanesPerInst, "%.1f lanes/inst");
  add(metric::kLanesPerInstBare, "%.1f lanes/inst");
  return out;
}
}  // namespace

void PlotsView::draw_live(const ViewContext& c, ViewActions& act, float height) {
  const Theme& t = theme();
  PerfState& p = act.perf();
  ImGui::BeginChild("live_plot", ImVec2(0, height));
  if (p.live.series.empty()) {
    ImGui::Spacing();
    TextDim(p.live_wanted ? "Live: waiting for the first launches..."
                          : "Live is off (with a GPU, tick Live: time per launch scrolls here).");
    ItemTooltip(
        "Live launches the compared variants again and again at the n chosen; the plot keeps the newest "
        "10,000 launches of each.");
    ImGui::EndChild();
    return;
  }
  std::vector<PlotSeries> series;
  double xmin = 1e300, xmax = 0, ymin = 1e300, ymax = 0;
  int i = 0;
  for (const auto& [id, ls] : p.live.series) {
    if (ls.size() == 0) continue;
    PlotSeries ps;
    ps.label = series_id(id) + "  " + format_ms(ls.median_ms(100)) + " ms";
    if (auto it = p.live.latest.find(id); it != p.live.latest.end() && p.live.series.size() <= 4)
      if (std::string m = live_metrics(it->second); !m.empty()) ps.label += "  (" + m + ")";
    if (auto it = p.live.latest.find(id); it != p.live.latest.end()) ps.flag = run_flag(it->second);
    if (!ps.flag.empty()) ps.label = series_id(id) + "  " + ps.flag + "  " + format_ms(ls.median_ms(100)) + " ms";
    ps.set_style(i++);
    ps.x = ls.launches();
    ps.y = c.perf.plot_time ? ls.ms() : ls.gbps();
    ps.count = int(ls.size());
    ps.style = PlotSeries::Line;
    ps.thickness = 1.5f;
    xmin = std::min(xmin, ps.x[0]), xmax = std::max(xmax, ps.x[ps.count - 1]);
    if (ps.flag.empty() || c.perf.range_wrong)  // a wrong answer's line stays off the range unless asked
      for (int k = 0; k < ps.count; ++k) ymin = std::min(ymin, ps.y[k]), ymax = std::max(ymax, ps.y[k]);
    series.push_back(ps);
  }
  if (ymax <= 0)
    for (const auto& ps : series)
      for (int k = 0; k < ps.count; ++k) ymin = std::min(ymin, ps.y[k]), ymax = std::max(ymax, ps.y[k]);
  PlotConfig cfg;
  cfg.title = std::string("Live") + (p.live_running ? "" : " (stopped)") + ": " + std::to_string(p.live.points()) +
              " launches shown, n = 2^" + std::to_string(p.live_log2) + " (legend: median of the last 100)";
  cfg.x_label = "launch";
  cfg.y_label = c.perf.plot_time ? "time per launch" : "GB/s per launch";
  cfg.x = fit_axis(xmin, std::max(xmax, xmin + 1), false, 10, AxisUnit::Launch, false, 0);
  cfg.y = fit_axis(ymin, ymax, false, 10, c.perf.plot_time ? AxisUnit::Ms : AxisUnit::GBps);
  std::vector<PlotReference> refs;
  if (!c.perf.plot_time && c.device.device.theoretical_gbps > 0 && c.device.device.theoretical_gbps < cfg.y.hi)
    refs.push_back({"theoretical peak", c.device.device.theoretical_gbps, ImGui::GetColorU32(t.colors().bad)});
  Plot("##live", cfg, series, refs, ImVec2(0, ImGui::GetContentRegionAvail().y));
  ImGui::EndChild();
}

/// The Plots tab.
/// Its tab stands at position 120 (all_views() sorts by it).
ViewInfo plots_view_info() { return make_view_info<PlotsView>(120, "plots", "Plots", false); }

}  // namespace ws::ui
