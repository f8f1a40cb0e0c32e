// What the All-reduce view draws (app/core/collective/allreduce_picture.hpp): the steps, the sums' labels,
// the times from the model or a report, the sweep and its crossover, the bundled reports, the one line
// saying why GPU variants cannot run.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "collective/allreduce_json.hpp"
#include "collective/allreduce_picture.hpp"
#include "collective/allreduce_sim.hpp"

using namespace ws::collective;

namespace {

AllReduceResult measured(Method m, int gpus, std::int64_t bytes, std::vector<double> step_ms, double busbw) {
  AllReduceResult r;
  r.method = m;
  r.gpus = gpus;
  r.length = bytes / 4;
  r.ran = true;
  r.correct = true;
  r.step_ms = std::move(step_ms);
  for (double s : r.step_ms) r.median_ms += s;
  r.busbw_gbs = busbw;
  r.device_names.assign(std::size_t(gpus), "NVIDIA H200");
  return r;
}

}  // namespace

TEST(AllReducePicture, SumLabelsNameTheGpusOrCountThem) {
  EXPECT_EQ(sum_label(0b0111, 8), "g0+g1+g2");
  EXPECT_EQ(sum_label(0b1000, 4), "g3");
  EXPECT_EQ(sum_label(0b1111, 4), "all 4");
  EXPECT_EQ(sum_label(0, 4), "-");
  EXPECT_EQ(sum_label_short(0b1000, 4), "g3");
  EXPECT_EQ(sum_label_short(0b10000011, 8), "3 of 8");
  EXPECT_EQ(sum_label_short(0xff, 8), "all 8");
  EXPECT_EQ(sum_label_tiny(0b10000011, 8), "3/8");
  EXPECT_EQ(sum_label_tiny(0xff, 8), "all");
  EXPECT_EQ(sum_label_tiny(0b100, 8), "g2");
}

TEST(AllReducePicture, RingOnFourGpusStepsTheScheduleWithTheModelsTimes) {
  const std::int64_t bytes = std::int64_t(256) << 20;
  const AllReducePicture p = make_picture(Algorithm::Ring, 4, bytes, {}, nvlink4_model());
  ASSERT_EQ(p.steps.size(), 6u);  // 2(n-1)
  EXPECT_EQ(p.chunks, 4);
  EXPECT_FALSE(p.measured);
  EXPECT_EQ(p.source, "simulated: alpha-beta model of NVLink 4 x18 (nothing measured)");
  const std::vector<double> model = model_step_ms(ring_schedule(4), bytes / 4, nvlink4_model());
  double total = 0;
  for (std::size_t k = 0; k < p.steps.size(); ++k) {
    EXPECT_DOUBLE_EQ(p.steps[k].ms, model[k]) << k;
    total += model[k];
  }
  EXPECT_DOUBLE_EQ(p.total_ms, total);
  EXPECT_DOUBLE_EQ(p.busbw_gbs, bus_bandwidth_gbs(bytes, total, 4));
  // Step 0: GPU i sends chunk i to GPU i+1, which adds it: GPU 1's chunk 0 then sums g0+g1.
  EXPECT_EQ(p.steps[0].phase, Phase::ReduceScatter);
  EXPECT_EQ(p.steps[0].moves[0], (ChunkMove{0, 1, 0, true}));
  EXPECT_EQ(p.steps[0].before[1][0], GpuMask(0b0010));
  EXPECT_EQ(sum_label(p.steps[0].after[1][0], 4), "g0+g1");
  // After the reduce-scatter (step 2) GPU i holds all 4 in chunk (i+1) mod 4; after the last, all do.
  for (int g = 0; g < 4; ++g) EXPECT_EQ(p.steps[2].after[std::size_t(g)][std::size_t((g + 1) % 4)], 0b1111) << g;
  EXPECT_EQ(p.steps[3].phase, Phase::AllGather);
  for (const auto& gpu : p.steps.back().after)
    for (GpuMask m : gpu) EXPECT_EQ(m, 0b1111);
  // Each step's "before" is the previous step's "after".
  for (std::size_t k = 1; k < p.steps.size(); ++k) EXPECT_EQ(p.steps[k].before, p.steps[k - 1].after);
}

TEST(AllReducePicture, TreeOnEightGpusReducesToGpu0ThenBroadcasts) {
  const AllReducePicture p = make_picture(Algorithm::Tree, 8, 4096, {}, nvlink4_model());
  ASSERT_EQ(p.steps.size(), 6u);  // 2 log2 8
  EXPECT_EQ(p.chunks, 1);
  EXPECT_EQ(sum_label(p.steps[2].after[0][0], 8), "all 8");
  EXPECT_EQ(sum_label(p.steps[0].after[0][0], 8), "g0+g1");
  EXPECT_EQ(p.steps[3].phase, Phase::Broadcast);
  // At 4 KiB the step is alpha-bound: 5 us for each of 8 GPUs and 6 us for each of the first level's 4 moves.
  EXPECT_NEAR(p.steps[0].ms, 0.064, 1e-12);
  EXPECT_NEAR(p.steps[2].ms, 0.046, 1e-12);  // one move
}

