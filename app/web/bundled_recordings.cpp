#include "bundled_recordings.hpp"

#include <exception>
#include <filesystem>
#include <system_error>
#include <utility>

#include "limits.hpp"

namespace ws::web {

BundledRecordings::BundledRecordings(std::string reports_dir, std::string recordings_dir)
    : reports_dir_(std::move(reports_dir)), recordings_dir_(std::move(recordings_dir)) {}

void BundledRecordings::supply(controller::AppState& s, bool now) {
  if (!now || !s.replay || !s.replay->traces.empty()) return;
  const std::filesystem::path path(s.replay_path);
  const std::string name = path.filename().string();
  if (path.parent_path().lexically_normal() != std::filesystem::path(reports_dir_).lexically_normal()) return;
  const std::filesystem::path whole = std::filesystem::path(recordings_dir_) / name;
  std::error_code ec;
  if (name.empty() || !std::filesystem::is_regular_file(whole, ec)) return;  // bundled whole, or not bundled
  Read* r = nullptr;
  for (Read& x : read_)
    if (x.name == name) r = &x;
  if (!r) {
    read_.push_back({name, false, {}});
    r = &read_.back();
    try {
      Report full = load_report(whole.string());
      if (full.created == s.replay->created) {
        r->traces = std::move(full.traces);
        r->ok = true;
      } else {
        s.message(controller::Message::Error,
                  "the recordings of " + name + " are of another report (" + full.created + ")");
      }
    } catch (const std::exception& e) {
      s.message(controller::Message::Error,
                "the recordings of " + name + " could not be read: " + describe_exception(e));
    }
  }
  if (!r->ok || r->traces.empty()) return;
  s.replay->traces = r->traces;
  // Picked again with the recordings, keeping the step (the key's variant is unchanged): the desktop opens
  // the report whole, so its first pick already has them.
  if (s.trace.key) s.trace.key->report_created.clear();
}

}  // namespace ws::web
