#include "views/view_compare.hpp"

#include <imgui.h>
#include <imgui_internal.h>  // TableSetColumnWidth: 1.86 has no public call to set a column's width

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <numeric>

#include "format.hpp"
#include "registry.hpp"
#include "views/slide_timings.hpp"
#include "views/view_registry.hpp"
#include "widgets/draw_shapes.hpp"
#include "widgets/layout_probe.hpp"
#include "widgets/plot_axis.hpp"
#include "widgets/theme.hpp"
#include "widgets/widgets.hpp"

namespace ws::ui {

using controller::chosen_variants;
using controller::code_diff_rows;
using controller::CodeDiffRow;
using controller::export_path;
using controller::export_policy;
using controller::format_check;
using controller::format_count;
using controller::format_gbps;
using controller::format_ms;
using controller::format_pct;
using controller::KernelEdit;
using controller::Message;
using controller::ViewActions;
using controller::ViewContext;

namespace {

// The check comes second, frozen with the variant: a wrong result is marked where the eye lands first,
// however far the measured columns scroll.
enum Col {
  CVariant,
  CCheck,
  CN,
  CTime,
  CGbps,
  CSlide,
  CPeak,
  CSpeedup,
  CBar,
  COcc,
  CLanes,
  CConfl,
  CAtom,
  CPDiv,
  CPWays,
  CPAtom,
  CCount
};
const char* const kHeaders[CCount] = {"variant", "check",      "n",        "time ms",  "GB/s",       "slide's",
                                      "% peak",  "speedup",    "bar",      "occ. %",   "lanes/inst", "confl./ld",
                                      "atomics", "sim div. %", "sim ways", "sim atom."};
const char* const kTips[CCount] = {
    "variant id (the best GB/s among correct runs is marked best; a run whose check is not ok is in its check's "
    "colour, never best, with no speedup)",
    "result checked against the CPU: ok, or race / slide-bug (the lesson's wrong answers, amber) or wrong (red)",
    "elements reduced",
    "median kernel time of the run (CUDA events)",
    "effective bandwidth: bytes read / median time",
    "the slide's own number on the slide's GPU (GTX 1060 in the EPITA lecture, GTX 280 in the Code Optimizations "
    "lecture), from assets/slides/timings.json: not measured here; hover a cell for its slide",
    "of the device's theoretical DRAM bandwidth",
    "baseline time / this time (same n only)",
    "the metric chosen above, as a bar",
    "measured (CUPTI): achieved occupancy, sm__warps_active.avg.pct_of_peak_sustained_active; -- when the run has no "
    "metrics",
    "measured (CUPTI): active lanes per warp instruction (32 = no divergence), "
    "smsp__average_thread_inst_executed_pred_on_per_inst_executed",
    "measured (CUPTI): shared-load bank conflicts per shared-load instruction, "
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum / smsp__inst_executed_op_shared_ld.sum",
    "measured (CUPTI): global atomic + reduction requests, l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum + "
    "_op_red.sum",
    "PREDICTED by the sim model of block 0: divergent warp-steps / active warp-steps",
    "PREDICTED by the sim model of block 0: the worst n-way shared bank conflict (1 = none)",
    "PREDICTED by the sim model of block 0: atomic operations the block makes"};

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
    case CSlide: return r.slide ? r.slide->value : -1;
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

/// "epita." when every row's id starts with that lesson prefix (the table then leaves it out), else "".
std::string common_prefix(const std::vector<CompareRow>& rows) {
  if (rows.empty()) return "";
  const auto dot = rows.front().variant.find('.');
  if (dot == std::string::npos) return "";
  const std::string p = rows.front().variant.substr(0, dot + 1);
  for (const auto& r : rows)
    if (r.variant.rfind(p, 0) != 0) return "";
  return p;
}

/// Whether every row ran at the same n (the n column is then left out and the caption says it).
bool uniform_n(const std::vector<CompareRow>& rows) {
  const RunResult* first = nullptr;
  for (const auto& r : rows) {
    if (!r.run) continue;
    if (first && r.run->n != first->n) return false;
    first = r.run;
  }
  return first != nullptr;
}

/// Height of a table row at the fit's text scale (the frozen header row is one).
float row_height(const CompareFit& fit) { return ImGui::GetFontSize() + 2 * fit.cell_pad_y + 1.f; }

/// Width of the bar column: narrower when the table must fit a projector.
float bar_width(float k) { return theme().px(k < 1.f ? 70.f : 110.f); }

/// The text of a cell as the table prints it ("" for the bar column, drawn as a bar).
std::string cell_text(const CompareRow& r, int col, const std::string& prefix = "") {
  switch (col) {
    case CVariant: return r.variant.substr(prefix.size());
    case CN: return r.run ? format_count(r.run->n) : "--";
    case CTime: return r.timed ? format_ms(r.time_ms) : "--";
    case CGbps: return r.timed ? format_gbps(r.gbps) : "--";
    case CSlide: return r.slide ? slide_timing_text(*r.slide) : "";  // the header names a common unit (slide_cell)
    case CPeak: return r.timed ? format_pct(r.pct_peak) : "--";
    case CSpeedup: return r.speedup > 0 ? format_significant(r.speedup, 3) + "x" : "--";
    case COcc: return opt(r.occupancy, 0);
    case CLanes: return opt(r.lanes, 1);
    case CConfl: return opt(r.conflicts_per_ld, 2);
    case CAtom: return opt(r.atomics, 0);
    case CPDiv: return opt(compare_value(r, CompareMetric::PredDivergent), 0);
    case CPWays:
      return r.predicted.have
                 ? (r.predicted.worst_ways > 0 ? std::to_string(r.predicted.worst_ways) + "-way" : "no shared")
                 : "--";
    case CPAtom: return opt(compare_value(r, CompareMetric::PredAtomics), 0);
    case CCheck: return r.run ? to_string(r.run->status) : "no run";
    default: return "";
  }
}

/// The unit every slide number of `rows` shares ("ms", "GB/s"), or "" when they differ or there are none.
std::string slide_unit(const std::vector<CompareRow>& rows) {
  std::string unit;
  for (const auto& r : rows)
    if (r.slide) {
      if (!unit.empty() && unit != r.slide->unit) return "";
      unit = r.slide->unit;
    }
  return unit;
}

/// The header of column c: "slide" when the rows' slide numbers share a unit (the caption names it
/// with the slide's GPU, the cells hold bare numbers), else "slide's" over cells with their units.
std::string header(int c, const std::string& unit) { return c == CSlide && !unit.empty() ? "slide" : kHeaders[c]; }

/// The slide cell: the number alone when the header names the unit.
std::string slide_cell(const CompareRow& r, const std::string& unit) {
  if (!r.slide) return "";
  if (unit.empty()) return slide_timing_text(*r.slide);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", r.slide->value);
  return buf;
}

bool slide_column(const std::vector<CompareRow>& rows) {
  for (const auto& r : rows)
    if (r.slide) return true;
  return false;
}

/// The colour of a run's check: ok green, the lesson's race and slide-bug amber, any other failure red.
ImVec4 status_colour(const RunResult& r) {
  const Palette& pal = theme().colors();
  if (r.status == RunStatus::Ok) return pal.ok;
  return r.status == RunStatus::Race || r.status == RunStatus::SlideBug ? pal.lesson : pal.bad;
}

bool measured_columns(const std::vector<CompareRow>& rows) {
  bool measured = false;
  for (const auto& r : rows) measured |= r.occupancy || r.lanes || r.conflicts_per_ld || r.atomics;
  return measured;
}

}  // namespace

CompareFit compare_table_fit(const std::vector<CompareRow>& rows, ImVec2 avail) {
  const ImGuiStyle& st = ImGui::GetStyle();
  const Theme& t = theme();
  const bool measured = measured_columns(rows);
  const bool slides = slide_column(rows);
  const std::string unit = slide_unit(rows);
  const std::string prefix = common_prefix(rows);
  const bool one_n = uniform_n(rows);
  // At scale 1: the widest text of each column (header included) and what does not scale with the
  // text (cell padding, the badges' padding, the bar column).
  float text_w = 0, fixed_w = 2 * st.CellPadding.x + st.ScrollbarSize;  // PadOuterX, the vertical scroll bar
  CompareFit fit;
  fit.text.assign(CCount, 0.f);
  fit.extra.assign(CCount, 0.f);
  for (int c = 0; c < CCount; ++c) {
    if ((!measured && c >= COcc && c <= CAtom) || (one_n && c == CN) || (!slides && c == CSlide)) continue;
    if (c == CBar) {
      fixed_w += bar_width(0.f) + 2 * st.CellPadding.x + 1.f;
      continue;
    }
    // A sortable header keeps room for its arrow (0.65 of the text size plus frame padding).
    float w = ImGui::CalcTextSize(header(c, unit).c_str()).x + 0.65f * ImGui::GetFontSize();
    float fixed = st.FramePadding.x;
    float column_extra = st.FramePadding.x;  // what the widest cell adds to its text: the header's arrow padding
    for (const auto& r : rows) {
      float cw = ImGui::CalcTextSize((c == CSlide ? slide_cell(r, unit) : cell_text(r, c, prefix)).c_str()).x;
      float cf = 0;
      if (c == CVariant) {  // badges: text plus their own padding and spacing (the baseline's speedup is 1)
        if (r.best) cw += ImGui::CalcTextSize("best").x, cf += 2 * t.px(6) + st.ItemSpacing.x;
        if (r.speedup == 1.0) cw += ImGui::CalcTextSize("base").x, cf += 2 * t.px(6) + st.ItemSpacing.x;
      }
      // The widest cell counts its badges' padding too (a short name with badges may outgrow a long one).
      if (cw + cf > w + column_extra) w = cw, fixed = std::max(fixed, cf), column_extra = cf;
    }
    fit.text[std::size_t(c)] = w;
    fit.extra[std::size_t(c)] = column_extra;
    text_w += w;
    fixed_w += 2 * st.CellPadding.x + fixed + 1.f;
  }
  const float lines = float(rows.size() + 1);
  const float kw = (avail.x - fixed_w) / std::max(text_w, 1.f) * 0.98f;
  // Wider than the view even at the smallest text: a horizontal scroll bar takes its height.
  fit.scrolls_x = kw < kMinTextFraction;
  const float rows_h = avail.y - (fit.scrolls_x ? st.ScrollbarSize : 0.f);
  // Rows lose most of their padding before the text goes below its smallest size.
  for (float pad : {st.CellPadding.y, std::max(1.f, t.px(1.5f))}) {
    fit.cell_pad_y = pad;
    const float kh = (rows_h - lines * (2 * pad + 1.f)) / (lines * ImGui::GetFontSize());
    fit.scale = std::clamp(std::min(kw, kh), kMinTextFraction, 1.f);
    if (kh >= kMinTextFraction) break;
  }
  return fit;
}

const std::map<std::string, Predicted>& CompareView::predictions(const ViewContext& c,
                                                                 const std::vector<std::string>& ids) {
  const std::string key = std::to_string(c.params.n()) + "|" + to_string(c.params.type);
  if (key != predicted_key_) predicted_.clear(), predicted_key_ = key;
  for (const auto& id : ids) {
    if (predicted_.count(id)) continue;
    if (const VariantInfo* v = find_variant(id)) predicted_[id] = predict(*v, c.params.n(), c.params.type);
  }
  return predicted_;
}

void CompareView::draw(const ViewContext& c, ViewActions& act) {
  const Report& rep = c.shown;
  // An edited copy's run (the Source view's editor) sits right under its original.
  const std::vector<std::string> ids = with_edited_runs(rep, chosen_variants(c.perf, c.lesson));
  std::vector<CompareRow> rows = build_compare(rep, ids, c.perf.baseline, predictions(c, ids));
  std::string slides_error;
  const std::vector<SlideTiming>& slides = slide_timings(&slides_error);
  for (auto& r : rows) r.slide = find_slide_timing(slides, r.variant);
  if (!slides_error.empty() && slides_error != slides_error_shown_) {
    act.say(Message::Warning, "Compare shows no slide timings: " + slides_error);
    slides_error_shown_ = slides_error;
  }
  if (!Handout()) draw_controls(c, act, rows);
  if (rows.empty()) {
    TextDim("Nothing to compare: pick variants (Pick...) or select a lesson.", true);
    return;
  }
  bool any_run = false;
  for (const auto& r : rows) any_run |= r.run != nullptr;
  if (!any_run)
    TextDim(
        "The report shown has no runs of these variants: run them (Run lesson), or open a report recorded on a GPU. "
        "The predicted (sim) columns are filled anyway.",
        true);
  if (!measured_columns(rows) && !c.perf.present.focus && !Handout())
    TextEllipsis(
        "purple sim columns: predictions of the thread-level model; measured (CUPTI) columns appear for runs "
        "with metrics",
        ImGui::GetContentRegionAvail().x, &theme().colors().text_dim);
  // The whole table in view: its text shrinks (to 0.7 of the body text at the least) before anything
  // scrolls; "what changed" gets the lines left under it.
  // In focus mode too: a scene that compares steps points at both (Harris 13, amp 11).
  const float changes_min = ImGui::GetTextLineHeightWithSpacing() * 3.5f;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const CompareFit fit = compare_table_fit(rows, ImVec2(avail.x, avail.y - changes_min));
  const float k = fit.scale;
  const ImGuiStyle& st = ImGui::GetStyle();
  const float row_h = ImGui::GetFontSize() * k + 2 * fit.cell_pad_y + 1.f;
  const float table_h =
      std::min(avail.y - changes_min, row_h * float(rows.size() + 1) + (fit.scrolls_x ? st.ScrollbarSize : 2.f));
  ImGui::BeginChild("compare_table", ImVec2(0, std::max(theme().px(100), table_h)));
  ImGui::SetWindowFontScale(k);
  layout_probe().text(ImGui::GetFontSize());  // the table's text, scaled to fit
  ImGui::PushStyleVar(ImGuiStyleVar_CellPadding, ImVec2(st.CellPadding.x, fit.cell_pad_y));
  draw_table(c, rows, fit);
  ImGui::PopStyleVar();
  ImGui::SetWindowFontScale(1.f);
  ImGui::EndChild();
  draw_changes(c, rows);
}

void CompareView::draw_controls(const ViewContext& c, ViewActions& act, const std::vector<CompareRow>& rows) {
  const Theme& t = theme();
  ImGui::AlignTextToFramePadding();
  const std::string src = c.showing_replay ? std::filesystem::path(c.replay_path).filename().string() : "this session";
  std::string n_note;  // the n column is left out when every run has the same n: the caption says it
  if (uniform_n(rows))
    for (const auto& r : rows)
      if (r.run) {
        n_note = "  \u00b7  n = " + format_count(r.run->n);
        break;
      }
  // Focus mode keeps the controls on one line: the report's name moves to the tooltip.
  std::string slide_devices;  // the GPUs of the slide's column, named once in the caption
  for (const auto& r : rows)
    if (r.slide && slide_devices.find(r.slide->device) == std::string::npos)
      slide_devices += (slide_devices.empty() ? "" : ", ") + r.slide->device;
  TextDim(std::to_string(rows.size()) + (c.perf.picked.empty() ? " variants" : " picked") +
          (c.perf.present.focus ? "" : "  \u00b7  " + src) + n_note);
  if (!slide_devices.empty()) {
    ImGui::SameLine();
    const std::string unit = slide_unit(rows);
    ImGui::TextColored(t.colors().lesson, "\u00b7 slide: %s%s", slide_devices.c_str(),
                       unit.empty() ? "" : (", " + unit).c_str());
    ItemTooltip("the amber column holds the slide's own numbers, measured on the slide's GPU, not on this one");
  }
  ItemTooltip(std::to_string(rows.size()) + (c.perf.picked.empty() ? " variants of the lesson" : " picked variants") +
              ", runs from " + src);
  SameLineIfFits(ButtonWidth("Pick..."));
  if (ImGui::Button("Pick...")) ImGui::OpenPopup("compare_pick");
  ItemTooltip("choose the variants to compare (none picked = the selected lesson's)");
  if (ImGui::BeginPopup("compare_pick")) {
    if (ImGui::SmallButton("lesson only (clear picks)")) act.perf().picked.clear();
    ImGui::SameLine();
    if (ImGui::SmallButton("all")) {
      for (const auto& v : all_variants()) act.perf().picked.insert(v.id);
    }
    ImGui::BeginChild("pick_list", ImVec2(t.px(360), t.px(420)));
    for (const auto& v : all_variants()) {
      bool on = c.perf.picked.count(v.id) > 0;
      if (ImGui::Checkbox(v.id.c_str(), &on)) {
        if (on)
          act.perf().picked.insert(v.id);
        else
          act.perf().picked.erase(v.id);
      }
    }
    ImGui::EndChild();
    ImGui::EndPopup();
  }
  const float combo_extra = ImGui::GetStyle().ItemInnerSpacing.x;
  SameLineIfFits(t.px(170) + combo_extra + ImGui::CalcTextSize("baseline").x);
  ImGui::SetNextItemWidth(t.px(170));
  const std::string base_label = c.perf.baseline.empty() ? "first correct" : c.perf.baseline;
  if (ImGui::BeginCombo("baseline", base_label.c_str())) {
    if (ImGui::Selectable("first correct", c.perf.baseline.empty())) act.perf().baseline.clear();
    for (const auto& r : rows)  // a wrong answer stays choosable, but says what it is
      if (ImGui::Selectable((r.variant + (r.flagged ? "  (" + flag_text(r) + ")" : "")).c_str(),
                            c.perf.baseline == r.variant))
        act.perf().baseline = r.variant;
    ImGui::EndCombo();
  }
  SameLineIfFits(t.px(170) + combo_extra + ImGui::CalcTextSize("bars").x);
  ImGui::SetNextItemWidth(t.px(170));
  ImGui::Combo("bars", &act.perf().bar_metric, compare_metric_names(), int(CompareMetric::Count));
  SameLineIfFits(ButtonWidth("CSV"));
  if (ImGui::Button("CSV")) {
    const std::string path = export_path(c.perf, "warpscope-compare.csv");
    if (std::string err = write_text_file(path, compare_csv(rows), export_policy(c.perf)); !err.empty())
      act.say(Message::Error, err);
    else
      act.say(Message::Info, "wrote " + path);
  }
  ItemTooltip("export this table as CSV (warpscope-compare.csv in the export folder)");
  SameLineIfFits(ButtonWidth("PNG"));
  if (ImGui::Button("PNG")) act.perf().png_request = export_path(c.perf, "warpscope-compare.png");
  ItemTooltip("save this view as a PNG for slides (warpscope-compare.png in the export folder)");
}

void CompareView::draw_table(const ViewContext& c, const std::vector<CompareRow>& rows, const CompareFit& fit) {
  const float k = fit.scale;
  const Theme& t = theme();
  const Palette& pal = t.colors();
  const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH |
                                ImGuiTableFlags_ScrollY | ImGuiTableFlags_ScrollX | ImGuiTableFlags_SizingFixedFit |
                                ImGuiTableFlags_PadOuterX | ImGuiTableFlags_Resizable;
  // The measured (CUPTI) columns show when some run has metrics; otherwise one line says how to get them.
  const bool measured = measured_columns(rows);
  const bool slides = slide_column(rows);
  const std::string unit = slide_unit(rows);
  const std::string prefix = common_prefix(rows);
  const bool one_n = uniform_n(rows);
  if (!ImGui::BeginTable("compare", CCount, flags)) return;
  layout_probe().text(ImGui::GetFontSize());
  const ImVec2 table_min = ImGui::GetCursorScreenPos();
  ImGui::TableSetupScrollFreeze(2, 1);  // the variant and its check stay while the rest scrolls
  for (int c = 0; c < CCount; ++c) {
    ImGuiTableColumnFlags f = c == CVariant ? ImGuiTableColumnFlags_DefaultSort : 0;
    if (c == CBar) f |= ImGuiTableColumnFlags_NoSort;
    if ((!measured && c >= COcc && c <= CAtom) || (one_n && c == CN) || (!slides && c == CSlide))
      f |= ImGuiTableColumnFlags_Disabled;
    ImGui::TableSetupColumn(header(c, unit).c_str(), f, c == CBar ? bar_width(k) : fit.column_width(c));
  }
  // The widths follow the text scale and the contents (a run arriving, another baseline); between
  // changes a column keeps what the lecturer dragged it to.
  widths_.resize(CCount, 0.f);
  for (int c = 0; c < CCount; ++c) {
    const float w = c == CBar ? bar_width(k) : fit.column_width(c);
    if (w > 0 && std::fabs(w - widths_[std::size_t(c)]) > 0.5f &&
        (ImGui::TableGetColumnFlags(c) & ImGuiTableColumnFlags_IsEnabled))
      ImGui::TableSetColumnWidth(c, w);
    widths_[std::size_t(c)] = w;
  }
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  for (int c = 0; c < CCount; ++c) {
    if (!ImGui::TableSetColumnIndex(c)) continue;
    const bool predicted = c >= CPDiv && c <= CPAtom;
    if (predicted) ImGui::PushStyleColor(ImGuiCol_Text, pal.cpu);
    ImGui::TableHeader(header(c, unit).c_str());
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
  const CompareMetric bar = CompareMetric(std::clamp(c.perf.bar_metric, 0, int(CompareMetric::Count) - 1));
  // The bars' scale: the rows checked ok (a wrong answer's bar runs off it, marked, rather than
  // shrinking every correct bar); all rows only when none is ok.
  double bar_max = 0, bar_max_all = 0;
  for (const auto& r : rows)
    if (auto v = compare_value(r, bar)) {
      bar_max_all = std::max(bar_max_all, *v);
      if (!r.flagged) bar_max = std::max(bar_max, *v);
    }
  if (bar_max <= 0) bar_max = bar_max_all;

  int check_cells = 0, flagged_marked = 0, flagged_best = 0, flagged_rows = 0;
  for (int i : order) {
    const CompareRow& r = rows[std::size_t(i)];
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(CVariant);
    // A wrong answer is marked in the frozen first column, where the eye lands, in its check's colour.
    const ImVec4 flag_col = r.flagged ? status_colour(*r.run) : pal.ok;
    if (r.best || r.flagged) ImGui::PushStyleColor(ImGuiCol_Text, flag_col);
    ImGui::TextUnformatted(cell_text(r, CVariant, prefix).c_str());
    if (const VariantInfo* sel = c.variant; sel && sel->id == r.variant) {
      // The selected variant's row (a scene's, n/p's): lightly highlighted, and scrolled into view.
      ImVec4 hl = pal.accent;
      hl.w = HighContrast() ? 0.16f : 0.30f;  // dark enough for every text colour on it at 7:1
      ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, ImGui::GetColorU32(hl));
      const float top = ImGui::GetWindowPos().y + row_height(fit),
                  bottom = ImGui::GetWindowPos().y + ImGui::GetWindowHeight() -
                           (fit.scrolls_x ? ImGui::GetStyle().ScrollbarSize : 0.f);
      const bool shown = ImGui::GetItemRectMin().y >= top - 1.f && ImGui::GetItemRectMax().y <= bottom + 1.f;
      if (!shown && scrolled_to_ != r.variant) ImGui::SetScrollHereY(0.5f);
      scrolled_to_ = r.variant;
      layout_probe().counts["compare selected row visible"] = shown;
    }
    if (!prefix.empty() || r.flagged)
      ItemTooltip(r.variant + (r.flagged ? ": " + format_check(*r.run) + "; its time is of a wrong answer" : ""));
    // Badges as tall as the text, so their rows are no taller than the others.
    ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(ImGui::GetStyle().FramePadding.x, 0.f));
    if (r.best || r.flagged) ImGui::PopStyleColor();
    flagged_best += r.flagged && r.best;
    if (r.best) {
      ImGui::SameLine();
      Badge("best", pal.ok);
    }
    if (c.perf.baseline == r.variant || (c.perf.baseline.empty() && r.speedup == 1.0)) {
      ImGui::SameLine();
      Badge("base", pal.baseline);
    }
    ImGui::PopStyleVar();
    if (ImGui::TableSetColumnIndex(CCheck)) {
      if (r.run) {
        ImGui::PushStyleColor(ImGuiCol_Text, status_colour(*r.run));
        ImGui::TextUnformatted(to_string(r.run->status));
        ImGui::PopStyleColor();
        ItemTooltip(format_check(*r.run));
      } else {
        TextDim("no run");
      }
      // Marked in the frozen columns: the name and its check in the check's colour, both always in view.
      flagged_marked += r.flagged && (ImGui::TableGetColumnFlags(CVariant) & ImGuiTableColumnFlags_IsVisible) &&
                        (ImGui::TableGetColumnFlags(CCheck) & ImGuiTableColumnFlags_IsVisible);
    }
    for (int c : {CN, CTime, CGbps, CPeak, CSpeedup})
      if (ImGui::TableSetColumnIndex(c)) TextRight(cell_text(r, c));
    if (ImGui::TableSetColumnIndex(CSlide) && r.slide) {  // marked as the slide's: its colour, its GPU, a tooltip
      ImGui::PushStyleColor(ImGuiCol_Text, pal.lesson);
      TextRight(slide_cell(r, unit));
      ImGui::PopStyleColor();
      ItemTooltip(slide_timing_source(*r.slide));
    }
    ImGui::TableSetColumnIndex(CBar);
    flagged_rows += r.flagged;
    if (auto v = compare_value(r, bar); v && bar_max > 0) {
      const ImVec2 p = ImGui::GetCursorScreenPos();
      const float w = ImGui::GetContentRegionAvail().x, h = ImGui::GetTextLineHeight();
      const ImVec2 lo(p.x, p.y + h * 0.15f), hi(p.x + std::clamp(float(*v / bar_max) * w, 1.f, w), p.y + h * 0.85f);
      ImDrawList* dl = ImGui::GetWindowDrawList();
      if (r.flagged) {  // a wrong answer's bar: hatched in its check's colour, an arrow where it runs off the scale
        const ImU32 c = ImGui::GetColorU32(status_colour(*r.run));
        HatchedRect(dl, lo, hi, c, t.px(2));
        if (*v > bar_max)
          dl->AddTriangleFilled(ImVec2(hi.x, (lo.y + hi.y) / 2), ImVec2(hi.x - h * 0.35f, lo.y),
                                ImVec2(hi.x - h * 0.35f, hi.y), c);
      } else {
        dl->AddRectFilled(lo, hi, ImGui::GetColorU32(r.best ? pal.ok : pal.accent));
      }
      ImGui::Dummy(ImVec2(w, h));
    } else {
      TextDim("--");
    }
    for (int c : {COcc, CLanes, CConfl, CAtom})
      if (ImGui::TableSetColumnIndex(c)) TextRight(cell_text(r, c));
    ImGui::PushStyleColor(ImGuiCol_Text, pal.cpu);
    for (int c : {CPDiv, CPWays, CPAtom})
      if (ImGui::TableSetColumnIndex(c)) {
        TextRight(cell_text(r, c));
        if (!r.predicted.have) ItemTooltip(r.predicted.why);
      }
    ImGui::PopStyleColor();
    if (!ImGui::TableSetColumnIndex(CCount - 1)) continue;
    // Scrolled out of view, a column still takes its cells (ImGui keeps them for auto-fit): count only
    // the rows whose last column is visible.
    check_cells += (ImGui::TableGetColumnFlags(CCount - 1) & ImGuiTableColumnFlags_IsVisible) != 0;
    // The table's extent as drawn: its first cell to the right end of this row's last column.
    layout_probe().picture(
        "compare table", table_min,
        ImVec2(ImGui::GetItemRectMax().x, ImGui::GetItemRectMax().y + ImGui::GetStyle().CellPadding.y));
  }
  layout_probe().counts["compare rows"] = int(rows.size());
  layout_probe().counts["compare wrong rows"] = flagged_rows;
  layout_probe().counts["compare wrong rows marked in the frozen columns"] = flagged_marked;
  layout_probe().counts["compare wrong rows marked best"] = flagged_best;
  layout_probe().counts["compare rows with every column"] = check_cells;
  layout_probe().counts["compare variant column shown"] =
      (ImGui::TableGetColumnFlags(CVariant) & ImGuiTableColumnFlags_IsVisible) != 0;
  // Wider than its view: the table scrolls sideways (the variant column stays), never clips a column.
  layout_probe().counts["compare scroll x"] = int(ImGui::GetScrollX());
  layout_probe().counts["compare scroll max x"] = int(ImGui::GetScrollMaxX());
  layout_probe().picture(
      "compare table view", ImGui::GetWindowPos(),
      ImVec2(ImGui::GetWindowPos().x + ImGui::GetWindowWidth(), ImGui::GetWindowPos().y + ImGui::GetWindowHeight()));
  ImGui::EndTable();
}

