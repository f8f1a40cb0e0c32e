#include "view_compare.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <numeric>

#include "format.hpp"
#include "plot_axis.hpp"
#include "registry.hpp"
#include "theme.hpp"
#include "widgets.hpp"

namespace ws::ui {

namespace {

enum Col { CVariant, CN, CTime, CGbps, CPeak, CSpeedup, CBar, COcc, CLanes, CConfl, CAtom, CPDiv, CPWays, CPAtom, CCheck, CCount };
const char* const kHeaders[CCount] = {"variant", "n", "time ms", "GB/s", "% peak", "speedup", "bar",
                                      "occ. %", "lanes/inst", "confl./ld", "atomics",
                                      "sim div. %", "sim ways", "sim atom.", "check"};
const char* const kTips[CCount] = {
    "variant id (the best GB/s among correct runs is marked best)",
    "elements reduced",
    "median kernel time of the run (CUDA events)",
    "effective bandwidth: bytes read / median time",
    "of the device's theoretical DRAM bandwidth",
    "baseline time / this time (same n only)",
    "the metric chosen above, as a bar",
    "measured (CUPTI): achieved occupancy, sm__warps_active.avg.pct_of_peak_sustained_active; -- when the run has no metrics",
    "measured (CUPTI): active lanes per warp instruction (32 = no divergence), smsp__average_thread_inst_executed_pred_on_per_inst_executed",
    "measured (CUPTI): shared-load bank conflicts per shared-load instruction, l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum / smsp__inst_executed_op_shared_ld.sum",
    "measured (CUPTI): global atomic + reduction requests, l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum + _op_red.sum",
    "PREDICTED by the sim model of block 0: divergent warp-steps / active warp-steps",
    "PREDICTED by the sim model of block 0: the worst n-way shared bank conflict (1 = none)",
    "PREDICTED by the sim model of block 0: atomic operations the block makes",
    "result checked against the CPU"};

std::string opt(const std::optional<double>& v, int decimals) {
  if (!v) return "--";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, *v);
  return buf;
}

double sort_key(const CompareRow& r, int col, int index) {
  auto o = [](const std::optional<double>& v) { return v ? *v : -1e300; };
  switch (col) {
    case CN: return r.run ? double(r.run->n) : -1;
    case CTime: return r.timed ? r.time_ms : 1e300;
    case CGbps: return r.timed ? r.gbps : -1;
    case CPeak: return r.timed ? r.pct_peak : -1;
    case CSpeedup: return r.speedup;
    case COcc: return o(r.occupancy);
    case CLanes: return o(r.lanes);
    case CConfl: return o(r.conflicts_per_ld);
    case CAtom: return o(r.atomics);
    case CPDiv: return o(compare_value(r, CompareMetric::PredDivergent));
    case CPWays: return o(compare_value(r, CompareMetric::PredWays));
    case CPAtom: return o(compare_value(r, CompareMetric::PredAtomics));
    default: return index;
  }
}

}  // namespace

const std::map<std::string, Predicted>& CompareView::predictions(const AppState& s, const std::vector<std::string>& ids) {
  const std::string key = std::to_string(s.params.n()) + "|" + to_string(s.params.type);
  if (key != predicted_key_) predicted_.clear(), predicted_key_ = key;
  for (const auto& id : ids) {
    if (predicted_.count(id)) continue;
    if (const VariantInfo* v = find_variant(id)) predicted_[id] = predict(*v, s.params.n(), s.params.type);
  }
  return predicted_;
}

void CompareView::draw(AppState& s) {
  const Report& rep = s.shown();
  const std::vector<std::string> ids = chosen_variants(s);
  const std::vector<CompareRow> rows = build_compare(rep, ids, s.perf.baseline, predictions(s, ids));
  draw_controls(s, rows);
  if (rows.empty()) {
    TextDim("Nothing to compare: pick variants (Pick...) or select a lesson.", true);
    return;
  }
  bool any_run = false;
  for (const auto& r : rows) any_run |= r.run != nullptr;
  if (!any_run)
    TextDim("The report shown has no runs of these variants: run them (Run lesson), or open a report recorded on a GPU. "
            "The predicted (sim) columns are filled anyway.", true);
  const float changes_h = ImGui::GetTextLineHeightWithSpacing() * std::min<float>(6.5f, float(rows.size()) + 1.5f);
  ImGui::BeginChild("compare_table", ImVec2(0, std::max(theme().px(100), ImGui::GetContentRegionAvail().y - changes_h)));
  draw_table(s, rows);
  ImGui::EndChild();
  draw_changes(s, rows);
}

