// The GUI's model and worker without a window or GPU: selection, run rules, reports, the worker
// thread, and one ImGui frame of every state built without a renderer.
#include <gtest/gtest.h>
#include <imgui.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "app_state.hpp"
#include "format.hpp"
#include "main_window.hpp"
#include "registry.hpp"
#include "run_worker.hpp"
#include "theme.hpp"

namespace {

using namespace ws;
using namespace ws::ui;

const std::string kFixture = std::string(WS_GUI_TEST_DIR) + "/fixtures/report_h200.json";

std::unique_ptr<Backend> no_backend(std::string& error) {
  error = "test: no device";
  return nullptr;
}

/// Takes snapshots until the worker is idle with `n` results, or 20 s pass.
std::vector<RunResult> collect(RunWorker& w, std::size_t n) {
  std::vector<RunResult> out;
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < end) {
    auto snap = w.take();
    for (auto& r : snap.finished) out.push_back(r);
    if (out.size() >= n && !snap.busy) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return out;
}

TEST(Format, CountsTimesAndChecks) {
  EXPECT_EQ(format_count(1 << 20), "2^20");
  EXPECT_EQ(format_count(1000000), "1,000,000");
  EXPECT_EQ(format_count(512), "512");
  EXPECT_EQ(format_ms(0.08123), "0.081");
  EXPECT_EQ(format_gbps(3770.2), "3770");
  EXPECT_EQ(format_gbps(35.14), "35.1");
  EXPECT_EQ(format_pct(78.3), "78 %");
  EXPECT_EQ(format_launch(LaunchConfig{256, 65536}), "256 \u00d7 65,536");
  EXPECT_EQ(format_launch(LaunchConfig{0, 0}), "host");
  RunResult r;
  r.status = "race";
  r.result = 911;
  r.expected = 184233;
  EXPECT_EQ(format_check(r), "race: expected 184233, got 911");
  r.status = "error";
  r.message = "boom";
  EXPECT_EQ(format_check(r), "error: boom");
}

TEST(Format, TimeTooltipPutsTheGpuTimeBesideTheHostPhases) {
  RunResult r;
  EXPECT_EQ(format_time_tooltip(r), "");  // untimed, no host times (an older report's sim run)
  r.timed = true;
  r.timing = summarize({0.7, 0.72, 0.69});
  r.host_ms.input = 812;
  r.host_ms.upload = 95.25;
  r.host_ms.launches = 31;
  r.host_ms.reference = 2100;
  r.host_ms.total = 3100;
  const std::string t = format_time_tooltip(r);
  EXPECT_NE(t.find("GPU: median 0.700 ms of 3 launches"), std::string::npos) << t;
  EXPECT_NE(t.find("input: 812.0 ms"), std::string::npos) << t;
  EXPECT_NE(t.find("upload: 95.2 ms"), std::string::npos) << t;
  EXPECT_NE(t.find("reference: 2.10 s"), std::string::npos) << t;
  EXPECT_NE(t.find("other: 61.8 ms"), std::string::npos) << t;  // total minus the phases
  EXPECT_NE(t.find("total: 3.10 s"), std::string::npos) << t;
  EXPECT_EQ(t.find("download"), std::string::npos) << t;  // phases that did not happen are left out
}

TEST(AppState, SelectionFollowsLessons) {
  AppState s;
  s.load(std::string(WS_GUI_ASSETS) + "/lessons");
  ASSERT_FALSE(s.lessons().empty());
  ASSERT_NE(s.variant(), nullptr);
  EXPECT_EQ(s.variant()->id, s.lessons().front().lesson.steps.front().variant);
  // Every registered variant is reachable from some lesson entry.
  for (const auto& v : all_variants()) EXPECT_TRUE(s.select_variant(v.id)) << v.id;
  EXPECT_FALSE(s.select_variant("nope.nothing"));
  EXPECT_FALSE(s.select_lesson("nope"));
}

TEST(AppState, RunRulesWithoutDevice) {
  AppState s;
  s.load(std::string(WS_GUI_ASSETS) + "/lessons");
  s.device.opened = true;  // opened, no device
  const VariantInfo* gpu = nullptr;
  for (const auto& v : all_variants())
    if (!v.cpu_only) { gpu = &v; break; }
  ASSERT_NE(gpu, nullptr);
  EXPECT_NE(s.why_not_runnable(*gpu).find("no CUDA device"), std::string::npos);
  EXPECT_FALSE((s.select_variant(gpu->id), s.request_run()));
  EXPECT_TRUE(s.to_run.empty());
  if (const VariantInfo* cpu = find_variant("amp.sequential")) {
    EXPECT_EQ(s.why_not_runnable(*cpu), "");
    s.select_variant(cpu->id);
    std::vector<std::string> skipped;
    auto reqs = s.lesson_requests(&skipped);
    for (const auto& r : reqs) EXPECT_TRUE(find_variant(r.variant)->cpu_only) << r.variant;
    EXPECT_FALSE(skipped.empty());
  }
}

TEST(AppState, OpensAndRejectsReports) {
  AppState s;
  EXPECT_EQ(s.open_report(kFixture), "");
  ASSERT_TRUE(s.showing_replay());
  EXPECT_EQ(s.shown().runs.size(), 3u);
  EXPECT_EQ(s.shown().device.name, "NVIDIA H200");
  EXPECT_NE(s.open_report("/nonexistent.json"), "");
  EXPECT_TRUE(s.showing_replay());  // a failed open changes nothing
  EXPECT_NE(s.save_session("/tmp/x.json").find("nothing to save"), std::string::npos);
}

TEST(AppState, NewestReportByCreatedStamp) {
  const auto dir = std::filesystem::temp_directory_path() / "ws_gui_newest";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ifstream in(kFixture);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string older = text, newer = text;
  older.replace(older.find("2026-11-21T22:40:12Z"), 20, "2025-01-01T00:00:00Z");
  std::ofstream(dir / "a_newer.json") << newer;
  std::ofstream(dir / "b_older.json") << older;
  std::ofstream(dir / "c_broken.json") << "{ not json";
  EXPECT_EQ(AppState::newest_report(dir.string()), (dir / "a_newer.json").string());
  EXPECT_EQ(AppState::newest_report((dir / "missing").string()), "");
  // DEFAULT names the startup report; a missing or broken one falls back to the newest.
  EXPECT_EQ(AppState::startup_report(dir.string()), (dir / "a_newer.json").string());
  std::ofstream(dir / "DEFAULT") << "b_older.json\n";
  EXPECT_EQ(AppState::startup_report(dir.string()), (dir / "b_older.json").string());
  std::ofstream(dir / "DEFAULT") << "c_broken.json\n";
  EXPECT_EQ(AppState::startup_report(dir.string()), (dir / "a_newer.json").string());
  std::ofstream(dir / "DEFAULT") << "../b_older.json\n";
  EXPECT_EQ(AppState::startup_report(dir.string()), (dir / "a_newer.json").string());
  std::filesystem::remove_all(dir);
}

TEST(RunWorker, RunsCpuVariantsAndExplainsMissingDevice) {
  if (!find_variant("amp.sequential")) GTEST_SKIP() << "no CPU variant registered";
  RunWorker w(no_backend);
  ASSERT_TRUE(w.wait_opened(std::chrono::seconds(5)));
  RunRequest cpu;
  cpu.variant = "amp.sequential";
  cpu.n = 1 << 16;
  cpu.repeat = 3;
  RunRequest gpu = cpu;
  gpu.variant = "epita.reduce3";
  w.submit({cpu, gpu});
  auto results = collect(w, 2);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].status, "ok") << results[0].message;
  EXPECT_TRUE(results[0].host_ms.recorded());  // the Results view's time tooltip shows where it went
  EXPECT_GT(results[0].host_ms.input, 0);
  EXPECT_GE(results[0].host_ms.total, results[0].host_ms.input + results[0].host_ms.launches);
  EXPECT_EQ(results[1].status, "error");
  EXPECT_NE(results[1].message.find("no CUDA device"), std::string::npos) << results[1].message;
  auto snap = w.take();
  EXPECT_FALSE(snap.device.available);
  EXPECT_EQ(snap.open_error, "test: no device");
}

