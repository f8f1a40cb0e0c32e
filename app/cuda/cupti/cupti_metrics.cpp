#include "cupti/cupti_metrics.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <stdexcept>

#include "cupti/cupti_check.hpp"
#include "cupti/cupti_pcsampling.hpp"
#include "cupti/cupti_range_profiler.hpp"
#include "cupti/cupti_sass.hpp"
#include "cupti/cupti_tracker.hpp"
#include "metric_catalog.hpp"
#include "occupancy.hpp"

namespace ws::cuda {

namespace {

/// Whether this process has run a CUPTI profiling or PC sampling pass.
std::atomic<bool> profiled_before{false};

void sync(cudaStream_t s) {
  cudaError_t e = cudaStreamSynchronize(s);
  if (e != cudaSuccess)
    throw std::runtime_error(std::string("kernel failed while profiling: ") + cudaGetErrorString(e));
}

}  // namespace

KernelMetrics collect_metrics(const std::string& spec, int device, cudaStream_t stream,
                              const std::function<void()>& run_once) {
  const auto t0 = std::chrono::steady_clock::now();
  KernelMetrics m;
  m.asked = spec;
  MetricSelection sel;
  if (std::string e = parse_metric_selection(spec, sel); !e.empty()) {
    m.error = e;
    return m;
  }
  if (std::string e = start_cupti_tracking(); !e.empty()) m.warnings.push_back("CUPTI callbacks: " + e);
  auto pass = [&] {
    run_once();
    sync(stream);
  };
  try {
    CUcontext ctx = current_context();
    if (sel.occupancy) {
      begin_launch_capture();
      try {
        pass();
      } catch (...) {
        end_launch_capture();
        throw;
      }
      auto launches = end_launch_capture();
      if (launches.empty()) {
        m.warnings.push_back("no theoretical occupancy: no kernel launch was seen by the driver callback");
      } else {
        const CapturedLaunch& main = launches.front();  // the first launch reads the input: the main kernel
        try {
          Occupancy o = theoretical_occupancy(main, device);
          m.kernel = o.kernel.empty() ? main.name : o.kernel;
          m.occupancy_limiter = o.limiter;
          m.values["ws__theoretical_occupancy_pct"] = o.theoretical_pct;
          m.values["ws__blocks_per_sm"] = o.blocks_per_sm;
          m.values["ws__registers_per_thread"] = o.registers_per_thread;
        } catch (const std::exception& e) {
          m.warnings.push_back(std::string("no theoretical occupancy: ") + e.what());
        }
      }
    }
    // PC sampling first, a pass of its own (the run sampled between Start and Stop), and only while
    // this process has not profiled yet: on the H100 a PC sampling collection after an earlier one, or
    // after a range profiler or SASS pass, hands back sample totals without a single PC record.
    if (sel.pc_sampling) {
      if (profiled_before.exchange(true)) {
        m.pc_sampling_needs_fresh_process = true;
      } else {
        PcSamplingPass ps = sample_pcs(ctx, pass);
        m.pc_sampling = std::move(ps.result);
        m.values["ws__pc_samples"] = m.pc_sampling.samples();
        m.warnings.insert(m.warnings.end(), ps.warnings.begin(), ps.warnings.end());
      }
    }
    if (!sel.range_metrics.empty() || sel.per_line || sel.sass) profiled_before = true;
    if (!sel.range_metrics.empty()) {
      RangeProfile rp = profile_range(ctx, device, sel.range_metrics, pass);
      if (std::getenv("WS_METRICS_TIMING"))
        std::fprintf(stderr, "range profiler: setup %.1f ms, %d passes %.1f ms, disable %.1f ms, evaluate %.1f ms\n",
                     rp.setup_ms, rp.passes, rp.passes_ms, rp.disable_ms, rp.evaluate_ms);
      m.passes = rp.passes;
      m.values.insert(rp.values.begin(), rp.values.end());
      m.warnings.insert(m.warnings.end(), rp.warnings.begin(), rp.warnings.end());
    }
    if (sel.per_line || sel.sass) {
      const auto ts = std::chrono::steady_clock::now();
      // A SASS collection after an earlier one found no patched instruction on the H200 unless the
      // range profiler had been enabled in between (it is, when this request measured range metrics).
      if (sel.range_metrics.empty()) toggle_range_profiler(ctx);
      LineProfile lp = profile_lines(ctx, device, pass);
      if (std::getenv("WS_METRICS_TIMING"))
        std::fprintf(stderr, "sass pass: %.1f ms\n",
                     std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - ts).count());
      if (sel.per_line) m.lines = std::move(lp.lines);
      m.values.insert(lp.totals.begin(), lp.totals.end());
      m.warnings.insert(m.warnings.end(), lp.warnings.begin(), lp.warnings.end());
    }
    // The fresh process that samples PCs next needs the profiling hardware: the range profiler's
    // kept session would answer it CUPTI_ERROR_HARDWARE_BUSY.
    if (m.pc_sampling_needs_fresh_process) release_range_profiler_session();
  } catch (const CuptiError& e) { m.error = explain_cupti_error(e); } catch (const std::exception& e) {
    m.error = e.what();
  }
  derive_metrics(sel, m);
  // Keep only what was asked (derived metrics' inputs were collected to compute them).
  for (auto it = m.values.begin(); it != m.values.end();) {
    bool asked = false;
    for (const MetricDef* d : sel.metrics) asked = asked || d->name == it->first;
    it = asked ? std::next(it) : m.values.erase(it);
  }
  m.collected = !m.values.empty() || !m.lines.empty();  // partial results stand beside the error
  m.profile_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return m;
}

}  // namespace ws::cuda
