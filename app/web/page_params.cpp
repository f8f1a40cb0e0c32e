#include "page_params.hpp"

#include <emscripten.h>

#include <algorithm>
#include <cstdlib>

#include "main_window.hpp"
#include "registry.hpp"

namespace ws::web {

namespace {

std::string decode(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '+') {
      out += ' ';
    } else if (text[i] == '%' && i + 2 < text.size()) {
      out += char(std::strtol(text.substr(i + 1, 2).c_str(), nullptr, 16));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

}  // namespace

PageParams read_page_params() {
  const char* raw = emscripten_run_script_string("location.search || ''");
  std::string query = raw ? raw : "";
  if (!query.empty() && query[0] == '?') query.erase(0, 1);
  PageParams p;
  std::size_t at = 0;
  while (at < query.size()) {
    std::size_t end = query.find('&', at);
    if (end == std::string::npos) end = query.size();
    const std::string pair = query.substr(at, end - at);
    at = end + 1;
    const std::size_t eq = pair.find('=');
    const std::string key = pair.substr(0, eq), value = eq == std::string::npos ? "" : decode(pair.substr(eq + 1));
    if (key == "lesson") p.lesson = value;
    if (key == "view") p.view = value;
    if (key == "variant") p.variant = value;
    if (key == "report") p.report = value;
    if (key == "scene") p.scene = std::atoi(value.c_str());
    if (key == "font_scale") p.font_scale = std::min(4.f, std::max(0.5f, float(std::atof(value.c_str()))));
    if (key == "high_contrast") p.high_contrast = value != "0";
    if (key == "focus") p.focus = value != "0";
    if (key == "fresh") p.fresh = value != "0";
    if (key == "font_scale" || key == "high_contrast" || key == "focus") p.names_a_look = true;
  }
  return p;
}

std::string apply_page_params(controller::AppState& s, const PageParams& p) {
  const auto& views = ui::view_ids();
  if (!p.lesson.empty() && !s.select_lesson(p.lesson)) return "unknown lesson '" + p.lesson + "' in the address";
  if (p.scene > 0)
    if (std::string err = s.open_scene(p.scene - 1, views); !err.empty()) return err;
  if (!p.view.empty()) {
    if (!ui::find_view(p.view)) return "unknown view '" + p.view + "' in the address";
    s.view = p.view;
  }
  if (p.names_a_look) {  // else the stored session's look stays (browser_session.hpp)
    s.perf.present.high_contrast = p.high_contrast;
    s.perf.present.focus = p.focus;
  }
  if (!p.variant.empty() && !s.select_variant(p.variant)) return "unknown variant '" + p.variant + "' in the address";
  return "";
}

}  // namespace ws::web