void CompareView::draw_controls(AppState& s, const std::vector<CompareRow>& rows) {
  const Theme& t = theme();
  ImGui::AlignTextToFramePadding();
  const std::string src = s.showing_replay() ? std::filesystem::path(s.replay_path).filename().string() : "this session";
  TextDim(std::to_string(rows.size()) + (s.perf.picked.empty() ? " variants of the lesson" : " picked variants") + ", runs from " + src);
  SameLineIfFits(ButtonWidth("Pick..."));
  if (ImGui::Button("Pick...")) ImGui::OpenPopup("compare_pick");
  ItemTooltip("choose the variants to compare (none picked = the selected lesson's)");
  if (ImGui::BeginPopup("compare_pick")) {
    if (ImGui::SmallButton("lesson only (clear picks)")) s.perf.picked.clear();
    ImGui::SameLine();
    if (ImGui::SmallButton("all")) {
      for (const auto& v : all_variants()) s.perf.picked.insert(v.id);
    }
    ImGui::BeginChild("pick_list", ImVec2(t.px(360), t.px(420)));
    for (const auto& v : all_variants()) {
      bool on = s.perf.picked.count(v.id) > 0;
      if (ImGui::Checkbox(v.id.c_str(), &on)) {
        if (on) s.perf.picked.insert(v.id);
        else s.perf.picked.erase(v.id);
      }
    }
    ImGui::EndChild();
    ImGui::EndPopup();
  }
  const float combo_extra = ImGui::GetStyle().ItemInnerSpacing.x;
  SameLineIfFits(t.px(170) + combo_extra + ImGui::CalcTextSize("baseline").x);
  ImGui::SetNextItemWidth(t.px(170));
  const std::string base_label = s.perf.baseline.empty() ? "first correct" : s.perf.baseline;
  if (ImGui::BeginCombo("baseline", base_label.c_str())) {
    if (ImGui::Selectable("first correct", s.perf.baseline.empty())) s.perf.baseline.clear();
    for (const auto& r : rows)
      if (ImGui::Selectable(r.variant.c_str(), s.perf.baseline == r.variant)) s.perf.baseline = r.variant;
    ImGui::EndCombo();
  }
  SameLineIfFits(t.px(170) + combo_extra + ImGui::CalcTextSize("bars").x);
  ImGui::SetNextItemWidth(t.px(170));
  ImGui::Combo("bars", &s.perf.bar_metric, compare_metric_names(), int(CompareMetric::Count));
  SameLineIfFits(ButtonWidth("CSV"));
  if (ImGui::Button("CSV")) {
    const std::string path = (std::filesystem::path(s.perf.export_dir) / "warpscope-compare.csv").string();
    if (std::string err = write_text_file(path, compare_csv(rows)); !err.empty()) s.message(Message::Error, err);
    else s.message(Message::Info, "wrote " + path);
  }
  ItemTooltip("export this table as CSV (warpscope-compare.csv in the export folder)");
  SameLineIfFits(ButtonWidth("PNG"));
  if (ImGui::Button("PNG")) s.perf.png_request = (std::filesystem::path(s.perf.export_dir) / "warpscope-compare.png").string();
  ItemTooltip("save this view as a PNG for slides (warpscope-compare.png in the export folder)");
}