TEST(AllReducePicture, AReportsStepTimesReplaceTheModelsWhenItHoldsTheRun) {
  const std::int64_t bytes = std::int64_t(256) << 20;
  const std::vector<AllReduceResult> report = {
      measured(Method::Ring, 2, bytes, {0.40, 0.35}, 380.0),
      measured(Method::Ring, 4, bytes, {1, 2, 3, 4, 5, 6}, 300.0),
  };
  const AllReducePicture p = make_picture(Algorithm::Ring, 2, bytes, report, nvlink4_model());
  EXPECT_TRUE(p.measured);
  EXPECT_EQ(p.source, "measured on NVIDIA H200 x2 (bundled report)");
  ASSERT_EQ(p.steps.size(), 2u);
  EXPECT_DOUBLE_EQ(p.steps[0].ms, 0.40);
  EXPECT_DOUBLE_EQ(p.steps[1].ms, 0.35);
  EXPECT_DOUBLE_EQ(p.total_ms, 0.75);
  // Another size, another GPU count or the tree: the model.
  EXPECT_FALSE(make_picture(Algorithm::Ring, 2, bytes / 2, report, nvlink4_model()).measured);
  EXPECT_FALSE(make_picture(Algorithm::Tree, 2, bytes, report, nvlink4_model()).measured);
  EXPECT_DOUBLE_EQ(make_picture(Algorithm::Ring, 4, bytes, report, nvlink4_model()).steps[5].ms, 6.0);
  // A simulated or wrong result is not a measurement.
  std::vector<AllReduceResult> bad = report;
  bad[0].simulated = true;
  bad[1].correct = false;
  EXPECT_FALSE(make_picture(Algorithm::Ring, 2, bytes, bad, nvlink4_model()).measured);
  EXPECT_FALSE(make_picture(Algorithm::Ring, 4, bytes, bad, nvlink4_model()).measured);
}

TEST(AllReducePicture, RefusesWhatItCannotDraw) {
  EXPECT_THROW(make_picture(Algorithm::Ring, 1, 4096, {}, nvlink4_model()), std::invalid_argument);
  EXPECT_THROW(make_picture(Algorithm::Ring, 9, 4096, {}, nvlink4_model()), std::invalid_argument);
  EXPECT_THROW(make_picture(Algorithm::Ring, 4, 6, {}, nvlink4_model()), std::invalid_argument);
  EXPECT_THROW(make_sweep(4, 11, 30, {}, nvlink4_model()), std::invalid_argument);
  EXPECT_THROW(make_sweep(4, 20, 31, {}, nvlink4_model()), std::invalid_argument);
}

TEST(AllReduceSweep, TheModelsCrossoverOnFourGpusIsAt32MiB) {
  const AllReduceSweep w = make_sweep(4, 12, 30, {}, nvlink4_model());
  ASSERT_EQ(w.points.size(), 19u);  // 4 KiB .. 1 GiB
  EXPECT_FALSE(w.measured);
  EXPECT_EQ(w.points.front().bytes, 4096);
  EXPECT_EQ(w.points.back().bytes, std::int64_t(1) << 30);
  ASSERT_GE(w.crossover, 0);
  EXPECT_EQ(bytes_text(w.points[std::size_t(w.crossover)].bytes), "32 MiB");  // docs/collective.md
  EXPECT_LT(w.points[0].ring_busbw_gbs, w.points[0].tree_busbw_gbs);          // alpha-bound: the tree
  EXPECT_GT(w.points.back().ring_busbw_gbs, w.points.back().tree_busbw_gbs);
  EXPECT_DOUBLE_EQ(w.points.back().ring_busbw_gbs,
                   bus_bandwidth_gbs(1 << 30, model_ms(Method::Ring, 4, (1 << 30) / 4, nvlink4_model()), 4));
  EXPECT_FALSE(w.ring_leads_everywhere);
}

TEST(AllReduceSweep, OnTwoGpusTheTreeLeadsSmallMessagesUntil8MiB) {
  // One move a step against the ring's two: the tree's steps cost less while alpha dominates.
  const AllReduceSweep w = make_sweep(2, 12, 30, {}, nvlink4_model());
  ASSERT_GE(w.crossover, 0);
  EXPECT_EQ(bytes_text(w.points[std::size_t(w.crossover)].bytes), "8 MiB");
  EXPECT_FALSE(w.ring_leads_everywhere);
}

