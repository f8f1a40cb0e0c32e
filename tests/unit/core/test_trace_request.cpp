// core/trace_request.hpp: prepare_trace's refusals by status, execute_trace's model runs and the statuses of
// recordings that fail (a backend that stands in for the GPU).
#include <gtest/gtest.h>

#include <string>

#include "inputs.hpp"
#include "registry.hpp"
#include "trace_request.hpp"

namespace ws {
namespace {

/// A device that records by copying the model's trace, or fails with `error` (NoTraceBuild when
/// `no_trace_build`, else Failed); `fault` marks it unavailable.
class FakeRecorder final : public Backend {
 public:
  std::string error;
  bool no_trace_build = false;
  bool fault = false;
  int recorded = 0;
  FakeRecorder() { device_.available = true; }
  std::string name() const override { return "fake"; }
  const DeviceInfo& device() const override { return device_; }
  RunResult run(const VariantInfo&, const RunRequest&, const Input&, const LaunchConfig&) override { return {}; }
  TraceRecordResult record_trace(const VariantInfo&, const Input&, const LaunchConfig&, int, const Trace& model,
                                 Trace& out, const PatternParams&) override {
    if (fault) device_.available = false;
    if (!error.empty())
      return no_trace_build ? TraceRecordResult::no_trace_build(error) : TraceRecordResult::failed(error);
    ++recorded;
    out = model;
    return {};
  }

