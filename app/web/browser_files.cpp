#include "browser_files.hpp"

#include <emscripten.h>

#include <filesystem>
#include <system_error>
#include <vector>

namespace ws::web {

namespace {

controller::AppState* g_fetch_state = nullptr;
std::string g_fetch_url;

void fetched(const char* path) {
  if (g_fetch_state) open_report_file(*g_fetch_state, path);
}

void fetch_failed(const char* /*path*/) {
  if (g_fetch_state) g_fetch_state->message(controller::Message::Error, "cannot download the report " + g_fetch_url);
}

}  // namespace

void open_report_file(controller::AppState& s, const std::string& path) {
  s.auto_replay = false;
  if (std::string err = s.open_report(path); !err.empty())
    s.message(controller::Message::Error, "cannot open report: " + err);
}

void fetch_report(controller::AppState& s, const std::string& url) {
  g_fetch_state = &s;
  g_fetch_url = url;
  s.auto_replay = false;  // the bundled replay does not take the place of the one asked for
  std::error_code ec;
  std::filesystem::create_directories("/downloads", ec);
  const std::string name = std::filesystem::path(url.substr(0, url.find('?'))).filename().string();
  const std::string path = "/downloads/" + (name.empty() ? std::string("report.json") : name);
  emscripten_async_wget(url.c_str(), path.c_str(), fetched, fetch_failed);
}

void offer_exports(const std::string& dir) {
  std::error_code ec;
  std::vector<std::string> files;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_regular_file(ec)) files.push_back(it->path().string());
  for (const std::string& path : files) {
    EM_ASM(
        {
          const path = UTF8ToString($0);
          const data = FS.readFile(path);
          const a = document.createElement('a');
          a.href = URL.createObjectURL(new Blob([data]));
          a.download = path.split('/').pop();
          document.body.appendChild(a);
          a.click();
          setTimeout(
              function() {
                URL.revokeObjectURL(a.href);
                a.remove();
              },
              1000);
        },
        path.c_str());
    std::filesystem::remove(path, ec);
  }
}

}  // namespace ws::web
