#include "cupti_pcsampling.hpp"

#include <cupti_pcsampling.h>

#include <cxxabi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>

#include "cupti_check.hpp"
#include "cupti_source_lines.hpp"
#include "run_types.hpp"
#include "stall_reasons.hpp"

namespace ws::cuda {

namespace {

/// PC records per buffer. A run's kernels have a few hundred instructions each; more records than
/// this are fetched by further cuptiPCSamplingGetData calls.
constexpr std::size_t kPcsPerBuffer = 4096;
constexpr std::size_t kScratchBytes = std::size_t(8) << 20;  // CUPTI's PC records before GetData
/// The GPU's buffer of samples: CUPTI's default, 512 MiB, for a collection set up when it is asked for
/// (no limit on the run's length known). The first launch after the enable takes time with the buffer's
/// size (H100, harris.impl2 2^24, 2026-12-06: 512 MiB 306 ms, 64 MiB 94 ms, 8 MiB 61 ms, the same
/// 101,000 samples), and a full buffer loses the whole collection (8 MiB at harris.impl2 2^28: 0 samples,
/// "hardware buffer full"; 32 MiB: all 1.59 million of a 2.5 ms run).
constexpr std::size_t kHardwareBytes = std::size_t(512) << 20;

/// $WS_PC_SAMPLING_HW_MB MiB if set (pc_sampling_worker.cpp sets it in the fresh workers it starts), else
/// `fallback`.
std::size_t hardware_bytes(std::size_t fallback) {
  if (const char* mb = std::getenv("WS_PC_SAMPLING_HW_MB"); mb && std::atoi(mb) > 0)
    return std::size_t(std::atoi(mb)) << 20;
  return fallback;
}

/// A CUpti_PCSamplingData with room for kPcsPerBuffer PCs of `reasons` stall reasons each.
struct PcBuffer {
  CUpti_PCSamplingData data{};
  std::vector<CUpti_PCSamplingPCData> pcs;
  std::vector<CUpti_PCSamplingStallReason> stalls;
  explicit PcBuffer(std::size_t reasons) : pcs(kPcsPerBuffer), stalls(kPcsPerBuffer * reasons) {
    data.size = sizeof(CUpti_PCSamplingData);
    data.collectNumPcs = kPcsPerBuffer;
    data.pPcData = pcs.data();
    for (std::size_t i = 0; i < pcs.size(); ++i) {
      pcs[i] = CUpti_PCSamplingPCData{};
      pcs[i].size = sizeof(CUpti_PCSamplingPCData);
      pcs[i].stallReason = stalls.data() + i * reasons;
    }
  }
  PcBuffer(const PcBuffer&) = delete;
  PcBuffer& operator=(const PcBuffer&) = delete;
};

std::string demangled(const char* name) {
  int status = 0;
  char* d = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  std::string out = status == 0 && d ? d : name;
  std::free(d);
  return out;
}

CUpti_PCSamplingConfigurationInfo attribute(CUpti_PCSamplingConfigurationAttributeType type) {
  CUpti_PCSamplingConfigurationInfo a{};
  a.attributeType = type;
  return a;
}

/// PC sampling enabled and configured on a context from construction (every stall reason, sampling only
/// between Start and Stop), disabled on destruction.
struct Session {
  CUcontext ctx;
  std::size_t count = 0;                           // stall reasons this GPU reports
  std::vector<std::uint32_t> indexes;              // CUPTI's index of each
  std::map<std::uint32_t, std::string> reason_of;  // index -> CUPTI's name
  std::unique_ptr<PcBuffer> configured, fetched;
  std::set<char*> function_names;  // handed out by GetData: ours to free, after Disable
  std::size_t hardware_bytes = 0;  // the GPU's buffer of samples
  double enable_ms = 0, configure_ms = 0;

