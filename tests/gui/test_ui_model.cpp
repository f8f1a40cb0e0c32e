// The GUI's model and worker without a window or GPU: selection, run rules, reports, the worker
// thread, and one ImGui frame of every state built without a renderer.
#include <gtest/gtest.h>
#include <imgui.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include "app_state.hpp"
#include "format.hpp"
#include "headless_imgui.hpp"
#include "main_window.hpp"
#include "presenter.hpp"
#include "registry.hpp"
#include "run_worker.hpp"
#include "view_context.hpp"
#include "views/view_metrics.hpp"
#include "views/view_pair.hpp"
#include "views/view_registry.hpp"
#include "widgets/theme.hpp"
#include "worker_exchange.hpp"

namespace {

using namespace ws;
using namespace ws::ui;
using namespace ws::controller;

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
  r.status = RunStatus::Race;
  r.result = 911;
  r.expected = 184233;
  EXPECT_EQ(format_check(r), "race: expected 184233, got 911");
  r.status = RunStatus::Error;
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
    if (!v.cpu_only) {
      gpu = &v;
      break;
    }
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

TEST(ViewContext, ShowsTheStateAndActionsChangeOnlyWhatTheyName) {
  AppState s;
  s.load(std::string(WS_GUI_ASSETS) + "/lessons");
  ASSERT_EQ(s.open_report(kFixture), "");
  const ViewContext c = ViewContext::of(s);
  EXPECT_EQ(&c.shown, &s.shown());
  EXPECT_TRUE(c.showing_replay);
  EXPECT_EQ(c.variant, s.variant());
  EXPECT_EQ(c.lesson, s.lesson());
  EXPECT_EQ(c.step_index, s.step_index());
  EXPECT_EQ(&c.params, &s.params);
  EXPECT_EQ(&c.trace, &s.trace);
  const std::string view = s.view;
  ViewActions act(s);
  act.set_metrics("default,pcsampling");
  EXPECT_EQ(c.params.metrics, "default,pcsampling");  // the context reads the state, not a copy
  EXPECT_EQ(s.view, view);
  // The Metrics tab's run is read from the context: the newest shown run of the selection that asked for metrics.
  const RunResult* expected = nullptr;
  for (const RunResult& r : s.shown().runs)
    if (s.variant() && r.variant == s.variant()->id && !r.metrics.asked.empty()) expected = &r;
  EXPECT_EQ(metrics_run(c), expected);
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
  EXPECT_EQ(results[0].status, RunStatus::Ok) << results[0].message;
  EXPECT_TRUE(results[0].host_ms.recorded());  // the Results view's time tooltip shows where it went
  EXPECT_GT(results[0].host_ms.input, 0);
  EXPECT_GE(results[0].host_ms.total, results[0].host_ms.input + results[0].host_ms.launches);
  EXPECT_EQ(results[1].status, RunStatus::Error);
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

TEST(RunWorker, AUsersKernelWaitsWhileHeldAndRunsInOrderOnceReleased) {
  // Issue 24: the picture leaves an NVIDIA GPU before a user's kernel (which may fault) runs there.
  if (!find_variant("amp.sequential")) GTEST_SKIP() << "no CPU variant registered";
  RunWorker w(no_backend);
  ASSERT_TRUE(w.wait_opened(std::chrono::seconds(5)));
  EXPECT_TRUE(w.runs_on_this_machine());  // in-process
  RunRequest cpu;
  cpu.variant = "amp.sequential";
  cpu.n = 1 << 12;
  RunRequest mine;
  mine.variant = "epita.reduce3";
  mine.kernel.source = "__global__ void k() {}";
  w.hold_user_kernels(true);
  w.submit({cpu});  // no user kernel: not held
  auto first = collect(w, 1);
  ASSERT_EQ(first.size(), 1u);
  w.submit({mine});
  w.submit({cpu});  // behind the held one: waits too, so the order stays
  EXPECT_TRUE(w.user_kernels_waiting());
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_TRUE(w.take().finished.empty());
  w.release_user_kernels();
  EXPECT_FALSE(w.user_kernels_waiting());
  auto later = collect(w, 2);
  ASSERT_EQ(later.size(), 2u);
  EXPECT_NE(later[0].variant.find("your kernel"), std::string::npos)
      << later[0].variant;  // ran first (no device: an error)
  EXPECT_EQ(later[1].variant, "amp.sequential");
  w.submit({mine});  // released: no longer held
  EXPECT_FALSE(w.user_kernels_waiting());
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
  exchange_with_worker(s, w, dir.string());
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
      exchange_with_worker(s, w, dir.string());
    } while (s.session.runs.empty() && std::chrono::steady_clock::now() < end);
    ASSERT_EQ(s.session.runs.size(), 1u);
    EXPECT_EQ(s.session.runs[0].status, RunStatus::Ok);
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
  void SetUp() override { test::start_headless_imgui(1600, 900); }
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
  frames(s, win);  // opening the device
  s.device.opened = true;
  frames(s, win);  // no device, nothing open
  ASSERT_EQ(s.open_report(kFixture), "");
  frames(s, win);        // replay
  s.device.busy = true;  // a lesson running
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
  err.status = RunStatus::Error;
  err.message = "a long error message that must be cut to one line in the check column of the table";
  s.add_result(err);
  frames(s, win);
  ImGui::SetNextWindowSize(ImVec2(200, 200));  // tiny window: nothing may assert
  ImGui::GetIO().DisplaySize = ImVec2(640, 400);
  frames(s, win);
}

// A 12 ms tap of F1 or Esc (a clicker, a fast hand) goes down and up between two frames: ImGui's key state
// never sees it down. The window queues each press (AppState::nav_keys, as for the scene keys), so each
// tap is handled once: F1 opens the help, a second F1 closes it, Esc closes it too.
TEST_F(Frames, ShortTapsOfF1AndEscAreEachHandled) {
  AppState s;
  s.load(std::string(WS_GUI_ASSETS) + "/lessons");
  MainWindow win;
  s.device.opened = true;
  frames(s, win, 1);
  ASSERT_FALSE(s.perf.present.show_help);
  s.nav_keys.push_back(NavKey::Help);  // pressed and released within the frame
  frames(s, win, 1);
  EXPECT_TRUE(s.perf.present.show_help);
  EXPECT_TRUE(s.nav_keys.empty());
  s.nav_keys.push_back(NavKey::Escape);
  frames(s, win, 1);
  EXPECT_FALSE(s.perf.present.show_help);
  // Two taps in one frame: open and close, none lost.
  s.nav_keys.push_back(NavKey::Help);
  s.nav_keys.push_back(NavKey::Help);
  frames(s, win, 1);
  EXPECT_FALSE(s.perf.present.show_help);
  // F1 then a scene key in the same frame: both taken, in order.
  ASSERT_TRUE(s.select_lesson(std::string("epita")));
  s.nav_keys.push_back(NavKey::Help);
  s.nav_keys.push_back(NavKey::PageDown);
  frames(s, win, 1);
  EXPECT_TRUE(s.perf.present.show_help);
  EXPECT_EQ(s.scene_index(), 0);
}

TEST_F(Frames, PageDownWalksTheScenesAndNoArrowPressIsLost) {
  // Keys arrive as the window's GLFW key callback queues them (AppState::nav_keys): one entry per press.
  AppState s;
  s.load(std::string(WS_GUI_ASSETS) + "/lessons");
  ASSERT_TRUE(s.select_lesson("epita"));
  const Lesson* l = s.lesson();
  ASSERT_NE(l, nullptr);
  ASSERT_GE(l->scenes.size(), 8u);
  MainWindow win;
  s.device.opened = true;
  frames(s, win, 1);
  EXPECT_EQ(s.scene_index(), -1);

  s.nav_keys.push_back(NavKey::PageDown);  // a clicker's "next": the first scene
  frames(s, win, 1);
  EXPECT_EQ(s.scene_index(), 0);
  EXPECT_EQ(s.variant()->id, l->scenes[0].variant);
  EXPECT_EQ(s.view, l->scenes[0].view);

  // Two quick clicks within one frame: two scenes on, none lost.
  s.nav_keys.push_back(NavKey::PageDown);
  s.nav_keys.push_back(NavKey::PageDown);
  frames(s, win, 1);
  EXPECT_EQ(s.scene_index(), 2);
  s.nav_keys.push_back(NavKey::PageUp);
  frames(s, win, 1);
  EXPECT_EQ(s.scene_index(), 1);

  // The scene with reduce2's 16-leaf tree: its block, n, input and step are what the views show.
  int tree_scene = -1;
  for (std::size_t i = 0; i < l->scenes.size(); ++i)
    if (l->scenes[i].view == "tree" && l->scenes[i].variant == "epita.reduce2") tree_scene = int(i);
  ASSERT_GE(tree_scene, 0);
  while (s.scene_index() < tree_scene) {
    s.nav_keys.push_back(NavKey::PageDown);
    frames(s, win, 1);
  }
  const Scene& sc = l->scenes[std::size_t(tree_scene)];
  ASSERT_TRUE(s.trace.trace.has_value()) << s.trace.why_none;
  EXPECT_EQ(s.trace.trace->block_size, sc.block);
  EXPECT_EQ(s.trace.trace->n, sc.n);
  EXPECT_EQ(s.trace.step, sc.step);

  // Three fast Right presses (all before the next frame): three steps.
  s.trace.step = 0;
  s.nav_keys.insert(s.nav_keys.end(), {NavKey::Right, NavKey::Right, NavKey::Right});
  frames(s, win, 1);
  EXPECT_EQ(s.trace.step, 3);
  s.nav_keys.push_back(NavKey::Left);
  frames(s, win, 1);
  EXPECT_EQ(s.trace.step, 2);
  EXPECT_TRUE(s.nav_keys.empty());

  // The pen's drawing goes with the scene.
  s.perf.present.strokes.push_back({10.f, 10.f, 50.f, 50.f});
  s.nav_keys.push_back(NavKey::PageDown);
  frames(s, win, 1);
  EXPECT_TRUE(s.perf.present.strokes.empty());

  // Past the last scene: stays there.
  for (std::size_t i = 0; i < l->scenes.size() + 2; ++i) s.nav_keys.push_back(NavKey::PageDown);
  frames(s, win, 1);
  EXPECT_EQ(s.scene_index(), int(l->scenes.size()) - 1);
  EXPECT_NE(s.open_scene(999, MainWindow::views()), "");
}

// The views are listed once (views/view_registry.cpp): the tabs, the number keys, --view and the stepping keys
// read that list.
TEST(Views, OneListNamesEveryTabOnce) {
  const std::vector<ViewInfo>& views = all_views();
  ASSERT_GE(views.size(), 10u);
  EXPECT_EQ(views.front().id, "results");  // key 1
  EXPECT_EQ(views[9].label, "Atomics");    // key 0: the tenth tab (help_overlay.cpp)
  std::set<std::string> ids, labels;
  for (const ViewInfo& v : views) {
    SCOPED_TRACE(v.id);
    EXPECT_TRUE(ids.insert(v.id).second) << "an id twice";
    EXPECT_TRUE(labels.insert(v.label).second) << "a label twice";
    EXPECT_FALSE(v.label.empty());
    ASSERT_NE(v.make, nullptr);
    EXPECT_NE(v.make(), nullptr);
    EXPECT_EQ(find_view(v.id), &v);
    EXPECT_EQ(MainWindow::is_step_view(v.id), v.steps);
  }
  EXPECT_EQ(MainWindow::views(), view_ids());
  EXPECT_EQ(find_view("no-such-view"), nullptr);
  EXPECT_FALSE(MainWindow::is_step_view("no-such-view"));
  EXPECT_EQ(view_id_list().rfind("results, tree, ", 0), 0u);
  EXPECT_EQ(view_id_list(true).rfind("tree, warps, ", 0), 0u) << "the step views alone";
}

TEST(Scenes, EverySceneOfEveryLessonOpensItsViewAndTrace) {
  AppState s;
  s.load(std::string(WS_GUI_ASSETS) + "/lessons");
  for (const char* id : {"epita", "stevens", "harris", "cs121", "amp"}) {
    ASSERT_TRUE(s.select_lesson(std::string(id)));
    for (int k = 0; k < s.scene_count(); ++k) {
      SCOPED_TRACE(std::string(id) + " scene " + std::to_string(k + 1));
      ASSERT_EQ(s.open_scene(k, MainWindow::views()), "");
      const Scene& sc = *s.scene();
      EXPECT_EQ(s.variant()->id, sc.variant);
      if (!sc.view.empty()) EXPECT_EQ(s.view, sc.view);
      const bool step_view = sc.view == "tree" || sc.view == "warps" || sc.view == "banks" || sc.view == "source" ||
                             sc.view == "scan" || sc.view == "atomics" || sc.view == "race" || sc.view == "ladder" ||
                             sc.view == "pair";
      if (!step_view) continue;
      ASSERT_TRUE(s.trace.trace.has_value()) << s.trace.why_none;
      EXPECT_EQ(s.trace.step, sc.step) << "the scene's step exists";
      if (sc.block) EXPECT_EQ(s.trace.trace->block_size, sc.block);
    }
  }
}

// On a GPU machine before any run, a scene that ranks runs (EPITA's Compare of reduce8_fixed) shows the
// bundled report with a line saying so, instead of "no runs"; a run of its variant on this GPU takes over
// and the line goes. A scene of a step-through view needs no report and gets no line.
TEST(Scenes, ASceneOnAGpuWithoutRunsFallsBackToTheBundledReportAndSaysSo) {
  AppState s;
  s.load(std::string(WS_GUI_ASSETS) + "/lessons");
  s.device.opened = true;
  s.device.device.available = true;
  s.device.device.name = "NVIDIA Test GPU";
  ASSERT_TRUE(s.select_lesson(std::string("epita")));
  int compare = -1, tree = -1;
  for (int i = 0; i < s.scene_count(); ++i) {
    const Scene& sc = s.lesson()->scenes[std::size_t(i)];
    if (sc.view == "compare" && compare < 0) compare = i;
    if (sc.view == "tree" && tree < 0) tree = i;
  }
  ASSERT_GE(compare, 0);
  ASSERT_GE(tree, 0);
  const std::string bundled = std::string(WS_GUI_ASSETS) + "/reports/nvidia-h100-lessons.json";
  int asked = 0;
  auto path = [&](const std::string& name) {
    ++asked;
    return name.empty() ? bundled : std::string(WS_GUI_ASSETS) + "/reports/" + name;
  };
  ASSERT_EQ(s.open_scene(tree, MainWindow::views()), "");
  s.fall_back_for_scene(path);
  EXPECT_EQ(s.scene_report_line, "");
  EXPECT_EQ(asked, 0) << "a step-through scene needs no report";
  ASSERT_EQ(s.open_scene(compare, MainWindow::views()), "");
  s.fall_back_for_scene(path);
  EXPECT_EQ(asked, 1);
  ASSERT_TRUE(s.showing_replay());
  EXPECT_NE(s.scene_report_line.find("No run on this GPU yet"), std::string::npos) << s.scene_report_line;
  EXPECT_NE(s.scene_report_line.find("R runs the lesson"), std::string::npos);
  s.fall_back_for_scene(path);  // the next frame: same scene, nothing asked again
  EXPECT_EQ(asked, 1);
  RunResult r;
  r.variant = s.scene()->variant;
  s.add_result(r);  // this GPU's run comes in: the session is shown, the line goes
  s.fall_back_for_scene(path);
  EXPECT_FALSE(s.showing_replay());
  EXPECT_EQ(s.scene_report_line, "");
}

// A scene that plots a sweep names its recording (Scene::report): without a GPU it opens that report, whose
// sweep has the scene's variant (the plot's title names the recording); the next ranking scene goes back to
// the bundled default report.
TEST(Scenes, APlotsSceneOpensItsBundledSweep) {
  AppState s;
  s.load(std::string(WS_GUI_ASSETS) + "/lessons");
  s.device.opened = true;  // no device
  ASSERT_TRUE(s.select_lesson(std::string("epita")));
  const std::string dir = std::string(WS_GUI_ASSETS) + "/reports/";
  auto path = [&](const std::string& name) { return dir + (name.empty() ? "nvidia-h100-lessons.json" : name); };
  int plots = -1, compare = -1;
  for (int i = 0; i < s.scene_count(); ++i) {
    const Scene& sc = s.lesson()->scenes[std::size_t(i)];
    if (sc.view == "plots" && !sc.report.empty()) plots = i;
    if (sc.view == "compare" && compare < 0) compare = i;
  }
  ASSERT_GE(plots, 0) << "EPITA's Plots scene names its sweep";
  ASSERT_EQ(s.open_scene(plots, MainWindow::views()), "");
  s.fall_back_for_scene(path);
  ASSERT_TRUE(s.showing_replay());
  ASSERT_FALSE(s.shown().sweeps.empty());
  bool has = false;
  for (const auto& w : s.shown().sweeps)
    for (const auto& r : w.runs) has |= r.variant == s.scene()->variant;
  EXPECT_TRUE(has);
  EXPECT_NE(s.replay_path.find("nvidia-h200-sweep.json"), std::string::npos);
  EXPECT_EQ(s.scene_report_line, "") << "without a GPU the sweep's own title says where it comes from";
  ASSERT_EQ(s.open_scene(compare, MainWindow::views()), "");
  s.fall_back_for_scene(path);
  EXPECT_TRUE(s.shown().sweeps.empty()) << "back on the bundled default report";
  EXPECT_NE(s.replay_path.find("nvidia-h100-lessons.json"), std::string::npos);
}

// After n / p the scene line no longer describes the scene's variant: it says which variant is shown now
// and gives that variant's narrative from the lesson; back on the scene's variant, the note returns.
TEST(Scenes, TheSceneLineFollowsNAndP) {
  AppState s;
  s.load(std::string(WS_GUI_ASSETS) + "/lessons");
  ASSERT_TRUE(s.select_lesson(std::string("epita")));
  int k = -1;
  for (int i = 0; i < s.scene_count() && k < 0; ++i)
    if (s.lesson()->scenes[std::size_t(i)].variant == "epita.reduce2") k = i;
  ASSERT_GE(k, 0);
  ASSERT_EQ(s.open_scene(k, MainWindow::views()), "");
  EXPECT_EQ(scene_line_text(s), note_for_screen(s.scene()->note));
  ASSERT_TRUE(s.select_variant("epita.reduce3"));
  const std::string line = scene_line_text(s);
  EXPECT_NE(line.find("left the scene's reduce2 for reduce3"), std::string::npos) << line;
  EXPECT_NE(line.find("equential addressing"), std::string::npos) << line;
  ASSERT_TRUE(s.select_variant("epita.reduce2"));
  EXPECT_EQ(scene_line_text(s), note_for_screen(s.scene()->note));
}

// A scene names the Pair view's picture and its right-hand variant; the next scene without them goes
// back to Tree beside the lesson's next variant.
TEST(Scenes, PairScenesChooseThePictureAndTheSecondVariant) {
  AppState s;
  s.load(std::string(WS_GUI_ASSETS) + "/lessons");
  ASSERT_TRUE(s.select_lesson(std::string("epita")));
  int warps_pair = -1;
  for (int k = 0; k < s.scene_count() && warps_pair < 0; ++k) {
    ASSERT_EQ(s.open_scene(k, MainWindow::views()), "");
    if (s.scene()->view == "pair" && s.scene()->pair_picture == "warps") warps_pair = k;
  }
  ASSERT_GE(warps_pair, 0) << "an EPITA scene shows two variants' warps side by side";
  EXPECT_EQ(s.view, "pair");
  const PairChoice asked = PairView::choice_of(*s.scene());
  EXPECT_EQ(asked.picture, 1);
  EXPECT_EQ(asked.second, "epita.reduce3");
  // The Pair view takes the scene's choice (once per opened scene).
  PairView pair;
  pair.adopt(ViewContext::of(s));
  EXPECT_EQ(pair.picture(), 1);
  EXPECT_EQ(pair.second(), "epita.reduce3");
  EXPECT_EQ(pair.second_id(ViewContext::of(s)), "epita.reduce3");
  EXPECT_EQ(s.variant()->id, "epita.reduce2");
  // The next scene names neither: the defaults come back.
  ASSERT_EQ(s.open_scene(warps_pair + 1, MainWindow::views()), "");
  pair.adopt(ViewContext::of(s));
  EXPECT_EQ(pair.picture(), 0);
  EXPECT_EQ(pair.second(), "");
  // The Stevens lesson puts its two trees side by side the same way.
  ASSERT_TRUE(s.select_lesson(std::string("stevens")));
  bool found = false;
  for (int k = 0; k < s.scene_count() && !found; ++k) {
    ASSERT_EQ(s.open_scene(k, MainWindow::views()), "");
    pair.adopt(ViewContext::of(s));
    found = s.scene()->view == "pair" && pair.second() == "stevens.reduce_compact" && pair.picture() == 1;
  }
  EXPECT_TRUE(found);
}

TEST_F(Frames, ResultsOfALongReportBuildOnlyTheVisibleRows) {
  // The same window for a 300-run and a 10,000-run report: the vertices drawn must not grow with it.
  AppState s;
  s.load(std::string(WS_GUI_ASSETS) + "/lessons");
  s.device.opened = true;
  MainWindow win;
  const auto vertices = [&](std::size_t runs) {
    Report r = new_report("long", DeviceInfo{});
    for (std::size_t i = 0; i < runs; ++i) {
      RunResult run;
      run.variant = i % 2 ? "epita.reduce3" : "epita.race";
      run.status = i % 2 ? RunStatus::Ok : RunStatus::Race;
      run.message = i % 2 ? "" : "race: expected 1000, got " + std::to_string(i);
      run.n = 1000;
      r.runs.push_back(run);
    }
    s.replay = r;
    s.replay->created = "long " + std::to_string(runs);
    s.show_replay = true;
    s.view = "results";
    frames(s, win, 3);
    return ImGui::GetDrawData()->TotalVtxCount;
  };
  const int few = vertices(300), many = vertices(kMaxReportRuns);
  EXPECT_LT(many, few * 1.2) << few << " vertices for 300 runs, " << many << " for " << kMaxReportRuns;
}

TEST_F(Frames, ATraceWithoutStepsOrThreadsDrawsAMessageInEveryStepView) {
  // A hostile report the loader would refuse, put straight into the state: the views must still not
  // index an empty step list or divide by zero warps.
  AppState s;
  s.load(std::string(WS_GUI_ASSETS) + "/lessons");
  s.device.opened = true;
  ASSERT_EQ(s.open_report(kFixture), "");
  ASSERT_TRUE(s.select_variant("epita.reduce3"));
  MainWindow win;
  for (const int block_size : {64, 0, -5}) {
    // The configuration the parameters ask for, from the model's own trace of it: a recording is shown
    // only when it is of that configuration (recording_mismatch), which a block size <= 0 never is.
    s.params.block = block_size > 0 ? block_size : 0;
    s.trace.use_recorded = false;
    s.replay->traces.clear();
    s.replay->created = "model " + std::to_string(block_size);
    s.view = "tree";
    frames(s, win, 1);
    ASSERT_TRUE(s.trace.trace.has_value()) << s.trace.why_none;
    const Trace model = *s.trace.trace;
    Trace bad;
    bad.variant = "epita.reduce3";
    bad.source = "NVIDIA H200";
    bad.n = model.n;
    bad.type = model.type;
    bad.launch = model.launch;
    bad.block_index = model.block_index;
    bad.input = model.input;
    bad.seed = model.seed;
    bad.block_size = block_size;
    if (block_size <= 0) bad.steps.push_back(Step{});
    s.replay->traces = {bad};
    s.replay->created = "hostile " + std::to_string(block_size);  // a new report: the trace is re-picked
    s.trace.use_recorded = true;
    s.trace.step = 3;
    for (const char* view : {"tree", "warps", "banks", "memory", "source", "atomics", "scan"}) {
      s.view = view;
      frames(s, win, 2);
      ASSERT_TRUE(s.trace.trace.has_value()) << view;
      EXPECT_EQ(s.trace.origin, block_size > 0 ? "report" : "sim") << view;
    }
  }
}

TEST(AppState, RacyVariantsStartOnOnesUntilAnInputIsChosen) {
  AppState s;
  s.load(std::string(WS_GUI_ASSETS) + "/lessons");
  ASSERT_TRUE(s.select_variant("epita.race"));
  EXPECT_EQ(s.params.input_kind(), "ones");  // expected n, so the lost additions show
  ASSERT_TRUE(s.select_variant("epita.reduce3"));
  EXPECT_EQ(s.params.input_kind(), "random");
  ASSERT_EQ(s.set_input("sequence"), "");
  ASSERT_TRUE(s.select_variant("epita.race"));
  EXPECT_EQ(s.params.input_kind(), "sequence");  // the lecturer's choice wins
}

}  // namespace

