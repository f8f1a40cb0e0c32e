#include "trace/user_trace_build.hpp"

#include <vector>

#include "trace/trace_points_scan.hpp"

namespace ws {

namespace {

/// `line` is a `#line N ...` directive: N, else 0.
int line_directive(const std::string& line) {
  const std::size_t a = line.find_first_not_of(" \t");
  if (a == std::string::npos || line.compare(a, 5, "#line") != 0) return 0;
  try {
    return std::stoi(line.substr(a + 5));
  } catch (...) { return 0; }
}

/// <cstdint> as common/trace_event.hpp uses it: NVRTC ships no C++ standard library headers.
constexpr const char* kFixedWidthTypes =
    "#pragma once\n"
    "namespace std {\n"
    "using int8_t = signed char;\nusing int16_t = short;\nusing int32_t = int;\nusing int64_t = long long;\n"
    "using uint8_t = unsigned char;\nusing uint16_t = unsigned short;\nusing uint32_t = unsigned int;\n"
    "using uint64_t = unsigned long long;\n"
    "}  // namespace std\n";

}  // namespace

bool has_trace_instrumentation(const std::string& source) {
  for (const std::string& l : split_lines(source)) {
    const std::string code = l.substr(0, l.find("//"));
    if (code.find("WS_T(") != std::string::npos || code.find("WS_AT") != std::string::npos) return true;
  }
  return false;
}

std::string user_trace_points_header(const std::string& source, const std::string& file, std::string& header) {
  if (!has_trace_instrumentation(source))
    return file + " has no trace points (WS_T lines with WS_AT markers), so its steps cannot be recorded";
  // The text without its #line directives, and the line number the user sees for each of its lines.
  std::string text;
  std::vector<int> shown;
  int next = 1;
  for (const std::string& l : split_lines(source)) {
    if (const int n = line_directive(l); n > 0) {
      next = n;
      continue;
    }
    text += l + "\n";
    shown.push_back(next++);
  }
  const std::string marker = "::ws::trace_points::";
  const std::size_t at = text.find("namespace ws_points = " + marker);
  if (at == std::string::npos)
    return file + ": trace points need WS_T(namespace ws_points = ::ws::trace_points::NAME;) (a copy has it)";
  const std::size_t from = at + 22 + marker.size();
  const std::string stem = text.substr(from, text.find(';', from) - from);
  ScannedFile f = scan_trace_points(stem + ".cu", text);
  if (!f.error.empty()) return f.error;
  if (f.points.empty()) return file + " has no WS_AT markers: its events would name no statement";
  auto shown_line = [&](int physical) {
    return physical >= 1 && std::size_t(physical) <= shown.size() ? shown[std::size_t(physical - 1)] : 0;
  };
  for (ScannedPoint& p : f.points) {
    p.marker_line = shown_line(p.marker_line);
    p.line = shown_line(p.line);
  }
  f.file = file;
  header = trace_points_header({f});
  return "";
}

std::string traced_compile_options(const std::string& source, CompileOptions& o) {
  std::string points;
  if (std::string why = user_trace_points_header(source, o.file, points); !why.empty()) return why;
  o.defines.push_back("WS_TRACE_BUILD");
  o.pre_includes.push_back("common/trace_record.cuh");
  o.headers.emplace_back("trace_points.hpp", points);
  o.headers.emplace_back("cstdint", kFixedWidthTypes);
  return "";
}

}  // namespace ws
