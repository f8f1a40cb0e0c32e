// The Source view's kernel editor without a window: the copy it makes of a variant (the launcher dropped,
// the contract's entry calling the slide's kernel with the arguments in the kernel's order), the margin's
// changed-line marks, compiler messages on their lines (real NVRTC where the build has it: no GPU needed),
// the saved and restored text, an edited run's result, and its row beside the original in Compare.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "kernel_compile.hpp"
#include "kernel_copy.hpp"
#include "kernel_edit.hpp"
#include "registry.hpp"
#include "user_kernel.hpp"
#include "views/compare_model.hpp"

namespace ws::ui {

using controller::changed_line_marks;
using controller::code_diff_rows;
using controller::CodeDiffRow;
using controller::exercises_of;
using controller::find_section;
using controller::find_text;
using controller::gui_exercises;
using controller::KernelCopy;
using controller::KernelEdit;
using controller::line_of_offset;
using controller::line_start_offset;
using controller::make_kernel_copy;
using controller::parse_diagnostic_lines;
using controller::parse_kernel_params;
using controller::why_not_editable;

namespace {

KernelCopy copy_of(const std::string& id) {
  const VariantInfo* v = find_variant(id);
  EXPECT_NE(v, nullptr) << id;
  return v ? make_kernel_copy(*v, find_section(id)) : KernelCopy{};
}

/// A finished run of the editor's reduce3 copy with `status` and `message`.
RunResult edited_run(RunStatus status, const std::string& message) {
  RunResult r;
  r.variant = "epita.reduce3 (edited)";
  r.status = status;
  r.message = message;
  return r;
}

std::string temp_dir(const std::string& name) {
  const auto d = std::filesystem::temp_directory_path() / ("ws_editor_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(d);
  return d.string();
}

TEST(KernelCopy, Reduce3KeepsTheSlideAndCallsItFromTheContractEntry) {
  const KernelCopy c = copy_of("epita.reduce3");
  EXPECT_TRUE(c.note.empty()) << c.note;
  EXPECT_NE(c.text.find("// warpscope: pattern=reduction entry=kernel"), std::string::npos);
  EXPECT_NE(c.text.find("__device__ void reduce3(const T* buffer, int size, T* sum) {"), std::string::npos);
  EXPECT_NE(c.text.find("    if (tid < stride) partialSum[tid] += partialSum[tid + stride];"), std::string::npos);
  EXPECT_NE(c.text.find("extern \"C\" __global__ void kernel(const int* in, int* out, unsigned n) {\n"
                        "  reduce3<int>(in, n, out);\n}"),
            std::string::npos)
      << c.text;
  // The host launcher and the trace instrumentation are not in the copy.
  EXPECT_EQ(c.text.find("run_reduce3"), std::string::npos);
  EXPECT_EQ(c.text.find("<<<"), std::string::npos);
  EXPECT_EQ(c.text.find("WS_T("), std::string::npos);
  const auto lines = split_lines(c.text);
  ASSERT_GT(c.kernel_line, 0);
  EXPECT_NE(lines[std::size_t(c.kernel_line - 1)].find("__device__ void reduce3"), std::string::npos);
}

// cs121.hist_shared_vec keeps 256 int bins per warp in dynamic shared memory: its copy asks for them in its
// header (the contract's default, block x 16 bytes, was half of it: the copy faulted on the H200).
TEST(KernelCopy, AHistogramWithBinsPerWarpAsksForItsSharedMemory) {
  const KernelCopy c = copy_of("cs121.hist_shared_vec");
  EXPECT_NE(c.text.find("// warpscope: pattern=atomics entry=kernel shared=block*32\n"), std::string::npos)
      << c.text.substr(0, 400);
  EXPECT_EQ(shared_bytes("block*32", 512, 16), 512 / 32 * 256 * 4);
  EXPECT_EQ(copy_of("cs121.hist_shared").text.find("shared="), std::string::npos);
}

TEST(KernelCopy, ArgumentsFollowTheKernelsOwnOrderAndTemplateValuesTakeTheBlock) {
  EXPECT_NE(copy_of("epita.reduce7").text.find("  reduce7<int>(out, in, n);"), std::string::npos);
  EXPECT_NE(copy_of("harris.impl1").text.find("  impl1<int>(in, out);"), std::string::npos);
  const VariantInfo* fu = find_variant("epita.full_unroll");
  ASSERT_NE(fu, nullptr);
  EXPECT_NE(copy_of("epita.full_unroll")
                .text.find("  reduce_full_unroll<" + std::to_string(fu->rules.default_block) + "u, int>(in, n, out);"),
            std::string::npos);
}

TEST(KernelCopy, ParamsParsed) {
  const auto p = parse_kernel_params("extern \"C\" __global__ void kernel(const int* in, int* out, unsigned n)");
  ASSERT_EQ(p.size(), 3u);
  EXPECT_TRUE(p[0].pointer && p[0].is_const);
  EXPECT_EQ(p[0].name, "in");
  EXPECT_TRUE(p[1].pointer && !p[1].is_const);
  EXPECT_FALSE(p[2].pointer);
  EXPECT_EQ(p[2].type, "unsigned");
}

TEST(KernelCopy, ChangedLineMarks) {
  const std::string a = "a\nb\nc\nd\n";
  EXPECT_EQ(changed_line_marks(a, a), (std::vector<int>{0, 0, 0, 0, 0}));
  EXPECT_EQ(changed_line_marks(a, "a\nB\nc\nd\n"), (std::vector<int>{0, 1, 0, 0, 0}));
  EXPECT_EQ(changed_line_marks(a, "a\nc\nd\n"), (std::vector<int>{0, 2, 0, 0}));  // b deleted above c
  EXPECT_EQ(changed_line_marks(a, "a\nb\nx\nc\nd\n"), (std::vector<int>{0, 0, 1, 0, 0, 0}));
}

TEST(KernelCopy, CodeDiffRowsKeepTheChangesWithContextAndNumberBothSides) {
  const std::string a = "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\n";
  EXPECT_TRUE(code_diff_rows(a, a).empty());
  // l3 removed, X added after l6: one gap between the two hunks, one before the first is not needed.
  const auto rows = code_diff_rows(a, "l1\nl2\nl4\nl5\nl6\nX\nl7\nl8\n", 1);
  std::vector<std::string> got;
  for (const CodeDiffRow& r : rows)
    got.push_back(r.kind == CodeDiffRow::Gap
                      ? "gap " + std::to_string(r.skipped)
                      : std::string(r.kind == CodeDiffRow::Added     ? "+"
                                    : r.kind == CodeDiffRow::Removed ? "-"
                                                                     : " ") +
                            std::to_string(r.old_line) + "/" + std::to_string(r.new_line) + " " + r.text);
  EXPECT_EQ(got, (std::vector<std::string>{"gap 1", " 2/2 l2", "-3/0 l3", " 4/3 l4", "gap 1", " 6/5 l6", "+0/6 X",
                                           " 7/7 l7", "gap 1"}));
  // The lines the editor's margin marks are the diff's added lines.
  const auto marks = changed_line_marks(a, "l1\nl2\nl4\nl5\nl6\nX\nl7\nl8\n");
  EXPECT_EQ(marks[5], 1);
  EXPECT_EQ(marks[2], 2);  // l3 deleted above l4
}

TEST(KernelEditModel, TheTextOfEachRunIsKeptForCompare) {
  KernelEdit e;
  const std::string copy = copy_of("epita.reduce3").text;
  e.open("epita.reduce3", PatternKind::Reduction, copy, "", "-");
  EXPECT_EQ(e.ran_text(e.run_label()), nullptr);
  e.text += "// mine\n";
  e.run_queued({});
  const KernelEdit::RanText* t = e.ran_text("epita.reduce3 (edited)");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->original, copy);
  EXPECT_EQ(t->text, copy + "// mine\n");
  e.text += "// later, not run\n";
  EXPECT_EQ(e.ran_text("epita.reduce3 (edited)")->text, copy + "// mine\n");
}

TEST(KernelEditModel, DiagnosticLinesAndFind) {
  const auto d = parse_diagnostic_lines(
      "reduce3.edited.cu:14: error: identifier \"strde\" is undefined\n"
      "common/x.cuh:3: warning: unused\nnot a message\nreduce3.edited.cu: error: no line\n",
      "reduce3.edited.cu");
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0].line, 14);
  EXPECT_EQ(d[0].severity, "error");
  EXPECT_EQ(d[0].message, "identifier \"strde\" is undefined");
  EXPECT_EQ(d[1].line, 0);  // another file's line is not the editor's
  EXPECT_EQ(d[1].file, "common/x.cuh");
  EXPECT_EQ(d[2].line, 0);
  const std::string t = "one\ntwo Stride\nthree stride\n";
  EXPECT_EQ(line_of_offset(t, find_text(t, "stride", 0, true)), 2);
  EXPECT_EQ(line_of_offset(t, find_text(t, "stride", 12, true)), 3);
  EXPECT_EQ(line_of_offset(t, find_text(t, "stride", 25, true)), 2);  // wraps
  EXPECT_EQ(find_text(t, "nope", 0, true), std::string::npos);
  EXPECT_EQ(line_start_offset(t, 2), 4u);
}