TEST(AllReduceSweep, AReportWithRingAndTreeAtTwoSizesIsMeasured) {
  std::vector<AllReduceResult> report = {
      measured(Method::Ring, 4, 1 << 20, {0.1, 0.1, 0.1, 0.1, 0.1, 0.1}, 10.0),
      measured(Method::Tree, 4, 1 << 20, {0.1, 0.1, 0.1, 0.1}, 20.0),
      measured(Method::Ring, 4, 1 << 28, {1, 1, 1, 1, 1, 1}, 350.0),
      measured(Method::Tree, 4, 1 << 28, {1, 1, 1, 1}, 200.0),
  };
  const AllReduceSweep w = make_sweep(4, 12, 30, report, nvlink4_model());
  EXPECT_TRUE(w.measured);
  EXPECT_EQ(w.source, "measured on NVIDIA H200 x4 (bundled report)");
  ASSERT_EQ(w.points.size(), 2u);
  EXPECT_DOUBLE_EQ(w.points[0].tree_busbw_gbs, 20.0);
  EXPECT_DOUBLE_EQ(w.points[1].ring_busbw_gbs, 350.0);
  EXPECT_EQ(w.crossover, 1);
  report.pop_back();  // one common size only: the model
  EXPECT_FALSE(make_sweep(4, 12, 30, report, nvlink4_model()).measured);
}

TEST(AllReduceReports, OnlyAllReduceFilesOfTheFolderAreRead) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(::testing::TempDir()) / "ws_allreduce_reports";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "allreduce-2gpu.json")
      << allreduce_results_to_json({measured(Method::Ring, 2, 1 << 20, {0.2, 0.3}, 5.0)}).dump();
  std::ofstream(dir / "nvidia-h200.json") << R"({"format": "warpscope-report", "runs": []})";
  std::ofstream(dir / "broken.json") << R"({"format": "warpscope-allreduce", "version": 1, "results": 3})";
  std::vector<AllReduceResult> out;
  std::vector<std::string> problems;
  const auto files = load_allreduce_reports(dir.string(), out, problems);
  EXPECT_EQ(files, std::vector<std::string>{"allreduce-2gpu.json"});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_DOUBLE_EQ(out[0].step_ms[1], 0.3);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("broken.json"), std::string::npos) << problems[0];
  EXPECT_TRUE(load_allreduce_reports((dir / "none").string(), out, problems).empty());
}

TEST(AllReduceReports, TheLineSaysWhyGpuVariantsCannotRun) {
  EXPECT_EQ(gpu_variants_line(false, 0),
            "GPU variants cannot run here: no CUDA device; steps and times from the sim or a bundled report");
  EXPECT_EQ(gpu_variants_line(true, 1),
            "GPU variants cannot run here: only 1 GPU visible, all-reduce needs 2 or more; steps and times from the "
            "sim or a bundled report");
  EXPECT_EQ(gpu_variants_line(true, 2), "");
  EXPECT_EQ(gpu_variants_line(true, -1), "") << "not known yet: the tab's run answers for the machine";
  EXPECT_EQ(bytes_text(4096), "4 KiB");
  EXPECT_EQ(bytes_text(std::int64_t(1) << 30), "1 GiB");
  EXPECT_EQ(bytes_text(12), "12 B");
}

// The model's step alpha (link_model.hpp: step_gpu_us, step_move_us) was fitted to the bundled sweeps' small
// sizes; its ring/tree crossover must then land where the GPUs put it: 32 MiB on 4 H200s, 8 MiB on 2.
TEST(AllReduceSweep, TheModelsCrossoverIsTheBundledMeasurements) {
  const std::string root = std::string(WS_TEST_DIR) + "/../assets/allreduce/";
  for (int gpus : {2, 4}) {
    std::vector<AllReduceResult> measured_runs;
    ASSERT_EQ(read_allreduce_file(root + "nvidia-h200x" + std::to_string(gpus) + "-sweep.json", measured_runs), "");
    const AllReduceSweep gpu = make_sweep(gpus, 12, 30, measured_runs, nvlink4_model());
    const AllReduceSweep model = make_sweep(gpus, 12, 30, {}, nvlink4_model());
    ASSERT_TRUE(gpu.measured);
    ASSERT_GE(gpu.crossover, 0);
    ASSERT_GE(model.crossover, 0);
    const double ratio =
        double(model.points[std::size_t(model.crossover)].bytes) / double(gpu.points[std::size_t(gpu.crossover)].bytes);
    EXPECT_EQ(ratio, 1.0) << gpus << " GPUs";
  }
}