 private:
  DeviceInfo device_;
};

const VariantInfo& variant(const std::string& id) {
  const VariantInfo* v = find_variant(id);
  EXPECT_NE(v, nullptr) << id;
  return *v;
}

TEST(TraceRequest, HostCodeIsABadRequest) {
  PreparedTrace p;
  std::string why;
  EXPECT_EQ(prepare_trace(variant("stevens.scan_sequential"), 100, DType::Int32, TraceAsk{}, DeviceShape{}, p, why),
            TraceStatus::BadRequest);
  EXPECT_EQ(why, "stevens.scan_sequential runs on the host CPU: it has no GPU threads to trace");
}

TEST(TraceRequest, BlocksOutsideTheGridSayTheGrid) {
  PreparedTrace p;
  std::string why;
  TraceAsk ask;
  ask.block_index = 99;
  EXPECT_EQ(prepare_trace(variant("epita.reduce2"), 4096, DType::Int32, ask, DeviceShape{}, p, why),
            TraceStatus::OutsideGrid);
  EXPECT_EQ(p.launch.grid, 16);
  EXPECT_EQ(why, "block index 99 is outside the grid of 16 blocks");
  ask.block_index = 14;
  ask.blocks = 4;  // 14..17 runs past 15
  EXPECT_EQ(prepare_trace(variant("epita.reduce2"), 4096, DType::Int32, ask, DeviceShape{}, p, why),
            TraceStatus::OutsideGrid);
  ask.blocks = 2;
  EXPECT_EQ(prepare_trace(variant("epita.reduce2"), 4096, DType::Int32, ask, DeviceShape{}, p, why), TraceStatus::Ok);
  EXPECT_EQ(p.block_index, 14);
  EXPECT_EQ(p.blocks, 2);
}

TEST(TraceRequest, ALaunchTheRulesRefuseIsABadRequest) {
  PreparedTrace p;
  std::string why;
  TraceAsk ask;
  ask.launch.block = 33;
  EXPECT_EQ(prepare_trace(variant("epita.reduce2"), 4096, DType::Int32, ask, DeviceShape{}, p, why),
            TraceStatus::BadRequest);
  EXPECT_NE(why.find("power-of-two"), std::string::npos) << why;
}

TEST(TraceRequest, AVariantWithoutAModelSaysSo) {
  VariantInfo v = variant("epita.reduce2");
  v.id = "test.unmodelled";
  PreparedTrace p;
  std::string why;
  EXPECT_EQ(prepare_trace(v, 4096, DType::Int32, TraceAsk{}, DeviceShape{}, p, why), TraceStatus::NoModel);
  EXPECT_EQ(why, "test.unmodelled has no sim model in this build");
}

/// Prepares blocks 1 and 2 of epita.reduce2 on 4096 random ints.
PreparedTrace two_blocks(Input& in) {
  EXPECT_EQ(make_input("random", 4096, DType::Int32, 1, in), "");
  PreparedTrace p;
  std::string why;
  TraceAsk ask;
  ask.block_index = 1;
  ask.blocks = 2;
  EXPECT_EQ(prepare_trace(variant("epita.reduce2"), 4096, DType::Int32, ask, DeviceShape{}, p, why), TraceStatus::Ok);
  return p;
}

TEST(TraceRequest, TheModelRunsOncePerBlock) {
  Input in;
  const PreparedTrace p = two_blocks(in);
  const TraceOutcome o = execute_trace(p, in, PatternParams{}, nullptr);
  ASSERT_EQ(o.status, TraceStatus::Ok);
  EXPECT_FALSE(o.recorded);
  ASSERT_EQ(o.outs.size(), 2u);
  EXPECT_EQ(o.outs[0].trace.block_index, 1);
  EXPECT_EQ(o.outs[1].trace.block_index, 2);
  EXPECT_FALSE(o.outs[0].trace.steps.empty());
  EXPECT_EQ(o.differences, (std::vector<std::string>{"", ""}));
}

TEST(TraceRequest, RecordingsAreComparedWithTheModel) {
  Input in;
  const PreparedTrace p = two_blocks(in);
  FakeRecorder gpu;
  const TraceOutcome o = execute_trace(p, in, PatternParams{}, &gpu);
  ASSERT_EQ(o.status, TraceStatus::Ok) << o.message;
  EXPECT_TRUE(o.recorded);
  EXPECT_EQ(gpu.recorded, 2);
  EXPECT_TRUE(o.outs[1].trace.compared_with_model);
  EXPECT_EQ(o.differences[1], "");
}

TEST(TraceRequest, FailedRecordingsAreToldApartByStatus) {
  Input in;
  const PreparedTrace p = two_blocks(in);
  FakeRecorder none;
  none.error = "epita.reduce2 has no trace build (its kernels are not instrumented)";
  none.no_trace_build = true;
  TraceOutcome o = execute_trace(p, in, PatternParams{}, &none);
  EXPECT_EQ(o.status, TraceStatus::NoTraceBuild);
  EXPECT_EQ(o.message, none.error);
  FakeRecorder faulted;
  faulted.error = "the CUDA context was lost when the traced epita.reduce2 faulted (an illegal address)";
  faulted.fault = true;
  EXPECT_EQ(execute_trace(p, in, PatternParams{}, &faulted).status, TraceStatus::Faulted);
  FakeRecorder lost_before;  // unavailable before the recording: it did not fault, it did not run
  lost_before.error = "not run: earlier in this process, the CUDA context was lost";
  lost_before.fault = true;
  (void)lost_before.record_trace(*p.variant, in, p.launch, 0, Trace{}, o.outs[0].trace, PatternParams{});
  EXPECT_EQ(execute_trace(p, in, PatternParams{}, &lost_before).status, TraceStatus::Failed);
  FakeRecorder broken;
  broken.error = "an unspecified launch failure";
  EXPECT_EQ(execute_trace(p, in, PatternParams{}, &broken).status, TraceStatus::Failed);
}

// NoTraceBuild comes from the backend's typed answer, not from its words: an answer NoTraceBuild in other
// words is NoTraceBuild, a Failed answer that happens to say "has no trace build" stays Failed.
TEST(TraceRequest, NoTraceBuildIsTheBackendsStatusNotItsWords) {
  Input in;
  const PreparedTrace p = two_blocks(in);
  FakeRecorder typed;
  typed.error = "this device records no epita.reduce2";
  typed.no_trace_build = true;
  const TraceOutcome o = execute_trace(p, in, PatternParams{}, &typed);
  EXPECT_EQ(o.status, TraceStatus::NoTraceBuild);
  EXPECT_EQ(o.message, typed.error);
  EXPECT_FALSE(o.recorded);
  FakeRecorder words;
  words.error = "epita.reduce2 has no trace build (but the backend says it failed)";
  EXPECT_EQ(execute_trace(p, in, PatternParams{}, &words).status, TraceStatus::Failed);
}

// The statuses' names in the worker protocol ("trace_status" beside a trace error) read back.
TEST(TraceRequest, StatusNamesRoundTrip) {
  for (TraceStatus s : {TraceStatus::Ok, TraceStatus::BadRequest, TraceStatus::OutsideGrid, TraceStatus::NoModel,
                        TraceStatus::NoTraceBuild, TraceStatus::Faulted, TraceStatus::Failed}) {
    TraceStatus back = TraceStatus::Ok;
    ASSERT_TRUE(parse_trace_status(to_string(s), back)) << to_string(s);
    EXPECT_EQ(back, s);
  }
  EXPECT_STREQ(to_string(TraceStatus::NoTraceBuild), "no_trace_build");
  TraceStatus untouched = TraceStatus::Failed;
  EXPECT_FALSE(parse_trace_status("has no trace build", untouched));
  EXPECT_EQ(untouched, TraceStatus::Failed);
}

TEST(TraceRequest, StepsOnlyKeepsResultOnlyModelsOffTheDevice) {
  Input in;
  const PreparedTrace p = two_blocks(in);
  FakeRecorder gpu;
  const TraceOutcome o = execute_trace(p, in, PatternParams{}, &gpu, TraceRecording::StepsOnly);
  EXPECT_EQ(gpu.recorded, 2);  // reduce2's model has steps: recorded as with Always
  EXPECT_TRUE(o.recorded);
  PreparedTrace cub;
  std::string why;
  ASSERT_EQ(prepare_trace(variant("cub.reduce"), 4096, DType::Int32, TraceAsk{}, DeviceShape{}, cub, why),
            TraceStatus::Ok)
      << why;
  FakeRecorder never;
  const TraceOutcome result_only = execute_trace(cub, in, PatternParams{}, &never, TraceRecording::StepsOnly);
  EXPECT_EQ(result_only.status, TraceStatus::Ok);
  EXPECT_TRUE(result_only.outs[0].trace.steps.empty());
  EXPECT_EQ(never.recorded, 0);
  EXPECT_FALSE(result_only.recorded);
}

}  // namespace
}  // namespace ws