TEST(KernelEditModel, EditsAreSavedAndRestored) {
  const std::string dir = temp_dir("save");
  const std::string original = copy_of("epita.reduce3").text;
  {
    KernelEdit e;
    e.open("epita.reduce3", PatternKind::Reduction, original, "", dir);
    EXPECT_FALSE(e.restored());
    EXPECT_EQ(e.text, original);
    e.text += "// mine\n";
    EXPECT_EQ(e.changed(), "");
    EXPECT_EQ(e.save(), "");
    EXPECT_TRUE(std::filesystem::exists(dir + "/epita.reduce3.cu"));
  }  // as after a restart
  KernelEdit e;
  e.open("epita.reduce3", PatternKind::Reduction, original, "", dir);
  EXPECT_TRUE(e.restored());
  EXPECT_EQ(e.text, original + "// mine\n");
  e.reset();
  EXPECT_EQ(e.text, original);
  KernelEdit again;
  again.open("epita.reduce3", PatternKind::Reduction, original, "", dir);
  EXPECT_FALSE(again.restored());
  std::filesystem::remove_all(dir);
}

TEST(KernelEditModel, SaveAsAndOpenACuFile) {
  const std::string dir = temp_dir("files");
  std::filesystem::create_directories(dir);
  KernelEdit e;
  e.open("epita.reduce3", PatternKind::Reduction, copy_of("epita.reduce3").text, "", dir + "/kept");
  e.text += "// saved\n";
  EXPECT_EQ(e.save_as(dir + "/mine.cu"), "");
  std::ifstream in(dir + "/mine.cu");
  std::stringstream got;
  got << in.rdbuf();
  EXPECT_EQ(got.str(), e.text);
  const std::string saved = e.text;
  e.reset();
  EXPECT_EQ(e.open_file(dir + "/mine.cu"), "");
  EXPECT_EQ(e.text, saved);
  EXPECT_NE(e.open_file(dir + "/missing.cu"), "");
  EXPECT_EQ(e.text, saved);  // unchanged on failure
  std::ofstream(dir + "/big.cu") << std::string(kMaxKernelSourceBytes + 1, 'x');
  EXPECT_NE(e.open_file(dir + "/big.cu"), "");
  EXPECT_NE(e.save_as(""), "");
  std::filesystem::remove_all(dir);
}