TEST(RunWorker, StopDropsQueuedRunsAndJoins) {
  if (!find_variant("amp.sequential")) GTEST_SKIP() << "no CPU variant registered";
  RunWorker w(no_backend);
  RunRequest req;
  req.variant = "amp.sequential";
  req.n = 1 << 22;
  req.repeat = 5;
  w.submit(std::vector<RunRequest>(200, req));
  const auto t0 = std::chrono::steady_clock::now();
  w.stop();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(s, 5.0);  // at most the run in progress finishes
  auto snap = w.take();
  EXPECT_LE(snap.finished.size(), 3u);  // the queue was dropped, not run
  EXPECT_FALSE(snap.busy);
  w.submit({req});  // ignored after stop
  EXPECT_FALSE(w.take().busy);
}

TEST(MainWindow, ExchangeRunsRequestsAndReplaysWithoutDevice) {
  const auto dir = std::filesystem::temp_directory_path() / "ws_gui_exchange";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(kFixture, dir / "h200.json");
  AppState s;
  s.load(std::string(WS_GUI_ASSETS) + "/lessons");
  RunWorker w(no_backend);
  ASSERT_TRUE(w.wait_opened(std::chrono::seconds(5)));
  MainWindow::exchange(s, w, dir.string());
  EXPECT_TRUE(s.device.opened);
  EXPECT_FALSE(s.device.device.available);
  ASSERT_TRUE(s.showing_replay());  // no device: the newest report opens as a replay
  EXPECT_EQ(s.replay_path, (dir / "h200.json").string());
  if (find_variant("amp.sequential")) {
    ASSERT_TRUE(s.select_variant("amp.sequential"));
    s.params.n_log2 = 16;
    s.params.repeat = 2;
    ASSERT_TRUE(s.request_run());
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    do {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      MainWindow::exchange(s, w, dir.string());
    } while (s.session.runs.empty() && std::chrono::steady_clock::now() < end);
    ASSERT_EQ(s.session.runs.size(), 1u);
    EXPECT_EQ(s.session.runs[0].status, "ok");
    EXPECT_FALSE(s.showing_replay());  // a finished run shows the session
    const std::string out = (dir / "session.json").string();
    EXPECT_EQ(s.save_session(out), "");
    EXPECT_EQ(load_report(out).runs.size(), 1u);
  }
  std::filesystem::remove_all(dir);
}