void CompareView::draw_changes(const ViewContext& c, const std::vector<CompareRow>& rows) {
  const Lesson* l = c.lesson;
  if (!l) return;
  SectionTitle("What changed, step by step");
  ImGui::BeginChild("changes", ImVec2(0, 0));
  // First each edited copy against its original (what the user just did): its effect in numbers, its code diff.
  int shown = 0;
  for (const auto& r : rows) {
    const auto paren = r.variant.find(" (edited)");
    if (paren == std::string::npos) continue;
    const auto base = std::find_if(rows.begin(), rows.end(),
                                   [&](const CompareRow& o) { return o.variant == r.variant.substr(0, paren); });
    if (base == rows.end()) continue;
    ImGui::Bullet();
    ImGui::SameLine();
    ImGui::TextWrapped("%s", what_changed(*base, r).c_str());
    if (const KernelEdit::RanText* ran = c.edit.ran_text(r.variant)) draw_code_diff(r.variant, *ran);
    ++shown;
  }
  const CompareRow* prev = nullptr;
  for (const auto& step : l->steps) {
    const auto it =
        std::find_if(rows.begin(), rows.end(), [&](const CompareRow& r) { return r.variant == step.variant; });
    if (it == rows.end()) continue;
    if (prev) {
      ImGui::Bullet();
      ImGui::SameLine();
      ImGui::TextWrapped("%s", keep_quantities_together(what_changed(*prev, *it)).c_str());
      ++shown;
    }
    prev = &*it;
  }
  if (!shown)
    TextDim("Compare two or more variants of one lesson to see what changed between consecutive steps.", true);
  ImGui::EndChild();
}

