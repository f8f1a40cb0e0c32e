// Sweeps of the array patterns (scan, histograms and filters, 1-D convolution) on the sim backend, the
// kept-fraction sweep of the filters ("GPUs and CUDA 3: Intrinsics", CS121, Fall 2022, slide "Performance":
// throughput against the filter ratio), its report round trip, and the refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "gui/synthetic_backend.hpp"
#include "registry.hpp"
#include "report.hpp"
#include "sweep.hpp"

namespace {

using namespace ws;

std::vector<std::string> pattern_ids(PatternKind pattern) {
  std::vector<std::string> out;
  for (const auto& v : all_variants())
    if (v.pattern == pattern && sweep_refusal(v).empty()) out.push_back(v.id);
  return out;
}

TEST(SweepPatterns, ScanLessonOnTheSimBackend) {
  SweepSpec spec;
  spec.variants = pattern_ids(PatternKind::Scan);
  ASSERT_GE(spec.variants.size(), 8u);  // the seven of the lesson and cub.scan
  spec.from_log2 = 9;
  spec.to_log2 = 12;
  spec.backend = BackendKind::Sim;
  spec.repeat = 1;
  ASSERT_EQ(validate_sweep(spec), "");
  std::string err;
  const Sweep s = run_sweep(spec, nullptr, "", nullptr, nullptr, &err);
  ASSERT_EQ(err, "");
  ASSERT_EQ(int(s.runs.size()), spec.total_runs());
  int ok = 0;
  for (const auto& r : s.runs) {
    const VariantInfo& v = *find_variant(r.variant);
    if (v.rules.max_n && r.n > v.rules.max_n) {
      EXPECT_EQ(r.status, RunStatus::Skipped) << r.variant << " at " << r.n;  // single-block scans beyond one block
      continue;
    }
    EXPECT_EQ(r.status, RunStatus::Ok) << r.variant << " at " << r.n << ": " << r.message;
    EXPECT_DOUBLE_EQ(r.bytes, 2.0 * 4.0 * double(r.n)) << r.variant;  // the scan hook: n read + n written
    EXPECT_TRUE(r.output.empty());                                    // sweeps keep no output arrays
    ok += r.status == RunStatus::Ok;
  }
  EXPECT_GE(ok, 24);
  ASSERT_EQ(s.runs_of("stevens.scan_hierarchical").size(), 4u);
  EXPECT_EQ(s.runs_of("stevens.scan_hierarchical")[3]->n, 4096);
  EXPECT_EQ(s.runs_of("stevens.kogge_stone")[2]->status, RunStatus::Skipped);
  // The exclusive form is checked against the exclusive reference.
  spec.params.exclusive = true;
  spec.variants = {"stevens.scan_hierarchical", "cub.scan"};
  const Sweep ex = run_sweep(spec, nullptr, "", nullptr, nullptr, &err);
  for (const auto& r : ex.runs) EXPECT_EQ(r.status, RunStatus::Ok) << r.variant << ": " << r.message;
}

TEST(SweepPatterns, HistogramsFiltersAndConvolutionOnTheSimBackend) {
  SweepSpec spec;
  spec.variants = pattern_ids(PatternKind::Atomics);
  for (const auto& id : pattern_ids(PatternKind::Convolution)) spec.variants.push_back(id);
  spec.from_log2 = 8;
  spec.to_log2 = 10;
  spec.backend = BackendKind::Sim;
  spec.repeat = 1;
  spec.params.keep_fraction = 0.3;
  ASSERT_EQ(validate_sweep(spec), "");
  const Sweep s = run_sweep(spec, nullptr, "", nullptr, nullptr);
  ASSERT_EQ(int(s.runs.size()), spec.total_runs());
  bool saw_hist = false, saw_filter = false, saw_conv = false;
  for (const auto& r : s.runs) {
    EXPECT_EQ(r.status, RunStatus::Ok) << r.variant << " at " << r.n << ": " << r.message;
    const VariantInfo& v = *find_variant(r.variant);
    if (v.rules.bytes_input) {
      saw_hist = true;
      EXPECT_EQ(r.type, DType::UInt8);
      EXPECT_DOUBLE_EQ(r.bytes, double(r.n) + 4.0 * 256);  // atomics_bytes: n bytes read, 256 bins written
      EXPECT_DOUBLE_EQ(r.result, double(r.n));             // every byte counted once
    } else if (is_filter_variant(v)) {
      saw_filter = true;
      EXPECT_DOUBLE_EQ(r.bytes, 4.0 * double(r.n) + 4.0 * r.expected + 4.0);
      EXPECT_NEAR(kept_fraction(r), 0.3, 0.12) << r.variant << " at " << r.n;
    } else if (v.pattern == PatternKind::Convolution) {
      saw_conv = true;
      EXPECT_EQ(r.type, DType::Float32);
      EXPECT_DOUBLE_EQ(r.bytes, 2.0 * 4.0 * double(r.n));
    }
  }
  EXPECT_TRUE(saw_hist && saw_filter && saw_conv);
}

TEST(SweepPatterns, RefusesWhatHasNoNAndSharesInputs) {
  SweepSpec spec;
  spec.from_log2 = 10;
  spec.to_log2 = 12;
  spec.variants = {"cs121.race"};
  EXPECT_NE(validate_sweep(spec).find("no n to sweep"), std::string::npos);
  spec.variants = {"stevens.conv2d_tiled"};
  EXPECT_NE(validate_sweep(spec).find("2-D image"), std::string::npos);
  spec.variants = {"epita.reduce3"};
  spec.params.exclusive = true;
  EXPECT_NE(validate_sweep(spec).find("scans only"), std::string::npos);
  spec.params.exclusive = false;
  spec.variants = {"stevens.conv1d_basic"};
  spec.params.mask_width = 4;
  EXPECT_NE(validate_sweep(spec).find("mask width 4"), std::string::npos);
  spec.params.mask_width = 5;
  spec.params.width = 100;
  EXPECT_NE(validate_sweep(spec).find("--width"), std::string::npos);
  // Reductions and scans read the same int32 input; histograms bytes; filters their kept fraction.
  RunRequest req;
  req.n = 1024;
  const std::string numbers = input_share_key(*find_variant("epita.reduce3"), req);
  EXPECT_EQ(numbers, input_share_key(*find_variant("stevens.scan_hierarchical"), req));
  EXPECT_NE(numbers, input_share_key(*find_variant("cub.histogram"), req));
  EXPECT_EQ(input_share_key(*find_variant("cub.histogram"), req),
            input_share_key(*find_variant("cs121.hist_shared"), req));
  const std::string half = input_share_key(*find_variant("cub.select"), req);
  EXPECT_EQ(half, input_share_key(*find_variant("cs121.filter_global"), req));
  req.params.keep_fraction = 0.25;
  EXPECT_NE(half, input_share_key(*find_variant("cub.select"), req));
  EXPECT_NE(numbers, input_share_key(*find_variant("stevens.conv1d_tiled"), req));
}

TEST(SweepPatterns, ParsesKeptFractions) {
  std::vector<double> f;
  ASSERT_EQ(parse_keep_fractions("0:1:0.1", f), "");
  ASSERT_EQ(f.size(), 11u);
  EXPECT_DOUBLE_EQ(f[3], 0.3);  // not 0.30000000000000004
  EXPECT_DOUBLE_EQ(f[10], 1.0);
  ASSERT_EQ(parse_keep_fractions("0.1,0.5,0.9", f), "");
  EXPECT_EQ(f, (std::vector<double>{0.1, 0.5, 0.9}));
  ASSERT_EQ(parse_keep_fractions("0.2:0.5:0.25", f), "");
  EXPECT_EQ(f, (std::vector<double>{0.2, 0.45}));
  EXPECT_NE(parse_keep_fractions("0:2:0.5", f).find("0..1"), std::string::npos);
  EXPECT_NE(parse_keep_fractions("0:1:0", f).find("step"), std::string::npos);
  EXPECT_NE(parse_keep_fractions("1:0:0.1", f).find("A <= B"), std::string::npos);
  EXPECT_NE(parse_keep_fractions("0:1", f).find("A:B:STEP"), std::string::npos);
  EXPECT_NE(parse_keep_fractions("0.1,x", f).find("'x'"), std::string::npos);
  EXPECT_NE(parse_keep_fractions("", f), "");
  EXPECT_NE(parse_keep_fractions("0:1:0.0001", f).find("more than"), std::string::npos);
}

SweepSpec keep_spec(std::int64_t n) {
  SweepSpec spec;
  for (const auto& v : all_variants())
    if (is_filter_variant(v)) spec.variants.push_back(v.id);
  spec.n = n;
  spec.repeat = 1;
  EXPECT_EQ(parse_keep_fractions("0:1:0.25", spec.keep_fractions), "");
  return spec;
}

TEST(SweepPatterns, KeptFractionSweepKeepsThatFractionAndValidates) {
  SweepSpec spec = keep_spec(std::int64_t(1) << 14);
  ASSERT_GE(spec.variants.size(), 6u);  // five cs121 filters and cub.select
  spec.backend = BackendKind::Sim;
  ASSERT_EQ(validate_sweep(spec), "");
  const Sweep s = run_sweep(spec, nullptr, "", nullptr, nullptr);
  ASSERT_EQ(s.runs.size(), spec.variants.size() * 5);
  for (const auto& r : s.runs) {
    EXPECT_EQ(r.status, RunStatus::Ok) << r.variant << " keep " << r.params.keep_fraction << ": " << r.message;
    EXPECT_EQ(r.n, std::int64_t(1) << 14);
    // Binomial: the standard deviation of the kept fraction at 2^14 values is at most 0.004.
    const double want = r.params.keep_fraction;
    EXPECT_NEAR(kept_fraction(r), want, 0.02) << r.variant;
    if (want == 0 || want == 1) EXPECT_DOUBLE_EQ(kept_fraction(r), want);
    EXPECT_DOUBLE_EQ(r.result, r.expected);  // the filter's count equals the reference's
  }
  const auto global = s.runs_of("cs121.filter_global");
  ASSERT_EQ(global.size(), 5u);
  for (std::size_t i = 0; i < global.size(); ++i) EXPECT_DOUBLE_EQ(s.x_of(*global[i]), 0.25 * double(i));
  // Without a GPU every cuda run is an error that says why, and has no kept fraction to show.
  SweepSpec gpu = spec;
  gpu.backend = BackendKind::Cuda;
  const Sweep none = run_sweep(gpu, nullptr, "test: no device", nullptr, nullptr);
  ASSERT_EQ(none.runs.size(), s.runs.size());
  for (const auto& r : none.runs) {
    EXPECT_EQ(r.status, RunStatus::Error);
    EXPECT_NE(r.message.find("no CUDA device"), std::string::npos);
    EXPECT_EQ(kept_fraction(r), -1);
  }
  // Only filters, one n in range, fractions in 0..1, random input.
  SweepSpec bad = spec;
  bad.variants.push_back("stevens.scan_hierarchical");
  const std::string refusal = validate_sweep(bad);
  EXPECT_NE(refusal.find("times filters"), std::string::npos);
  // It names the filters from the registry: every one of them, a new one too, and nothing else.
  std::string named;
  for (const std::string& id : spec.variants) named += (named.empty() ? "" : ", ") + id;
  EXPECT_NE(refusal.find("(the filters: " + named + ")"), std::string::npos) << refusal;
  bad = spec;
  bad.n = 0;
  EXPECT_NE(validate_sweep(bad).find("n <= 2^30"), std::string::npos);
  bad = spec;
  bad.keep_fractions.push_back(1.5);
  EXPECT_NE(validate_sweep(bad).find("0..1"), std::string::npos);
  bad = spec;
  bad.input = "ones";
  EXPECT_NE(validate_sweep(bad).find("random"), std::string::npos);
}

TEST(SweepPatterns, TimedKeptFractionSweepUsesTheFilterBytesAndRoundTrips) {
  SweepSpec spec = keep_spec(std::int64_t(1) << 12);
  test::SyntheticBackend b;  // made-up timings: checks the GB/s arithmetic, not a measurement
  Report rep = new_report("t", b.device());
  rep.sweeps.push_back(run_sweep(spec, &b, "", nullptr, nullptr));
  const Sweep& s = rep.sweeps[0];
  for (const auto& r : s.runs) {
    ASSERT_EQ(r.status, RunStatus::Ok) << r.variant << ": " << r.message;
    ASSERT_TRUE(r.timed);
    EXPECT_DOUBLE_EQ(r.bytes, 4.0 * double(r.n) + 4.0 * r.expected + 4.0);
    EXPECT_NEAR(r.gbps, r.bytes / (r.timing.median_ms * 1e6), 1e-9 * r.gbps);
  }
  const std::string path = (std::filesystem::temp_directory_path() / "ws_keep_sweep_roundtrip.json").string();
  save_report(rep, path);
  const Report back = load_report(path);
  ASSERT_EQ(back.sweeps.size(), 1u);
  const Sweep& t = back.sweeps[0];
  EXPECT_TRUE(t.spec.by_keep());
  EXPECT_EQ(t.spec.keep_fractions, spec.keep_fractions);
  EXPECT_EQ(t.spec.n, spec.n);
  EXPECT_EQ(t.spec.variants, spec.variants);
  ASSERT_EQ(t.runs.size(), s.runs.size());
  for (std::size_t i = 0; i < t.runs.size(); ++i) {
    EXPECT_DOUBLE_EQ(t.runs[i].params.keep_fraction, s.runs[i].params.keep_fraction) << i;  // 0 too (no output)
    EXPECT_DOUBLE_EQ(kept_fraction(t.runs[i]), kept_fraction(s.runs[i])) << i;
    EXPECT_DOUBLE_EQ(t.runs[i].gbps, s.runs[i].gbps);
  }
  EXPECT_DOUBLE_EQ(t.x_of(*t.runs_of("cub.select").back()), 1.0);
  // Size sweeps keep their pattern options; a sweep without "params" (older reports) gets the defaults.
  SweepSpec scan;
  scan.variants = {"cub.scan"};
  scan.from_log2 = scan.to_log2 = 10;
  scan.params.exclusive = true;
  const Sweep sc = run_sweep(scan, &b, "", nullptr, nullptr);
  const Sweep sc_back = sweep_from_json(sweep_to_json(sc));
  EXPECT_TRUE(sc_back.spec.params.exclusive);
  EXPECT_FALSE(sc_back.spec.by_keep());
  nlohmann::json old = sweep_to_json(sc);
  old.erase("params");
  EXPECT_FALSE(sweep_from_json(old).spec.params.exclusive);
  nlohmann::json broken = sweep_to_json(s);
  broken.erase("n");
  EXPECT_THROW(sweep_from_json(broken), std::runtime_error);
}

}  // namespace
