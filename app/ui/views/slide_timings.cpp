#include "views/slide_timings.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "json_read.hpp"
#include "limits.hpp"
#include "paths.hpp"
#include "registry.hpp"

namespace ws::ui {

namespace {
/// The slide timings are a few KiB of tables: a device or a huge file in their place is not read.
constexpr std::uintmax_t kMaxSlideTimingsBytes = kMiB;
}  // namespace

std::string load_slide_timings(const std::string& path, std::vector<SlideTiming>& out) {
  out.clear();
  std::string text;
  if (std::string err = read_file_bounded(path, kMaxSlideTimingsBytes, "slide timings", text); !err.empty()) return err;
  std::vector<SlideTiming> got;
  try {
    const nlohmann::json j = parse_json_text(text, "slide timings '" + path + "'");
    if (!j.is_object() || j.value("format", "") != "warpscope-slide-timings")
      throw std::runtime_error("format must be \"warpscope-slide-timings\"");
    if (json_int(j.at("version"), 1, 1, "version") != 1) throw std::runtime_error("version must be 1");
    const auto& tables = j.at("tables");
    if (!tables.is_array()) throw std::runtime_error("tables must be an array");
    for (std::size_t k = 0; k < tables.size(); ++k) {
      const auto& t = tables[k];
      const std::string where = "tables[" + std::to_string(k) + "]";
      SlideTiming base;
      base.seed = json_string(t.at("seed"), where + ".seed");
      base.slide = json_string(t.at("slide"), where + ".slide");
      base.device = json_string(t.at("device"), where + ".device");
      base.workload = json_string(t.at("workload"), where + ".workload");
      base.unit = json_string(t.at("unit"), where + ".unit");
      if (base.unit != "ms" && base.unit != "GB/s")
        throw std::runtime_error(where + ".unit must be \"ms\" or \"GB/s\"");
      if (t.contains("note")) base.note = json_string(t.at("note"), where + ".note");
      const auto& rows = t.at("rows");
      if (!rows.is_array()) throw std::runtime_error(where + ".rows must be an array");
      for (std::size_t r = 0; r < rows.size(); ++r) {
        const std::string rw = where + ".rows[" + std::to_string(r) + "]";
        SlideTiming s = base;
        s.variant = json_string(rows[r].at("variant"), rw + ".variant");
        if (!find_variant(s.variant)) throw std::runtime_error(rw + ".variant: unknown variant '" + s.variant + "'");
        s.row = json_string(rows[r].at("row"), rw + ".row");
        s.value = json_number(rows[r].at("value"), 1e-9, 1e9, rw + ".value");
        got.push_back(s);
      }
    }
  } catch (const nlohmann::json::exception& e) {
    return "slide timings '" + path + "': " + e.what();
  } catch (const std::exception& e) {
    const std::string m = e.what();
    return m.rfind("slide timings", 0) == 0 ? m : "slide timings '" + path + "': " + m;
  }
  out = std::move(got);
  return "";
}

const std::vector<SlideTiming>& slide_timings(std::string* error) {
  static std::once_flag once;
  static std::vector<SlideTiming> timings;
  static std::string problem;
  std::call_once(once, [] {
    problem = load_slide_timings((std::filesystem::path(assets_dir()) / "slides" / "timings.json").string(), timings);
  });
  if (error) *error = problem;
  return timings;
}

const SlideTiming* find_slide_timing(const std::vector<SlideTiming>& timings, const std::string& variant) {
  for (const auto& t : timings)
    if (t.variant == variant) return &t;
  return nullptr;
}

std::string slide_timing_text(const SlideTiming& t) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.2f %s", t.value, t.unit.c_str());  // as the slides print them
  return buf;
}

std::string slide_timing_source(const SlideTiming& t) {
  std::string s = "the slide's own number, not this GPU's: " + t.device + ", " + t.workload + ": " +
                  slide_timing_text(t) + " (slide \"" + t.slide + "\", seed " + t.seed + "; row \"" + t.row + "\")";
  if (!t.note.empty()) s += ". Note: " + t.note;
  return s;
}

}  // namespace ws::ui
