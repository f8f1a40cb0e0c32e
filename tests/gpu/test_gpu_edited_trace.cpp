// The step views of an edited copy on the GPU (docs/your-kernel.md, "Step views of an edited copy"): reduce3's
// copy, its trace points put back (kernel_trace_points), recorded by its NVRTC traced build through a local
// worker. The unchanged copy records the built-in variant's trace, on the copy's own lines; a copy whose loop
// stops at stride 32 records the same steps up to there and then its commit where reduce3 goes on to stride 16.
#include <gtest/gtest.h>

#include "kernel_copy.hpp"
#include "kernel_sources.hpp"
#include "kernel_trace_points.hpp"
#include "registry.hpp"
#include "request.hpp"
#include "trace/trace_compare.hpp"
#include "trace/trace_store.hpp"
#include "worker_client.hpp"

using namespace ws;

namespace {

constexpr std::int64_t kN = 1024;  // four blocks of reduce3's default 256 threads

RunRequest builtin_request() {
  RunRequest r;
  r.variant = "epita.reduce3";
  r.n = kN;
  r.backend = BackendKind::Cuda;
  return r;
}

/// The request that traces `edited` (the copy's text as the editor holds it) like epita.reduce3.
RunRequest edited_request(const std::string& edited) {
  const VariantInfo* v = find_variant("epita.reduce3");
  const controller::TracedEdit t = controller::instrument_edit(controller::traced_kernel_copy(*v), edited);
  EXPECT_EQ(t.why, "");
  RunRequest r;
  r.kernel.source = t.source;
  r.kernel.file = "reduce3.edited.cu";
  r.kernel.pattern = PatternKind::Reduction;
  r.kernel.like = "epita.reduce3";
  r.n = kN;
  r.backend = BackendKind::Cuda;
  return r;
}

/// Block `block` of `req` recorded by the worker; `difference`: the worker's comparison with the sim model.
Trace trace_of(WorkerClient& w, const RunRequest& req, int block, std::string& difference) {
  const WorkerReply reply = w.call("trace", {{"request", request_to_json(req)}, {"block_index", block}}, 60);
  EXPECT_TRUE(reply.ok()) << reply.text;
  if (!reply.ok()) return Trace{};
  EXPECT_TRUE(reply.message.value("recorded", false));
  difference = reply.message.value("difference", std::string("?"));
  return trace_from_store_json(reply.message.at("trace"));
}

/// `t` without its lines (the copy's lines are not epita.cu's) and cut to its first `steps` steps.
Trace ops_only(Trace t, std::size_t steps = 1000) {
  t.source_file.clear();
  if (t.steps.size() > steps) t.steps.resize(steps);
  return t;
}

int line_of(const std::string& text, const std::string& needle) {
  const std::vector<std::string> lines = split_lines(text);
  for (std::size_t i = 0; i < lines.size(); ++i)
    if (lines[i].find(needle) != std::string::npos) return int(i) + 1;
  return 0;
}

WorkerClient start_worker() { return WorkerClient(WorkerLaunch{{WS_CLI_PATH, "worker"}, "local"}, {}); }

}  // namespace

TEST(GpuEditedTrace, AnUnchangedCopyRecordsTheVariantsTraceOnItsOwnLines) {
  WorkerClient w = start_worker();
  const VariantInfo* v = find_variant("epita.reduce3");
  ASSERT_NE(v, nullptr);
  const std::string copy = controller::make_kernel_copy(*v, controller::find_section(v->id)).text;
  for (int block : {0, 3}) {
    std::string builtin_diff, copy_diff;
    const Trace builtin = trace_of(w, builtin_request(), block, builtin_diff);
    const Trace edited = trace_of(w, edited_request(copy), block, copy_diff);
    ASSERT_FALSE(edited.steps.empty());
    EXPECT_EQ(builtin_diff, "");
    EXPECT_EQ(copy_diff, "") << "the unchanged copy's trace differs from the sim model of reduce3";
    EXPECT_EQ(compare_traces(ops_only(builtin), ops_only(edited)), "") << "block " << block;
    EXPECT_EQ(edited.variant, "epita.reduce3 (edited)");
    EXPECT_EQ(edited.source_file, "reduce3.edited.cu");
    // The tree steps name the copy's line of the tree statement, as the editor numbers it.
    const int tree = line_of(copy, "if (tid < stride) partialSum[tid] += partialSum[tid + stride];");
    ASSERT_GT(edited.steps.size(), 1u);
    EXPECT_NE(std::find(edited.steps[1].lines.begin(), edited.steps[1].lines.end(), tree), edited.steps[1].lines.end())
        << "line " << tree;
  }
}

TEST(GpuEditedTrace, ALoopStoppedEarlyRecordsTheSameStepsUpToTheEditAndThenDiffers) {
  WorkerClient w = start_worker();
  const VariantInfo* v = find_variant("epita.reduce3");
  ASSERT_NE(v, nullptr);
  const std::string copy = controller::make_kernel_copy(*v, controller::find_section(v->id)).text;
  std::string edited = copy;
  const std::string loop = "stride >= 1; stride /= 2";
  ASSERT_NE(edited.find(loop), std::string::npos);
  edited.replace(edited.find(loop), loop.size(), "stride >= 32; stride /= 2");
  std::string same_diff, edit_diff;
  const Trace same = trace_of(w, edited_request(copy), 0, same_diff);
  const Trace early = trace_of(w, edited_request(edited), 0, edit_diff);
  // reduce3 at block 256: the load, strides 128 .. 1 (8 steps), the commit. The edit stops after stride 32.
  ASSERT_EQ(same.steps.size(), 10u);
  ASSERT_EQ(early.steps.size(), 5u);
  EXPECT_EQ(compare_traces(ops_only(same, 4), ops_only(early, 4)), "") << "the load and strides 128, 64, 32";
  EXPECT_NE(compare_traces(ops_only(same, 5), ops_only(early, 5)), "") << "step 4: stride 16 against the commit";
  // Step 4 of the edit is its commit: thread 0's atomicAdd of the partial of strides down to 32 only.
  bool atomic = false;
  for (const ThreadOp& o : early.steps[4].ops) atomic = atomic || (o.kind == OpKind::Atomic && o.thread == 0);
  EXPECT_TRUE(atomic);
  EXPECT_NE(early.block_result, same.block_result);
  EXPECT_NE(edit_diff, "") << "the worker compares the edit with reduce3's model";
  EXPECT_EQ(same_diff, "");
}
