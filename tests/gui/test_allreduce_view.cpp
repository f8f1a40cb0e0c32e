// The All-reduce tab (app/ui/views/view_allreduce.cpp), drawn without a window: every scene of the lesson
// "Reduction across GPUs" at 1920x1080 with 2x text (focus, as a lecture shows it) and at 1600x900: the
// picture lies in the view, every chunk box carries its label, the labels are the model's sums
// (collective::make_picture), the arrows are the step's moves, and no text is below 28 px at 2x.
#include <gtest/gtest.h>
#include <imgui.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "app_state.hpp"
#include "collective/allreduce_json.hpp"
#include "collective/allreduce_picture.hpp"
#include "collective/allreduce_sim.hpp"
#include "collective/link_model.hpp"
#include "headless_imgui.hpp"
#include "main_window.hpp"
#include "views/allreduce_sweep_plot.hpp"
#include "views/view_allreduce.hpp"
#include "widgets/layout_probe.hpp"
#include "widgets/plot_axis.hpp"
#include "widgets/theme.hpp"
#include "worker_exchange.hpp"

namespace ws::ui {

using controller::AppState;
using controller::NavKey;

namespace {

class AllReduceTab : public ::testing::TestWithParam<float> {
 protected:
  void SetUp() override {
    const bool large = GetParam() > 1.f;
    test::start_headless_imgui(large ? 1920 : 1600, large ? 1080 : 900, GetParam());
    s.load(std::string(WS_GUI_ASSETS) + "/lessons");
    s.device.opened = true;  // no device: the line saying why GPU variants cannot run
    s.perf.present.focus = large;
  }
  void TearDown() override { ImGui::DestroyContext(); }
  /// The All-reduce tab at the ring on 2 GPUs, 256 MiB per GPU, after its first step.
  void open_ring_on_two_gpus() {
    s.view = "allreduce";
    s.allreduce.algorithm = collective::Algorithm::Ring;
    s.allreduce.gpus = 2;
    s.allreduce.bytes_log2 = 28;
    s.allreduce.step = 1;
  }
  const LayoutProbe& show(int frames = 4) {
    for (int i = 0; i < frames; ++i) {
      ImGui::GetIO().DeltaTime = 1.f / 60.f;
      ImGui::NewFrame();
      win.draw(s, ImGui::GetIO().DisplaySize);
      ImGui::Render();
    }
    return layout_probe();
  }
  AppState s;
  MainWindow win;
};

TEST_P(AllReduceTab, EverySceneDrawsTheModelsSumsInEveryBox) {
  ASSERT_TRUE(s.select_lesson("multigpu"));
  ASSERT_GE(s.scene_count(), 8);
  for (int k = 0; k < s.scene_count(); ++k) {
    SCOPED_TRACE("scene " + std::to_string(k + 1));
    ASSERT_EQ(s.open_scene(k, MainWindow::views()), "");
    ASSERT_EQ(s.view, "allreduce");
    const CollectiveStep& c = *s.scene()->collective;
    EXPECT_EQ(s.allreduce.gpus, c.gpus);
    EXPECT_EQ(s.allreduce.algorithm, c.algorithm());
    EXPECT_EQ(s.allreduce.step, c.step);
    const LayoutProbe& p = show();
    ASSERT_EQ(p.view, "allreduce");
    ASSERT_TRUE(p.pictures.count("allreduce picture"));
    EXPECT_TRUE(p.region.contains(p.pictures.at("allreduce picture"))) << "the picture runs out of the view";
    const collective::AllReducePicture m = collective::make_picture(
        c.algorithm(), c.gpus, std::int64_t(1) << s.allreduce.bytes_log2, {}, collective::nvlink4_model());
    const auto& masks = c.step == 0 ? m.steps.front().before : m.steps[std::size_t(c.step - 1)].after;
    EXPECT_EQ(p.counts.at("allreduce boxes"), c.gpus * m.chunks);
    EXPECT_EQ(p.counts.at("allreduce box labels"), c.gpus * m.chunks) << "a box without its sum";
    EXPECT_EQ(p.counts.at("allreduce arrows"), c.step == 0 ? 0 : int(m.steps[std::size_t(c.step - 1)].moves.size()));
    // Each label is one of the model's three forms of that box's sum.
    std::multiset<std::string> got;
    for (const ProbeLabel& l : p.labels) got.insert(l.text);
    std::size_t i = 0;
    for (const auto& gpu : masks)
      for (collective::GpuMask mask : gpu) {
        const std::set<std::string> forms = {collective::sum_label(mask, c.gpus),
                                             collective::sum_label_short(mask, c.gpus),
                                             collective::sum_label_tiny(mask, c.gpus)};
        bool found = false;
        for (const auto& f : forms) found |= got.count(f) > 0;
        EXPECT_TRUE(found) << "no label for box " << i << " (" << *forms.begin() << ")";
        ++i;
      }
    if (GetParam() > 1.f) EXPECT_GE(p.min_text_px, 28.f);
  }
}

INSTANTIATE_TEST_SUITE_P(Scales, AllReduceTab, ::testing::Values(1.f, 2.f));

// A warpscope-allreduce report in the data folder's allreduce/ (where the GPU runs are bundled): the tab
// shows its measured step times for the run it holds, and the sim's for any other.
TEST_P(AllReduceTab, ABundledReportsStepTimesReplaceTheModels) {
  namespace fs = std::filesystem;
  const fs::path data = fs::path(::testing::TempDir()) / "ws_allreduce_data";
  fs::remove_all(data);
  fs::create_directories(data / "allreduce");
  collective::AllReduceResult r;
  r.method = collective::Method::Ring;
  r.gpus = 2;
  r.length = std::int64_t(1) << 26;  // 256 MiB of float32
  r.ran = r.correct = true;
  r.step_ms = {0.40, 0.35};
  r.median_ms = 0.75;
  r.device_names = {"NVIDIA H200", "NVIDIA H200"};
  std::ofstream(data / "allreduce" / "allreduce-2gpu.json") << collective::allreduce_results_to_json({r}).dump();
  const char* old = std::getenv("WARPSCOPE_DATA");
  const std::string keep = old ? old : "";
  setenv("WARPSCOPE_DATA", data.c_str(), 1);
  open_ring_on_two_gpus();
  const LayoutProbe& p = show();
  EXPECT_EQ(p.counts.at("allreduce measured"), 1);
  EXPECT_EQ(p.counts.at("allreduce step us"), 400);
  s.allreduce.step = 2;
  EXPECT_EQ(show().counts.at("allreduce step us"), 350);
  s.allreduce.gpus = 4;  // not in the report: the model
  s.allreduce.step = 1;
  const LayoutProbe& q = show();
  EXPECT_EQ(q.counts.at("allreduce measured"), 0);
  EXPECT_EQ(q.counts.at("allreduce step us"),
            int(std::lround(collective::model_step_ms(collective::ring_schedule(4), std::int64_t(1) << 26,
                                                      collective::nvlink4_model())[0] *
                            1000)));
  if (old)
    setenv("WARPSCOPE_DATA", keep.c_str(), 1);
  else
    unsetenv("WARPSCOPE_DATA");
}

// With a CUDA device (the worker's), the tab's "Run on the GPUs" asks for the ring, the tree and NCCL's two at the
// picture's GPU count and size; while they run the line says how many are to go; the answers (worker_exchange's
// take_allreduces) put this session's measured step times in the picture before the bundled ones, the line gives
// each method's time and bus bandwidth, and a method that could not run says why.
TEST_P(AllReduceTab, WithADeviceTheButtonRunsTheFourMethodsAndTheirTimesWin) {
  s.device.device.available = true;
  open_ring_on_two_gpus();
  const LayoutProbe& p = show();
  ASSERT_EQ(p.counts.at("allreduce run button"), 1);
  ASSERT_TRUE(p.pictures.count("allreduce run button"));
  const ProbeRect b = p.pictures.at("allreduce run button");
  EXPECT_TRUE(p.region.contains(b)) << "the button runs out of the view";
  // A click: press and release on the button.
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = ImVec2((b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2);
  show(2);
  io.MouseDown[0] = true;
  show(1);
  io.MouseDown[0] = false;
  show(1);
  ASSERT_EQ(s.to_allreduce.size(), 4u) << "one click, four methods";
  const collective::Method want[] = {collective::Method::Ring, collective::Method::Tree, collective::Method::NcclRing,
                                     collective::Method::NcclTree};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(s.to_allreduce[i].method, want[i]);
    EXPECT_EQ(s.to_allreduce[i].gpus, 2);
    EXPECT_EQ(s.to_allreduce[i].length, std::int64_t(1) << 26);  // 256 MiB of float32 per GPU
  }
  EXPECT_EQ(s.allreduce.pending, 4);
  // The answers: the ring and both NCCL runs measured, the tree refused by the machine.
  std::vector<controller::AllReduceDone> done(4);
  for (std::size_t i = 0; i < 4; ++i) {
    done[i].ask.run = s.to_allreduce[i];
    auto& r = done[i].result;
    r.method = want[i];
    r.gpus = 2;
    r.length = std::int64_t(1) << 26;
    r.ran = r.correct = i != 1;
    r.median_ms = 0.8 + 0.1 * double(i);
    r.busbw_gbs = 300;
    r.device_names = {"NVIDIA H200", "NVIDIA H200"};
    done[i].visible_gpus = 2;
  }
  done[0].result.step_ms = {0.45, 0.35};
  done[1].result.error = "tree: no peer access between GPU 0 and GPU 1";
  s.to_allreduce.clear();
  controller::take_allreduces(s.allreduce, done);
  EXPECT_EQ(s.allreduce.pending, 0);
  EXPECT_EQ(s.allreduce.measured.size(), 3u);
  EXPECT_EQ(s.allreduce.note, "tree: no peer access between GPU 0 and GPU 1");
  EXPECT_EQ(s.allreduce.visible_gpus, 2);
  const LayoutProbe& q = show();
  EXPECT_EQ(q.counts.at("allreduce measured"), 1) << "the session's ring is measured";
  EXPECT_EQ(q.counts.at("allreduce step us"), 450);
  EXPECT_EQ(q.counts.at("allreduce measured here"), 1);
  EXPECT_EQ(q.counts.at("allreduce note"), 1);
  // Another size: nothing of this session there (the bundled report or the model).
  s.allreduce.bytes_log2 = 20;
  EXPECT_EQ(show().counts.at("allreduce measured here"), 0);
}

// Without a device the tab has no button: the line says why the GPU variants cannot run.
TEST_P(AllReduceTab, WithoutADeviceThereIsNoRunButton) {
  s.view = "allreduce";
  EXPECT_EQ(show().counts.at("allreduce run button"), 0);
}

TEST(AllReduceAxis, BytesAreWrittenInBinaryUnits) {
  EXPECT_EQ(format_axis_value(4096, AxisUnit::Bytes), "4 KiB");
  EXPECT_EQ(format_axis_value(double(std::int64_t(256) << 20), AxisUnit::Bytes), "256 MiB");
  EXPECT_EQ(format_axis_value(double(std::int64_t(1) << 30), AxisUnit::Bytes), "1 GiB");
}

TEST(AllReduceKeys, LeftAndRightStepThroughTheSchedule) {
  test::start_headless_imgui(800, 600);
  ImGui::NewFrame();
  AppState s;
  s.allreduce.gpus = 4;  // the ring: 6 steps
  controller::ViewActions act(s);
  HandleAllReduceKeys(act, {NavKey::Right, NavKey::Right}, false);
  EXPECT_EQ(s.allreduce.step, 2);
  HandleAllReduceKeys(act, std::vector<NavKey>(10, NavKey::Right), false);
  EXPECT_EQ(s.allreduce.step, 6);
  HandleAllReduceKeys(act, std::vector<NavKey>(10, NavKey::Left), false);
  EXPECT_EQ(s.allreduce.step, 0);
  s.allreduce.algorithm = collective::Algorithm::Tree;  // 4 steps
  HandleAllReduceKeys(act, std::vector<NavKey>(10, NavKey::Right), false);
  EXPECT_EQ(s.allreduce.step, 4);
  ImGui::EndFrame();
  ImGui::DestroyContext();
}

}  // namespace
}  // namespace ws::ui

