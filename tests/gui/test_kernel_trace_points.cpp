// The trace points of an edited copy: the traced copy beside the editor's, the instrumentation put back into an
// edit that kept its statements, the one line the step views show for an edit that did not, and the traced
// build of an edited reduce3 through NVRTC (no GPU needed: it compiles for sm_90).
#include <gtest/gtest.h>

#include "app_state.hpp"
#include "edit_step_trace.hpp"
#include "kernel_compile.hpp"
#include "kernel_copy.hpp"
#include "kernel_sources.hpp"
#include "kernel_trace_points.hpp"
#include "registry.hpp"
#include "run_worker.hpp"
#include "trace/user_trace_build.hpp"

namespace ws::ui {

using controller::AppState;
using controller::compute_trace;
using controller::exchange_edit_trace;
using controller::find_section;
using controller::instrument_edit;
using controller::KernelEdit;
using controller::make_kernel_copy;
using controller::RunWorker;
using controller::traced_kernel_copy;
using controller::TracedEdit;
using controller::why_not_editable;

namespace {

std::string without_line_directives(const std::string& text) {
  std::string out;
  for (const std::string& l : split_lines(text))
    if (l.rfind("#line ", 0) != 0) out += l + "\n";
  return out;
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

int line_of(const std::string& text, const std::string& needle) {
  const std::vector<std::string> lines = split_lines(text);
  for (std::size_t i = 0; i < lines.size(); ++i)
    if (lines[i].find(needle) != std::string::npos) return int(i) + 1;
  return 0;
}

const VariantInfo& reduce3() {
  static const VariantInfo* v = find_variant("epita.reduce3");
  EXPECT_NE(v, nullptr);
  return *v;
}

const char* const kLoop = "stride >= 1; stride /= 2";
const char* const kTree = "if (tid < stride) partialSum[tid] += partialSum[tid + stride];";

TEST(KernelTracePoints, AnUnchangedCopyGetsEveryTracePointBack) {
  int traced = 0;
  for (const VariantInfo& v : all_variants()) {
    if (!why_not_editable(v).empty()) continue;
    const std::string t = traced_kernel_copy(v);
    if (t.empty()) continue;
    ++traced;
    const TracedEdit e = instrument_edit(t, make_kernel_copy(v, find_section(v.id)).text);
    EXPECT_EQ(e.why, "") << v.id;
    EXPECT_EQ(without_line_directives(e.source), t) << v.id;
  }
  EXPECT_GE(traced, 20);
}

TEST(KernelTracePoints, AnEditOfALoopBoundKeepsThemOnTheEditedLines) {
  const std::string copy = make_kernel_copy(reduce3(), find_section("epita.reduce3")).text;
  const std::string edited =
      replaced("// my note\n" + copy, kLoop, "stride >= 32; stride /= 2");  // one line more above the kernel
  const TracedEdit e = instrument_edit(traced_kernel_copy(reduce3()), edited);
  ASSERT_EQ(e.why, "");
  EXPECT_NE(e.source.find("stride >= 32"), std::string::npos);
  EXPECT_NE(e.source.find("WS_AT(reduce3_tree)"), std::string::npos);
  // The trace-point table names the edited text's lines, as the editor numbers them.
  std::string header;
  ASSERT_EQ(user_trace_points_header(e.source, "reduce3.edited.cu", header), "");
  EXPECT_NE(header.find("inline constexpr int reduce3_tree = " + std::to_string(line_of(edited, kTree)) + ";"),
            std::string::npos)
      << header;
  EXPECT_NE(header.find("inline constexpr int reduce3_commit = " +
                        std::to_string(line_of(edited, "if (tid == 0) atomicAdd(sum, partialSum[0]);")) + ";"),
            std::string::npos)
      << header;
}

TEST(KernelTracePoints, AnEditOfARecordedStatementSaysWhichPointItDropped) {
  const std::string copy = make_kernel_copy(reduce3(), find_section("epita.reduce3")).text;
  const std::string traced = traced_kernel_copy(reduce3());
  const TracedEdit tree = instrument_edit(
      traced, replaced(copy, kTree, "if (tid < stride / 2) partialSum[tid] += partialSum[tid + stride];"));
  EXPECT_EQ(tree.source, "");
  EXPECT_EQ(tree.why, "the edited kernel changed line " + std::to_string(line_of(copy, kTree)) +
                          " of the copy (`if (tid < stride) partialSum[tid] += partialSum[tid + stride];`), the "
                          "statement trace "
                          "point reduce3_tree records: steps not recorded; run, time and metrics still work");
  const TracedEdit commit = instrument_edit(traced, replaced(copy, "if (tid == 0) atomicAdd(sum, partialSum[0]);", ""));
  EXPECT_NE(commit.why.find("trace point reduce3_commit"), std::string::npos) << commit.why;
  // A kernel written from scratch has no traced copy.
  EXPECT_NE(instrument_edit("", copy).why.find("has no trace points"), std::string::npos);
}

TEST(KernelTracePoints, TheTracedBuildOfAnEditedReduce3Compiles) {
  if (!built_with_nvrtc()) GTEST_SKIP() << "this build has no NVRTC";
  const std::string copy = make_kernel_copy(reduce3(), find_section("epita.reduce3")).text;
  const TracedEdit e =
      instrument_edit(traced_kernel_copy(reduce3()), replaced(copy, kLoop, "stride >= 32; stride /= 2"));
  ASSERT_EQ(e.why, "");
  CompileOptions o;
  o.file = "reduce3.edited.cu";
  o.cache_dir = "-";
  ASSERT_EQ(traced_compile_options(e.source, o), "");
  const CompileResult r = compile_user_kernel(e.source, o);
  EXPECT_TRUE(r.ok()) << r.error << "\n" << r.log;
  EXPECT_EQ(r.lowered_entry, "kernel");
  // An error in the traced build is on the edited text's line.
  const std::string broken = replaced(e.source, "stride >= 32", "strde >= 32");
  const CompileResult b = compile_user_kernel(broken, o);
  ASSERT_EQ(b.status, CompileStatus::Failed);
  ASSERT_FALSE(b.diagnostics.empty());
  EXPECT_EQ(b.diagnostics[0].line, line_of(copy, kLoop));
}

TEST(KernelTracePoints, TheStepViewsSayWhyAnEditShowsNoSteps) {
  AppState s;
  ASSERT_TRUE(s.select_variant("epita.reduce3"));
  const std::string copy = make_kernel_copy(reduce3(), find_section("epita.reduce3")).text;
  s.edit.open("epita.reduce3", PatternKind::Reduction, copy, "", "-");
  s.edit.set_traced_copy(traced_kernel_copy(reduce3()));
  RunWorker worker([](std::string& error) -> std::unique_ptr<Backend> {
    error = "no device in this test";
    return nullptr;
  });
  RunWorker::Snapshot snap;
  // The copy as made is the variant: its own steps.
  exchange_edit_trace(s, worker, snap, false);
  s.refresh_trace();
  ASSERT_TRUE(s.trace.trace.has_value()) << s.trace.why_none;
  // An edit that dropped a trace point: one line naming it, and no steps (not the original's).
  s.edit.text = replaced(copy, kTree, "if (tid < stride / 2) partialSum[tid] += partialSum[tid + stride];");
  exchange_edit_trace(s, worker, snap, false);
  s.refresh_trace();
  EXPECT_FALSE(s.trace.trace.has_value());
  EXPECT_NE(s.trace.why_none.find("the statement trace point reduce3_tree records: steps not recorded"),
            std::string::npos)
      << s.trace.why_none;
  // An edit that kept them: its steps come from a run on a GPU, until then the views say so.
  s.edit.text = replaced(copy, kLoop, "stride >= 32; stride /= 2");
  exchange_edit_trace(s, worker, snap, false);
  s.refresh_trace();
  EXPECT_FALSE(s.trace.trace.has_value());
  EXPECT_NE(s.trace.why_none.find("recorded on the GPU after it runs there"), std::string::npos) << s.trace.why_none;
  // A recording of that text arrives: the views draw it.
  KernelEdit::StepTrace st;
  st.text = s.edit.text;
  st.trace = *compute_trace(reduce3(), s.trace_key(), st.why);
  s.edit.set_step_trace(st);
  s.refresh_trace();
  EXPECT_TRUE(s.trace.trace.has_value()) << s.trace.why_none;
  EXPECT_EQ(s.trace.origin, "edit");
  worker.stop();
}

}  // namespace
}  // namespace ws::ui
