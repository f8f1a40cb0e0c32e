// The traced build of a user's kernel (docs/your-kernel.md, "Step views of an edited copy"): the text of an
// edited copy with its variant's trace instrumentation put back (WS_T lines, WS_AT markers, `#line` directives
// that keep the edited text's line numbers; app/controller/kernel_trace_points), compiled by NVRTC with the
// recorder of kernels/common/trace_record.cuh, as the build compiles the variants' trace build with nvcc.
#pragma once
#include <string>

#include "kernel_compile.hpp"

namespace ws {

/// The extern "C" device symbol of a traced user module that the host fills with a TraceSink before the launch
/// that records (trace_record.cuh under NVRTC).
constexpr const char* kUserTraceSinkSymbol = "ws_trace_sink";

/// Whether `source` carries trace instrumentation: a WS_T( or WS_AT marker outside a // comment.
bool has_trace_instrumentation(const std::string& source);

/// The trace-point table of `source` in trace_points.hpp's form (trace_points_header()), its lines those of the
/// text the user sees: each `#line N` directive gives the next line number N and is no line of its own, and a
/// WS_AT marker names the statement as in a kernel file (scan_trace_points()). `source` declares its points'
/// namespace as a kernel file does: WS_T(namespace ws_points = ::ws::trace_points::STEM;). Returns "" and the
/// header, or one line why there is none (no marker; `FILE:LINE: why` for a malformed one).
std::string user_trace_points_header(const std::string& source, const std::string& file, std::string& header);

/// Sets `o` up for the traced build of `source`: -DWS_TRACE_BUILD, the recorder (common/trace_record.cuh)
/// included first, and the headers NVRTC lacks (the source's trace_points.hpp; <cstdint>'s fixed-width types for
/// common/trace_event.hpp). Returns "" or why `source` cannot be traced (user_trace_points_header()).
std::string traced_compile_options(const std::string& source, CompileOptions& o);

}  // namespace ws
