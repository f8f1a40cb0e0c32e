#include "cupti/cupti_range_profiler.hpp"

#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <set>

#include "cupti/cupti_check.hpp"
#include "occupancy.hpp"

namespace ws::cuda {

namespace {

/// The chip's name and counter availability, asked once per process (they do not change).
struct ChipInfo {
  std::string chip;
  std::vector<std::uint8_t> availability;
  std::set<std::string> base_metrics;  ///< counter, ratio and throughput base names
};

void ensure_profiler_initialized() {
  static bool done = false;
  if (done) return;
  CUpti_Profiler_Initialize_Params p{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
  WS_CUPTI(cuptiProfilerInitialize(&p));
  done = true;
}

/// A host object (metric names -> config image; counter data -> values), deinitialized on scope exit.
struct HostObject {
  CUpti_Profiler_Host_Object* obj = nullptr;
  HostObject(const ChipInfo& chip) {
    CUpti_Profiler_Host_Initialize_Params p{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
    p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    p.pChipName = chip.chip.c_str();
    p.pCounterAvailabilityImage = chip.availability.data();
    WS_CUPTI(cuptiProfilerHostInitialize(&p));
    obj = p.pHostObject;
  }
  ~HostObject() {
    CUpti_Profiler_Host_Deinitialize_Params p{CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
    p.pHostObject = obj;
    cuptiProfilerHostDeinitialize(&p);
  }
  HostObject(const HostObject&) = delete;
  HostObject& operator=(const HostObject&) = delete;
};

const ChipInfo& chip_info(CUcontext ctx, int device) {
  static std::map<int, ChipInfo> cache;
  auto it = cache.find(device);
  if (it != cache.end()) return it->second;
  ChipInfo c;
  CUpti_Device_GetChipName_Params name{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
  name.deviceIndex = std::size_t(device);
  WS_CUPTI(cuptiDeviceGetChipName(&name));
  c.chip = name.pChipName;
  CUpti_Profiler_GetCounterAvailability_Params av{CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
  av.ctx = ctx;
  WS_CUPTI(cuptiProfilerGetCounterAvailability(&av));
  c.availability.resize(av.counterAvailabilityImageSize);
  av.pCounterAvailabilityImage = c.availability.data();
  WS_CUPTI(cuptiProfilerGetCounterAvailability(&av));
  HostObject host(c);
  for (CUpti_MetricType type : {CUPTI_METRIC_TYPE_COUNTER, CUPTI_METRIC_TYPE_RATIO, CUPTI_METRIC_TYPE_THROUGHPUT}) {
    CUpti_Profiler_Host_GetBaseMetrics_Params b{CUpti_Profiler_Host_GetBaseMetrics_Params_STRUCT_SIZE};
    b.pHostObject = host.obj;
    b.metricType = type;
    WS_CUPTI(cuptiProfilerHostGetBaseMetrics(&b));
    for (std::size_t i = 0; i < b.numMetrics; ++i) c.base_metrics.insert(b.ppMetricNames[i]);
  }
  return cache.emplace(device, std::move(c)).first->second;
}

/// Enables the range profiler on a context; disables it on scope exit (also after an exception).
struct EnabledProfiler {
  CUpti_RangeProfiler_Object* obj = nullptr;
  explicit EnabledProfiler(CUcontext ctx) {
    CUpti_RangeProfiler_Enable_Params p{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
    p.ctx = ctx;
    WS_CUPTI(cuptiRangeProfilerEnable(&p));
    obj = p.pRangeProfilerObject;
  }
  ~EnabledProfiler() {
    CUpti_RangeProfiler_Disable_Params p{CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
    p.pRangeProfilerObject = obj;
    cuptiRangeProfilerDisable(&p);
  }
  EnabledProfiler(const EnabledProfiler&) = delete;
  EnabledProfiler& operator=(const EnabledProfiler&) = delete;
};

/// A metric list's host side: the kept names, the host object (also used to evaluate) and the config
/// image with its pass count. Pure host work (about 5 ms for the default set on the H200), built once
/// per device and metric list and kept for the process.
struct HostConfig {
  std::vector<std::string> kept;
  std::vector<std::string> warnings;  ///< skipped metrics, with the reason
  std::unique_ptr<HostObject> host;
  std::vector<std::uint8_t> config;
  int passes = 0;
};

const HostConfig& host_config(const ChipInfo& chip, int device, const std::vector<std::string>& metrics) {
  static std::map<std::pair<int, std::vector<std::string>>, HostConfig> cache;
  auto key = std::make_pair(device, metrics);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  HostConfig hc;
  // Keep the metrics this chip has. All are added in one call: metrics added one call at a time are
  // scheduled in separate passes (19 metrics: 20 passes instead of 4 on GH100).
  std::vector<std::string>& kept = hc.kept;
  for (const auto& m : metrics) {
    if (chip.base_metrics.count(m.substr(0, m.find('.'))))
      kept.push_back(m);
    else
      hc.warnings.push_back("skipped " + m + ": not available on " + chip.chip);
  }
  auto add_all = [](CUpti_Profiler_Host_Object* obj, const std::vector<std::string>& list) {
    std::vector<const char*> names;
    for (const auto& m : list) names.push_back(m.c_str());
    CUpti_Profiler_Host_ConfigAddMetrics_Params add{CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
    add.pHostObject = obj;
    add.ppMetricNames = names.data();
    add.numMetrics = names.size();
    return cuptiProfilerHostConfigAddMetrics(&add);
  };
  if (!kept.empty()) {
    hc.host = std::make_unique<HostObject>(chip);
    if (add_all(hc.host->obj, kept) != CUPTI_SUCCESS) {
      // Find the names the host refuses (bad submetric suffix), on a scratch object, then start over.
      std::vector<std::string> ok;
      for (const auto& m : kept) {
        HostObject scratch(chip);
        if (add_all(scratch.obj, {m}) == CUPTI_SUCCESS)
          ok.push_back(m);
        else
          hc.warnings.push_back("skipped " + m + ": the profiler host does not accept it on " + chip.chip);
      }
      kept = ok;
      hc.host = std::make_unique<HostObject>(chip);
      if (!kept.empty()) WS_CUPTI(add_all(hc.host->obj, kept));
    }
  }
  if (!kept.empty()) {
    CUpti_Profiler_Host_GetConfigImageSize_Params size{CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
    size.pHostObject = hc.host->obj;
    WS_CUPTI(cuptiProfilerHostGetConfigImageSize(&size));
    hc.config.resize(size.configImageSize);
    CUpti_Profiler_Host_GetConfigImage_Params image{CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
    image.pHostObject = hc.host->obj;
    image.pConfigImage = hc.config.data();
    image.configImageSize = hc.config.size();
    WS_CUPTI(cuptiProfilerHostGetConfigImage(&image));
    CUpti_Profiler_Host_GetNumOfPasses_Params np{CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
    np.pConfigImage = hc.config.data();
    np.configImageSize = hc.config.size();
    WS_CUPTI(cuptiProfilerHostGetNumOfPasses(&np));
    hc.passes = int(np.numOfPasses);
  }
  return cache.emplace(key, std::move(hc)).first->second;
}

/// Sizes and initializes a counter data image for `ranges` ranges and sets `hc`'s config on an enabled
/// profiler (user range, user replay, one nesting level), as the toolkit's range_profiling sample does.
std::vector<std::uint8_t> configure(const EnabledProfiler& prof, const HostConfig& hc, std::vector<const char*>& names,
                                    std::size_t ranges) {
  CUpti_RangeProfiler_GetCounterDataSize_Params cds{CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
  cds.pRangeProfilerObject = prof.obj;
  cds.pMetricNames = names.data();
  cds.numMetrics = names.size();
  cds.maxNumOfRanges = ranges;
  cds.maxNumRangeTreeNodes = ranges;
  WS_CUPTI(cuptiRangeProfilerGetCounterDataSize(&cds));
  std::vector<std::uint8_t> image(cds.counterDataSize, 0);
  CUpti_RangeProfiler_CounterDataImage_Initialize_Params init{
      CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
  init.pRangeProfilerObject = prof.obj;
  init.pCounterData = image.data();
  init.counterDataSize = image.size();
  WS_CUPTI(cuptiRangeProfilerCounterDataImageInitialize(&init));
  CUpti_RangeProfiler_SetConfig_Params sc{CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
  sc.pRangeProfilerObject = prof.obj;
  sc.pConfig = hc.config.data();
  sc.configSize = hc.config.size();
  sc.pCounterDataImage = image.data();
  sc.counterDataImageSize = image.size();
  sc.range = CUPTI_UserRange;
  sc.replayMode = CUPTI_UserReplay;
  sc.maxRangesPerPass = ranges;
  sc.numNestingLevels = 1;
  sc.minNestingLevel = 1;
  sc.passIndex = 0;
  sc.targetNestingLevel = 1;
  WS_CUPTI(cuptiRangeProfilerSetConfig(&sc));
  return image;  // moved: the buffer CUPTI was given stays where it is
}

/// Ratio metrics the persistent session rebuilds from their own summed counters: value = c * num / den,
/// c learned from the session's first request (where nothing has accumulated yet).
struct RatioParts {
  const char* ratio;
  const char* num;
  const char* den;
};
const RatioParts kRatioParts[] = {
    {"sm__warps_active.avg.pct_of_peak_sustained_active", "sm__warps_active.sum", "sm__cycles_active.sum"},
    {"smsp__average_thread_inst_executed_pred_on_per_inst_executed.ratio", "smsp__thread_inst_executed_pred_on.sum",
     "smsp__inst_executed.sum"},
};

const RatioParts* ratio_parts(const std::string& m) {
  for (const auto& r : kRatioParts)
    if (m == r.ratio) return &r;
  return nullptr;
}

bool is_sum(const std::string& m) { return m.size() > 4 && m.compare(m.size() - 4, 4, ".sum") == 0; }

/// One range-profiler session kept enabled and configured across requests (docs/device/h200-metrics.md).
/// On the H200 the first cuptiRangeProfilerStart after an enable costs 130-160 ms, a later one 20 ms;
/// setting a config again on an enabled profiler crashed CUPTI, so the config stays. Each request is a
/// new Start..Stop over the same counter data image, where CUPTI accumulates: after k requests a summed
/// counter evaluates to the mean of the k requests' sums, so request k's own value is
/// k * A_k - (k - 1) * A_{k-1}; a ratio is rebuilt from its own numerator and denominator.
struct Session {
  CUcontext ctx = nullptr;
  const HostConfig* hc = nullptr;
  std::unique_ptr<EnabledProfiler> prof;
  std::vector<std::uint8_t> image;
  int requests = 0;                     ///< k so far
  bool started = false;                 ///< Start already called while idle (prepare_range_profiler_session)
  bool needs_own_session = false;       ///< a kept session was closed: the next list runs on a session
                                        ///< of its own first (opening one right after a close failed)
  std::vector<double> previous;         ///< A_{k-1}, per kept metric
  std::map<std::string, double> scale;  ///< ratio metric -> c
};
constexpr int kSessionRequests = 64;  ///< then a fresh session (bounds the accumulated sums)

Session& session() {
  static Session* s = new Session;  // never destroyed at exit: release_range_profiler_session() ends it
  return *s;
}

void open_session(Session& ss, CUcontext ctx, const HostConfig& hc, std::vector<const char*>& names) {
  ss.prof = std::make_unique<EnabledProfiler>(ctx);
  ss.ctx = ctx;
  ss.hc = &hc;
  ss.requests = 0;
  ss.previous.assign(names.size(), 0.0);
  ss.scale.clear();
  // Sized for kSessionRequests ranges, though each request writes range 0 again: an image of 1 range gave
  // the same Start (H100, 2026-12-06: 17.4-17.8 ms against 17.3-17.6, scripts/device-metrics-parts.sh at
  // 8a7cee6, switch WS_KEPT_SESSION_RANGES).
  ss.image = configure(*ss.prof, hc, names, kSessionRequests);
}

/// Stops a Start made while idle that no request used; no range was pushed, nothing decoded. False when
/// CUPTI refused (the caller then closes the session).
bool stop_unused_start(Session& ss) {
  if (!ss.started) return true;
  ss.started = false;
  CUpti_RangeProfiler_Stop_Params stop{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
  stop.pRangeProfilerObject = ss.prof->obj;
  return cuptiRangeProfilerStop(&stop) == CUPTI_SUCCESS;
}

void close_session() {
  Session& ss = session();
  if (ss.prof) {
    ss.needs_own_session = true;
    stop_unused_start(ss);  // disabling follows whatever CUPTI answered
  }
  ss.prof.reset();  // disables the range profiler
  ss.image.clear();
  ss.ctx = nullptr;
  ss.hc = nullptr;
  ss.requests = 0;
}

/// One request on the persistent session (one-pass configs only): the request's own values.
std::map<std::string, double> session_request(CUcontext ctx, const HostConfig& hc, std::vector<const char*>& names,
                                              const std::function<void()>& pass, const std::function<double()>& lap,
                                              RangeProfile& out) {
  Session& ss = session();
  if (ss.prof && (ss.ctx != ctx || ss.hc != &hc || ss.requests >= kSessionRequests)) close_session();
  out.reused_session = ss.prof != nullptr;
  if (!ss.prof) open_session(ss, ctx, hc, names);
  out.setup_ms += lap();
  out.prepared_start = ss.started;
  if (!ss.started) {  // else Start ran while the worker was idle (prepare_range_profiler_session)
    CUpti_RangeProfiler_Start_Params start{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
    start.pRangeProfilerObject = ss.prof->obj;
    WS_CUPTI(cuptiRangeProfilerStart(&start));
  }
  ss.started = false;  // this request's Stop ends it, or a failure closes the session
  const double t_start = lap();
  CUpti_RangeProfiler_PushRange_Params push{CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE};
  push.pRangeProfilerObject = ss.prof->obj;
  push.pRangeName = "run";
  WS_CUPTI(cuptiRangeProfilerPushRange(&push));
  pass();
  CUpti_RangeProfiler_PopRange_Params pop{CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE};
  pop.pRangeProfilerObject = ss.prof->obj;
  WS_CUPTI(cuptiRangeProfilerPopRange(&pop));
  const double t_run = lap();
  CUpti_RangeProfiler_Stop_Params stop{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
  stop.pRangeProfilerObject = ss.prof->obj;
  WS_CUPTI(cuptiRangeProfilerStop(&stop));
  if (!stop.isAllPassSubmitted)
    throw std::runtime_error("range profiler: a one-pass configuration asked for another pass");
  const double t_stop = lap();
  CUpti_RangeProfiler_DecodeData_Params dec{CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
  dec.pRangeProfilerObject = ss.prof->obj;
  WS_CUPTI(cuptiRangeProfilerDecodeData(&dec));
  const double t_decode = lap();
  out.passes_ms += t_start + t_run + t_stop + t_decode;
  if (std::getenv("WS_METRICS_TIMING"))
    std::fprintf(stderr, "  kept session request %d: start %.2f%s, push + run + pop %.2f, stop %.2f, decode %.2f ms\n",
                 ss.requests + 1, t_start, out.prepared_start ? " (started while idle)" : "", t_run, t_stop, t_decode);
  CUpti_RangeProfiler_GetCounterDataInfo_Params info{CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
  info.pCounterDataImage = ss.image.data();
  info.counterDataImageSize = ss.image.size();
  WS_CUPTI(cuptiRangeProfilerGetCounterDataInfo(&info));
  if (info.numTotalRanges < 1) throw std::runtime_error("range profiler: no range was recorded");
  std::vector<double> mean(names.size());
  CUpti_Profiler_Host_EvaluateToGpuValues_Params ev{CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
  ev.pHostObject = hc.host->obj;
  ev.pCounterDataImage = ss.image.data();
  ev.counterDataImageSize = ss.image.size();
  ev.ppMetricNames = names.data();
  ev.numMetrics = names.size();
  ev.rangeIndex = 0;  // every request's session writes range 0 again, accumulating
  ev.pMetricValues = mean.data();
  WS_CUPTI(cuptiProfilerHostEvaluateToGpuValues(&ev));
  const int k = ++ss.requests;
  std::map<std::string, double> own;
  for (std::size_t i = 0; i < names.size(); ++i)
    if (is_sum(names[i])) {
      double v = k == 1 ? mean[i] : k * mean[i] - (k - 1) * ss.previous[i];
      if (std::abs(v - std::round(v)) < 1e-3) v = std::round(v);  // counters are whole; keep them so
      if (v == 0) v = 0;                                          // not -0
      own[names[i]] = v;
    }
  for (std::size_t i = 0; i < names.size(); ++i) {
    const RatioParts* r = ratio_parts(names[i]);
    if (!r) continue;
    const double num = own[r->num], den = own[r->den];
    if (k == 1) {
      own[names[i]] = mean[i];
      if (num > 0 && den > 0) ss.scale[names[i]] = mean[i] / (num / den);
    } else if (ss.scale.count(names[i]) && den > 0) {
      own[names[i]] = ss.scale[names[i]] * num / den;
    } else {
      out.warnings.push_back("no " + std::string(names[i]) + " in this request: its denominator " + r->den + " was 0");
    }
  }
  ss.previous = mean;
  return own;
}

}  // namespace

RangeProfile profile_range(CUcontext ctx, int device, const std::vector<std::string>& metrics,
                           const std::function<void()>& pass) {
  RangeProfile out;
  auto t = std::chrono::steady_clock::now();
  auto lap = [&t] {
    auto now = std::chrono::steady_clock::now();
    double ms = std::chrono::duration<double, std::milli>(now - t).count();
    t = now;
    return ms;
  };
  ensure_profiler_initialized();
  const ChipInfo& chip = chip_info(ctx, device);

  // One-pass lists of summed counters and known ratios run on the persistent session (with each
  // ratio's own numerator and denominator added); anything else gets a session of its own.
  if (!std::getenv("WS_CUPTI_FRESH_SESSION")) {
    std::vector<std::string> with_parts = metrics;
    bool persistable = true;
    for (const auto& m : metrics) {
      if (const RatioParts* r = ratio_parts(m)) {
        for (const char* part : {r->num, r->den})
          if (std::find(with_parts.begin(), with_parts.end(), part) == with_parts.end()) with_parts.push_back(part);
      } else if (!is_sum(m)) {
        persistable = false;
      }
    }
    const HostConfig* pcp = persistable ? &host_config(chip, device, with_parts) : nullptr;
    Session& ss = session();
    const bool open_or_openable = ss.prof ? (ss.hc == pcp && ss.ctx == ctx) : !ss.needs_own_session;
    if (pcp && pcp->passes == 1 && pcp->kept.size() == with_parts.size() && open_or_openable) {
      const HostConfig& pc = *pcp;
      std::vector<const char*> names;
      for (const auto& m : pc.kept) names.push_back(m.c_str());
      out.passes = 1;
      try {
        auto own = session_request(ctx, pc, names, pass, lap, out);
        for (const auto& m : metrics)
          if (auto it = own.find(m); it != own.end()) out.values[m] = it->second;
        out.evaluate_ms = lap();
        return out;
      } catch (const std::exception& e) {
        // On the H200 a session opened again after SASS passes had run beside the previous one
        // failed in cuptiRangeProfilerDecodeData (CUPTI_ERROR_UNKNOWN); a session of the request's
        // own works then. So: close, say so, and measure on a session of its own below.
        close_session();
        out = RangeProfile{};
        out.warnings.push_back(std::string("the kept range-profiler session failed (") + e.what() +
                               "): measured on a session of its own");
      }
    }
  }
  close_session();  // a session of its own: the range profiler must not be enabled twice
  const HostConfig& hc = host_config(chip, device, metrics);
  out.warnings.insert(out.warnings.end(), hc.warnings.begin(), hc.warnings.end());
  if (hc.kept.empty()) return out;
  const std::vector<std::string>& kept = hc.kept;
  const HostObject* host = hc.host.get();
  out.passes = hc.passes;
  std::vector<const char*> names;
  for (const auto& m : kept) names.push_back(m.c_str());

  std::vector<std::uint8_t> counter_data;
  {
    EnabledProfiler prof(ctx);
    counter_data = configure(prof, hc, names, 1);

    out.setup_ms = lap();
    // WS_METRICS_TIMING=1 prints where each pass's time goes (docs/device/h200-metrics.md: on the H200
    // the first cuptiRangeProfilerStart after an enable takes 130-160 ms, inside CUPTI).
    const bool timing = std::getenv("WS_METRICS_TIMING") != nullptr;
    bool all_submitted = false;
    for (int i = 0; !all_submitted; ++i) {
      if (i > out.passes + 2) throw std::runtime_error("range profiler: passes did not complete");
      CUpti_RangeProfiler_Start_Params start{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
      start.pRangeProfilerObject = prof.obj;
      WS_CUPTI(cuptiRangeProfilerStart(&start));
      const double t_start = lap();
      CUpti_RangeProfiler_PushRange_Params push{CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE};
      push.pRangeProfilerObject = prof.obj;
      push.pRangeName = "run";
      WS_CUPTI(cuptiRangeProfilerPushRange(&push));
      pass();
      CUpti_RangeProfiler_PopRange_Params pop{CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE};
      pop.pRangeProfilerObject = prof.obj;
      WS_CUPTI(cuptiRangeProfilerPopRange(&pop));
      const double t_run = lap();
      CUpti_RangeProfiler_Stop_Params stop{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
      stop.pRangeProfilerObject = prof.obj;
      WS_CUPTI(cuptiRangeProfilerStop(&stop));
      const double t_stop = lap();
      out.passes_ms += t_start + t_run + t_stop;
      if (timing)
        std::fprintf(stderr, "  pass %d: start %.2f, push + run + pop %.2f, stop %.2f ms\n", i, t_start, t_run, t_stop);
      all_submitted = stop.isAllPassSubmitted;
    }
    CUpti_RangeProfiler_DecodeData_Params dec{CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
    dec.pRangeProfilerObject = prof.obj;
    WS_CUPTI(cuptiRangeProfilerDecodeData(&dec));
    out.passes_ms += lap();
  }
  out.disable_ms = lap();

  CUpti_RangeProfiler_GetCounterDataInfo_Params info{CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
  info.pCounterDataImage = counter_data.data();
  info.counterDataImageSize = counter_data.size();
  WS_CUPTI(cuptiRangeProfilerGetCounterDataInfo(&info));
  if (info.numTotalRanges < 1) throw std::runtime_error("range profiler: no range was recorded");
  std::vector<double> values(names.size());
  CUpti_Profiler_Host_EvaluateToGpuValues_Params ev{CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
  ev.pHostObject = host->obj;
  ev.pCounterDataImage = counter_data.data();
  ev.counterDataImageSize = counter_data.size();
  ev.ppMetricNames = names.data();
  ev.numMetrics = names.size();
  ev.rangeIndex = 0;
  ev.pMetricValues = values.data();
  WS_CUPTI(cuptiProfilerHostEvaluateToGpuValues(&ev));
  for (std::size_t i = 0; i < kept.size(); ++i) out.values[kept[i]] = values[i];
  out.evaluate_ms = lap();
  session().needs_own_session = false;  // a whole session of its own ran: the next may be kept
  return out;
}

void toggle_range_profiler(CUcontext ctx) {
  ensure_profiler_initialized();
  if (Session& ss = session(); ss.prof) {  // enabled already (a persistent session is open)
    // A SASS pass does not run beside a started range profiler: a Start made while idle is stopped.
    if (!stop_unused_start(ss)) close_session();
    return;
  }
  EnabledProfiler prof(ctx);
}

void release_range_profiler_session() { close_session(); }

RangeProfilerSessionState range_profiler_session_state() {
  const Session& ss = session();
  return {ss.prof != nullptr, ss.started, ss.requests};
}

double prepare_range_profiler_session() {
  Session& ss = session();
  if (!ss.prof || ss.started || ss.requests >= kSessionRequests) return -1;
  if (current_context() != ss.ctx) return -1;  // a thread of another context: its requests use another session
  const auto t0 = std::chrono::steady_clock::now();
  CUpti_RangeProfiler_Start_Params start{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
  start.pRangeProfilerObject = ss.prof->obj;
  const CUptiResult r = cuptiRangeProfilerStart(&start);
  if (r != CUPTI_SUCCESS) {
    close_session();  // the next request opens a session as after any failure
    const char* msg = nullptr;
    cuptiGetResultString(r, &msg);
    throw std::runtime_error(std::string("cuptiRangeProfilerStart while idle: ") + (msg ? msg : "CUPTI error"));
  }
  ss.started = true;
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace ws::cuda
