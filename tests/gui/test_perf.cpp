// Axis and tick maths, live buffers, Compare rows, sweeps (core, report round trip) and
// the worker's sweep and Live plumbing with the synthetic (fake) backend, and one ImGui frame of
// the Compare and Plots tabs built without a renderer.
#include <gtest/gtest.h>
#include <imgui.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "app_state.hpp"
#include "headless_imgui.hpp"
#include "help_overlay.hpp"
#include "live.hpp"
#include "main_window.hpp"
#include "registry.hpp"
#include "report.hpp"
#include "run_worker.hpp"
#include "sweep.hpp"
#include "synthetic_backend.hpp"
#include "views/compare_model.hpp"
#include "widgets/plot_axis.hpp"
#include "widgets/theme.hpp"
#include "worker_exchange.hpp"

namespace {

using namespace ws;
using namespace ws::ui;
using namespace ws::controller;
using namespace std::chrono_literals;

TEST(Axis, NiceNumbers) {
  EXPECT_DOUBLE_EQ(nice_number(0.13, true), 0.1);
  EXPECT_DOUBLE_EQ(nice_number(2.7, true), 2);
  EXPECT_DOUBLE_EQ(nice_number(3.2, true), 5);
  EXPECT_DOUBLE_EQ(nice_number(7.5, true), 10);
  EXPECT_DOUBLE_EQ(nice_number(2.1, false), 5);
  EXPECT_DOUBLE_EQ(nice_number(2.0, false), 2);
  EXPECT_DOUBLE_EQ(nice_number(450, false), 500);
  EXPECT_EQ(nice_number(0, true), 0);
}

TEST(Axis, LinearTicks) {
  EXPECT_EQ(linear_ticks(0, 10, 6), (std::vector<double>{0, 2, 4, 6, 8, 10}));
  EXPECT_EQ(linear_ticks(0, 4814, 6), (std::vector<double>{0, 1000, 2000, 3000, 4000}));
  const auto t = linear_ticks(-0.3, 0.7, 6);
  ASSERT_EQ(t.size(), 5u);  // step 0.2: -0.2 .. 0.6
  EXPECT_NEAR(t.front(), -0.2, 1e-12);
  EXPECT_EQ(t[1], 0.0);  // exactly zero, not 1e-17
  EXPECT_NEAR(t.back(), 0.6, 1e-12);
  for (int max = 2; max <= 12; ++max) EXPECT_LE(int(linear_ticks(0, 9999, max).size()), max) << max;
  EXPECT_TRUE(linear_ticks(1, 1, 5).empty());
  EXPECT_TRUE(linear_ticks(2, 1, 5).empty());
}

TEST(Axis, LogTicks) {
  // n from 2^10 to 2^28: 19 powers of two, every second one at most 10 ticks.
  const auto t = log_ticks(1024, double(1 << 28), 2, 10);
  ASSERT_EQ(t.size(), 10u);
  EXPECT_EQ(t.front(), 1024);
  EXPECT_EQ(t.back(), double(1 << 28));
  EXPECT_EQ(log_ticks(1024, double(1 << 28), 2, 19).size(), 19u);
  EXPECT_EQ(log_ticks(1, 10000, 10, 10), (std::vector<double>{1, 10, 100, 1000, 10000}));
  EXPECT_EQ(log_ticks(0.05, 500, 10, 10), (std::vector<double>{0.1, 1, 10, 100}));
  EXPECT_TRUE(log_ticks(0, 10, 10, 5).empty());
  const auto minor = log_minor_ticks(1, 100, 10);
  EXPECT_EQ(minor.size(), 16u);  // 2..9 and 20..90
  EXPECT_EQ(minor.front(), 2);
}

TEST(Axis, FractionAndFit) {
  AxisSpec lin{0, 200, false, 10, AxisUnit::Plain};
  EXPECT_DOUBLE_EQ(axis_fraction(lin, 50), 0.25);
  EXPECT_DOUBLE_EQ(axis_value(lin, 0.25), 50);
  AxisSpec lg{1, 1000, true, 10, AxisUnit::GBps};
  EXPECT_NEAR(axis_fraction(lg, 10), 1.0 / 3, 1e-12);
  EXPECT_NEAR(axis_value(lg, 2.0 / 3), 100, 1e-9);
  const AxisSpec f = fit_axis(161, 4457, false, 10, AxisUnit::GBps);
  EXPECT_EQ(f.lo, 0);
  EXPECT_GE(f.hi, 4457);
  EXPECT_LE(f.hi, 6000);
  const AxisSpec fl = fit_axis(161, 4457, true, 10, AxisUnit::GBps);
  EXPECT_EQ(fl.lo, 100);
  EXPECT_EQ(fl.hi, 10000);
  const AxisSpec n = fit_axis(1024, double(1 << 28), true, 2, AxisUnit::Count);
  EXPECT_EQ(n.lo, 1024);
  EXPECT_EQ(n.hi, double(1 << 28));
  const AxisSpec same = fit_axis(5, 5, false, 10, AxisUnit::Plain);
  EXPECT_LT(same.lo, 5);
  EXPECT_GT(same.hi, 5);
  const AxisSpec bad = fit_axis(-1, 0, true, 10, AxisUnit::Plain);  // nothing positive on a log axis
  EXPECT_GT(bad.lo, 0);
  EXPECT_GT(bad.hi, bad.lo);
}

TEST(Axis, UnitLabels) {
  EXPECT_EQ(format_count_short(double(1 << 20)), "2^20");
  EXPECT_EQ(format_count_short(1500000), "1.5 M");
  EXPECT_EQ(format_count_short(350000), "350 k");
  EXPECT_EQ(format_bandwidth_gbps(1.2), "1.2 GB/s");
  EXPECT_EQ(format_bandwidth_gbps(0.35), "350 MB/s");
  EXPECT_EQ(format_bandwidth_gbps(4418), "4418 GB/s");
  EXPECT_EQ(format_bandwidth_gbps(12500), "12.5 TB/s");
  EXPECT_EQ(format_duration_ms(0.35), "350 us");
  EXPECT_EQ(format_duration_ms(1.234), "1.23 ms");
  EXPECT_EQ(format_duration_ms(2500), "2.5 s");
  EXPECT_EQ(format_duration_ms(0.00002), "20 ns");
  EXPECT_EQ(format_significant(1.20), "1.2");
  EXPECT_EQ(format_axis_value(25, AxisUnit::Percent, 5), "25 %");
  EXPECT_EQ(format_axis_value(0.5, AxisUnit::Plain, 0.5), "0.5");
  EXPECT_EQ(format_axis_value(2, AxisUnit::Ratio, 1), "2x");
  // Labels of a real axis are distinct.
  const auto ticks = make_ticks(AxisSpec{0, 1, false, 10, AxisUnit::Plain}, 6);
  for (std::size_t i = 1; i < ticks.size(); ++i) EXPECT_NE(ticks[i].label, ticks[i - 1].label);
}

TEST(Live, SeriesIsBoundedAndOrdered) {
  LiveSeries s(100);
  for (int i = 0; i < 1000; ++i) s.push(i, i * 0.5, 1);
  EXPECT_EQ(s.size(), 100u);
  EXPECT_EQ(s.total(), 1000);
  EXPECT_EQ(s.launches()[0], 900);
  EXPECT_EQ(s.launches()[99], 999);
  EXPECT_DOUBLE_EQ(s.median_ms(4), (997 * 0.5 + 998 * 0.5) / 2);
  EXPECT_DOUBLE_EQ(s.median_ms(3), 998 * 0.5);
  // The store never moves: what a series holds is allocated once, so Live's memory stays flat.
  LiveSeries flat(100);
  flat.push(0, 1, 1);
  const double* store = flat.launches();
  for (int i = 1; i < 1050; ++i) flat.push(i, 1, 1);
  EXPECT_EQ(flat.size(), 100u);
  EXPECT_EQ(flat.launches()[0], 950);
  EXPECT_EQ(flat.launches()[99], 1049);
  EXPECT_GE(flat.launches(), store);
  EXPECT_LE(flat.launches(), store + 100);
  flat.clear();
  EXPECT_EQ(flat.size(), 0u);
  EXPECT_EQ(flat.launches(), store);
  RunResult r;
  r.variant = "x";
  r.status = RunStatus::Ok;
  r.timed = true;
  r.bytes = 4e6;
  r.timing.samples_ms = {1, 2};
  const auto pts = live_points(r, 10);
  ASSERT_EQ(pts.size(), 2u);
  EXPECT_EQ(pts[1].launch, 11);
  EXPECT_DOUBLE_EQ(pts[0].gbps, 4);  // 4e6 bytes in 1 ms
  r.status = RunStatus::Error;
  EXPECT_TRUE(live_points(r, 0).empty());
}

TEST(Sweep, ValidatesAndRunsInOrder) {
  SweepSpec spec;
  EXPECT_NE(validate_sweep(spec), "");
  spec.variants = {"epita.reduce3", "harris.impl2"};
  spec.from_log2 = 12;
  spec.to_log2 = 10;
  EXPECT_NE(validate_sweep(spec).find("from <= to"), std::string::npos);
  spec.from_log2 = 10;
  spec.to_log2 = 12;
  spec.input = "/etc/passwd";
  EXPECT_NE(validate_sweep(spec), "");
  spec.input = "random";
  spec.repeat = 3;
  ASSERT_EQ(validate_sweep(spec), "");
  test::SyntheticBackend b;
  int calls = 0;
  Sweep s = run_sweep(spec, &b, "", nullptr, [&](const SweepProgress& p) {
    ++calls;
    EXPECT_EQ(p.total, 6);
    EXPECT_EQ(p.done, calls);
  });
  EXPECT_EQ(calls, 6);
  ASSERT_EQ(s.runs.size(), 6u);
  EXPECT_FALSE(s.cancelled);
  EXPECT_EQ(s.runs[0].n, 1024);
  EXPECT_EQ(s.runs[0].variant, "epita.reduce3");
  EXPECT_EQ(s.runs[1].variant, "harris.impl2");
  for (const auto& r : s.runs) EXPECT_EQ(r.status, RunStatus::Ok) << r.variant << " " << r.message;
  const std::string csv = sweep_csv(s);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 7);
  EXPECT_NE(csv.find("harris.impl2,4096,ok,"), std::string::npos) << csv;
  const auto mine = s.runs_of("harris.impl2");
  ASSERT_EQ(mine.size(), 3u);
  EXPECT_EQ(mine[2]->n, 4096);
  // Without a backend every GPU run says why (as execute() does).
  Sweep none = run_sweep(spec, nullptr, "test: no device", nullptr, nullptr);
  ASSERT_EQ(none.runs.size(), 6u);
  EXPECT_EQ(none.runs[0].status, RunStatus::Error);
  EXPECT_NE(none.runs[0].message.find("no CUDA device"), std::string::npos);
}

