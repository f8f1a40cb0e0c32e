// Every variant's editable copy (the Source view's "Edit a copy", app/controller/kernel_copy.hpp) on the GPU:
// unchanged, it compiles with NVRTC, runs through the user-kernel path where its variant runs (the same
// launch geometry, input and check) and gives the original's answer. A copy that cannot run says why in
// its note. Prints each copy's time beside the original's (the same request, in one process).
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>

#include "backend_factory.hpp"
#include "kernel_copy.hpp"
#include "kernel_sources.hpp"
#include "registry.hpp"
#include "request.hpp"

using namespace ws;

TEST(GpuCopies, EveryCopyRunsWhereItsVariantRanAndGivesItsAnswer) {
  std::string why;
  const std::unique_ptr<Backend> gpu = open_cuda_backend(why);
  ASSERT_TRUE(gpu) << why;
  int ran = 0, said_why = 0;
  for (const VariantInfo& v : all_variants()) {
    if (!controller::why_not_editable(v).empty()) continue;
    const controller::KernelCopy copy = controller::make_kernel_copy(v, controller::find_section(v.id));
    RunRequest original;
    original.variant = v.id;
    original.n = std::int64_t(1) << 20;
    original.backend = BackendKind::Cuda;
    if (!v.default_input.empty()) original.input = v.default_input;  // racy variants: the lesson's input
    RunRequest edited = original;
    edited.kernel.source = copy.text;
    edited.kernel.file = v.id + ".cu";
    edited.kernel.pattern = v.pattern;
    edited.kernel.like = v.id;
    const RunResult a = execute(original, gpu.get());
    const RunResult b = execute(edited, gpu.get());
    if (b.status == RunStatus::Error && !copy.note.empty()) {
      ++said_why;
      std::printf("[ gpu      ] %-30s copy does not run; its note says why: %.110s\n", v.id.c_str(), copy.note.c_str());
      continue;
    }
    if (a.status == RunStatus::Error) {  // the size this test asks is beyond the variant (one-block scans)
      EXPECT_EQ(b.status, RunStatus::Error) << v.id << " (copy): " << b.message;
      continue;
    }
    ++ran;
    ASSERT_NE(a.status, RunStatus::Faulted) << v.id << ": " << a.message;
    ASSERT_NE(b.status, RunStatus::Faulted) << v.id << " (copy): " << b.message;
    EXPECT_NE(b.status, RunStatus::Error) << v.id << " (copy): " << b.message;
    if (!v.racy) {  // a racy variant's answer changes from run to run: that is its lesson
      EXPECT_EQ(b.correct, a.correct) << v.id << ": copy " << b.message << " / original " << a.message;
      EXPECT_EQ(b.result, a.result) << v.id;
      EXPECT_EQ(b.expected, a.expected) << v.id;
    }
    std::printf("[ gpu      ] %-30s copy %8.4f ms %-5s  original %8.4f ms %-5s\n", v.id.c_str(), b.timing.median_ms,
                b.correct ? "ok" : "wrong", a.timing.median_ms, a.correct ? "ok" : "wrong");
  }
  std::printf("[ gpu      ] %d copies ran, %d say why they cannot\n", ran, said_why);
  EXPECT_GE(ran, 40);
}
