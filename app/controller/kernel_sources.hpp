// The kernels' CUDA source, embedded at build time (app/ui/cmake/embed_kernels.cmake), split into
// the per-variant sections the Source view shows, plus the line diff and the rows a trace step
// highlights (by the source lines its events carry). No ImGui here, so tests/gui can check it.
#pragma once
#include <string>
#include <vector>

#include "trace/trace.hpp"
#include "trace/trace_points_scan.hpp"

namespace ws::controller {

/// One embedded file: its name ("epita.cu") and its whole text.
struct KernelFile {
  const char* name;
  const char* text;
};
/// Every kernels/reduction/*.cu file, in name order (generated code).
const std::vector<KernelFile>& kernel_files();

/// Where a variant's source lives: the file ("epita.cu"), the 1-based line its text starts on, the text.
struct SourceSection {
  std::string file;
  int first_line = 1;
  std::string text;               ///< "" when there is no section; trace-build instrumentation removed
  std::vector<int> line_numbers;  ///< 1-based line in `file` of each line of `text` (what traces and metrics name)
  /// The number the view prints for each line of `text`: its line in `file` without the lines that
  /// hold only trace instrumentation, so the numbers run without gaps.
  std::vector<int> display_numbers;
};

/// `line` without its trace-build instrumentation: every WS_T(...) span (kernels/reduction/
/// trace_record.cuh; empty in the timed build) and the blank before it. A line that held only
/// instrumentation comes back blank.
std::string strip_trace_instrumentation(const std::string& line);
/// The section of `id` with its place (see variant_source()). `keep_trace`: the trace-build instrumentation
/// stays in the text, every line of the file kept (the traced copy of an edited kernel, kernel_trace_points).
SourceSection find_section(const std::string& id, bool keep_trace = false);
/// find_section(id) and, in file order, the regions (between "// ----" rules) of the helpers outside it
/// whose lines `t`'s steps ran (harris.impl6's last warp is Implementation 5's helper), so every
/// highlighted line is shown. Just the section when the trace names no line outside it.
SourceSection section_for_trace(const std::string& id, const Trace& t);

/// The section of `id` (e.g. "epita.reduce3"): from the last "// ----" line before the first
/// "// <id>" line (helpers the variant calls may sit between them) up to the next "// ----" line, trailing blank
/// lines dropped. Special cases: cub.reduce is the whole
/// cub_reduce.cu; amp.sequential (CPU only) is a one-line note. "" when there is no such section.
std::string variant_source(const std::string& id);

/// The text split at '\n' (trace/trace_points_scan.hpp: the same split the trace-point scanner uses).
using ws::split_lines;

/// One line of a diff from `a` (old) to `b` (new).
struct DiffLine {
  enum Kind { Same, Added, Removed } kind = Same;
  std::string text;
};
/// Line diff by longest common subsequence: every line of a and b once, in order; removed lines of a
/// run come before the added lines that replace them.
std::vector<DiffLine> diff_lines(const std::string& a, const std::string& b);

/// `line` as code only: comments (// to the end, /* ... */, tracked across lines by
/// `in_block_comment`) and white space removed outside string and character literals. "" for a
/// blank or comment-only line.
std::string code_key(const std::string& line, bool& in_block_comment);
/// Line diff of the code only: lines compare by code_key(), so comment and white-space changes are
/// no difference. Every line of `b` comes out in order (comment and blank lines as Same, unmarked);
/// code lines of `a` that `b` lacks come out as Removed where they stood; a's comment lines do not.
std::vector<DiffLine> diff_code_lines(const std::string& a, const std::string& b);

/// The rows of `sec` (lines of its text) that `step` of `t` ran: those whose file line is in
/// step.lines, when the trace's lines are in the section's file. All false when they are not.
std::vector<bool> step_rows(const SourceSection& sec, const Trace& t, const Step& step);
/// Why `step` highlights nothing in `sec` ("" when step_rows() marks a row): the trace carries no
/// lines (a report stored before traces had them, or a model that names no trace points yet), its
/// lines are in another file, or the step recorded no statement.
std::string step_rows_note(const SourceSection& sec, const Trace& t, const Step& step);

}  // namespace ws::controller