TEST(Sweep, CancelStopsEarly) {
  SweepSpec spec;
  spec.variants = {"epita.reduce3"};
  spec.from_log2 = 10;
  spec.to_log2 = 20;
  spec.repeat = 1;
  test::SyntheticBackend b;
  std::atomic<bool> cancel{false};
  Sweep s = run_sweep(spec, &b, "", &cancel, [&](const SweepProgress& p) {
    if (p.done == 3) cancel = true;
  });
  EXPECT_EQ(s.runs.size(), 3u);
  EXPECT_TRUE(s.cancelled);
}

TEST(Sweep, SkipsSizesALaunchRuleRefuses) {
  SweepSpec spec;
  spec.variants = {"epita.reduce8"};  // fixed block of 32; small n works, huge ones too: check statuses are known
  spec.from_log2 = 4;
  spec.to_log2 = 6;
  spec.repeat = 1;
  test::SyntheticBackend b;
  Sweep s = run_sweep(spec, &b, "", nullptr, nullptr);
  ASSERT_EQ(s.runs.size(), 3u);
  for (const auto& r : s.runs)
    EXPECT_TRUE(r.status == RunStatus::Ok || r.status == RunStatus::SlideBug || r.status == RunStatus::Skipped)
        << r.status << " " << r.message;
}