namespace ws::ui {
namespace {

// Plots in the lesson "Reduction across GPUs" (issue 30: "a sweep over message size in Plots"): the all-reduce's
// sweep, ring against tree with the crossover marked, inside the view at 1600x900 and at 2x on 1920x1080.
TEST_P(AllReduceTab, PlotsShowsTheAllReduceSweepWithItsCrossover) {
  ASSERT_TRUE(s.select_lesson("multigpu"));
  s.view = "plots";
  s.allreduce.gpus = 4;
  const LayoutProbe& p = show();
  ASSERT_EQ(p.view, "plots");
  ASSERT_TRUE(p.pictures.count("plot ##allreduce_sweep")) << "no all-reduce sweep in Plots";
  EXPECT_TRUE(p.region.contains(p.pictures.at("plot ##allreduce_sweep"))) << "the sweep runs out of the view";
  const collective::AllReduceSweep w =
      collective::make_sweep(4, collective::kPictureMinBytesLog2, collective::kPictureMaxBytesLog2,
                             bundled_allreduce().results, collective::nvlink4_model());
  ASSERT_GE(w.crossover, 0);
  const std::string cross =
      "crossover: ring ahead from " + collective::bytes_text(w.points[std::size_t(w.crossover)].bytes);
  bool found = false;
  for (const auto& l : p.labels) found |= l.text == cross;
  EXPECT_TRUE(found) << "no label '" << cross << "'";
  // Another lesson's Plots has no all-reduce sweep.
  ASSERT_TRUE(s.select_lesson("epita"));
  s.view = "plots";
  EXPECT_FALSE(show().pictures.count("plot ##allreduce_sweep"));
}

}  // namespace
}  // namespace ws::ui
