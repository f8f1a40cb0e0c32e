// The sim models' fast per-block paths (sim.hpp, fast_paths()): for every variant with a model, on awkward
// sizes, the run with fast paths on gives exactly what the thread-level model of every block gives:
// the same result, output, launches, additions and trace of the traced block; and the thread-level run
// matches the CPU reference.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "launch_rules.hpp"
#include "patterns.hpp"
#include "patterns/convolution/pattern_convolution.hpp"
#include "patterns/reduction/reference.hpp"
#include "registry.hpp"
#include "request.hpp"
#include "sim/sim.hpp"
#include "trace/trace_compare.hpp"

using namespace ws;

namespace {

/// Restores fast paths on when a test ends, whatever it asserted.
struct FastPathsOn {
  ~FastPathsOn() { sim::set_fast_paths(true); }
};

/// Runs the variant's model with fast paths on and off and expects identical results. Returns false when
/// the request is refused (a size the variant's rules do not take).
bool same_with_and_without_fast_paths(const RunRequest& req, int trace_block, std::string& what) {
  PreparedRun p;
  if (!prepare_run(req, p).empty()) return false;
  LaunchConfig launch;
  if (!resolve_launch(*p.variant, p.input.n(), p.input.type, req.launch, DeviceShape{}, launch).empty()) return false;
  const VariantInfo& v = *p.variant;
  sim::SimOutput fast, slow;
  sim::set_fast_paths(true);
  try {
    fast = sim::simulate(v, p.input, launch, req.params, trace_block);
  } catch (const std::runtime_error&) {
    return false;  // e.g. the traced block is outside a small grid
  }
  sim::set_fast_paths(false);
  slow = sim::simulate(v, p.input, launch, req.params, trace_block);
  sim::set_fast_paths(true);
  what = v.id + " n=" + std::to_string(p.input.n()) + " rows=" + std::to_string(p.input.rows) +
         " mask=" + std::to_string(req.params.mask_width) + " traced block " + std::to_string(trace_block);
  EXPECT_EQ(fast.result, slow.result) << what;
  EXPECT_EQ(fast.launches, slow.launches) << what;
  EXPECT_EQ(fast.additions, slow.additions) << what;
  EXPECT_EQ(fast.output_rows, slow.output_rows) << what;
  EXPECT_EQ(fast.output_cols, slow.output_cols) << what;
  EXPECT_EQ(fast.output.size(), slow.output.size()) << what;
  std::size_t differ = 0, first = 0;
  for (std::size_t i = 0; i < std::min(fast.output.size(), slow.output.size()); ++i)
    if (!(fast.output[i] == slow.output[i]) && differ++ == 0) first = i;
  EXPECT_EQ(differ, 0u) << what << ": first at " << first;
  EXPECT_EQ(compare_traces(slow.trace, fast.trace), "") << what;
  EXPECT_EQ(fast.trace.block_result, slow.trace.block_result) << what;
  // The thread-level model itself is still judged by the CPU reference (racy and slide-bug variants
  // are wrong on purpose).
  if (!v.racy && !v.cautionary) {
    if (pattern_of(v).scalar_result) {
      EXPECT_TRUE(results_match(p.input.type, slow.result, cpu_reference(v.op, p.input), p.input)) << what;
    } else {
      const PatternSpec* h = &pattern_of(v);
      const ArrayOutput want = h->reference(v, req.params, p.input);
      ArrayOutput got;
      got.values = slow.output;
      got.rows = slow.output_rows;
      got.cols = slow.output_cols;
      EXPECT_EQ(h->compare ? h->compare(v, req.params, p.input, got, want) : compare_outputs(p.input.type, got, want),
                "")
          << what;
    }
  }
  return true;
}

}  // namespace

TEST(SimFastPaths, EqualTheThreadLevelModelForEveryVariantOnAwkwardSizes) {
  FastPathsOn restore;
  int compared = 0;
  for (const auto& v : all_variants()) {
    if (v.cpu_only || !sim::has_model(v.id)) continue;
    int compared_here = 0;
    RunRequest req;
    req.variant = v.id;
    req.backend = BackendKind::Sim;
    req.seed = 11;
    std::string what;
    if (v.pattern == PatternKind::Convolution && conv_dims(v) == 2) {
      const std::vector<std::pair<std::int64_t, std::int64_t>> shapes = {{1, 1}, {31, 17}, {300, 200}, {1000, 333}};
      for (const auto& [w, h] : shapes)
        for (int mask : {1, 5, 7}) {
          req.params.width = w;
          req.params.height = h;
          req.params.mask_width = mask;
          for (int traced : {0, 5}) compared_here += same_with_and_without_fast_paths(req, traced, what);
        }
    } else {
      const std::vector<std::int64_t> sizes = {
          1, 31, 1000, 4097, (std::int64_t(1) << 16) + 7, 3 * (std::int64_t(1) << 17) + 1};
      for (std::int64_t n : sizes)
        for (int mask : v.pattern == PatternKind::Convolution ? std::vector<int>{1, 5, 7} : std::vector<int>{5}) {
          req.n = n;
          if (v.id == "cs121.race" || v.id == "cs121.atomic_counter")
            req.n = (n + 999) / 1000 * 1000;  // whole 1000-thread blocks
          req.params.mask_width = mask;
          for (DType type : {DType::Int32, DType::Float32}) {
            req.type = type;
            for (int traced : {0, 3}) compared_here += same_with_and_without_fast_paths(req, traced, what);
          }
        }
    }
    EXPECT_GT(compared_here, 0) << v.id << ": no size was accepted";
    compared += compared_here;
  }
  EXPECT_GT(compared, 100);
}