TEST(Report, SweepsRoundTripAndOldReportsLoad) {
  SweepSpec spec;
  spec.variants = {"epita.reduce3"};
  spec.from_log2 = 10;
  spec.to_log2 = 11;
  spec.repeat = 2;
  test::SyntheticBackend b;
  Report rep = new_report("t", b.device());
  rep.sweeps.push_back(run_sweep(spec, &b, "", nullptr, nullptr));
  rep.sweeps.back().title = "sweep title";
  const std::string path = (std::filesystem::temp_directory_path() / "ws_sweep_roundtrip.json").string();
  save_report(rep, path);
  const Report back = load_report(path);
  ASSERT_EQ(back.sweeps.size(), 1u);
  const Sweep& s = back.sweeps[0];
  EXPECT_EQ(s.title, "sweep title");
  EXPECT_EQ(s.spec.variants, spec.variants);
  EXPECT_EQ(s.spec.from_log2, 10);
  EXPECT_EQ(s.spec.to_log2, 11);
  EXPECT_EQ(s.spec.repeat, 2);
  ASSERT_EQ(s.runs.size(), 2u);
  EXPECT_DOUBLE_EQ(s.runs[1].gbps, rep.sweeps[0].runs[1].gbps);
  EXPECT_EQ(s.runs[1].timing.samples_ms, rep.sweeps[0].runs[1].timing.samples_ms);
  // A report without "sweeps" (reports written before sweeps existed) loads with none; no "sweeps" is written then.
  const Report old = load_report(std::string(WS_GUI_ASSETS) + "/reports/nvidia-h200.json");
  EXPECT_TRUE(old.sweeps.empty());
  EXPECT_FALSE(report_to_json(old).contains("sweeps"));
  // A malformed sweep names itself.
  nlohmann::json j = report_to_json(rep);
  j["sweeps"][0].erase("runs");
  try {
    report_from_json(j);
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("sweep 0"), std::string::npos) << e.what();
  }
}

