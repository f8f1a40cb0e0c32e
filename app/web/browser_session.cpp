#include "browser_session.hpp"

#include <emscripten.h>

#include <exception>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <vector>

#include "json_read.hpp"
#include "main_window.hpp"
#include "page_params.hpp"
#include "paths.hpp"
#include "report.hpp"
#include "widgets/theme.hpp"

namespace ws::web {

namespace {

constexpr const char* kKey = "warpscope.session";
constexpr const char* kFormat = "warpscope-browser-session";

// localStorage through the page's JavaScript; every call is guarded (storage may be off: private windows,
// a sandboxed frame), an unavailable storage reads as empty and refuses writes.
// The JavaScript stays as written: clang-format would turn its === into "== =".
// clang-format off
EM_JS(int, storage_length, (const char* key), {
  try {
    const v = localStorage.getItem(UTF8ToString(key));
    return v === null ? -1 : lengthBytesUTF8(v);
  } catch (e) { return -1; }
});
EM_JS(void, storage_read, (const char* key, char* out, int size), {
  try {
    stringToUTF8(localStorage.getItem(UTF8ToString(key)) || "", out, size);
  } catch (e) { stringToUTF8("", out, size); }
});
EM_JS(int, storage_write, (const char* key, const char* text), {
  try {
    localStorage.setItem(UTF8ToString(key), UTF8ToString(text));
    return 1;
  } catch (e) { return 0; }
});
EM_JS(void, storage_remove, (const char* key), {
  try {
    localStorage.removeItem(UTF8ToString(key));
  } catch (e) {}
});
// clang-format on

std::string stored_text() {
  const int n = storage_length(kKey);
  if (n < 0) return "";
  std::vector<char> buf(std::size_t(n) + 1);
  storage_read(kKey, buf.data(), n + 1);
  return std::string(buf.data());
}

/// A report the student opened (file picker, drop, URL), not one bundled with the page.
bool user_replay(const controller::AppState& s) { return s.replay && s.replay_path.rfind(assets_dir(), 0) != 0; }

/// What a write would change: the runs and sweeps (count and newest) and the place.
std::string signature(const controller::AppState& s) {
  std::string sig = std::to_string(s.session.runs.size()) + "/" + std::to_string(s.session.sweeps.size());
  if (!s.session.runs.empty()) {
    const RunResult& r = s.session.runs.back();
    sig += "/" + r.variant + "/" + std::to_string(r.n) + "/" + std::to_string(int(r.status)) + "/" +
           std::to_string(r.message.size());
  }
  const Lesson* l = s.lesson();
  const VariantInfo* v = s.variant();
  const controller::RunParams& p = s.params;
  return sig + "|" + (l ? l->id : "") + "|" + std::to_string(s.scene_index()) + "|" + s.view + "|" + (v ? v->id : "") +
         "|" + std::to_string(p.n()) + "/" + std::to_string(int(p.type)) + "/" + std::to_string(p.input) + "/" +
         std::to_string(p.seed) + "|" + std::to_string(ui::theme().scale()) +
         std::to_string(s.perf.present.high_contrast) + std::to_string(s.perf.present.focus) + "|" +
         (user_replay(s) ? s.replay_path : "");
}

}  // namespace

std::string BrowserSession::restore(controller::AppState& s, bool place_given, bool look_given) {
  const std::string text = stored_text();
  if (text.empty()) return "";
  try {
    const nlohmann::json j = parse_json_text(text, "the stored session");
    if (!j.is_object() || j.value("format", "") != kFormat) throw std::runtime_error("not a warpscope session");
    const Report r = report_from_json(j.at("report"));
    s.session.runs = r.runs;
    s.session.sweeps = r.sweeps;
    if (j.contains("params")) {
      const nlohmann::json& q = j.at("params");
      controller::RunParams& p = s.params;
      p.n_pow2 = json_bool(q.at("n_pow2"), "params.n_pow2");
      p.n_log2 = int(json_int(q.at("n_log2"), 0, 30, "params.n_log2"));
      p.n_exact = json_int(q.at("n_exact"), 1, std::int64_t(1) << 30, "params.n_exact");
      if (!parse_dtype(json_string(q.at("type"), "params.type"), p.type)) throw std::runtime_error("params.type");
      p.input = int(json_int(q.at("input"), 0, controller::kInputGenerators - 1, "params.input"));
      p.input_auto = json_bool(q.at("input_auto"), "params.input_auto");
      p.seed = std::uint64_t(json_int(q.at("seed"), 0, std::int64_t(1) << 53, "params.seed"));
    }
    if (!look_given && j.contains("present")) {
      const nlohmann::json& q = j.at("present");
      const float scale = float(json_number(q.at("font_scale"), 0.5, 4, "present.font_scale"));
      if (scale != ui::theme().scale()) s.perf.present.font_scale_request = scale;
      s.perf.present.high_contrast = json_bool(q.at("high_contrast"), "present.high_contrast");
      s.perf.present.focus = json_bool(q.at("focus"), "present.focus");
    }
    std::string opened;
    if (j.contains("replay")) {
      // The report the student had open: back into the page's file system, then replayed as before.
      const std::string name = std::filesystem::path(json_string(j.at("replay_name"), "replay_name")).filename();
      std::error_code ec;
      std::filesystem::create_directories("/downloads", ec);
      const std::string path = "/downloads/" + (name.empty() ? std::string("report.json") : name);
      std::ofstream(path) << dump_json_text(j.at("replay"));
      if (s.open_report(path).empty()) {
        s.auto_replay = false;
        opened = ", " + name + " open";
      }
    }
    std::string where;
    if (!place_given && j.contains("place")) {
      const nlohmann::json& p = j.at("place");
      PageParams place;
      place.lesson = json_string(p.at("lesson"), "place.lesson");
      place.scene = int(json_int(p.at("scene"), 0, 1000, "place.scene"));
      place.view = json_string(p.at("view"), "place.view");
      place.variant = json_string(p.at("variant"), "place.variant");
      if (std::string err = apply_page_params(s, place); !err.empty())
        where = " (the place it was left at is gone: " + err + ")";
      else if (const Lesson* l = s.lesson())
        where =
            ", back at " + l->title + (s.scene_index() >= 0 ? ", scene " + std::to_string(s.scene_index() + 1) : "");
    }
    last_ = signature(s);
    return "restored this browser's last session: " + std::to_string(r.runs.size()) + " runs, " +
           std::to_string(r.sweeps.size()) + " sweeps" + opened + where + " (?fresh=1 starts afresh)";
  } catch (const std::exception& e) {
    forget();
    return std::string("the session this browser kept was dropped: ") + e.what();
  }
}

void BrowserSession::save_if_changed(controller::AppState& s) {
  const std::string sig = signature(s);
  if (sig == last_) return;
  last_ = sig;
  const Lesson* l = s.lesson();
  const VariantInfo* v = s.variant();
  nlohmann::json j;
  j["format"] = kFormat;
  j["version"] = 1;
  j["place"] = {
      {"lesson", l ? l->id : ""}, {"scene", s.scene_index() + 1}, {"view", s.view}, {"variant", v ? v->id : ""}};
  const controller::RunParams& p = s.params;
  j["params"] = {{"n_pow2", p.n_pow2},
                 {"n_log2", p.n_log2},
                 {"n_exact", p.n_exact},
                 {"type", to_string(p.type)},
                 {"input", p.input < controller::kInputGenerators ? p.input : 0},
                 {"input_auto", p.input_auto},
                 {"seed", p.seed}};
  j["present"] = {{"font_scale", ui::theme().scale()},
                  {"high_contrast", s.perf.present.high_contrast},
                  {"focus", s.perf.present.focus}};
  if (user_replay(s)) {
    j["replay_name"] = std::filesystem::path(s.replay_path).filename().string();
    j["replay"] = report_to_json(*s.replay);
  }
  // The newest runs that fit: the browser's storage holds a few MB per site (then the opened report goes first).
  Report kept = s.session;
  for (;;) {
    j["report"] = report_to_json(kept);
    if (storage_write(kKey, dump_json_text(j).c_str())) {
      if (kept.runs.size() == s.session.runs.size() && kept.sweeps.size() == s.session.sweeps.size() &&
          (j.contains("replay") || !user_replay(s)))
        return;
      break;  // kept in part: say so once
    }
    if (kept.runs.empty() && kept.sweeps.empty() && !j.contains("replay")) break;
    if (j.contains("replay")) {
      j.erase("replay");
      j.erase("replay_name");
    } else if (!kept.sweeps.empty())
      kept.sweeps.erase(kept.sweeps.begin());
    else
      kept.runs.erase(kept.runs.begin(), kept.runs.begin() + std::ptrdiff_t((kept.runs.size() + 1) / 2));
  }
  if (!warned_)
    s.message(controller::Message::Warning,
              "the browser's storage is too small for this whole session: the next visit gets its place and "
              "newest runs only (Save session downloads all of it)");
  warned_ = true;
}

void BrowserSession::forget() { storage_remove(kKey); }

std::size_t BrowserSession::stored_bytes() {
  const int n = storage_length(kKey);
  return n < 0 ? 0 : std::size_t(n);
}

}  // namespace ws::web
