// The Source view's model: the embedded kernel sections per variant and the line diff.
#include <gtest/gtest.h>

#include <algorithm>

#include "kernel_sources.hpp"
#include "registry.hpp"

namespace ws::ui {
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

TEST(KernelSources, PhaseRules) {
  const std::string r3 = variant_source("epita.reduce3");
  EXPECT_TRUE(line_in_phase("  partialSum[tid] = buffer[i];  // loading", "load", r3));
  EXPECT_FALSE(line_in_phase("  partialSum[tid] = buffer[i];", "tree", r3));
  EXPECT_TRUE(line_in_phase("    if (tid < stride) partialSum[tid] += partialSum[tid + stride];", "tree", r3));
  EXPECT_TRUE(line_in_phase("  if (tid == 0) atomicAdd(sum, partialSum[0]);", "atomic", r3));
  EXPECT_FALSE(line_in_phase("// the stride halves", "tree", r3));
  EXPECT_TRUE(line_in_phase("  v += __shfl_down_sync(0xffffffff, v, 16);", "warp", ""));
  // harris kernels read `v`: the rule follows the kernel's input pointer, not a fixed name.
  const std::string h3 = variant_source("harris.impl3");
  int load_lines = 0;
  for (const std::string& l : split_lines(h3)) load_lines += line_in_phase(l, "load", h3);
  EXPECT_GE(load_lines, 1);
  EXPECT_FALSE(line_in_phase("  sdata[tid] = rev[i];", "load", h3));
}

std::string render(const std::vector<DiffLine>& d) {
  std::string out;
  for (const DiffLine& l : d) out += (l.kind == DiffLine::Added ? "+" : l.kind == DiffLine::Removed ? "-" : " ") + l.text + "\n";
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
  const std::string a = "// reduce2: interleaved\nfor (s = 1; s < n; s *= 2) {\n  if (t % (2*s) == 0) x[t] += x[t+s];\n}\n";
  const std::string b = "// reduce3: sequential\n\nfor (s = 1;  s < n;  s *= 2) {\n    if (t < s) x[t] += x[t+s];\n}\n";
  EXPECT_EQ(render(diff_code_lines(a, b)),
            " // reduce3: sequential\n \n for (s = 1;  s < n;  s *= 2) {\n-  if (t % (2*s) == 0) x[t] += x[t+s];\n"
            "+    if (t < s) x[t] += x[t+s];\n }\n");
  // The old side's comment lines never show as removed; the new side's show unmarked, every one.
  for (const DiffLine& l : diff_code_lines(variant_source("epita.reduce2"), variant_source("epita.reduce3"))) {
    bool blk = false;
    if (l.kind != DiffLine::Same) EXPECT_NE(code_key(l.text, blk), "") << l.text;
  }
  EXPECT_EQ(split_lines(variant_source("epita.reduce3")).size(),
            [] {
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
  EXPECT_EQ(strip_trace_instrumentation("__device__ void warpReduce(volatile T* p, unsigned int tid WS_T(, Cursor& c)) {"),
            "__device__ void warpReduce(volatile T* p, unsigned int tid) {");
  EXPECT_EQ(strip_trace_instrumentation("  for (;;) { WS_T(c.next();) s += x; WS_T(c.f(g(x));) }"), "  for (;;) { s += x; }");
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
      EXPECT_EQ(shown[i], strip_trace_instrumentation(file_lines[std::size_t(s.line_numbers[i] - 1)])) << id << " line " << i;
  }
}

}  // namespace
}  // namespace ws::ui