TEST(Compare, RowsSpeedupBestAndChanges) {
  Report rep = load_report(std::string(WS_GUI_ASSETS) + "/reports/nvidia-h200.json");
  const std::vector<std::string> ids = {"harris.impl1", "harris.impl2", "harris.impl3", "harris.naive"};
  std::map<std::string, Predicted> pred;
  for (const auto& id : ids) pred[id] = predict(*find_variant(id), 1 << 20, DType::Int32);
  // The sim model: interleaved addressing diverges, strided index conflicts, sequential does neither.
  ASSERT_TRUE(pred["harris.impl1"].have) << pred["harris.impl1"].why;
  EXPECT_GT(pred["harris.impl1"].divergent_pct, pred["harris.impl3"].divergent_pct);
  EXPECT_GT(pred["harris.impl2"].worst_ways, 1);
  EXPECT_EQ(pred["harris.impl3"].worst_ways, 1);
  const auto rows = build_compare(rep, ids, "harris.impl1", pred);
  ASSERT_EQ(rows.size(), 4u);
  const RunResult* i1 = rows[0].run;
  const RunResult* i3 = rows[2].run;
  ASSERT_TRUE(i1 && i3);
  EXPECT_DOUBLE_EQ(rows[0].speedup, 1.0);
  EXPECT_DOUBLE_EQ(rows[2].speedup, i1->timing.median_ms / i3->timing.median_ms);
  int best = 0;
  for (const auto& r : rows) best += r.best;
  EXPECT_EQ(best, 1);
  EXPECT_TRUE(rows[2].best);                    // impl3 is the fastest of these on the H200 report
  EXPECT_FALSE(rows[0].occupancy.has_value());  // that report has no CUPTI metrics
  const std::string line = what_changed(rows[1], rows[2]);
  EXPECT_NE(line.find("impl2 \u2192 impl3"), std::string::npos) << line;
  EXPECT_NE(line.find("-way \u2192 1-way"), std::string::npos) << line;
  EXPECT_NE(line.find("x faster"), std::string::npos) << line;
  // Measured metrics, when a run has them.
  rep.runs[0].metrics.values[metric::kSharedLdConflicts] = 160;
  rep.runs[0].metrics.values[metric::kSharedLdInst] = 10;
  const auto m = build_compare(rep, {rep.runs[0].variant}, "", {});
  ASSERT_TRUE(m[0].conflicts_per_ld.has_value());
  EXPECT_DOUBLE_EQ(*m[0].conflicts_per_ld, 16);
  const std::string csv = compare_csv(rows);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 5);
  EXPECT_NE(csv.find("harris.impl3"), std::string::npos);
}

// "What changed" wraps at spaces: none inside a quantity (a number and its unit, the two sides of an
// arrow) may break, the others may.
TEST(Compare, WhatChangedKeepsNumbersWithTheirUnitsAndArrows) {
  const std::string nb = "\u00a0";
  EXPECT_EQ(keep_quantities_together("reduce2 \u2192 reduce3: 0.409 \u2192 0.073 ms (5.6x faster); occupancy % 81 "
                                     "\u2192 69; predicted worst bank conflict 16-way \u2192 1-way; 12 % \u2192 0 %"),
            "reduce2 \u2192 reduce3: 0.409" + nb + "\u2192" + nb + "0.073" + nb + "ms (5.6x faster); occupancy % 81" +
                nb + "\u2192" + nb + "69; predicted worst bank conflict 16-way" + nb + "\u2192" + nb + "1-way; 12" +
                nb + "%" + nb + "\u2192" + nb + "0" + nb + "%");
  EXPECT_EQ(keep_quantities_together("no numbers here"), "no numbers here");
  EXPECT_EQ(keep_quantities_together(""), "");
}