TEST(KernelEditModel, RunRequestAndItsResult) {
  KernelEdit e;
  e.open("epita.reduce3", PatternKind::Reduction, copy_of("epita.reduce3").text, "", "-");
  EXPECT_EQ(e.run_label(), "epita.reduce3 (edited)");
  RunRequest base;
  base.variant = "epita.reduce3";
  base.n = 1 << 20;
  const RunRequest r = e.run_request(base);
  EXPECT_EQ(r.kernel.like, "epita.reduce3");
  EXPECT_EQ(r.kernel.file, "reduce3.edited.cu");
  EXPECT_EQ(r.kernel.source, e.text);
  EXPECT_EQ(r.n, 1 << 20);

  std::vector<RunResult> runs(1);
  runs[0].variant = "epita.reduce3 (edited)";  // an earlier run: not this one's result
  runs[0].status = RunStatus::Ok;
  e.run_queued(runs);
  EXPECT_TRUE(e.running());
  EXPECT_FALSE(e.take_run(runs));
  runs.push_back(edited_run(RunStatus::Error, "reduce3.edited.cu:23: error: expected a \";\""));
  ASSERT_TRUE(e.take_run(runs));
  EXPECT_FALSE(e.running());
  EXPECT_TRUE(e.status_bad());
  ASSERT_EQ(e.diagnostics().size(), 1u);
  EXPECT_EQ(e.line_marks()[22], 2);

  e.run_queued(runs);
  runs.push_back(edited_run(RunStatus::Wrong, "sum 1234 != reference 5678"));
  ASSERT_TRUE(e.take_run(runs));
  EXPECT_TRUE(e.status_bad());
  EXPECT_NE(e.status().find("wrong"), std::string::npos) << e.status();
}