  Session(CUcontext c, std::size_t hw_bytes) : ctx(c), hardware_bytes(hw_bytes) {
    HostClock clock;
    CUpti_PCSamplingEnableParams en{};
    en.size = CUpti_PCSamplingEnableParamsSize;
    en.ctx = ctx;
    WS_CUPTI(cuptiPCSamplingEnable(&en));
    enable_ms = clock.lap();
    try {
      configure();
    } catch (...) {
      disable();
      throw;
    }
    configure_ms = clock.lap();
  }
  ~Session() {
    disable();  // CUPTI may write into the configured buffer until then
    for (char* n : function_names) std::free(n);
  }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

 private:
  void disable() {
    CUpti_PCSamplingDisableParams p{};
    p.size = CUpti_PCSamplingDisableParamsSize;
    p.ctx = ctx;
    cuptiPCSamplingDisable(&p);
  }
  void configure() {
    // The stall reasons this GPU reports: CUPTI's index -> name.
    CUpti_PCSamplingGetNumStallReasonsParams num{};
    num.size = CUpti_PCSamplingGetNumStallReasonsParamsSize;
    num.ctx = ctx;
    num.numStallReasons = &count;
    WS_CUPTI(cuptiPCSamplingGetNumStallReasons(&num));
    if (count == 0) throw std::runtime_error("PC sampling: CUPTI reports no stall reason on this GPU");
    std::vector<std::vector<char>> names(count, std::vector<char>(CUPTI_STALL_REASON_STRING_SIZE, '\0'));
    std::vector<char*> name_ptrs(count);
    for (std::size_t i = 0; i < count; ++i) name_ptrs[i] = names[i].data();
    indexes.assign(count, 0);
    CUpti_PCSamplingGetStallReasonsParams get{};
    get.size = CUpti_PCSamplingGetStallReasonsParamsSize;
    get.ctx = ctx;
    get.numStallReasons = count;
    get.stallReasonIndex = indexes.data();
    get.stallReasons = name_ptrs.data();
    WS_CUPTI(cuptiPCSamplingGetStallReasons(&get));
    for (std::size_t i = 0; i < count; ++i) {
      names[i].back() = '\0';
      reason_of[indexes[i]] = names[i].data();
    }
    // Configuration: every reason, sampling only between Start and Stop. Continuous mode, as the
    // toolkit's start/stop sample: the run's kernels (one stream, in order) stay one range, drained
    // once after Stop; kernel-serialized mode makes each kernel a range to drain before the next.
    configured = std::make_unique<PcBuffer>(count);
    fetched = std::make_unique<PcBuffer>(count);
    std::vector<CUpti_PCSamplingConfigurationInfo> attrs;
    auto a = attribute(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_PERIOD);
    a.attributeData.samplingPeriodData.samplingPeriod = std::uint32_t(kPcSamplingPeriodLog2);
    attrs.push_back(a);
    a = attribute(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_STALL_REASON);
    a.attributeData.stallReasonData.stallReasonCount = count;
    a.attributeData.stallReasonData.pStallReasonIndex = indexes.data();
    attrs.push_back(a);
    a = attribute(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SCRATCH_BUFFER_SIZE);
    a.attributeData.scratchBufferSizeData.scratchBufferSize = kScratchBytes;
    attrs.push_back(a);
    a = attribute(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_HARDWARE_BUFFER_SIZE);
    a.attributeData.hardwareBufferSizeData.hardwareBufferSize = hardware_bytes;
    attrs.push_back(a);
    a = attribute(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_COLLECTION_MODE);
    a.attributeData.collectionModeData.collectionMode = CUPTI_PC_SAMPLING_COLLECTION_MODE_CONTINUOUS;
    attrs.push_back(a);
    a = attribute(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_ENABLE_START_STOP_CONTROL);
    a.attributeData.enableStartStopControlData.enableStartStopControl = 1;
    attrs.push_back(a);
    a = attribute(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_DATA_BUFFER);
    a.attributeData.samplingDataBufferData.samplingDataBuffer = &configured->data;
    attrs.push_back(a);
    CUpti_PCSamplingConfigurationInfoParams cfg{};
    cfg.size = CUpti_PCSamplingConfigurationInfoParamsSize;
    cfg.ctx = ctx;
    cfg.numAttributes = attrs.size();
    cfg.pPCSamplingConfigurationInfo = attrs.data();
    try {
      WS_CUPTI(cuptiPCSamplingSetConfigurationAttribute(&cfg));
    } catch (const CuptiError& e) {
      // Name the attribute CUPTI refused, so the message says what to change.
      for (const auto& x : attrs)
        if (x.attributeStatus != CUPTI_SUCCESS)
          throw CuptiError(e.code, std::string(e.what()) + " (attribute " + std::to_string(int(x.attributeType)) + ")");
      throw;
    }
  }
};

/// The session prepare_pc_sampling() left enabled, kept until the process ends (the worker ends with
/// std::_Exit, so its disable never runs after the context is gone).
std::unique_ptr<Session>& prepared() {
  static std::unique_ptr<Session> s;
  return s;
}

/// One collection on an enabled session: Start, run(), Stop, every PC record fetched and aggregated.
PcSamplingPass collect(Session& ss, const std::function<void()>& run, bool prepared_before) {
  PcSamplingPass out;
  // WS_METRICS_TIMING=1 prints where the pass's time goes (issue 31: the first request with PC sampling).
  const bool timing = std::getenv("WS_METRICS_TIMING") != nullptr;
  HostClock clock;
  auto lap = [&clock] { return clock.lap(); };
  const CUcontext ctx = ss.ctx;
  const std::size_t count = ss.count;
  const auto& reason_of = ss.reason_of;
  auto& function_names = ss.function_names;
  CUpti_PCSamplingStartParams start{};
  start.size = CUpti_PCSamplingStartParamsSize;
  start.ctx = ctx;
  CUpti_PCSamplingStopParams stop{};
  stop.size = CUpti_PCSamplingStopParamsSize;
  stop.ctx = ctx;
  WS_CUPTI(cuptiPCSamplingStart(&start));
  const double t_start = lap();
  try {
    run();
  } catch (...) {
    cuptiPCSamplingStop(&stop);
    throw;
  }
  const double t_run = lap();
  WS_CUPTI(cuptiPCSamplingStop(&stop));
  const double t_stop = lap();

  // Fetch every PC record of the range.
  std::vector<PcRecord> records;
  std::set<std::string> unknown_reasons;
  std::map<std::uint64_t, std::uint64_t> total_per_range, dropped_per_range;
  bool buffer_full = false;
  SourceLineMapper mapper;  // after the run: modules loaded lazily at their first launch are tracked by now
  std::map<std::string, std::string> readable;
  CUpti_PCSamplingGetDataParams gd{};
  gd.size = CUpti_PCSamplingGetDataParamsSize;
  gd.ctx = ctx;
  gd.pcSamplingData = &ss.fetched->data;
  // Drained as the toolkit samples do at context teardown: GetData until a call returns no PC and
  // none remains. A failing call after the first keeps what came before it, with a warning.
  for (int call = 0; call < 100000; ++call) {
    ss.fetched->data.totalNumPcs = 0;
    ss.fetched->data.remainingNumPcs = 0;
    ss.fetched->data.hardwareBufferFull = 0;
    const CUptiResult got = cuptiPCSamplingGetData(&gd);
    if (got != CUPTI_SUCCESS) {
      if (got == CUPTI_ERROR_OUT_OF_MEMORY || ss.fetched->data.hardwareBufferFull) {
        buffer_full = true;
        break;
      }
      if (call == 0) check_cupti(got, "cuptiPCSamplingGetData", __FILE__, __LINE__);
      const char* msg = nullptr;
      cuptiGetResultString(got, &msg);
      out.warnings.push_back(std::string("PC sampling: cuptiPCSamplingGetData stopped after ") +
                             std::to_string(records.size()) + " PC records: " + (msg ? msg : "CUPTI error"));
      break;
    }
    const CUpti_PCSamplingData& d = ss.fetched->data;
    total_per_range[d.rangeId] = std::max(total_per_range[d.rangeId], d.totalSamples);
    dropped_per_range[d.rangeId] = std::max(dropped_per_range[d.rangeId], d.droppedSamples);
    buffer_full = buffer_full || d.hardwareBufferFull;
    for (std::size_t i = 0; i < d.totalNumPcs && i < kPcsPerBuffer; ++i) {
      const CUpti_PCSamplingPCData& pc = d.pPcData[i];
      if (pc.functionName) function_names.insert(pc.functionName);
      PcRecord r;
      const std::string fn = pc.functionName ? pc.functionName : "";
      auto rd = readable.find(fn);
      if (rd == readable.end())
        rd = readable.emplace(fn, fn.empty() ? "(unknown function)" : demangled(fn.c_str())).first;
      r.kernel = rd->second;
      if (!fn.empty() && !mapper.find(pc.cubinCrc, fn, pc.pcOffset, r.file, r.line)) r.line = 0;
      for (std::size_t k = 0; k < pc.stallReasonCount && k < count; ++k) {
        auto name = reason_of.find(pc.stallReason[k].pcSamplingStallReasonIndex);
        if (name == reason_of.end()) continue;
        if (stall_reason_name(name->second).empty()) continue;
        if (!find_stall_reason(stall_reason_name(name->second))) unknown_reasons.insert(name->second);
        r.stalls.emplace_back(name->second, double(pc.stallReason[k].samples));
      }
      records.push_back(std::move(r));
    }
    if (d.totalNumPcs == 0 && d.remainingNumPcs == 0) break;
  }

  if (timing)
    std::fprintf(stderr,
                 "pc sampling: %s enable %.1f, stall reasons + configure %.1f; start %.1f, run %.1f, stop %.1f, "
                 "get data + source lines %.1f ms (%zu PC records)\n",
                 prepared_before ? "prepared in advance:" : "now:", ss.enable_ms, ss.configure_ms, t_start, t_run,
                 t_stop, lap(), records.size());
  PcSampling& p = out.result;
  p.period_log2 = kPcSamplingPeriodLog2;
  for (const auto& [range, n] : total_per_range) p.hardware_samples += double(n);
  for (const auto& [range, n] : dropped_per_range) p.dropped_samples += double(n);
  p.hardware_buffer_full = buffer_full;
  p.kernels = aggregate_pc_records(records);
  p.collected = true;
  if (p.kernels.empty())
    out.warnings.push_back("PC sampling: no sample of the run's kernels (" +
                           std::to_string(std::uint64_t(p.hardware_samples)) +
                           " samples in all, none with a PC record)");
  if (p.dropped_samples > 0 || buffer_full)
    out.warnings.push_back("PC sampling: " + std::to_string(std::uint64_t(p.dropped_samples)) + " samples dropped" +
                           (buffer_full ? " (hardware buffer full: the counts are incomplete)" : ""));
  double unmapped = 0;
  for (const auto& k : p.kernels) unmapped += k.unmapped_samples;
  if (unmapped > 0)
    out.warnings.push_back("PC sampling: " + std::to_string(std::uint64_t(unmapped)) +
                           " samples have no source line (no -lineinfo, or the module was loaded before tracking)");
  for (const auto& u : unknown_reasons)
    out.warnings.push_back("PC sampling: stall reason " + u + " has no explanation in warpscope's table");
  return out;
}

}  // namespace

void prepare_pc_sampling(CUcontext ctx) {
  auto& p = prepared();
  if (p && p->ctx == ctx) return;
  p.reset();
  p = std::make_unique<Session>(ctx, hardware_bytes(kHardwareBytes));
  if (std::getenv("WS_METRICS_TIMING"))
    std::fprintf(stderr, "pc sampling prepared: enable %.1f, configure %.1f ms (hardware buffer %zu MiB)\n",
                 p->enable_ms, p->configure_ms, p->hardware_bytes >> 20);
}

PcSamplingPass sample_pcs(CUcontext ctx, const std::function<void()>& run) {
  if (auto& p = prepared(); p && p->ctx == ctx) return collect(*p, run, true);
  Session s(ctx, hardware_bytes(kHardwareBytes));
  return collect(s, run, false);
}

}  // namespace ws::cuda