/// Builds ImGui frames without a renderer: catches unbalanced Push/Pop and Begin/End in every view.
class Frames : public ::testing::Test {
 protected:
  void SetUp() override {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(1600, 900);
    theme().apply(1.f);
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  }
  void TearDown() override { ImGui::DestroyContext(); }
  void frames(AppState& s, MainWindow& win, int n = 3) {
    for (int i = 0; i < n; ++i) {
      ImGui::GetIO().DeltaTime = 1.f / 60.f;
      ImGui::NewFrame();
      win.draw(s, ImGui::GetIO().DisplaySize);
      ImGui::Render();
      ASSERT_NE(ImGui::GetDrawData(), nullptr);
      EXPECT_GT(ImGui::GetDrawData()->TotalVtxCount, 1000);
    }
  }
};

TEST_F(Frames, EveryStateDraws) {
  AppState s;
  s.load(std::string(WS_GUI_ASSETS) + "/lessons");
  MainWindow win;
  frames(s, win);                        // opening the device
  s.device.opened = true;
  frames(s, win);                        // no device, nothing open
  ASSERT_EQ(s.open_report(kFixture), "");
  frames(s, win);                        // replay
  s.device.busy = true;                  // a lesson running
  s.device.running = "epita.reduce3";
  s.device.batch_done = 2;
  s.device.batch_total = 9;
  s.message(Message::Error, "cannot open report 'x.json'");
  frames(s, win);
  for (const auto& v : all_variants()) {  // every variant's story and rules
    s.select_variant(v.id);
    frames(s, win, 1);
  }
  RunResult err;
  err.variant = "epita.reduce3";
  err.status = "error";
  err.message = "a long error message that must be cut to one line in the check column of the table";
  s.add_result(err);
  frames(s, win);
  ImGui::SetNextWindowSize(ImVec2(200, 200));  // tiny window: nothing may assert
  ImGui::GetIO().DisplaySize = ImVec2(640, 400);
  frames(s, win);
}

}  // namespace
