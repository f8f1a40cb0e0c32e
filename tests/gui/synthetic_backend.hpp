// TEST CODE ONLY: a fake Backend with synthetic timings, to test sweep and Live plumbing (and to
// make the synthetic screenshot fixture) without a GPU. Its results are the CPU reference (reductions)
// or the pattern's reference output (scans, histograms, filters, 1-D convolutions), so runs check "ok";
// its times follow a made-up curve and are NOT measurements of anything.
#pragma once
#include <atomic>
#include <chrono>
#include <cmath>
#include <functional>
#include <string>
#include <thread>

#include "backend.hpp"
#include "patterns.hpp"
#include "patterns/reduction/reference.hpp"

namespace ws::test {

class SyntheticBackend final : public Backend {
 public:
  explicit SyntheticBackend(std::chrono::milliseconds delay = std::chrono::milliseconds(0)) : delay_(delay) {
    device_.available = true;
    device_.name = "synthetic test device (not a GPU)";
    device_.theoretical_gbps = 1000;
    device_.copy_gbps = 800;
    device_.sm_count = 4;
    device_.max_threads_per_sm = 2048;
  }
  std::string name() const override { return "synthetic"; }
  const DeviceInfo& device() const override { return device_; }
  RunResult run(const VariantInfo& v, const RunRequest& req, const Input& in, const LaunchConfig& launch) override {
    if (delay_.count() > 0) std::this_thread::sleep_for(delay_);
    ++runs;
    RunResult r;
    r.variant = v.id;
    r.backend = BackendKind::Cuda;  // what the GUI expects of timed runs
    r.device = device_.name;
    r.n = in.n();
    r.type = in.type;
    r.input = req.input;
    r.seed = req.seed;
    r.launch = launch;
    double bytes = double(in.n()) * 4;
    double shape = 1;
    if (const PatternSpec* h = &pattern_of(v); !h->scalar_result) {
      const ArrayOutput out = h->reference(v, req.params, in);
      r.output = out.values;
      r.output_rows = out.rows;
      r.output_cols = out.cols;
      bytes = h->bytes ? h->bytes(v, req.params, in) : 2.0 * bytes;
      // Made up: filters with one global atomic per kept value slow down as more is kept, the others speed up.
      const double keep = req.params.keep_fraction;
      if (v.id.find("filter") != std::string::npos || v.id == "cub.select")
        shape = v.id.find("global") != std::string::npos ? 1.0 - 0.8 * keep : 0.55 + 0.45 * keep;
    } else {
      r.result = cpu_reference(v.op, in);
    }
    r.launches = 1;
    // A made-up curve: bandwidth saturates with n, each variant at its own fraction of the peak.
    const double frac = shape * (0.1 + 0.8 * double(std::hash<std::string>{}(v.id) % 1000) / 1000.0);
    const double gbps = device_.theoretical_gbps * frac * double(in.n()) / (double(in.n()) + 262144.0);
    const double ms = bytes / (gbps * 1e6) + 0.002;
    for (int i = 0; i < req.repeat; ++i) r.timing.samples_ms.push_back(ms * (1 + 0.01 * (i % 3)));
    r.timing = summarize(r.timing.samples_ms);
    r.timed = true;
    r.gbps = bytes / (r.timing.median_ms * 1e6);
    r.pct_theoretical = 100 * r.gbps / device_.theoretical_gbps;
    r.pct_copy = 100 * r.gbps / device_.copy_gbps;
    return r;
  }
  std::atomic<int> runs{0};

 private:
  std::chrono::milliseconds delay_;
  DeviceInfo device_;
};

}  // namespace ws::test