void CompareView::draw_code_diff(const std::string& label, const KernelEdit::RanText& ran) {
  const Theme& th = theme();
  const Palette& p = th.colors();
  CodeDiff& d = code_diffs_[label];
  if (d.original != ran.original || d.text != ran.text || (d.rows.empty() && d.original.empty()))
    d = CodeDiff{ran.original, ran.text, code_diff_rows(ran.original, ran.text)};
  int added = 0, removed = 0;
  for (const CodeDiffRow& r : d.rows) added += r.kind == CodeDiffRow::Added, removed += r.kind == CodeDiffRow::Removed;
  ImGui::Indent(th.px(24));
  if (d.rows.empty()) {
    TextDim("code: the same lines as the copy of the slide's kernel", true);
    ImGui::Unindent(th.px(24));
    return;
  }
  const std::string base = label.substr(0, label.find(" ("));
  TextDim("code: " + std::to_string(added) + " line" + (added == 1 ? "" : "s") + " added, " + std::to_string(removed) +
              " removed against the copy of " + base + " (numbers: the copy's, then the edited text's)",
          true);
  ImGui::PushFont(th.fonts().mono);
  layout_probe().text(ImGui::GetFontSize());
  const float line_h = ImGui::GetTextLineHeightWithSpacing();
  const float num_w = ImGui::CalcTextSize("0000").x;
  const float width = ImGui::GetContentRegionAvail().x;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 top = ImGui::GetCursorScreenPos();
  constexpr std::size_t kMaxRows = 80;  // a rewritten file is read in the editor, not here
  for (std::size_t i = 0; i < d.rows.size() && i < kMaxRows; ++i) {
    const CodeDiffRow& r = d.rows[i];
    const ImVec2 o = ImGui::GetCursorScreenPos();
    if (r.kind == CodeDiffRow::Gap) {
      TextDim("      ... " + std::to_string(r.skipped) + " unchanged line" + (r.skipped == 1 ? "" : "s"));
      continue;
    }
    const bool add = r.kind == CodeDiffRow::Added, del = r.kind == CodeDiffRow::Removed;
    const ImVec4& fg = add ? p.ok : del ? p.bad : p.text_dim;
    if (add || del)
      dl->AddRectFilled(o, ImVec2(o.x + width, o.y + line_h), ImGui::GetColorU32(ImVec4(fg.x, fg.y, fg.z, 0.16f)));
    const std::string a = r.old_line ? std::to_string(r.old_line) : "",
                      b = r.new_line ? std::to_string(r.new_line) : "";
    ImGui::SetCursorScreenPos(ImVec2(o.x + num_w - ImGui::CalcTextSize(a.c_str()).x, o.y));
    ImGui::TextColored(p.text_dim, "%s", a.c_str());
    ImGui::SameLine(0, 0);
    ImGui::SetCursorScreenPos(ImVec2(o.x + 2 * num_w + th.px(8) - ImGui::CalcTextSize(b.c_str()).x, o.y));
    ImGui::TextColored(p.text_dim, "%s", b.c_str());
    ImGui::SameLine(0, 0);
    ImGui::SetCursorScreenPos(ImVec2(o.x + 2 * num_w + th.px(20), o.y));
    ImGui::TextColored(add || del ? fg : p.text, "%s %s", add ? "+" : del ? "-" : " ", r.text.c_str());
  }
  if (d.rows.size() > kMaxRows)
    TextDim("      ... " + std::to_string(d.rows.size() - kMaxRows) +
            " more rows: the editor marks every changed line");
  layout_probe().picture("compare code diff", top, ImVec2(top.x + width, ImGui::GetCursorScreenPos().y));
  ImGui::PopFont();
  ImGui::Unindent(th.px(24));
}

/// The Compare tab.
/// Its tab stands at position 110 (all_views() sorts by it).
ViewInfo compare_view_info() { return make_view_info<CompareView>(110, "compare", "Compare", false); }

}  // namespace ws::ui