TEST(KernelEditExercise, CheckGradesThroughTheRunQueueAndKeepsItsRunsOutOfTheSession) {
  const Exercise* ex = find_exercise(gui_exercises(), "epita.reduce2_to_reduce3");
  ASSERT_NE(ex, nullptr);
  ASSERT_EQ(exercises_of("epita.reduce3").size(), 1u);
  EXPECT_EQ(exercises_of("epita.reduce3")[0], ex);
  EXPECT_TRUE(exercises_of("epita.reduce2").empty());
  ASSERT_NE(find_exercise(gui_exercises(), "stevens.kogge_stone_db"), nullptr);  // no `like`: its reference
  EXPECT_EQ(exercises_of("stevens.kogge_stone").size(), 1u);

  KernelEdit e;
  ASSERT_EQ(e.open_exercise(*ex, "-"), "");
  ASSERT_NE(e.exercise(), nullptr);
  EXPECT_EQ(e.variant(), "epita.reduce3");
  EXPECT_EQ(e.file(), "reduce2_to_reduce3.cu");
  EXPECT_NE(e.text.find("TODO"), std::string::npos);  // the starter
  EXPECT_FALSE(e.next_check_request());               // nothing before Check
  e.check();
  ASSERT_TRUE(e.checking());
  EXPECT_TRUE(e.running());  // a screenshot waits for the verdict
  std::optional<RunRequest> req = e.next_check_request();
  ASSERT_TRUE(req);
  EXPECT_EQ(req->kernel.source, e.text);
  EXPECT_EQ(req->kernel.like, "epita.reduce3");
  EXPECT_FALSE(e.next_check_request());  // one at a time
  // The editor's own run and other variants' runs are not the check's.
  EXPECT_FALSE(e.take_check_result(edited_run(RunStatus::Ok, "")));
  RunResult wrong = unrun_result(*req, RunStatus::Wrong, "expected 5, got 4");
  EXPECT_EQ(wrong.variant, user_kernel_label(req->kernel));
  ASSERT_TRUE(e.take_check_result(wrong));
  // Every case runs (a wrong one does not stop them), then the verdict; no speed run without correctness.
  for (std::size_t i = 1; i < ex->cases.size(); ++i) {
    req = e.next_check_request();
    ASSERT_TRUE(req) << i;
    RunResult ok = unrun_result(*req, RunStatus::Ok, "");
    ASSERT_TRUE(e.take_check_result(ok));
  }
  EXPECT_FALSE(e.checking());
  ASSERT_NE(e.grade(), nullptr);
  EXPECT_FALSE(e.grade()->passed());
  EXPECT_TRUE(e.status_bad());
  EXPECT_EQ(e.status(), "NOT PASSED epita.reduce2_to_reduce3: " + std::to_string(ex->cases.size()) + " of " +
                            std::to_string(ex->cases.size() + 2) + " checks (case 1: wrong result)");
  // A cancelled check: its request may still come back; it is dropped, not shown.
  e.check();
  req = e.next_check_request();
  ASSERT_TRUE(req);
  e.cancel_check();
  EXPECT_FALSE(e.checking());
  EXPECT_TRUE(e.take_check_result(unrun_result(*req, RunStatus::Ok, "")));
  EXPECT_NE(e.status().find("cancelled"), std::string::npos) << e.status();
  // A variant's copy has no exercise and no check.
  e.open("epita.reduce3", PatternKind::Reduction, copy_of("epita.reduce3").text, "", "-");
  EXPECT_EQ(e.exercise(), nullptr);
  e.check();
  EXPECT_FALSE(e.checking());
  EXPECT_EQ(e.file(), "reduce3.edited.cu");
}

