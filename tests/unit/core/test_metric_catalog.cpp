// The metric catalog: names, the --metrics parser, derived metrics, predictions, occupancy limiter.
#include <gtest/gtest.h>

#include <set>

#include "metric_catalog.hpp"

using namespace ws;

TEST(MetricCatalog, EveryMetricHasUnitTwoLineExplanationAndUniqueNames) {
  std::set<std::string> names, shorts;
  for (const auto& d : metric_catalog()) {
    EXPECT_TRUE(names.insert(d.name).second) << d.name;
    EXPECT_TRUE(shorts.insert(d.short_name).second) << d.short_name;
    EXPECT_FALSE(d.unit.empty()) << d.name;
    auto nl = d.explain.find('\n');
    ASSERT_NE(nl, std::string::npos) << d.name;
    EXPECT_EQ(d.explain.find('\n', nl + 1), std::string::npos) << d.name << ": two lines";
    EXPECT_GT(nl, 10u);
    if (d.source == MetricSource::Derived) {
      EXPECT_FALSE(d.inputs.empty()) << d.name;
      for (const auto& in : d.inputs) EXPECT_NE(find_metric(in), nullptr) << in;
    }
  }
  // The metrics (section 1 and 2) are all there.
  for (const char* n :
       {"gpu__time_duration.sum", "sm__warps_active.avg.pct_of_peak_sustained_active", "smsp__inst_executed.sum",
        "smsp__sass_average_branch_targets_threads_uniform.pct",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum",
        "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum", "lts__t_requests_op_atom.sum", "lts__t_requests_op_red.sum",
        "smsp__inst_executed_op_shared_atom.sum", "dram__bytes_read.sum", "dram__bytes_write.sum",
        "lts__t_sector_hit_rate.pct", "smsp__sass_inst_executed", "smsp__sass_thread_inst_executed_pred_on"})
    EXPECT_NE(find_metric(n), nullptr) << n;
}