namespace {

/// Writes `bytes` to `dir`/DejaVuSans.ttf (and nothing else there).
std::string font_dir_with(const std::string& name, const std::string& bytes) {
  const std::string dir = ::testing::TempDir() + "ws_fonts_" + name;
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/DejaVuSans.ttf", std::ios::binary) << bytes;
  return dir;
}

TEST(Fonts, AnEmptyGarbageOrTruncatedFontFallsBackToImGuisOwnWithAWarning) {
  std::ifstream real("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", std::ios::binary);
  const std::string whole{std::istreambuf_iterator<char>(real), std::istreambuf_iterator<char>()};
  std::vector<std::pair<std::string, std::string>> cases = {
      {"empty", ""},
      {"garbage", std::string(4096, 'x')},
      {"header_only", std::string("\0\1\0\0\0\x20", 6) + std::string(30, '\0')}};
  if (whole.size() > 100000) cases.push_back({"truncated", whole.substr(0, 40000)});
  for (const auto& [name, bytes] : cases) {
    const std::string dir = font_dir_with(name, bytes);
    EXPECT_NE(font_file_problem(dir + "/DejaVuSans.ttf"), "") << name;
    ImGui::CreateContext();
    const std::string warn = theme().apply(1.f, dir);
    EXPECT_NE(warn.find("DejaVuSans.ttf cannot be used"), std::string::npos) << name << ": " << warn;
    EXPECT_NE(warn.find("ImGui's built-in font"), std::string::npos) << name << ": " << warn;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    ImGui::GetIO().Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);  // builds the atlas: aborted before
    EXPECT_GT(w, 0) << name;
    EXPECT_NE(theme().fonts().bold, nullptr);
    ImGui::DestroyContext();
  }
  if (!whole.empty()) EXPECT_EQ(font_file_problem("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"), "");
}