TEST(Compare, MeasuredColumnsFromACuptiReport) {
  // Recorded on the H200 with run --metrics (the metrics fixture): the strided index (impl2) has many
  // times the shared-load bank conflicts per instruction of sequential addressing (impl3).
  const Report rep = load_report(std::string(WS_GUI_TEST_DIR) + "/fixtures/report_metrics_h200.json");
  const auto rows = build_compare(rep, {"harris.impl1", "harris.impl2", "harris.impl3"}, "", {});
  ASSERT_EQ(rows.size(), 3u);
  for (const auto& r : rows) {
    ASSERT_TRUE(r.conflicts_per_ld.has_value()) << r.variant;
    ASSERT_TRUE(r.lanes.has_value()) << r.variant;
    ASSERT_TRUE(r.occupancy.has_value()) << r.variant;
    const auto& v = r.run->metrics.values;
    EXPECT_DOUBLE_EQ(*r.conflicts_per_ld, v.at(metric::kSharedLdConflicts) / v.at(metric::kSharedLdInst));
  }
  // (Kernel-wide lane averages do not order these three the way the tree does: NOTES.md; not checked.)
  EXPECT_LT(*rows[2].conflicts_per_ld, *rows[1].conflicts_per_ld / 4);
  const std::string line = what_changed(rows[1], rows[2]);
  EXPECT_NE(line.find("bank conflicts per shared load"), std::string::npos) << line;
}

TEST(Compare, DefaultBaselineIsTheFirstCorrectVariantNeverARacyOne) {
  // The H200 report of the EPITA lesson: race and reduce1_nosync are racy (their times are of a wrong
  // sum), so the speedups are over reduce0, the first correct one.
  const Report rep = load_report(std::string(WS_GUI_ASSETS) + "/reports/nvidia-h200.json");
  const std::vector<std::string> ids = {"epita.race", "epita.reduce0", "epita.reduce1_nosync", "epita.reduce1",
                                        "epita.reduce8"};
  const auto rows = build_compare(rep, ids, "", {});
  ASSERT_EQ(rows.size(), ids.size());
  ASSERT_TRUE(rows[0].timed && rows[1].timed);
  EXPECT_DOUBLE_EQ(rows[1].speedup, 1.0) << "reduce0 is the baseline";
  // A wrong answer is no speedup, however fast: the racy row and the slide's bug show their time alone.
  EXPECT_EQ(rows[0].speedup, 0.0);
  EXPECT_TRUE(rows[0].flagged);
  EXPECT_EQ(rows[4].speedup, 0.0);
  EXPECT_TRUE(rows[4].flagged);
  EXPECT_FALSE(rows[4].best);
  EXPECT_EQ(flag_text(rows[4]), "WRONG: slide-bug");
  EXPECT_DOUBLE_EQ(rows[3].speedup, rows[1].time_ms / rows[3].time_ms);
  const std::string line = what_changed(rows[3], rows[4]);
  EXPECT_NE(line.find("no speedup"), std::string::npos) << line;
  EXPECT_EQ(line.find("x faster"), std::string::npos) << line;
  EXPECT_NE(compare_csv(rows).find("epita.reduce8,"), std::string::npos);
  // Without a correct timed row, no speedups at all rather than speedups over a wrong answer.
  const auto racy_only = build_compare(rep, {"epita.race", "epita.reduce1_nosync"}, "", {});
  for (const auto& r : racy_only) EXPECT_EQ(r.speedup, 0.0) << r.variant;
  // A chosen baseline is used as chosen, racy or not.
  EXPECT_DOUBLE_EQ(build_compare(rep, ids, "epita.race", {})[0].speedup, 1.0);
}

TEST(Compare, SweepOnlyReportsUseTheLargestN) {
  SweepSpec spec;
  spec.variants = {"epita.reduce3", "epita.reduce5"};
  spec.from_log2 = 10;
  spec.to_log2 = 12;
  spec.repeat = 1;
  test::SyntheticBackend b;
  Report rep = new_report("sweep only", b.device());
  rep.sweeps.push_back(run_sweep(spec, &b, "", nullptr, nullptr));
  const auto rows = build_compare(rep, {"epita.reduce3", "epita.reduce5", "harris.impl1"}, "", {});
  ASSERT_EQ(rows.size(), 3u);
  ASSERT_NE(rows[0].run, nullptr);
  EXPECT_EQ(rows[0].run->n, 4096);
  EXPECT_TRUE(rows[0].timed);
  EXPECT_EQ(rows[2].run, nullptr);  // not in the sweep: no run, shown as "no run"
  EXPECT_DOUBLE_EQ(rows[1].speedup, rows[0].time_ms / rows[1].time_ms);
}

std::unique_ptr<Backend> synthetic(std::chrono::milliseconds delay, std::string&) {
  return std::make_unique<test::SyntheticBackend>(delay);
}

