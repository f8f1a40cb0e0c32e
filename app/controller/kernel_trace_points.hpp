// The trace points of an edited copy (docs/your-kernel.md, "Step views of an edited copy"). The editor shows the
// copy without the variant's trace instrumentation; the traced copy (the same text with the WS_T lines the
// variant's trace build records with) stays beside it. For a trace, instrument_edit() puts each instrumentation
// block back into the edited text next to the statement it sat beside, where the edit kept that statement, and
// says which trace point the edit dropped where it did not.
#pragma once
#include <string>

#include "variant.hpp"

namespace ws::controller {

/// The copy of `v` as make_kernel_copy() makes it, with the variant's trace instrumentation kept (the WS_T
/// lines of its section and helpers, and WS_T spans inside lines), and a first line naming the file's trace
/// points (WS_T(... namespace ws_points = ::ws::trace_points::STEM;)). "" when the variant has none.
std::string traced_kernel_copy(const VariantInfo& v);

/// The text a traced build of an edit compiles, or why there is none.
struct TracedEdit {
  /// `edited` with every instrumentation block of the traced copy back in place and `#line` directives that keep
  /// `edited`'s line numbers (trace/user_trace_build.hpp); "" when `why` is set.
  std::string source;
  /// "" or one line for the step views: "the edited kernel changed line 17, the statement trace point
  /// reduce3_tree records: steps not recorded; run, time and metrics still work".
  std::string why;
};

/// Puts the instrumentation of `traced` (traced_kernel_copy()) into `edited` (the copy as edited). The edit keeps
/// the trace points when every statement a point (WS_AT) records and every line carrying a WS_T span is in
/// `edited` unchanged (the line diff against the plain copy), and every instrumentation block keeps a neighbour:
/// a block with a WS_AT marker goes after the line above it, any other before the line below it, the other
/// neighbour standing in when that one was edited. Other lines may change freely (a loop bound, an index).
TracedEdit instrument_edit(const std::string& traced, const std::string& edited);

}  // namespace ws::controller
