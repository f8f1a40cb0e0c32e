#include "results_table.hpp"

#include <algorithm>
#include <filesystem>
#include <numeric>
#include <utility>

#include "format.hpp"
#include "registry.hpp"
#include "sanitizer.hpp"
#include "widgets/layout_probe.hpp"
#include "widgets/theme.hpp"
#include "widgets/widgets.hpp"

namespace ws::ui {

using controller::format_check;
using controller::format_count;
using controller::format_created;
using controller::format_gbps;
using controller::format_grouped;
using controller::format_launch;
using controller::format_ms;
using controller::format_pct;
using controller::format_time_tooltip;
using controller::short_id;
using controller::ViewActions;
using controller::ViewContext;

namespace {

/// Up to this many rows the table builds every row (and check cells may wrap to two lines).
constexpr std::size_t kUnclippedRows = 200;

enum Column { ColIndex, ColVariant, ColN, ColType, ColLaunch, ColTime, ColGbps, ColPeak, ColCopy, ColCheck, ColCount };
const char* const kHeaders[ColCount] = {"#",       "variant", "n",      "type",   "block \u00d7 grid",
                                        "time ms", "GB/s",    "% peak", "% copy", "check"};

int status_rank(RunStatus status) {
  if (status == RunStatus::Ok) return 0;
  if (status == RunStatus::Race) return 1;
  if (status == RunStatus::SlideBug) return 2;
  if (status == RunStatus::Wrong) return 3;
  return 4;  // error
}

bool is_lesson_status(const RunResult& r) { return r.status == RunStatus::Race || r.status == RunStatus::SlideBug; }
bool is_bad_status(const RunResult& r) { return is_failure(r.status); }

ImVec4 status_color(const RunResult& r) {
  const Palette& p = theme().colors();
  if (r.status == RunStatus::Ok) return p.ok;
  if (is_lesson_status(r)) return p.lesson;
  return p.bad;
}

/// -1, 0, 1 comparison of two runs by one column; untimed runs sort after timed ones.
int compare(const RunResult& a, const RunResult& b, int column, int ia, int ib) {
  auto cmp = [](auto x, auto y) { return x < y ? -1 : (y < x ? 1 : 0); };
  auto timed_cmp = [&](double x, double y) {
    const bool hx = a.timed && x > 0, hy = b.timed && y > 0;
    if (hx != hy) return hx ? -1 : 1;
    return cmp(x, y);
  };
  switch (column) {
    case ColVariant: return cmp(a.variant, b.variant);
    case ColN: return cmp(a.n, b.n);
    case ColType: return cmp(int(a.type), int(b.type));
    case ColLaunch:
      return a.launch.block != b.launch.block ? cmp(a.launch.block, b.launch.block) : cmp(a.launch.grid, b.launch.grid);
    case ColTime: return timed_cmp(a.timing.median_ms, b.timing.median_ms);
    case ColGbps: return timed_cmp(a.gbps, b.gbps);
    case ColPeak: return timed_cmp(a.pct_theoretical, b.pct_theoretical);
    case ColCopy: return timed_cmp(a.pct_copy, b.pct_copy);
    case ColCheck: return cmp(status_rank(a.status), status_rank(b.status));
    default: return cmp(ia, ib);
  }
}

/// A header cell with its label right-aligned (numbers are right-aligned below it).
void header_cell(const char* label, bool right) {
  if (right) {
    const ImGuiStyle& st = ImGui::GetStyle();
    const float arrow = ImGui::GetFontSize() * 0.65f + st.FramePadding.x + st.ItemInnerSpacing.x;
    const float pad = ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize(label, nullptr, true).x - arrow;
    if (pad > 0) ImGui::SetCursorPosX(ImGui::GetCursorPosX() + pad);
  }
  ImGui::TableHeader(label);
}

/// The texts of the fixed-width cells of one run, as drawn (for width estimates).
std::string cell_text(const RunResult& run, int column, bool local) {
  switch (column) {
    case ColIndex: return "00";
    case ColVariant: return local ? short_id(run.variant) : run.variant;
    case ColN: return format_count(run.n);
    case ColType: return to_string(run.type);
    case ColLaunch: return format_launch(run.launch);
    case ColTime: return run.timed ? format_ms(run.timing.median_ms) : "-";
    case ColGbps: return run.timed ? format_gbps(run.gbps) : "-";
    case ColCopy: return run.timed ? format_pct(run.pct_copy) : "-";
    default: return "";
  }
}

/// The verdict's colour: amber for findings on a racy variant (the lesson), red for findings anywhere
/// else, dim when a tool did not run or a racy run passed them all, green when a correct one did.
ImVec4 sanitizer_color(const RunResult& run) {
  const Palette& p = theme().colors();
  bool findings = false, missing = false;
  for (const SanitizerToolVerdict* t : {&run.sanitizer.memcheck, &run.sanitizer.racecheck, &run.sanitizer.synccheck}) {
    findings = findings || (t->present && t->findings() > 0);
    missing = missing || (t->present && !t->ran);
  }
  if (findings) return run.racy ? p.lesson : p.bad;
  return missing || run.racy ? p.text_dim : p.ok;  // a racy run the tools pass: their blind spot, not a pass
}

/// compute-sanitizer's verdict under the check ("racecheck: 18 shared-memory hazards (RAW 2, WAW 1) ·
/// memcheck, synccheck clean"), wrapped in the cell, or on one line in a long (clipped) table; hover says what
/// each tool found and what it can and cannot see.
void draw_sanitizer(const RunResult& run, bool one_line) {
  const std::string text = format_sanitizer(run.sanitizer, run.racy);
  ImVec4 color = sanitizer_color(run);
  ImGui::PushStyleColor(ImGuiCol_Text, color);
  if (one_line) {
    ImGui::SameLine(0, theme().px(12));
    TextEllipsis(text, ImGui::GetContentRegionAvail().x, &color);
  } else {
    ImGui::PushTextWrapPos(0.f);
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::PopStyleColor();
  ItemTooltip(sanitizer_tooltip(run.sanitizer));
  LayoutProbe& probe = layout_probe();
  ++probe.counts["results sanitizer verdicts"];
  probe.picture("results sanitizer verdicts", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
}

}  // namespace

void ResultsTable::draw(const ViewContext& c, ViewActions& act) {
  bool replay = c.showing_replay;
  if (!Handout()) draw_source_switch(c, act, replay);
  // The switch's click shows the other report this frame already.
  const Report& r = replay && c.replay ? *c.replay : c.session;
  if (r.runs.empty()) {
    ImGui::Spacing();
    if (!c.device.device.available && !c.replay)
      TextDim(
          "No runs to show. Without a CUDA device, open a report recorded on a GPU (the Report field above; "
          "assets/reports/ holds some), or run a CPU variant such as amp.sequential.",
          true);
    else
      TextDim("No runs yet in this session: pick a variant on the left and press Run, or Run lesson.", true);
    return;
  }
  draw_table(c, act, r);
}

void ResultsTable::draw_source_switch(const ViewContext& c, ViewActions& act, bool& replay) {
  const std::string session_label = "this session (" + std::to_string(c.session.runs.size()) + " runs)";
  if (c.replay) {
    const Report& rep = *c.replay;
    std::string name = std::filesystem::path(c.replay_path).filename().string();
    std::string rec = "recorded: " + name;
    if (!rep.device.name.empty()) rec += "  \u00b7  " + rep.device.name;
    if (!rep.created.empty()) rec += "  \u00b7  " + format_created(rep.created).substr(0, 10);
    // Large fonts: the file name goes to the tooltip so both choices keep to the line.
    const float need =
        ImGui::CalcTextSize(("Showing" + rec + session_label).c_str()).x + 2 * ImGui::GetFrameHeight() + theme().px(60);
    if (need > ImGui::GetContentRegionAvail().x && rec.rfind("recorded: " + name, 0) == 0)
      rec = "recorded" + rec.substr(std::string("recorded: ").size() + name.size());
    ImGui::AlignTextToFramePadding();
    TextDim("Showing");
    ImGui::SameLine();
    if (ImGui::RadioButton(rec.c_str(), replay)) {
      act.show_replay(true);
      replay = true;
    }
    ItemTooltip(c.replay_path + (rep.title.empty() ? "" : "\n" + rep.title));
    ImGui::SameLine(0, theme().px(24));
    if (ImGui::RadioButton(session_label.c_str(), !replay)) {
      act.show_replay(false);
      replay = false;
    }
  } else {
    ImGui::AlignTextToFramePadding();
    TextDim("Showing " + session_label + (c.device.device.available ? " on " + c.device.device.name : ""));
  }
}

void ResultsTable::draw_table(const ViewContext& c, ViewActions& act, const Report& r) {
  const Theme& t = theme();
  const Palette& pal = t.colors();
  const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH |
                                ImGuiTableFlags_BordersOuterH | ImGuiTableFlags_ScrollY |
                                ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_Resizable | ImGuiTableFlags_PadOuterX;
  const std::string lesson_prefix = c.lesson ? c.lesson->id + "." : std::string();
  auto is_local = [&](const RunResult& run) {
    return !lesson_prefix.empty() && run.variant.rfind(lesson_prefix, 0) == 0;
  };

  // When the table is narrow (large font scale, small window), the least useful columns make way so
  // the check column keeps room for "race: expected X, got Y" on two lines.
  const ImVec2 cell_pad = t.px(5, 3);
  bool disabled[ColCount] = {};
  const Key key{&r, r.runs.size(), r.created, lesson_prefix, ImGui::GetFontSize()};
  if (!(key == key_)) {
    key_ = key;
    sorted_ = false;
    const ImGuiStyle& st = ImGui::GetStyle();
    const float arrow = ImGui::GetFontSize() * 0.65f + st.FramePadding.x + st.ItemInnerSpacing.x;
    need_.assign(ColCount, 0.f);
    for (int c = 0; c < ColCount; ++c) need_[std::size_t(c)] = ImGui::CalcTextSize(kHeaders[c]).x + arrow;
    need_[ColPeak] = std::max(need_[ColPeak], t.px(96));
    for (const RunResult& run : r.runs)
      for (int c : {ColIndex, ColVariant, ColN, ColType, ColLaunch, ColTime, ColGbps, ColCopy}) {
        if (c == ColVariant) ImGui::PushFont(t.fonts().mono);
        need_[std::size_t(c)] =
            std::max(need_[std::size_t(c)], ImGui::CalcTextSize(cell_text(run, c, is_local(run)).c_str()).x);
        if (c == ColVariant) ImGui::PopFont();
      }
  }
  {
    const ImGuiStyle& st = ImGui::GetStyle();
    const float* need = need_.data();
    const float per_col = 2 * cell_pad.x + 1;
    float total = 0;
    for (int c = 0; c < ColCheck; ++c) total += need[c] + per_col;
    const float check_min = ImGui::CalcTextSize("slide bug: expected 1234567").x * 0.75f + per_col;
    const float avail = ImGui::GetContentRegionAvail().x - st.ScrollbarSize;
    for (int c : {ColCopy, ColType, ColLaunch, ColN}) {  // never "#": it holds the default (run) order
      if (total + check_min <= avail) break;
      disabled[c] = true;
      total -= need[c] + per_col;
    }
  }

  ImGui::PushStyleVar(ImGuiStyleVar_CellPadding, cell_pad);
  const bool open = ImGui::BeginTable("results", ColCount, flags, ImVec2(0, 0));
  ImGui::PopStyleVar();
  if (!open) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  // Width 0: fixed columns fit their contents, so the check column gets all that is left.
  const ImGuiTableColumnFlags num = ImGuiTableColumnFlags_WidthFixed | ImGuiTableColumnFlags_PreferSortDescending;
  const ImGuiTableColumnFlags fixed = ImGuiTableColumnFlags_WidthFixed;
  auto off = [&](int c) { return disabled[c] ? ImGuiTableColumnFlags_Disabled : ImGuiTableColumnFlags_None; };
  ImGui::TableSetupColumn(kHeaders[ColIndex], fixed | ImGuiTableColumnFlags_DefaultSort | off(ColIndex), 0.f, ColIndex);
  ImGui::TableSetupColumn(kHeaders[ColVariant], fixed, 0.f, ColVariant);
  ImGui::TableSetupColumn(kHeaders[ColN], fixed | off(ColN), 0.f, ColN);
  ImGui::TableSetupColumn(kHeaders[ColType], fixed | off(ColType), 0.f, ColType);
  ImGui::TableSetupColumn(kHeaders[ColLaunch], fixed | off(ColLaunch), 0.f, ColLaunch);
  ImGui::TableSetupColumn(kHeaders[ColTime], num, 0.f, ColTime);
  ImGui::TableSetupColumn(kHeaders[ColGbps], num, 0.f, ColGbps);
  ImGui::TableSetupColumn(kHeaders[ColPeak], num, t.px(96), ColPeak);
  ImGui::TableSetupColumn(kHeaders[ColCopy], num | off(ColCopy), 0.f, ColCopy);
  ImGui::TableSetupColumn(kHeaders[ColCheck], ImGuiTableColumnFlags_WidthStretch | ImGuiTableColumnFlags_NoResize, 0,
                          ColCheck);

  // Headers by hand so the numeric ones can be right-aligned like their numbers.
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  for (int c = 0; c < ColCount; ++c) {
    if (!ImGui::TableSetColumnIndex(c)) continue;
    const bool right = c == ColN || (c >= ColTime && c <= ColCopy);
    ImGui::PushID(c);
    header_cell(ImGui::TableGetColumnName(c), right);
    ImGui::PopID();
  }

  // Sort when the report or the sort specs change (a report may hold kMaxReportRuns rows).
  ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs();
  if (!sorted_ || order_.size() != r.runs.size() || (specs && specs->SpecsDirty)) {
    sorted_ = true;
    order_.resize(r.runs.size());
    std::iota(order_.begin(), order_.end(), 0);
    if (specs && specs->SpecsCount > 0)
      std::stable_sort(order_.begin(), order_.end(), [&](int a, int b) {
        for (int i = 0; i < specs->SpecsCount; ++i) {
          const ImGuiTableColumnSortSpecs& sp = specs->Specs[i];
          int c = compare(r.runs[a], r.runs[b], int(sp.ColumnUserID), a, b);
          if (c) return sp.SortDirection == ImGuiSortDirection_Ascending ? c < 0 : c > 0;
        }
        return a < b;
      });
    if (specs) specs->SpecsDirty = false;
  }

  const VariantInfo* selected = c.variant;
  // Rows of the selected variant are highlighted lightly, so an amber or red row stays amber or red.
  ImVec4 sel = pal.accent;
  sel.w = 0.30f;
  ImGui::PushStyleColor(ImGuiCol_Header, sel);
  // Long reports: only the visible rows are built (ImGuiListClipper), which needs rows of one height,
  // so there the check cell keeps to one line (the whole message on hover).
  const bool clip = r.runs.size() > kUnclippedRows;
  // A newly selected variant (a scene, n/p, the browser) brings its first row into view.
  int scroll_row = -1;
  if (selected && scrolled_to_ != selected->id) {
    scrolled_to_ = selected->id;
    for (std::size_t row = 0; row < order_.size() && scroll_row < 0; ++row)
      if (r.runs[std::size_t(order_[row])].variant == selected->id) scroll_row = int(row);
  }
  if (scroll_row >= 0) {  // rows are about a frame high (a wrapped check cell makes one taller): the middle of the view
    const float row_h = ImGui::GetFrameHeight() + 2 * ImGui::GetStyle().CellPadding.y;
    ImGui::SetScrollY(std::max(0.f, float(scroll_row) * row_h - ImGui::GetWindowHeight() * 0.4f));
    center_frames_ = 4;  // then, where every row is built, centred on the row as laid out (wrapped cells included)
  }
  const bool centring = center_frames_ > 0 && !clip;
  float selected_bottom = -1;  // the selected row's bottom, in content coordinates
  bool first_selected = true;
  int selected_visible = -1;    // -1: no row of the selected variant
  std::vector<float> row_tops;  // where each row built so far starts, in the table's content coordinates
  // Short reports build every row: their check cells may wrap, and the clipper needs rows of one height.
  ImGuiListClipper clipper;
  if (clip) clipper.Begin(int(order_.size()));
  bool all_rows = !clip;
  while (clip ? clipper.Step() : std::exchange(all_rows, false))
    for (int row = clip ? clipper.DisplayStart : 0, end = clip ? clipper.DisplayEnd : int(order_.size()); row < end;
         ++row) {
      const int idx = order_[std::size_t(row)];
      const RunResult& run = r.runs[idx];
      ImGui::PushID(idx);
      ImGui::TableNextRow(0, ImGui::GetFrameHeight());
      if (is_lesson_status(run)) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, ImGui::GetColorU32(pal.row_lesson));
      if (is_bad_status(run)) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, ImGui::GetColorU32(pal.row_bad));

      // The check cell first: it may wrap to two lines, and the row's selectable should cover them.
      ImGui::TableSetColumnIndex(ColCheck);
      const float row_top = ImGui::GetCursorScreenPos().y;
      const float row_top_content =
          row_top - ImGui::GetStyle().CellPadding.y - ImGui::GetWindowPos().y + ImGui::GetScrollY();
      ImGui::AlignTextToFramePadding();
      ImGui::PushStyleColor(ImGuiCol_Text, status_color(run));
      if (run.status == RunStatus::Error || run.status == RunStatus::Faulted || clip) {
        // Error messages are sentences: one line here, the whole of it on hover.
        // A long table's row is one line: the check and the sanitizer's verdict share it.
        // The check keeps its numbers: it gives way to the verdict only down to half the cell.
        const float avail = ImGui::GetContentRegionAvail().x;
        const float verdict =
            run.sanitizer.present && clip
                ? ImGui::CalcTextSize(format_sanitizer(run.sanitizer, run.racy).c_str()).x + theme().px(12)
                : 0.f;
        TextEllipsis(format_check(run), std::max(avail * 0.5f, avail - verdict));
      } else {
        ImGui::PushTextWrapPos(0.f);  // "race: expected X, got Y" may wrap inside the cell
        ImGui::TextUnformatted(format_check(run).c_str());
        ImGui::PopTextWrapPos();
      }
      ImGui::PopStyleColor();
      ItemTooltip(run.code_path.empty() ? run.message
                                        : run.message + (run.message.empty() ? "" : "\n") + "path: " + run.code_path);
      if (run.sanitizer.present) draw_sanitizer(run, clip);
      const float row_h =
          std::max(ImGui::GetFrameHeight(), ImGui::GetItemRectMax().y - row_top + ImGui::GetStyle().FramePadding.y);

      ImGui::TableSetColumnIndex(ColIndex);
      ImGui::AlignTextToFramePadding();
      TextDim(std::to_string(idx + 1));

      ImGui::TableSetColumnIndex(ColVariant);
      const VariantInfo* v = find_variant(run.variant);
      const bool is_sel = selected && selected->id == run.variant;
      ImGui::PushFont(t.fonts().mono);
      // Ids of the open lesson without their prefix ("reduce3"); others in full ("cub.reduce").
      const std::string label = (is_local(run) ? short_id(run.variant) : run.variant) + "##row";
      if (ImGui::Selectable(label.c_str(), is_sel,
                            ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowItemOverlap,
                            ImVec2(0, row_h - ImGui::GetStyle().FramePadding.y)) &&
          v)
        act.select_variant(run.variant);
      if (is_sel && first_selected) {
        first_selected = false;
        if (center_frames_ > 0 && !clip) {
          // About 40 % down the view, with a whole row at the top (no row cut in half under the header): the
          // rows above it, back while they fit in that 40 %.
          const float view_h = ImGui::GetWindowHeight() - (row_tops.empty() ? row_top_content : row_tops.front());
          float target = row_top_content;
          for (auto it = row_tops.rbegin(); it != row_tops.rend() && row_top_content - *it <= 0.4f * view_h; ++it)
            target = *it;
          ImGui::SetScrollY(std::max(0.f, target - (row_tops.empty() ? row_top_content : row_tops.front())));
          --center_frames_;
        }
        // On screen: the row lies wholly between the frozen header row and the table's bottom.
        const float top = ImGui::GetWindowPos().y + ImGui::GetFontSize() + 2 * ImGui::GetStyle().CellPadding.y;
        const float bottom = ImGui::GetWindowPos().y + ImGui::GetWindowHeight();
        selected_visible = ImGui::GetItemRectMin().y >= top - 1.f && ImGui::GetItemRectMax().y <= bottom + 1.f;
        selected_bottom = ImGui::GetItemRectMax().y - ImGui::GetWindowPos().y + ImGui::GetScrollY();
        layout_probe().picture("results selected row", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
      }
      ImGui::PopFont();
      ItemTooltip(run.variant + (v ? "\n" + v->title : std::string()) +
                  (run.device.empty() ? "" : "\non " + run.device + " (" + to_string(run.backend) + ")"));

      ImGui::TableSetColumnIndex(ColN);
      ImGui::AlignTextToFramePadding();
      TextRight(format_count(run.n));
      ItemTooltip(format_grouped(run.n) + " elements, input " + run.input +
                  (run.input == "random" ? " (seed " + std::to_string(run.seed) + ")" : ""));

      ImGui::TableSetColumnIndex(ColType);
      ImGui::AlignTextToFramePadding();
      ImGui::TextUnformatted(to_string(run.type));

      ImGui::TableSetColumnIndex(ColLaunch);
      ImGui::AlignTextToFramePadding();
      ImGui::TextUnformatted((run.status == RunStatus::Error || run.status == RunStatus::Faulted) &&
                                     run.launch.block == 0 && !run.timed
                                 ? "-"
                                 : format_launch(run.launch).c_str());
      if (run.launches > 1) ItemTooltip(std::to_string(run.launches) + " kernel launches per run");

      ImGui::TableSetColumnIndex(ColTime);
      ImGui::AlignTextToFramePadding();
      TextRight(run.timed ? format_ms(run.timing.median_ms) : "-");
      ItemTooltip(format_time_tooltip(run));  // the GPU's time beside the host's phases: what the user waited for

      ImGui::TableSetColumnIndex(ColGbps);
      ImGui::AlignTextToFramePadding();
      TextRight(run.timed ? format_gbps(run.gbps) : "-");

      ImGui::TableSetColumnIndex(ColPeak);
      if (run.timed && run.pct_theoretical > 0) {
        ImGui::ProgressBar(float(std::min(run.pct_theoretical, 100.0) / 100.0), ImVec2(-FLT_MIN, 0),
                           format_pct(run.pct_theoretical).c_str());
        ItemTooltip("of the device's theoretical DRAM bandwidth");
      } else {
        ImGui::AlignTextToFramePadding();
        TextRight("-");
      }

      ImGui::TableSetColumnIndex(ColCopy);
      ImGui::AlignTextToFramePadding();
      TextRight(run.timed ? format_pct(run.pct_copy) : "-");
      ItemTooltip("of the device-to-device copy bandwidth measured at start-up");

      if (!clip) row_tops.push_back(row_top_content);
      ImGui::PopID();
    }
  ImGui::PopStyleColor();
  if (selected_visible >= 0) layout_probe().counts["results selected row visible"] = selected_visible;
  if (!row_tops.empty()) {  // a row half under the frozen header (its top hidden, its bottom shown)
    const float edge = ImGui::GetScrollY() + row_tops.front();
    int cut = 0;
    for (std::size_t i = 0; i + 1 < row_tops.size(); ++i) {
      if (!(row_tops[i] < edge - 1 && row_tops[i + 1] > edge + 1)) continue;
      // Near the end the view cannot scroll as far as centring asked: back to that row's top, so it shows
      // whole and the bottom row shows there is more below, while the selected row stays on screen.
      const float back = row_tops[i] - row_tops.front();
      if (centring && selected_bottom - (back + row_tops.front()) <= ImGui::GetWindowHeight() - row_tops.front())
        ImGui::SetScrollY(back);
      else
        cut = 1;
    }
    layout_probe().counts["results top row cut"] = cut;
  }
  ImGui::EndTable();
}

}  // namespace ws::ui
