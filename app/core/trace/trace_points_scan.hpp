// Trace points: the statements of the kernels' source that their trace events come from. A kernel
// file marks each recorded statement inside its instrumentation, WS_T(WS_AT(name) ...) for the code
// line above the marker (or the marker's own line, when code stands on it) and
// WS_T(WS_AT_NEXT(name) ...) for the code line below. At build time ws_gen_trace_points scans every
// kernels/*/*.cu with scan_trace_points() and writes trace_points.hpp: per file a namespace
// ws::trace_points::<stem> with kFile and one `int name = line`, which both the device recorder
// (kernels/common/trace_record.cuh) and the sim models use, so their lines follow every edit.
#pragma once
#include <string>
#include <vector>

namespace ws {

/// One marker: its name, the 1-based line it sits on, and the 1-based code line it names.
struct ScannedPoint {
  std::string name;
  int marker_line = 0;
  int line = 0;
};

/// The points of one kernel file ("epita.cu"): `error` is "" or "epita.cu:170: why" (a duplicate
/// name, no code line in the marker's direction, a missing `namespace ws_points = ...` alias).
struct ScannedFile {
  std::string file;
  std::string stem;  ///< the file name without ".cu": the namespace of its points
  std::vector<ScannedPoint> points;
  std::string error;
};

/// `line` with every WS_T(...) span and any // comment removed, trimmed: "" for a blank, comment-only
/// or instrumentation-only line.
std::string trace_code_of(const std::string& line);

/// The text split at '\n' (a trailing newline adds no empty last line).
std::vector<std::string> split_lines(const std::string& text);

/// Scans one file's text for WS_AT / WS_AT_NEXT markers (see above). `file` is its base name.
ScannedFile scan_trace_points(const std::string& file, const std::string& text);

/// The generated header for `files` (in the given order: the file index is the position).
std::string trace_points_header(const std::vector<ScannedFile>& files);

}  // namespace ws
