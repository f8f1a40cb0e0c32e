// Files between the page and the browser: a report from a URL, the file picker or drag and drop, and the
// export buttons' PNG and CSV files offered as downloads.
#pragma once
#include <string>

#include "app_state.hpp"

namespace ws::web {

/// Where the export buttons write in the page's file system; offer_exports hands each file to the browser.
inline constexpr const char* kExportDir = "/exports";

/// Replays the report at `path` (the page's file system); a refusal becomes the page's error message.
void open_report_file(controller::AppState& s, const std::string& path);

/// Downloads `url` (same origin, or one that allows it) and replays it once it is in; a failure becomes the
/// page's error message. `s` must outlive the download.
void fetch_report(controller::AppState& s, const std::string& url);

/// Offers every file in `dir` to the browser as a download (its own name), then removes it.
void offer_exports(const std::string& dir);

}  // namespace ws::web
