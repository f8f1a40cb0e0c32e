#include "status_bar.hpp"

#include <filesystem>

#include "format.hpp"
#include "widgets/theme.hpp"
#include "widgets/widgets.hpp"

namespace ws::ui {

using controller::AppState;
using controller::DeviceStatus;
using controller::format_created;
using controller::format_gbps;

namespace {

void dot(const ImVec4& color) {
  const float r = ImGui::GetFontSize() * 0.3f;
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float h = ImGui::GetFrameHeight();
  ImGui::GetWindowDrawList()->AddCircleFilled(ImVec2(p.x + r, p.y + h * 0.5f), r, ImGui::GetColorU32(color));
  ImGui::Dummy(ImVec2(2 * r, h));
  ImGui::SameLine();
}

void separator_gap() {
  ImGui::SameLine(0, theme().px(14));
  TextDim("|");
  ImGui::SameLine(0, theme().px(14));
}

}  // namespace

std::string device_summary(const DeviceInfo& d) {
  std::string s = d.name.empty() ? "unnamed device" : d.name;
  if (d.sm_count) s += "  \u00b7  " + std::to_string(d.sm_count) + " SMs";
  if (d.theoretical_gbps > 0) s += "  \u00b7  peak " + format_gbps(d.theoretical_gbps) + " GB/s";
  if (d.copy_gbps > 0) s += "  \u00b7  copy " + format_gbps(d.copy_gbps) + " GB/s";
  return s;
}

float StatusBar::height() { return ImGui::GetFrameHeight() + 2 * ImGui::GetStyle().WindowPadding.y * 0.5f + 2; }

void StatusBar::draw(const AppState& s) {
  const Palette& p = theme().colors();
  const DeviceStatus& d = s.device;
  ImGui::AlignTextToFramePadding();
  if (!d.opened) {
    dot(p.text_dim);
    TextDim("opening the CUDA device...");
  } else if (d.device.available) {
    dot(p.ok);
    ImGui::TextUnformatted(device_summary(d.device).c_str());
  } else {
    dot(p.lesson);
    ImGui::TextUnformatted("no CUDA device: simulation and replay");
    ItemTooltip(d.error.empty() ? "no CUDA device" : d.error);
  }
  separator_gap();
  TextDim("backend");
  ImGui::SameLine();
  ImGui::TextUnformatted(!d.opened ? "..." : d.backend.empty() ? "host CPU only" : d.backend.c_str());
  if (!d.worker.empty()) {  // GPU work runs in a worker process: which, and whether one faulted
    ImGui::SameLine();
    TextDim(("in " + d.worker).c_str());
    if (d.worker_restarts > 0) {
      ImGui::SameLine();
      ImGui::PushStyleColor(ImGuiCol_Text, p.bad);
      ImGui::TextUnformatted(("restarted " + std::to_string(d.worker_restarts) + "x after a fault").c_str());
      ImGui::PopStyleColor();
      ItemTooltip("latest fault: " + d.worker_fault +
                  "\nthe faulted run is marked in the results; the session keeps every run");
    }
  }
  separator_gap();
  TextDim("report");
  ImGui::SameLine();
  if (s.showing_replay()) {
    const Report& r = *s.replay;
    const std::string name = std::filesystem::path(s.replay_path).filename().string();
    std::string rec = name + "  \u00b7  recorded on " + (r.device.name.empty() ? "an unknown device" : r.device.name);
    if (!r.created.empty()) rec += ", " + format_created(r.created);
    ImGui::TextUnformatted(rec.c_str());
    ItemTooltip(s.replay_path + "\n" + device_summary(r.device) +
                (r.build_git.empty() ? "" : "\nbuilt from " + r.build_git));
  } else {
    ImGui::TextUnformatted(("live session, " + std::to_string(s.session.runs.size()) + " runs").c_str());
  }
}

}  // namespace ws::ui