void CompareView::draw_table(AppState& s, const std::vector<CompareRow>& rows) {
  const Theme& t = theme();
  const Palette& pal = t.colors();
  const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH |
                                ImGuiTableFlags_ScrollY | ImGuiTableFlags_ScrollX | ImGuiTableFlags_SizingFixedFit |
                                ImGuiTableFlags_PadOuterX | ImGuiTableFlags_Resizable;
  // The measured (CUPTI) columns show when some run has metrics; otherwise one line says how to get them.
  bool measured = false;
  for (const auto& r : rows) measured |= r.occupancy || r.lanes || r.conflicts_per_ld || r.atomics;
  if (!measured)
    TextDim("Measured columns (occupancy, lanes per instruction, bank conflicts, atomics) appear for runs with "
            "CUPTI metrics; the purple sim columns are predictions of the thread-level model.", true);
  if (!ImGui::BeginTable("compare", CCount, flags)) return;
  ImGui::TableSetupScrollFreeze(1, 1);
  for (int c = 0; c < CCount; ++c) {
    ImGuiTableColumnFlags f = c == CVariant ? ImGuiTableColumnFlags_DefaultSort : 0;
    if (c == CBar) f |= ImGuiTableColumnFlags_NoSort;
    if (!measured && c >= COcc && c <= CAtom) f |= ImGuiTableColumnFlags_Disabled;
    ImGui::TableSetupColumn(kHeaders[c], f, c == CBar ? t.px(110) : 0.f);
  }
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  for (int c = 0; c < CCount; ++c) {
    if (!ImGui::TableSetColumnIndex(c)) continue;
    const bool predicted = c >= CPDiv && c <= CPAtom;
    if (predicted) ImGui::PushStyleColor(ImGuiCol_Text, pal.cpu);
    ImGui::TableHeader(kHeaders[c]);
    if (predicted) ImGui::PopStyleColor();
    ItemTooltip(kTips[c]);
  }

  std::vector<int> order(rows.size());
  std::iota(order.begin(), order.end(), 0);
  if (ImGuiTableSortSpecs* spec = ImGui::TableGetSortSpecs(); spec && spec->SpecsCount > 0) {
    const int col = spec->Specs[0].ColumnIndex;
    const bool desc = spec->Specs[0].SortDirection == ImGuiSortDirection_Descending;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      const double ka = sort_key(rows[std::size_t(a)], col, a), kb = sort_key(rows[std::size_t(b)], col, b);
      return desc ? ka > kb : ka < kb;
    });
  }
  const CompareMetric bar = CompareMetric(std::clamp(s.perf.bar_metric, 0, int(CompareMetric::Count) - 1));
  double bar_max = 0;
  for (const auto& r : rows)
    if (auto v = compare_value(r, bar)) bar_max = std::max(bar_max, *v);

  for (int i : order) {
    const CompareRow& r = rows[std::size_t(i)];
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(CVariant);
    if (r.best) ImGui::PushStyleColor(ImGuiCol_Text, pal.ok);
    ImGui::TextUnformatted(r.variant.c_str());
    if (r.best) {
      ImGui::PopStyleColor();
      ImGui::SameLine();
      Badge("best", pal.ok);
    }
    if (s.perf.baseline == r.variant || (s.perf.baseline.empty() && r.speedup == 1.0)) {
      ImGui::SameLine();
      Badge("base", pal.baseline);
    }
    ImGui::TableSetColumnIndex(CN);
    TextRight(r.run ? format_count(r.run->n) : "--");
    ImGui::TableSetColumnIndex(CTime);
    TextRight(r.timed ? format_ms(r.time_ms) : "--");
    ImGui::TableSetColumnIndex(CGbps);
    TextRight(r.timed ? format_gbps(r.gbps) : "--");
    ImGui::TableSetColumnIndex(CPeak);
    TextRight(r.timed ? format_pct(r.pct_peak) : "--");
    ImGui::TableSetColumnIndex(CSpeedup);
    TextRight(r.speedup > 0 ? format_significant(r.speedup, 3) + "x" : "--");
    ImGui::TableSetColumnIndex(CBar);
    if (auto v = compare_value(r, bar); v && bar_max > 0) {
      const ImVec2 p = ImGui::GetCursorScreenPos();
      const float w = ImGui::GetContentRegionAvail().x, h = ImGui::GetTextLineHeight();
      ImGui::GetWindowDrawList()->AddRectFilled(
          ImVec2(p.x, p.y + h * 0.15f), ImVec2(p.x + std::max(1.f, float(*v / bar_max) * w), p.y + h * 0.85f),
          ImGui::GetColorU32(r.best ? pal.ok : pal.accent));
      ImGui::Dummy(ImVec2(w, h));
    } else {
      TextDim("--");
    }
    ImGui::TableSetColumnIndex(COcc);
    TextRight(opt(r.occupancy, 0));
    ImGui::TableSetColumnIndex(CLanes);
    TextRight(opt(r.lanes, 1));
    ImGui::TableSetColumnIndex(CConfl);
    TextRight(opt(r.conflicts_per_ld, 2));
    ImGui::TableSetColumnIndex(CAtom);
    TextRight(opt(r.atomics, 0));
    ImGui::PushStyleColor(ImGuiCol_Text, pal.cpu);
    ImGui::TableSetColumnIndex(CPDiv);
    TextRight(opt(compare_value(r, CompareMetric::PredDivergent), 0));
    if (!r.predicted.have) ItemTooltip(r.predicted.why);
    ImGui::TableSetColumnIndex(CPWays);
    TextRight(r.predicted.have ? (r.predicted.worst_ways > 0 ? std::to_string(r.predicted.worst_ways) + "-way" : "no shared") : "--");
    ImGui::TableSetColumnIndex(CPAtom);
    TextRight(opt(compare_value(r, CompareMetric::PredAtomics), 0));
    ImGui::PopStyleColor();
    ImGui::TableSetColumnIndex(CCheck);
    if (r.run) {
      const ImVec4 c = r.run->status == "ok" ? pal.ok : (r.run->status == "race" || r.run->status == "slide-bug") ? pal.lesson : pal.bad;
      ImGui::PushStyleColor(ImGuiCol_Text, c);
      ImGui::TextUnformatted(r.run->status.c_str());
      ImGui::PopStyleColor();
      ItemTooltip(format_check(*r.run));
    } else {
      TextDim("no run");
    }
  }
  ImGui::EndTable();
}

void CompareView::draw_changes(AppState& s, const std::vector<CompareRow>& rows) {
  const Lesson* l = s.lesson();
  if (!l) return;
  SectionTitle("What changed, step by step");
  ImGui::BeginChild("changes", ImVec2(0, 0));
  const CompareRow* prev = nullptr;
  int shown = 0;
  for (const auto& step : l->steps) {
    const auto it = std::find_if(rows.begin(), rows.end(), [&](const CompareRow& r) { return r.variant == step.variant; });
    if (it == rows.end()) continue;
    if (prev) {
      ImGui::Bullet();
      ImGui::SameLine();
      ImGui::TextWrapped("%s", what_changed(*prev, *it).c_str());
      ++shown;
    }
    prev = &*it;
  }
  if (!shown) TextDim("Compare two or more variants of one lesson to see what changed between consecutive steps.", true);
  ImGui::EndChild();
}

}  // namespace ws::ui