TEST(Worker, SweepReportsProgressAndFinishes) {
  RunWorker w([](std::string& e) { return synthetic(0ms, e); });
  ASSERT_TRUE(w.wait_opened(5s));
  SweepSpec spec;
  spec.variants = {"epita.reduce3", "epita.reduce5"};
  spec.from_log2 = 10;
  spec.to_log2 = 13;
  spec.repeat = 2;
  ASSERT_TRUE(w.submit_sweep(spec));
  std::vector<RunResult> partial;
  std::vector<Sweep> done;
  const auto end = std::chrono::steady_clock::now() + 20s;
  while (done.empty() && std::chrono::steady_clock::now() < end) {
    auto snap = w.take();
    for (auto& r : snap.sweep_runs) partial.push_back(r);
    for (auto& s : snap.sweeps_finished) done.push_back(s);
    std::this_thread::sleep_for(2ms);
  }
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].runs.size(), 8u);
  EXPECT_FALSE(done[0].cancelled);
  EXPECT_EQ(partial.size(), 8u);
  EXPECT_FALSE(w.take().sweeping);
}

TEST(Worker, StopsCleanlyWhenTheWindowClosesMidSweep) {
  auto* w = new RunWorker([](std::string& e) { return synthetic(50ms, e); });
  ASSERT_TRUE(w->wait_opened(5s));
  SweepSpec spec;
  spec.variants = {"epita.reduce3", "epita.reduce5"};
  spec.from_log2 = 10;
  spec.to_log2 = 28;  // 38 runs of 50 ms: about 2 s if nothing stopped it
  spec.repeat = 1;
  ASSERT_TRUE(w->submit_sweep(spec));
  const auto end = std::chrono::steady_clock::now() + 10s;
  while (w->take().sweep_done < 2 && std::chrono::steady_clock::now() < end) std::this_thread::sleep_for(2ms);
  // What run_window does when the window closes: stop() then destroy.
  const auto t0 = std::chrono::steady_clock::now();
  w->stop();
  const auto stop_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(stop_ms, 500) << "stop() must not wait for the rest of the sweep";
  auto snap = w->take();
  EXPECT_FALSE(snap.sweeping);
  delete w;  // joins nothing more, never hangs
}

TEST(Worker, LiveProducesPointsAndSwitchesOff) {
  RunWorker w([](std::string& e) { return synthetic(0ms, e); });
  ASSERT_TRUE(w.wait_opened(5s));
  RunRequest req;
  req.variant = "epita.reduce3";
  req.n = 1 << 12;
  req.repeat = 4;
  RunRequest other = req;
  other.variant = "harris.impl7";  // shares req's input inside the worker
  w.set_live({req, other});
  LiveData live;
  const auto end = std::chrono::steady_clock::now() + 10s;
  while (live.points() < 200 && std::chrono::steady_clock::now() < end) {
    auto snap = w.take();
    live.add(snap.live_points);
    for (const auto& r : snap.live_results) live.add_result(r);
    std::this_thread::sleep_for(1ms);
  }
  ASSERT_GE(live.points(), 200u);
  const LiveSeries& s = live.series.at("epita.reduce3");
  for (std::size_t i = 1; i < s.size(); ++i) EXPECT_EQ(s.launches()[i], s.launches()[i - 1] + 1);
  EXPECT_EQ(live.latest.at("epita.reduce3").status, RunStatus::Ok);
  ASSERT_TRUE(live.latest.count("harris.impl7"));
  EXPECT_EQ(live.latest.at("harris.impl7").status, RunStatus::Ok);
  EXPECT_EQ(live.latest.at("harris.impl7").expected, live.latest.at("epita.reduce3").expected);  // one input
  EXPECT_EQ(live.latest.at("harris.impl7").n, 1 << 12);
  // A run queued meanwhile goes first; Live stops on request.
  w.submit({req});
  w.set_live({});
  std::this_thread::sleep_for(20ms);
  w.take();
  std::this_thread::sleep_for(20ms);
  auto snap = w.take();
  EXPECT_FALSE(snap.live);
  EXPECT_TRUE(snap.live_points.empty());
}

TEST(Worker, LiveWithoutDeviceStopsAndSaysWhy) {
  RunWorker w([](std::string& e) {
    e = "test: no device";
    return std::unique_ptr<Backend>();
  });
  ASSERT_TRUE(w.wait_opened(5s));
  RunRequest req;
  req.variant = "epita.reduce3";
  req.n = 1 << 12;
  w.set_live({req});
  RunWorker::Snapshot snap;
  std::vector<RunResult> results;
  const auto end = std::chrono::steady_clock::now() + 5s;
  do {
    std::this_thread::sleep_for(5ms);
    snap = w.take();
    results.insert(results.end(), snap.live_results.begin(), snap.live_results.end());
  } while (snap.live && std::chrono::steady_clock::now() < end);
  EXPECT_FALSE(snap.live);
  ASSERT_FALSE(results.empty());
  EXPECT_EQ(results.back().status, RunStatus::Error);
}