/// The offset and length of table `tag` in the font `f`, or {0, 0}.
std::pair<std::size_t, std::size_t> font_table(const std::string& f, const char* tag) {
  const auto u32 = [&](std::size_t at) {
    return std::size_t(std::uint8_t(f[at])) << 24 | std::size_t(std::uint8_t(f[at + 1])) << 16 |
           std::size_t(std::uint8_t(f[at + 2])) << 8 | std::size_t(std::uint8_t(f[at + 3]));
  };
  const std::size_t tables = std::size_t(std::uint8_t(f[4])) << 8 | std::uint8_t(f[5]);
  for (std::size_t i = 0; i < tables; ++i)
    if (f.compare(12 + 16 * i, 4, tag) == 0) return {u32(12 + 16 * i + 8), u32(12 + 16 * i + 12)};
  return {0, 0};
}

TEST(Fonts, AFontDamagedInsideFallsBackInsteadOfCrashingTheAtlas) {
  std::ifstream real("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", std::ios::binary);
  const std::string whole{std::istreambuf_iterator<char>(real), std::istreambuf_iterator<char>()};
  if (whole.size() < 100000) GTEST_SKIP() << "fonts-dejavu-core is not installed";
  // loca: every glyph's offset far past its glyf table (SIGSEGV in the atlas build before). cmap: every
  // subtable of an unknown format (stbtt_FindGlyphIndex asserted before). Both pass the table checks.
  std::string loca = whole, cmap = whole;
  const auto [loca_at, loca_len] = font_table(whole, "loca");
  ASSERT_GT(loca_len, 0u);
  const auto [head_at, head_len] = font_table(whole, "head");
  ASSERT_GT(head_len, 52u);
  const bool long_loca = whole[head_at + 51] != 0;  // indexToLocFormat
  const std::size_t entry = long_loca ? 4 : 2;
  for (std::size_t i = 0; i + entry <= loca_len; i += entry) {
    const std::uint32_t off = 0x20000000u + std::uint32_t(i / entry) * 64u;  // increasing, far past the file
    const std::uint32_t v = long_loca ? off : off / 2 / 16;
    for (std::size_t k = 0; k < entry; ++k) loca[loca_at + i + k] = char(v >> (8 * (entry - 1 - k)));
  }
  const auto [cmap_at, cmap_len] = font_table(whole, "cmap");
  ASSERT_GT(cmap_len, 4u);
  const std::size_t subtables = std::size_t(std::uint8_t(whole[cmap_at + 2])) << 8 | std::uint8_t(whole[cmap_at + 3]);
  for (std::size_t i = 0; i < subtables; ++i) {
    const std::size_t rec = cmap_at + 4 + 8 * i + 4;
    const std::size_t off = std::size_t(std::uint8_t(whole[rec])) << 24 |
                            std::size_t(std::uint8_t(whole[rec + 1])) << 16 |
                            std::size_t(std::uint8_t(whole[rec + 2])) << 8 | std::uint8_t(whole[rec + 3]);
    cmap[cmap_at + off] = 0, cmap[cmap_at + off + 1] = 99;  // format 99
  }
  for (const auto& [name, bytes] : {std::pair{std::string("loca"), loca}, std::pair{std::string("cmap"), cmap}}) {
    const std::string dir = font_dir_with("damaged_" + name, bytes);
    EXPECT_NE(font_file_problem(dir + "/DejaVuSans.ttf"), "") << name;
    ImGui::CreateContext();
    const std::string warn = theme().apply(1.f, dir);
    EXPECT_NE(warn.find("DejaVuSans.ttf cannot be used"), std::string::npos) << name << ": " << warn;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    ImGui::GetIO().Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);  // crashed the process before
    EXPECT_GT(w, 0) << name;
    ImGui::DestroyContext();
  }
}