TEST(KernelEditModel, CompileErrorsLandOnTheirLines) {
  if (!built_with_nvrtc()) GTEST_SKIP() << "this build has no NVRTC";
  KernelEdit e;
  const std::string copy = copy_of("epita.reduce3").text;
  e.open("epita.reduce3", PatternKind::Reduction, copy, "", "-");
  e.compile();
  ASSERT_TRUE(e.poll(60000));
  EXPECT_FALSE(e.status_bad()) << e.status();
  EXPECT_NE(e.status().find("compiles"), std::string::npos) << e.status();
  // A misspelt name on the loop's line: the error comes back on that line.
  const std::size_t at = e.text.find("partialSum[tid + stride]");
  ASSERT_NE(at, std::string::npos);
  e.text.replace(at, std::string("partialSum[tid + stride]").size(), "partialSum[tid + strde]");
  const int line = line_of_offset(e.text, at);
  e.compile();
  ASSERT_TRUE(e.poll(60000));
  EXPECT_TRUE(e.status_bad());
  ASSERT_FALSE(e.diagnostics().empty());
  EXPECT_EQ(e.diagnostics()[0].line, line);
  EXPECT_NE(e.diagnostics()[0].message.find("strde"), std::string::npos);
  EXPECT_EQ(e.line_marks()[std::size_t(line - 1)], 2);
}

TEST(KernelEditModel, EveryEditableReductionCopyCompiles) {
  if (!built_with_nvrtc()) GTEST_SKIP() << "this build has no NVRTC";
  // The reductions whose launcher passes arguments the contract has (all but the multi-pass and
  // two-array ones), plus the 1-D convolution, the scans and the histograms that fit their contracts.
  int compiled = 0, editable = 0;
  for (const VariantInfo& v : all_variants()) {
    if (!why_not_editable(v).empty()) continue;
    ++editable;
    const KernelCopy c = make_kernel_copy(v, find_section(v.id));
    KernelEdit e;
    e.open(v.id, v.pattern, c.text, c.note, "-");
    e.compile();
    ASSERT_TRUE(e.poll(60000)) << v.id;
    compiled += !e.status_bad();
    if (v.pattern == PatternKind::Reduction && c.note.empty())
      EXPECT_FALSE(e.status_bad()) << v.id << ": " << e.status();
  }
  EXPECT_GE(compiled, 30) << "of " << editable;
}

