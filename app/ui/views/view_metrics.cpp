#include "views/view_metrics.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "metric_catalog.hpp"
#include "metric_predict.hpp"
#include "registry.hpp"
#include "trace_source.hpp"
#include "views/stall_bars.hpp"
#include "views/view_registry.hpp"
#include "widgets/theme.hpp"
#include "widgets/widgets.hpp"

namespace ws::ui {

using controller::compute_trace;
using controller::TraceKey;
using controller::ViewActions;
using controller::ViewContext;

const RunResult* metrics_run(const ViewContext& c) {
  const VariantInfo* v = c.variant;
  if (!v) return nullptr;
  const auto& runs = c.shown.runs;
  for (auto it = runs.rbegin(); it != runs.rend(); ++it)
    if (it->variant == v->id && !it->metrics.asked.empty()) return &*it;
  return nullptr;
}

namespace {

/// Where the slide's count and the hardware's differ for a reason worth saying aloud.
std::string difference_note(const std::string& metric) {
  if (metric == "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum" || metric == "lts__t_requests_op_red.sum" ||
      metric == "smsp__sass_inst_executed_op_global_red" || metric == "smsp__sass_inst_executed_op_global_atom")
    return "the compiler adds a warp's lanes first: one request per warp, not per thread";
  if (metric == "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum" ||
      metric == "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum")
    return "the hardware counter is not 0 even for conflict-free code";
  if (metric == "smsp__average_thread_inst_executed_pred_on_per_inst_executed.ratio")
    return "the model counts the tree adds only; the GPU averages every instruction";
  return "";
}

}  // namespace

void MetricsView::draw(const ViewContext& c, ViewActions& act) {
  const Theme& th = theme();
  const Palette& p = th.colors();
  const VariantInfo* v = c.variant;

  if (!Handout()) {  // the switches; a handout picture shows the metrics only
    bool ask = !c.params.metrics.empty();
    if (ImGui::Checkbox("collect hardware metrics on the next runs (default set)", &ask))
      act.set_metrics(ask ? "default" : "");
    ItemTooltip(
        "CUPTI Range Profiler and SASS metrics after the timed launches; needs an NVIDIA GPU. "
        "Without one, open a report recorded with --metrics (assets/reports/nvidia-h200-metrics.json).");
    if (ask) {
      bool stalls = c.params.metrics.find("pcsampling") != std::string::npos;
      ImGui::SameLine(0, th.px(20));
      if (ImGui::Checkbox("and stall reasons per line", &stalls))
        act.set_metrics(stalls ? "default,pcsampling" : "default");
      ItemTooltip(
          "CUPTI PC sampling: one more run of the kernels, sampled; the Source tab shows a bar of stall reasons per "
          "line.");
    }
  }
  if (!v) {
    TextDim("select a variant to see its metrics");
    return;
  }
  const RunResult* r = metrics_run(c);
  if (!r) {
    TextDim("no run of " + v->id + " with metrics in the " + (c.showing_replay ? "opened report" : "session") +
                ": tick the box and press Run on a GPU, or open a report recorded with "
                "warpscope-cli report --metrics default",
            true);
    return;
  }
  const KernelMetrics& m = r->metrics;
  char head[256];
  std::snprintf(head, sizeof head, "%s on %s, n = %lld, %d threads x %lld blocks", r->variant.c_str(),
                r->device.empty() ? to_string(r->backend) : r->device.c_str(), (long long)r->n, r->launch.block,
                (long long)r->launch.grid);
  ImGui::TextUnformatted(head);
  if (m.collected) {
    char line[256];
    std::snprintf(line, sizeof line, "%d replay pass%s, %.0f ms from request to values", m.passes,
                  m.passes == 1 ? "" : "es", m.profile_ms);
    TextDim(line);
  }
  if (!m.error.empty()) TextWrappedColored(p.bad, m.error);
  for (const auto& w : m.warnings) TextWrappedColored(p.lesson, w);

  // Predictions for this run's launch: the sim model's trace of one block, times the grid.
  const std::string key = r->variant + "/" + std::to_string(r->n) + "/" + std::to_string(r->launch.block) + "/" +
                          std::to_string(r->launch.grid);
  if (predicted_for_ != key) {
    predicted_for_ = key;
    predicted_.clear();
    prediction_note_.clear();
    if (const VariantInfo* rv = find_variant(r->variant)) {
      TraceKey tk;
      tk.variant = rv->id;
      tk.n = r->n;
      tk.block = r->launch.block;
      tk.type = r->type;
      tk.input = "random";
      std::string why;
      if (auto t = compute_trace(*rv, tk, why)) {
        PredictionInputs in = prediction_inputs(*t);
        in.n = r->n;
        in.element_bytes = int(dtype_size(r->type));
        in.grid = r->launch.grid;
        predicted_ = predict_metrics(in);
      } else {
        prediction_note_ = "no sim prediction: " + why;
      }
    }
  }
  if (!prediction_note_.empty()) TextDim(prediction_note_, true);

  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_ScrollY |
                                ImGuiTableFlags_SizingStretchProp;
  if (!ImGui::BeginTable("metrics", 4, flags, ImVec2(0, 0))) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("metric", ImGuiTableColumnFlags_WidthStretch, 2.2f);
  ImGui::TableSetupColumn("measured", ImGuiTableColumnFlags_WidthStretch, 1.0f);
  ImGui::TableSetupColumn("predicted (sim)", ImGuiTableColumnFlags_WidthStretch, 1.0f);
  ImGui::TableSetupColumn("why they differ", ImGuiTableColumnFlags_WidthStretch, 2.6f);
  ImGui::TableHeadersRow();
  std::string group;
  for (const MetricDef& d : metric_catalog()) {
    auto it = m.values.find(d.name);
    auto pr = predicted_.find(d.name);
    if (it == m.values.end()) continue;
    // The source's atomics go next to the row the compiler turned them into (red when the old value is
    // unused, atom when it is, e.g. a filter's output index).
    const bool atomics_row = d.name == "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum" ||
                             (d.name == "smsp__sass_inst_executed_op_global_red" && it->second > 0) ||
                             (d.name == "smsp__sass_inst_executed_op_global_atom" && it->second > 0);
    if (d.group != group) {
      group = d.group;
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextColored(p.accent, "%s", group.c_str());
    }
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextUnformatted(d.short_name.c_str());
    ItemTooltip(d.explain + "\n\n" + d.name + " [" + d.unit + "]" +
                (d.prediction.empty() ? std::string() : "\npredicted: " + d.prediction));
    if (d.name == "ws__theoretical_occupancy_pct" && !m.occupancy_limiter.empty()) {
      ImGui::SameLine();
      TextDim("(" + m.occupancy_limiter + ")");
    }
    ImGui::TableSetColumnIndex(1);
    TextRight(format_metric_value(d, it->second));
    ImGui::TableSetColumnIndex(2);
    if (pr != predicted_.end())
      TextRight(format_metric_value(d, pr->second));
    else if (atomics_row && predicted_.count("ws__source_global_atomics"))
      TextRight(format_metric_value(d, predicted_.at("ws__source_global_atomics")) + " in source");
    ImGui::TableSetColumnIndex(3);
    const std::string note = difference_note(d.name);
    if (!note.empty() && (pr != predicted_.end() || atomics_row)) TextDim(note, true);
  }
  if (!m.lines.empty()) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextColored(p.accent, "per source line");
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    TextDim(std::to_string(m.lines.size()) + " lines with instructions: see the Source tab's columns", true);
  }
  StallTableRows(m.pc_sampling);
  ImGui::EndTable();
}

/// The Metrics tab.
/// Its tab stands at position 70 (all_views() sorts by it).
ViewInfo metrics_view_info() { return make_view_info<MetricsView>(70, "metrics", "Metrics", false); }

}  // namespace ws::ui