TEST(Worker, GuiIntentsReachTheWorkerAndResultsTheSession) {
  AppState s;
  s.load(std::string(WS_GUI_ASSETS) + "/lessons");
  RunWorker w([](std::string& e) { return synthetic(0ms, e); });
  ASSERT_TRUE(w.wait_opened(5s));
  exchange_with_worker(s, w, "");  // first snapshot: the (synthetic) device is open
  ASSERT_TRUE(s.device.device.available);
  EXPECT_EQ(why_no_timing(s), "");
  s.perf.sweep_from = 10;
  s.perf.sweep_to = 11;
  s.params.repeat = 2;
  s.perf.sweep_to_start = make_sweep_spec(s, {"epita.reduce3", "amp.sequential"});
  EXPECT_EQ(s.perf.sweep_to_start->variants, std::vector<std::string>{"epita.reduce3"});  // host loops are left out
  const auto end = std::chrono::steady_clock::now() + 20s;
  while (s.session.sweeps.empty() && std::chrono::steady_clock::now() < end) {
    exchange_with_worker(s, w, "");
    std::this_thread::sleep_for(2ms);
  }
  ASSERT_EQ(s.session.sweeps.size(), 1u);
  EXPECT_EQ(s.session.sweeps[0].runs.size(), 2u);
  EXPECT_FALSE(s.perf.sweep_partial.has_value());
  EXPECT_FALSE(s.showing_replay());
  // Live on through the toggle, points arrive; off again.
  s.params.n_log2 = 12;
  s.perf.live_log2 = 12;
  s.perf.live_variants = {"epita.reduce3"};
  s.perf.live_wanted = true;
  while (s.perf.live.points() < 50 && std::chrono::steady_clock::now() < end) {
    exchange_with_worker(s, w, "");
    std::this_thread::sleep_for(2ms);
  }
  EXPECT_GE(s.perf.live.points(), 50u);
  EXPECT_TRUE(s.perf.live_running);
  s.perf.live_wanted = false;
  exchange_with_worker(s, w, "");
  exchange_with_worker(s, w, "");
  EXPECT_FALSE(s.perf.live_running);
  // A saved session keeps its sweep.
  const std::string path = (std::filesystem::temp_directory_path() / "ws_session_sweep.json").string();
  ASSERT_EQ(s.save_session(path), "");
  EXPECT_EQ(load_report(path).sweeps.size(), 1u);
}