TEST(KernelEditModel, EveryEditableCopyCompilesOrItsNoteSaysWhy) {
  if (!built_with_nvrtc()) GTEST_SKIP() << "this build has no NVRTC";
  // Every pattern: a copy either compiles under NVRTC or carries the one line that says why (arguments the
  // contract does not pass, a __constant__ array filled by host code). The look-back scan compiles: its
  // tile status and counter come from the scan contract's scratch, its headers and constants from its file.
  for (const VariantInfo& v : all_variants()) {
    if (!why_not_editable(v).empty()) continue;
    const KernelCopy c = make_kernel_copy(v, find_section(v.id));
    KernelEdit e;
    e.open(v.id, v.pattern, c.text, c.note, "-");
    e.compile();
    ASSERT_TRUE(e.poll(60000)) << v.id;
    if (e.status_bad()) EXPECT_FALSE(c.note.empty()) << v.id << " does not compile and says nothing: " << e.status();
    if (v.id == "scan.decoupled_lookback") EXPECT_FALSE(e.status_bad()) << e.status();
    // The convolutions that read their mask from __constant__ memory keep it: the worker fills it.
    if (v.pattern == PatternKind::Convolution) {
      EXPECT_FALSE(e.status_bad()) << v.id << ": " << e.status();
      EXPECT_EQ(c.note, "") << v.id;
    }
  }
  const KernelCopy conv = copy_of("stevens.conv1d_const");
  EXPECT_NE(conv.text.find("// warpscope: pattern=convolution entry=kernel mask_symbol=M\n"), std::string::npos)
      << conv.text;
  EXPECT_NE(conv.text.find("constexpr int MAX_MASK_WIDTH = 15;"), std::string::npos);
  EXPECT_NE(conv.text.find("__constant__ float M[MAX_MASK_WIDTH * MAX_MASK_WIDTH];"), std::string::npos);
  EXPECT_NE(conv.text.find("convolution_1D_const_kernel(in, out, mask_width, n);"), std::string::npos)
      << "Mask_Width takes the contract's mask_width by its name";
  EXPECT_NE(copy_of("stevens.conv1d_basic").text.find("convolution_1D_basic_kernel(in, mask, out, mask_width, n);"),
            std::string::npos);
  // The tiled copy's shared memory holds the tile and the widest mask's halo.
  EXPECT_NE(copy_of("stevens.conv1d_tiled").text.find("mask_symbol=M shared=block*4+56\n"), std::string::npos);
  const KernelCopy scan = copy_of("scan.decoupled_lookback");
  EXPECT_NE(scan.text.find("(unsigned long long*)scratch, (unsigned int*)(scratch + 2 * gridDim.x)"), std::string::npos)
      << scan.text;
  EXPECT_NE(scan.text.find("#include \"scan/lookback.cuh\""), std::string::npos);
  EXPECT_NE(scan.text.find("constexpr int kRows = 4, kVec = 4;"), std::string::npos);
  // Headers are taken only for names the kernel uses: conv1d_basic's copy does not pull arch_paths.cuh.
  EXPECT_EQ(copy_of("stevens.conv1d_basic").text.find("arch_paths"), std::string::npos);
}

TEST(KernelCopy, WhatCannotBeEdited) {
  EXPECT_NE(why_not_editable(*find_variant("cub.reduce")), "");
  EXPECT_NE(why_not_editable(*find_variant("amp.sequential")), "");
  // Its launcher runs three kernels; an unchanged copy scanned each block alone on the H200 (ws_gpu_copy_tests).
  EXPECT_NE(why_not_editable(*find_variant("stevens.scan_hierarchical")).find("three kernels"), std::string::npos);
  EXPECT_NE(why_not_editable(*find_variant("cs121.filter_global")), "");
  EXPECT_NE(why_not_editable(*find_variant("stevens.conv2d_basic")), "");
  EXPECT_EQ(why_not_editable(*find_variant("cs121.hist_shared")), "");
  EXPECT_NE(copy_of("cs121.hist_shared").text.find("(int*)bins"), std::string::npos);
  EXPECT_NE(copy_of("stevens.kogge_stone").text.find("false /* exclusive"), std::string::npos);
}

TEST(KernelEditCompare, EditedRowSitsBesideItsOriginalAndAWrongOneNeverWins) {
  Report rep;
  RunResult orig;
  orig.variant = "epita.reduce3";
  orig.status = RunStatus::Ok;
  orig.timed = true;
  orig.timing.median_ms = 1.0;
  orig.gbps = 100;
  orig.n = 1 << 20;
  RunResult edited = orig;
  edited.variant = "epita.reduce3 (edited)";
  edited.status = RunStatus::Wrong;
  edited.timing.median_ms = 0.5;
  edited.gbps = 200;
  rep.runs = {orig, edited};
  const auto ids = with_edited_runs(rep, {"epita.reduce2", "epita.reduce3", "epita.reduce4"});
  EXPECT_EQ(ids,
            (std::vector<std::string>{"epita.reduce2", "epita.reduce3", "epita.reduce3 (edited)", "epita.reduce4"}));
  auto rows = build_compare(rep, ids, "", {});
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[2].variant, "epita.reduce3 (edited)");
  EXPECT_TRUE(rows[2].flagged);
  EXPECT_FALSE(rows[2].best);
  EXPECT_TRUE(rows[1].best);
  // A correct edited run that is faster wins, with its speedup over the original.
  rep.runs[1].status = RunStatus::Ok;
  rows = build_compare(rep, ids, "", {});
  EXPECT_TRUE(rows[2].best);
  EXPECT_DOUBLE_EQ(rows[2].speedup, 2.0);
}

}  // namespace
}  // namespace ws::ui
