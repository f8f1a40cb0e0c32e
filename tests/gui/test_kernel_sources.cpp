// The Source view's model: the embedded kernel sections per variant and the line diff.
#include <gtest/gtest.h>

#include <algorithm>

#include "kernel_sources.hpp"
#include "registry.hpp"
#include "trace_source.hpp"

namespace ws::ui {

using controller::code_key;
using controller::compute_trace;
using controller::diff_code_lines;
using controller::diff_lines;
using controller::DiffLine;
using controller::find_section;
using controller::kernel_files;
using controller::KernelFile;
using controller::section_for_trace;
using controller::SourceSection;
using controller::step_rows;
using controller::step_rows_note;
using controller::strip_trace_instrumentation;
using controller::TraceKey;
using controller::variant_source;

namespace {

TEST(KernelSources, EveryFileEmbedded) {
  std::vector<std::string> names;
  for (const KernelFile& f : kernel_files()) names.push_back(f.name);
  for (const char* want : {"amp.cu", "cs121.cu", "cub_reduce.cu", "epita.cu", "harris.cu"})
    EXPECT_NE(std::find(names.begin(), names.end(), want), names.end()) << want;
}

TEST(KernelSources, EveryVariantHasASection) {
  for (const VariantInfo& v : all_variants()) {
    const std::string src = variant_source(v.id);
    ASSERT_FALSE(src.empty()) << v.id;
    if (v.id == "cub.reduce" || v.id == "amp.sequential") continue;
    // The section starts at its "// ----" rule and names the variant on the next line.
    EXPECT_EQ(src.rfind("// ----", 0), 0u) << v.id;
    EXPECT_NE(src.find("// " + v.id), std::string::npos) << v.id;
    // Exactly one section: no later "// ----" inside it.
    EXPECT_EQ(src.find("// ----", 1), std::string::npos) << v.id;
  }
}

TEST(KernelSources, SectionsHoldTheirKernel) {
  EXPECT_NE(variant_source("epita.reduce3").find("partialSum[tid] += partialSum[tid + stride]"), std::string::npos);
  EXPECT_EQ(variant_source("epita.reduce3").find("reduce4"), std::string::npos);
  EXPECT_NE(variant_source("harris.impl3").find("__global__ void impl3("), std::string::npos);
  EXPECT_NE(variant_source("cs121.block_reduce").find("__global__ void block_reduce("), std::string::npos);
  EXPECT_NE(variant_source("amp.tiled_1").find("__global__ void tiled_1("), std::string::npos);
  EXPECT_NE(variant_source("cub.reduce").find("cub::DeviceReduce::Sum"), std::string::npos);
  EXPECT_NE(variant_source("amp.sequential").find("CPU"), std::string::npos);
  EXPECT_EQ(variant_source("nope.nothing"), "");
  const SourceSection s = find_section("epita.reduce3");
  EXPECT_EQ(s.file, "epita.cu");
  // reduce6's section opens with the warpReduce helper it calls.
  EXPECT_NE(variant_source("epita.reduce6").find("__device__ void warpReduce("), std::string::npos);
  EXPECT_GT(s.first_line, 1);
}

/// The trimmed text of the rows `step` of the variant's sim trace (block `block`, n = one window)
/// highlights in its Source listing (its section, with the helpers' regions the trace ran).
std::vector<std::string> highlighted(const std::string& id, int block, const std::string& label,
                                     std::string* note = nullptr) {
  const VariantInfo* v = find_variant(id);
  if (!v) return {"no variant " + id};
  TraceKey key;
  key.variant = id;
  key.n = 1 << 20;
  key.block = block;
  key.input = "random";
  std::string why;
  const std::optional<Trace> t = compute_trace(*v, key, why);
  if (!t) return {"no trace: " + why};
  const SourceSection sec = section_for_trace(id, *t);
  const std::vector<std::string> text = split_lines(sec.text);
  for (const Step& st : t->steps) {
    if (st.label != label) continue;
    if (note) *note = step_rows_note(sec, *t, st);
    const std::vector<bool> rows = step_rows(sec, *t, st);
    std::vector<std::string> out;
    for (std::size_t r = 0; r < rows.size(); ++r)
      if (rows[r]) {
        std::string l = text[r];
        l.erase(0, l.find_first_not_of(' '));
        out.push_back(l.substr(0, l.find("  //")));
      }
    return out;
  }
  return {"no step " + label};
}

using Lines = std::vector<std::string>;

TEST(SourceHighlight, ExactLinesOfEachStep) {
  EXPECT_EQ(highlighted("epita.reduce2", 256, "partialSum[tid] = buffer[i]"), Lines{"partialSum[tid] = buffer[i];"});
  EXPECT_EQ(highlighted("epita.reduce2", 256, "stride 4"),
            Lines{"if (tid % (2 * stride) == 0) partialSum[tid] += partialSum[tid + stride];"});
  EXPECT_EQ(highlighted("epita.reduce2", 256, "atomicAdd(sum, partialSum[0])"),
            Lines{"if (tid == 0) atomicAdd(sum, partialSum[0]);"});
  EXPECT_EQ(highlighted("epita.reduce3", 256, "stride 128"),
            Lines{"if (tid < stride) partialSum[tid] += partialSum[tid + stride];"});
  EXPECT_EQ(highlighted("epita.reduce3", 256, "stride 1"),
            Lines{"if (tid < stride) partialSum[tid] += partialSum[tid + stride];"});
  // reduce6: stride 128 is the shared-memory loop, not warpReduce; the warp steps are warpReduce's lines.
  EXPECT_EQ(highlighted("epita.reduce6", 256, "stride 128"),
            Lines{"if (tid < s) partialSum[tid] += partialSum[tid + s];"});
  EXPECT_EQ(highlighted("epita.reduce6", 256, "offset 32"), Lines{"partialSum[tid] += partialSum[tid + 32];"});
  EXPECT_EQ(highlighted("epita.reduce6", 256, "offset 1"), Lines{"partialSum[tid] += partialSum[tid + 1];"});
  EXPECT_EQ(highlighted("epita.reduce6", 256, "pass 0"), Lines{"partialSum[t] += buffer[x];"});
  // impl2: the statement under `if (index < blockDim.x)` lights up whenever it runs.
  EXPECT_EQ(highlighted("harris.impl2", 256, "stride 1"), Lines{"sv[index] += sv[index + s];"});
  EXPECT_EQ(highlighted("harris.impl2", 256, "stride 128"), Lines{"sv[index] += sv[index + s];"});
  EXPECT_EQ(highlighted("harris.impl2", 256, "out[blockIdx.x] = sv[0]"), Lines{"out[blockIdx.x] = sv[0];"});
  // Implementations 5-7 and the C++ AMP and scan kernels.
  EXPECT_EQ(highlighted("harris.impl5", 256, "sv[tid] = v[i] + v[i + blockDim.x]"),
            (Lines{"T mySum = v[i] + v[i + blockDim.x];", "sv[tid] = mySum;"}));
  EXPECT_EQ(highlighted("harris.impl5_shfl", 256, "offset 4"),
            Lines{"mySum += __shfl_down_sync(0xffffffffu, mySum, offset);"});
  EXPECT_EQ(highlighted("harris.impl6", 256, "stride 128"), Lines{"sv[tid] += sv[tid + 128];"});
  // impl6's last warp is Implementation 5's helper: its region joins the listing.
  EXPECT_EQ(highlighted("harris.impl6", 256, "offset 8"), Lines{"s[tid] = mySum = mySum + s[tid + 8];"});
  EXPECT_EQ(highlighted("harris.impl7", 256, "offset 1"), Lines{"s[tid] = mySum = mySum + s[tid + 1];"});
  EXPECT_EQ(highlighted("amp.tiled_2", 256, "stride 2"), Lines{"tile_data[index] += tile_data[index + s];"});
  EXPECT_EQ(highlighted("stevens.reduce_compact", 256, "stride 64"), Lines{"partialSum[t] += partialSum[t + stride];"});
  EXPECT_EQ(highlighted("stevens.brent_kung", 256, "load the section into shared memory"),
            (Lines{"XY[t] = load_shifted(x, base + t, n, exclusive);",
                   "XY[t + blockDim.x] = load_shifted(x, base + t + blockDim.x, n, exclusive);"}));
}

// Every step of every traced variant whose trace carries lines lights up at least one row of its listing.
TEST(SourceHighlight, EveryStepWithLinesLightsARow) {
  int checked = 0;
  for (const VariantInfo& v : all_variants()) {
    TraceKey key;
    key.variant = v.id;
    key.n = 1 << 12;
    key.input = "random";
    std::string why;
    const std::optional<Trace> t = compute_trace(v, key, why);
    if (!t || !t->has_lines()) continue;
    const SourceSection sec = section_for_trace(v.id, *t);
    for (const Step& st : t->steps) {
      if (st.lines.empty()) continue;
      EXPECT_EQ(step_rows_note(sec, *t, st), "") << v.id << " step " << st.index << " (" << st.label << ")";
      ++checked;
    }
  }
  EXPECT_GT(checked, 200);
}

TEST(SourceHighlight, NoLinesMeansANoteNotAGuess) {
  // A trace without lines (an old report's) highlights nothing and says why.
  const SourceSection sec = find_section("epita.reduce3");
  Trace t;
  t.variant = "epita.reduce3";
  Step st;
  st.index = 0;
  t.steps.push_back(st);
  const std::vector<bool> none = step_rows(sec, t, st);
  EXPECT_EQ(std::count(none.begin(), none.end(), true), 0);
  EXPECT_NE(step_rows_note(sec, t, st).find("carries no source lines"), std::string::npos);
  // Lines of another file never land in this one.
  t.source_file = "harris.cu";
  t.steps[0].lines = {sec.line_numbers[5]};
  const std::vector<bool> other = step_rows(sec, t, t.steps[0]);
  EXPECT_EQ(std::count(other.begin(), other.end(), true), 0);
  EXPECT_NE(step_rows_note(sec, t, t.steps[0]).find("harris.cu"), std::string::npos);
}

TEST(SourceHighlight, LineNumbersRunWithoutGaps) {
  for (const char* id : {"epita.reduce2", "epita.reduce6", "harris.impl2", "cs121.block_reduce"}) {
    const SourceSection sec = find_section(id);
    ASSERT_EQ(sec.display_numbers.size(), sec.line_numbers.size()) << id;
    for (std::size_t i = 1; i < sec.display_numbers.size(); ++i)
      EXPECT_EQ(sec.display_numbers[i], sec.display_numbers[i - 1] + 1) << id << " row " << i;
  }
}

std::string render(const std::vector<DiffLine>& d) {
  std::string out;
  for (const DiffLine& l : d)
    out += (l.kind == DiffLine::Added ? "+" : l.kind == DiffLine::Removed ? "-" : " ") + l.text + "\n";
  return out;
}

TEST(DiffLines, HandExamples) {
  EXPECT_EQ(render(diff_lines("a\nb\nc\n", "a\nb\nc\n")), " a\n b\n c\n");
  EXPECT_EQ(render(diff_lines("a\nb\nc\n", "a\nx\nc\n")), " a\n-b\n+x\n c\n");
  EXPECT_EQ(render(diff_lines("", "a\nb\n")), "+a\n+b\n");
  EXPECT_EQ(render(diff_lines("a\nb\n", "")), "-a\n-b\n");
  EXPECT_EQ(render(diff_lines("a\nb\nc\nd\n", "b\nd\ne\n")), "-a\n b\n-c\n d\n+e\n");
  EXPECT_TRUE(diff_lines("", "").empty());
}

TEST(DiffCodeLines, CommentsAndWhiteSpaceAreNoDifference) {
  bool block = false;
  EXPECT_EQ(code_key("  s[tid] += s[tid + stride];  // the add", block), "s[tid]+=s[tid+stride];");
  EXPECT_EQ(code_key("  // only a comment", block), "");
  EXPECT_EQ(code_key("  x = 1; /* starts", block), "x=1;");
  EXPECT_TRUE(block);
  EXPECT_EQ(code_key("  still comment */ y = 2;", block), "y=2;");
  EXPECT_FALSE(block);
  EXPECT_EQ(code_key("  printf(\"a // b\");", block), "printf(\"a // b\");");  // not a comment inside a string
  // Re-indented code, a changed comment, a new blank line: nothing marked. One real change: -/+.
  const std::string a =
      "// reduce2: interleaved\nfor (s = 1; s < n; s *= 2) {\n  if (t % (2*s) == 0) x[t] += x[t+s];\n}\n";
  const std::string b = "// reduce3: sequential\n\nfor (s = 1;  s < n;  s *= 2) {\n    if (t < s) x[t] += x[t+s];\n}\n";
  EXPECT_EQ(render(diff_code_lines(a, b)),
            " // reduce3: sequential\n \n for (s = 1;  s < n;  s *= 2) {\n-  if (t % (2*s) == 0) x[t] += x[t+s];\n"
            "+    if (t < s) x[t] += x[t+s];\n }\n");
  // The old side's comment lines never show as removed; the new side's show unmarked, every one.
  for (const DiffLine& l : diff_code_lines(variant_source("epita.reduce2"), variant_source("epita.reduce3"))) {
    bool blk = false;
    if (l.kind != DiffLine::Same) EXPECT_NE(code_key(l.text, blk), "") << l.text;
  }
  EXPECT_EQ(split_lines(variant_source("epita.reduce3")).size(), [] {
    std::size_t n = 0;
    for (const DiffLine& l : diff_code_lines(variant_source("epita.reduce2"), variant_source("epita.reduce3")))
      n += l.kind != DiffLine::Removed;
    return n;
  }());
}

TEST(DiffLines, Reduce2ToReduce3KeepsTheLoad) {
  const auto d = diff_lines(variant_source("epita.reduce2"), variant_source("epita.reduce3"));
  bool kept = false, added = false;
  for (const DiffLine& l : d) {
    if (l.kind == DiffLine::Same && l.text.find("__syncthreads();") != std::string::npos) kept = true;
    if (l.kind == DiffLine::Added && l.text.find("partialSum[tid + stride]") != std::string::npos) added = true;
  }
  EXPECT_TRUE(kept);
  EXPECT_TRUE(added);
}

TEST(KernelSources, TraceInstrumentationIsHidden) {
  EXPECT_EQ(strip_trace_instrumentation("  WS_T(c.next(); auto sh = c.before(tid < s, p, tid, tid + s);)"), "  ");
  EXPECT_EQ(
      strip_trace_instrumentation("__device__ void warpReduce(volatile T* p, unsigned int tid WS_T(, Cursor& c)) {"),
      "__device__ void warpReduce(volatile T* p, unsigned int tid) {");
  EXPECT_EQ(strip_trace_instrumentation("  for (;;) { WS_T(c.next();) s += x; WS_T(c.f(g(x));) }"),
            "  for (;;) { s += x; }");
  EXPECT_EQ(strip_trace_instrumentation("  if (tid < 32) warpReduce(partialSum, tid WS_T(, c));"),
            "  if (tid < 32) warpReduce(partialSum, tid);");
  // Every section reads as the slide's code, with the file's own line numbers.
  for (const char* id : {"epita.reduce3", "epita.reduce6", "epita.full_unroll", "epita.reduce8"}) {
    const SourceSection s = find_section(id);
    EXPECT_EQ(s.text.find("WS_T"), std::string::npos) << id;
    EXPECT_EQ(s.line_numbers.size(), split_lines(s.text).size()) << id;
    const std::vector<std::string> file_lines = [&] {
      for (const KernelFile& f : kernel_files())
        if (s.file == f.name) return split_lines(f.text);
      return std::vector<std::string>{};
    }();
    const std::vector<std::string> shown = split_lines(s.text);
    for (std::size_t i = 0; i < shown.size(); ++i)
      EXPECT_EQ(shown[i], strip_trace_instrumentation(file_lines[std::size_t(s.line_numbers[i] - 1)]))
          << id << " line " << i;
  }
}

}  // namespace
}  // namespace ws::ui