TEST(Worker, KeptFractionSweepAndLiveOfTheOtherLessons) {
  AppState s;
  s.load(std::string(WS_GUI_ASSETS) + "/lessons");
  RunWorker w([](std::string& e) { return synthetic(0ms, e); });
  ASSERT_TRUE(w.wait_opened(5s));
  exchange_with_worker(s, w, "");
  ASSERT_TRUE(s.device.device.available);
  const std::vector<std::string> ids = {"cs121.race",          "cs121.hist_shared",         "cs121.filter_global",
                                        "cub.select",          "stevens.scan_hierarchical", "stevens.conv1d_tiled",
                                        "stevens.conv2d_tiled"};
  // Over n: what has an n (not the race counter, not the 2-D convolution).
  SweepSpec by_n = make_sweep_spec(s, ids);
  EXPECT_EQ(by_n.variants, (std::vector<std::string>{"cs121.hist_shared", "cs121.filter_global", "cub.select",
                                                     "stevens.scan_hierarchical", "stevens.conv1d_tiled"}));
  // By kept fraction: the filters, 0 .. 1 by 0.1 at n = 2^keep_log2.
  s.perf.sweep_by_keep = true;
  s.perf.keep_log2 = 12;
  s.params.repeat = 2;
  s.perf.sweep_to_start = make_sweep_spec(s, ids);
  EXPECT_EQ(s.perf.sweep_to_start->variants, (std::vector<std::string>{"cs121.filter_global", "cub.select"}));
  EXPECT_EQ(s.perf.sweep_to_start->keep_fractions.size(), 11u);
  EXPECT_EQ(validate_sweep(*s.perf.sweep_to_start), "");
  const auto end = std::chrono::steady_clock::now() + 20s;
  while (s.session.sweeps.empty() && std::chrono::steady_clock::now() < end) {
    exchange_with_worker(s, w, "");
    std::this_thread::sleep_for(2ms);
  }
  ASSERT_EQ(s.session.sweeps.size(), 1u);
  const Sweep& sw = s.session.sweeps[0];
  EXPECT_NE(sw.title.find("kept-fraction sweep at n = 4096"), std::string::npos) << sw.title;
  ASSERT_EQ(sw.runs.size(), 22u);
  for (const auto& r : sw.runs) {
    EXPECT_EQ(r.status, RunStatus::Ok) << r.variant << ": " << r.message;
    EXPECT_NEAR(kept_fraction(r), r.params.keep_fraction, 0.05) << r.variant;
  }
  const std::string csv = sweep_csv(sw);
  EXPECT_NE(csv.find(",keep_fraction,kept_fraction\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("cub.select,4096,ok,"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",0.500,0."), std::string::npos) << csv;  // asked, then kept (binomial: near 0.5)
  Report only_sweep;
  only_sweep.sweeps.push_back(sw);
  const auto rows = build_compare(only_sweep, {"cub.select"}, "", {});
  ASSERT_EQ(rows.size(), 1u);
  ASSERT_NE(rows[0].run, nullptr);
  EXPECT_DOUBLE_EQ(rows[0].run->params.keep_fraction, 0.5);  // Compare takes the half-kept point
  // Live of a scan, a histogram and a filter (the race is left out: it would stop Live for all).
  s.perf.live_log2 = 12;
  s.perf.live_variants = {"cs121.race", "stevens.scan_hierarchical", "cs121.hist_shared", "cs121.filter_warp_agg"};
  s.perf.live_wanted = true;
  while ((s.perf.live.series.size() < 3 || s.perf.live.points() < 60) && std::chrono::steady_clock::now() < end) {
    exchange_with_worker(s, w, "");
    std::this_thread::sleep_for(2ms);
  }
  EXPECT_TRUE(s.perf.live_running) << s.perf.live_stopped;
  EXPECT_EQ(s.perf.live.series.size(), 3u);
  EXPECT_EQ(s.perf.live.series.count("cs121.race"), 0u);
  for (const auto& [id, r] : s.perf.live.latest) EXPECT_EQ(r.status, RunStatus::Ok) << id << ": " << r.message;
  s.perf.live_wanted = false;
  exchange_with_worker(s, w, "");
  exchange_with_worker(s, w, "");
  EXPECT_FALSE(s.perf.live_running);
}

/// One ImGui frame without a renderer (fonts built but never uploaded).
class Frame {
 public:
  Frame() { test::start_headless_imgui(1600, 900); }
  ~Frame() { ImGui::DestroyContext(); }
  void draw(MainWindow& win, AppState& s) {
    ImGui::NewFrame();
    win.draw(s, ImGui::GetIO().DisplaySize);
    ImGui::Render();
  }
};

TEST(PerfViews, CompareAndPlotsDrawFromReportsAndSessions) {
  Frame f;
  AppState s;
  s.load(std::string(WS_GUI_ASSETS) + "/lessons");
  s.device.opened = true;
  ASSERT_EQ(s.open_report(std::string(WS_GUI_ASSETS) + "/reports/nvidia-h200.json"), "");
  MainWindow win;
  for (const char* v : {"compare", "plots"}) {
    s.view = v;
    for (int i = 0; i < 3; ++i) f.draw(win, s);
    EXPECT_EQ(s.view, v);
  }
  // A session with a sweep, a sweep in progress, and live data: all drawn without errors.
  test::SyntheticBackend b;
  SweepSpec spec;
  spec.variants = {"epita.reduce3", "epita.reduce5"};
  spec.from_log2 = 10;
  spec.to_log2 = 12;
  spec.repeat = 1;
  s.session.sweeps.push_back(run_sweep(spec, &b, "", nullptr, nullptr));
  s.show_replay = false;
  s.perf.sweep_partial = s.session.sweeps.back();
  s.perf.live.add({LivePoint{"epita.reduce3", 0, 1.0, 4.0}, LivePoint{"epita.reduce3", 1, 1.1, 3.9}});
  for (int i = 0; i < 2; ++i) f.draw(win, s);
  // Keys: the help overlay opens with '?' and c opens Compare.
  ImGui::GetIO().AddInputCharacter('?');
  ImGui::GetIO().AddInputCharacter('c');
  f.draw(win, s);
  EXPECT_TRUE(s.perf.present.show_help);
  EXPECT_EQ(s.view, "compare");
  EXPECT_FALSE(key_help().empty());
}

}  // namespace