TEST(MetricCatalog, ParsesDefaultAllAndNames) {
  MetricSelection s;
  ASSERT_EQ(parse_metric_selection("", s), "");
  EXPECT_TRUE(s.empty());
  ASSERT_EQ(parse_metric_selection("default", s), "");
  std::size_t n_default = s.metrics.size();
  EXPECT_GT(n_default, 15u);
  EXPECT_TRUE(s.per_line);
  EXPECT_TRUE(s.occupancy);
  for (const auto* d : s.metrics) EXPECT_TRUE(d->in_default);
  // Derived metrics pull their inputs into the collection, not into the shown list.
  MetricSelection one;
  ASSERT_EQ(parse_metric_selection("wavefronts per shared load", one), "");
  ASSERT_EQ(one.metrics.size(), 1u);
  EXPECT_EQ(one.range_metrics, (std::vector<std::string>{"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                                                         "smsp__inst_executed_op_shared_ld.sum"}));
  EXPECT_FALSE(one.per_line);
  ASSERT_EQ(parse_metric_selection("all", s), "");
  EXPECT_EQ(s.metrics.size(), metric_catalog().size());
  ASSERT_EQ(parse_metric_selection(" smsp__inst_executed.sum , duration,smsp__inst_executed.sum", s), "");
  ASSERT_EQ(s.metrics.size(), 2u);  // no repeats, catalog order
  EXPECT_EQ(s.metrics[0]->name, "gpu__time_duration.sum");
  EXPECT_EQ(s.range_metrics.size(), 2u);
  EXPECT_FALSE(s.occupancy);
}

TEST(MetricCatalog, BadNamesGiveOneLine) {
  MetricSelection s;
  std::string e = parse_metric_selection("duration,nope", s);
  EXPECT_NE(e.find("unknown metric 'nope'"), std::string::npos) << e;
  EXPECT_EQ(e.find('\n'), std::string::npos);
  EXPECT_NE(parse_metric_selection("duration,,x", s).find("empty name"), std::string::npos);
  EXPECT_NE(parse_metric_selection(",", s), "");
}

TEST(MetricCatalog, DerivesRatiosAndThroughputOrWarns) {
  MetricSelection s;
  ASSERT_EQ(parse_metric_selection(
                "ws__shared_ld_wavefronts_per_inst,ws__global_atomics_per_ns,ws__shared_ld_conflicts_per_inst", s),
            "");
  KernelMetrics m;
  m.values["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] = 300;
  m.values["smsp__inst_executed_op_shared_ld.sum"] = 100;
  m.values["smsp__sass_inst_executed_op_global_atom"] = 1000;  // SASS counters (the default set's)
  m.values["smsp__sass_inst_executed_op_global_red"] = 3000;
  m.values["gpu__time_duration.sum"] = 2000;  // ns
  derive_metrics(s, m);
  EXPECT_DOUBLE_EQ(m.values.at("ws__shared_ld_wavefronts_per_inst"), 3.0);
  EXPECT_DOUBLE_EQ(m.values.at("ws__global_atomics_per_ns"), 2.0);    // 4000 instructions in 2 us = 2 G/s
  EXPECT_EQ(m.values.count("ws__shared_ld_conflicts_per_inst"), 0u);  // conflicts were not measured
  ASSERT_EQ(m.warnings.size(), 1u);
  EXPECT_NE(m.warnings[0].find("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"), std::string::npos);
  KernelMetrics zero;
  zero.values["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] = 3;
  zero.values["smsp__inst_executed_op_shared_ld.sum"] = 0;
  derive_metrics(s, zero);
  EXPECT_EQ(zero.values.count("ws__shared_ld_wavefronts_per_inst"), 0u);
}

// The default set fits one range-profiler pass on GH100 (11 hardware counters, checked with
// cuptiProfilerHostGetNumOfPasses for chip GH100); branches and atomics come from the SASS pass.
TEST(MetricCatalog, DefaultSetSplitsRangeCountersFromSassCounters) {
  MetricSelection s;
  ASSERT_EQ(parse_metric_selection("default", s), "");
  EXPECT_EQ(s.range_metrics.size(), 11u);
  EXPECT_TRUE(s.sass);
  for (const auto& n : s.range_metrics) EXPECT_EQ(n.rfind("smsp__sass_", 0), std::string::npos) << n;
  MetricSelection u;
  ASSERT_EQ(parse_metric_selection("uniform branches", u), "");
  EXPECT_TRUE(u.sass);
  EXPECT_FALSE(u.per_line);
  EXPECT_TRUE(u.range_metrics.empty());
  KernelMetrics m;
  m.values["smsp__sass_branch_targets_threads_uniform"] = 300;
  m.values["smsp__sass_branch_targets_threads_divergent"] = 100;
  derive_metrics(u, m);
  EXPECT_DOUBLE_EQ(m.values.at("ws__uniform_branch_pct"), 75.0);
  KernelMetrics none;  // no branch at all: no percentage, and a warning that says why
  none.values["smsp__sass_branch_targets_threads_uniform"] = 0;
  none.values["smsp__sass_branch_targets_threads_divergent"] = 0;
  derive_metrics(u, none);
  EXPECT_EQ(none.values.count("ws__uniform_branch_pct"), 0u);
  ASSERT_EQ(none.warnings.size(), 1u);
  EXPECT_NE(none.warnings[0].find("no branch"), std::string::npos);
}

TEST(MetricCatalog, PredictsFromPerBlockCountsTimesGrid) {
  PredictionInputs in;
  in.n = 1 << 20;
  in.grid = 4096;
  in.shared_load_conflicts = 10;
  in.shared_loads = 40;
  in.global_atomics = 256;
  in.tree_lanes_per_warp = 12.5;
  auto p = predict_metrics(in);
  EXPECT_DOUBLE_EQ(p.at("dram__bytes_read.sum"), 4.0 * (1 << 20));
  EXPECT_DOUBLE_EQ(p.at("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"), 40960);
  EXPECT_EQ(p.count("smsp__inst_executed_op_shared_ld.sum"), 0u);  // predicated loads: not predicted
  EXPECT_EQ(p.count("ws__shared_ld_wavefronts_per_inst"), 0u);
  EXPECT_DOUBLE_EQ(p.at("ws__source_global_atomics"), 256.0 * 4096);
  EXPECT_DOUBLE_EQ(p.at("smsp__average_thread_inst_executed_pred_on_per_inst_executed.ratio"), 12.5);
}

TEST(MetricCatalog, OccupancyLimiterIsTheSmallestLimit) {
  EXPECT_EQ(occupancy_limiter({8, 3, 10, 32}), "registers");
  EXPECT_EQ(occupancy_limiter({2, 8, 8, 32}), "block size");
  EXPECT_EQ(occupancy_limiter({8, 8, 1, 32}), "shared memory");
  EXPECT_EQ(occupancy_limiter({64, 64, 64, 32}), "blocks per SM");
  EXPECT_EQ(occupancy_limiter({2, 2, 8, 32}), "block size");  // ties: first in order
}

TEST(MetricCatalog, FormatsValuesInTheirUnits) {
  EXPECT_EQ(format_metric_value(*find_metric("duration"), 12345), "12.3 us");
  EXPECT_EQ(format_metric_value(*find_metric("achieved occupancy"), 38.25), "38.2 %");
  EXPECT_EQ(format_metric_value(*find_metric("shared load bank conflicts"), 4.71e6), "4.71 M");
  EXPECT_EQ(format_metric_value(*find_metric("DRAM bytes read"), 67108864), "67.1 MB");
  EXPECT_EQ(format_metric_value(*find_metric("wavefronts per shared load"), 2.5), "2.5");
}

#include "inputs.hpp"
#include "metric_predict.hpp"
#include "registry.hpp"
#include "sim/sim.hpp"

namespace {
PredictionInputs predicted_block(const std::string& id, int block) {
  const VariantInfo* v = find_variant(id);
  Input in;
  EXPECT_EQ(make_input("random", block, DType::Int32, 1, in), "");
  sim::SimOutput out = sim::find_model(id)(*v, in, LaunchConfig{block, 1}, PatternParams{}, 0);
  return prediction_inputs(out.trace);
}
}  // namespace

TEST(MetricPredict, StridedIndexConflictsWhereSequentialAddressingDoesNot) {
  PredictionInputs strided = predicted_block("harris.impl2", 256);
  PredictionInputs sequential = predicted_block("harris.impl3", 256);
  // 256 threads: 8 tree steps. Sequential addressing reads consecutive words: conflict-free.
  EXPECT_EQ(sequential.shared_load_conflicts, 0);
  EXPECT_GT(strided.shared_load_conflicts, 20);
  EXPECT_GT(strided.shared_loads, 8);
  // Interleaved addressing keeps every warp busy with few lanes; sequential fills whole warps.
  PredictionInputs interleaved = predicted_block("harris.impl1", 256);
  EXPECT_LT(interleaved.tree_lanes_per_warp, sequential.tree_lanes_per_warp);
  EXPECT_EQ(strided.global_atomics, 0);
}

TEST(MetricPredict, AtomicsInTheSourceArePerThread) {
  PredictionInputs r0 = predicted_block("epita.reduce0", 256);
  EXPECT_EQ(r0.global_atomics, 256);  // one atomicAdd per element
  PredictionInputs r1 = predicted_block("epita.reduce1", 256);
  EXPECT_EQ(r1.global_atomics, 1);  // one per block
  EXPECT_GT(r1.shared_atomics, 0);
}
