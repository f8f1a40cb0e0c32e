// The trace build's tables without a GPU: the reduction and scan runners' traced launchers (their `record`,
// pattern_runner.hpp) come from the kernel files CMake found by their WS_TRACE_NS_BEGIN line
// (traced_kernels.hpp, patterns/<pattern>_traced.hpp), and every variant that should be recordable is.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "pattern_runner.hpp"
#include "patterns/reduction_traced.hpp"
#include "patterns/scan_traced.hpp"
#include "registry.hpp"

namespace ws {
namespace {

/// A variant the GPU should record: traceable, not racy, neither host code nor a library call, and no
/// stated reason why not (VariantInfo::no_gpu_trace).
bool should_record(const VariantInfo& v) {
  return v.traceable && !v.racy && !v.cpu_only && !v.baseline && v.no_gpu_trace.empty();
}

TEST(TraceBuild, TablesComeFromTheMarkedKernelFiles) {
  // epita, harris, cs121, amp (reduction) and stevens_scan carry the marker today; more may follow.
  EXPECT_GE(cuda::reduction_traced::traced_files().size(), 4u);
  EXPECT_GE(cuda::scan_traced::traced_files().size(), 1u);
  for (const auto& f : cuda::reduction_traced::traced_files()) {
    ASSERT_NE(f.launchers, nullptr);
    EXPECT_NE(f.arm, nullptr);
    EXPECT_FALSE(f.launchers().empty());
  }
  for (const auto& f : cuda::scan_traced::traced_files()) {
    ASSERT_NE(f.launchers, nullptr);
    EXPECT_NE(f.arm, nullptr);
    EXPECT_FALSE(f.launchers().empty());
  }
  // The runners that own them record with them: both have a record and list what it records.
  for (const PatternKind p : {PatternKind::Reduction, PatternKind::Scan}) {
    const cuda::PatternRunEntry* e = cuda::find_pattern_runner(p);
    ASSERT_NE(e, nullptr) << to_string(p);
    EXPECT_NE(e->record, nullptr) << to_string(p);
    ASSERT_NE(e->traced, nullptr) << to_string(p);
    EXPECT_FALSE(e->traced().empty()) << to_string(p);
  }
}

// record_trace's refusals that need no GPU (gpu_trace_refusal, in record_trace's order after the device
// check): a racy variant, then a variant whose runner has no record (convolution, atomics) or whose record has
// no traced launcher for it (the stevens reduction trees, cub.scan), with the reason words they had before
// the runners owned their traced launchers.
TEST(TraceBuild, RefusalsNeedNoDevice) {
  auto refusal = [](const std::string& id) {
    const VariantInfo* v = find_variant(id);
    return v ? cuda::gpu_trace_refusal(*v).message : "no variant " + id;
  };
  EXPECT_EQ(refusal("epita.reduce3"), "");
  EXPECT_EQ(refusal("stevens.kogge_stone"), "");
  EXPECT_TRUE(cuda::has_gpu_trace(*find_variant("epita.reduce3")));
  EXPECT_EQ(refusal("cub.reduce"), "cub.reduce has no trace build (library call)");
  EXPECT_EQ(refusal("cub.scan"), "cub.scan has no trace build (library call)");
  const cuda::PatternRunEntry* conv = cuda::find_pattern_runner(PatternKind::Convolution);
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ(conv->record, nullptr) << "the convolution runner records no trace";
  for (const VariantInfo& v : all_variants()) {
    if (v.pattern != PatternKind::Convolution || v.racy) continue;
    const TraceRecordResult r = cuda::gpu_trace_refusal(v);
    EXPECT_EQ(r.message.rfind(v.id + " has no trace build (", 0), 0u) << r.message;
    EXPECT_EQ(r.status, TraceRecordStatus::NoTraceBuild) << v.id;
  }
  for (const VariantInfo& v : all_variants())
    if (v.racy) {
      const TraceRecordResult r = cuda::gpu_trace_refusal(v);
      EXPECT_EQ(r.message.rfind(v.id + " is racy: ", 0), 0u) << v.id;
      EXPECT_EQ(r.status, TraceRecordStatus::Failed) << v.id << ": racy is not a missing trace build";
    }
}

// The refusals' status is typed: a variant without a trace build is NoTraceBuild, one the GPU records is
// Recorded with no message, so the trace request tells them apart without reading the words.
TEST(TraceBuild, RefusalsCarryTheirStatus) {
  EXPECT_EQ(cuda::gpu_trace_refusal(*find_variant("cub.reduce")).status, TraceRecordStatus::NoTraceBuild);
  EXPECT_EQ(cuda::gpu_trace_refusal(*find_variant("stevens.conv2d_tiled")).status, TraceRecordStatus::NoTraceBuild);
  const TraceRecordResult ok = cuda::gpu_trace_refusal(*find_variant("epita.reduce3"));
  EXPECT_TRUE(ok.recorded());
  EXPECT_EQ(ok.message, "");
}

// A new variant of a lesson with a trace build is picked up (its launcher is in its kernel file's traced
// launchers, compiled from the same list as the timed ones) or it says why not (no_gpu_trace); a new
// traced kernel file is picked up by CMake; every id the tables hold is a registered variant with kernels.
// (The tables hold every launcher of a traced file: racy and untraceable ones too, which record_trace
// refuses before it looks there.)
TEST(TraceBuild, EveryRecordableVariantOfATracedLessonHasATracedLauncher) {
  const std::vector<std::string> ids = cuda::gpu_traced_variant_ids();
  ASSERT_FALSE(ids.empty());
  EXPECT_TRUE(std::is_sorted(ids.begin(), ids.end()));
  std::set<std::pair<PatternKind, std::string>> lessons;  // a lesson id may span patterns (stevens)
  for (const std::string& id : ids) {
    const VariantInfo* v = find_variant(id);
    ASSERT_NE(v, nullptr) << id << " has a traced launcher but is not a registered variant";
    EXPECT_FALSE(v->cpu_only || v->baseline) << id << " has a traced launcher but is host code or a library call";
    lessons.insert({v->pattern, v->lesson});
  }
  int checked = 0;
  for (const VariantInfo& v : all_variants()) {
    if (!lessons.count({v.pattern, v.lesson}) || !should_record(v)) continue;
    EXPECT_TRUE(std::binary_search(ids.begin(), ids.end(), v.id))
        << v.id << " is traceable and its lesson has a trace build, but no traced launcher records it (add it to "
        << "its kernel file's launchers, or say why in no_gpu_trace)";
    ++checked;
  }
  EXPECT_GE(checked, 30);
}

// The timed reduction launchers come from every kernels/reduction/<name>.cu by its name (the generated
// reduction_launchers()): every reduction variant that runs on the GPU has exactly one, and every launcher is
// a registered reduction variant, so a lesson's new file is picked up and no id is shadowed by another file.
TEST(TraceBuild, EveryGpuReductionVariantHasOneTimedLauncher) {
  std::map<std::string, int> launchers;
  for (const kernels::LauncherEntry& e : kernels::reduction_launchers()) {
    ASSERT_NE(e.launch, nullptr) << e.id;
    ++launchers[e.id];
  }
  for (const auto& [id, count] : launchers) {
    EXPECT_EQ(count, 1) << id << " has " << count << " launchers";
    const VariantInfo* v = find_variant(id);
    ASSERT_NE(v, nullptr) << id << " has a launcher but is not a registered variant";
    EXPECT_EQ(v->pattern, PatternKind::Reduction) << id;
    EXPECT_FALSE(v->cpu_only) << id << " is host code but has a launcher";
  }
  int gpu_variants = 0;
  for (const VariantInfo& v : all_variants()) {
    if (v.pattern != PatternKind::Reduction || v.cpu_only) continue;
    ++gpu_variants;
    EXPECT_EQ(launchers.count(v.id), 1u) << v.id << " runs on the GPU but no kernels/reduction/*.cu launches it";
  }
  EXPECT_GE(gpu_variants, 30);
  EXPECT_EQ(launchers.size(), std::size_t(gpu_variants));
}

}  // namespace
}  // namespace ws