// fuzz_font's seeds (tests/fuzz/make_font_seeds.py): the minimal font built from nothing is a font; a cmap
// whose encoding records run past its table (fuzz_font's first find) crashed stbtt_InitFont in the app's
// own process before its parse moved into the checking child; a loca past the glyphs is refused before
// any atlas (the child's build read past the file without crashing; the app's would have too).
TEST(Fonts, FuzzSeedsAreJudgedAndADamagedCmapNoLongerCrashesTheCheck) {
  const std::string corpus = std::string(WS_GUI_TEST_DIR) + "/../fuzz/corpus/font/";
  EXPECT_EQ(font_file_problem(corpus + "tiny.ttf"), "");
  for (const char* bad :
       {"cmap-records-past-table.ttf", "tiny-loca-past-glyphs.ttf", "tiny-cmap-format-9.ttf", "tiny-cut-off.ttf"}) {
    const std::string why = font_file_problem(corpus + bad);
    EXPECT_NE(why, "") << bad;
    EXPECT_EQ(why.find('\n'), std::string::npos) << bad;
  }
}

}  // namespace

namespace {

TEST(Lessons, ABadLessonFileIsNamedInTheWindowAndTheOthersStillShow) {
  namespace fs = std::filesystem;
  const std::string dir = ::testing::TempDir() + "ws_gui_lessons_bad";
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const auto& e : fs::directory_iterator(std::string(WS_GUI_ASSETS) + "/lessons"))
    if (e.path().extension() == ".json") fs::copy_file(e.path(), dir + "/" + e.path().filename().string());
  std::ofstream(dir + "/broken.json") << "{ \"id\": ";
  AppState good, s;
  good.load(std::string(WS_GUI_ASSETS) + "/lessons");
  s.load(dir);
  const auto from_file = [](const AppState& a) {
    return std::count_if(a.lessons().begin(), a.lessons().end(), [](const LessonEntry& e) { return e.from_file; });
  };
  EXPECT_EQ(from_file(s), from_file(good));
  EXPECT_GE(from_file(s), 5);
  ASSERT_FALSE(s.messages.empty());
  EXPECT_EQ(s.messages.back().level, Message::Error);
  EXPECT_NE(s.messages.back().text.find("lessons: " + dir + "/broken.json is not valid JSON: line 1"),
            std::string::npos)
      << s.messages.back().text;
}

}  // namespace

TEST(SceneNote, TheAudienceSeesTheSlideNotTheSeedFileName) {
  EXPECT_EQ(note_for_screen("001_9970031c1e4143ff.txt, slide \"Kogge-Stone\": the ladder"),
            "Slide \"Kogge-Stone\": the ladder");
  EXPECT_EQ(note_for_screen("000_27438c05e47b0926.txt: slide X"), "Slide X");
  EXPECT_EQ(note_for_screen("slide X, no file"), "slide X, no file");
  EXPECT_EQ(note_for_screen("12_ab.txt, short prefix"), "12_ab.txt, short prefix");
  EXPECT_EQ(note_for_screen("001_zz.txt, not hex"), "001_zz.txt, not hex");
}

TEST(Inputs, AnInputThatExistsButIsNoFileSaysWhatItIs) {
  AppState s;
  s.load(std::string(WS_GUI_ASSETS) + "/lessons");
  for (const std::string& path : {std::string("/dev/zero"), ::testing::TempDir()}) {
    const std::string err = s.set_input(path);
    EXPECT_NE(err, "") << path;
    EXPECT_EQ(err.find("an existing file"), std::string::npos) << path << ": " << err;
    EXPECT_NE(err.find(path), std::string::npos) << err;
  }
}
