#include "cupti_pcsampling.hpp"

#include <cupti_pcsampling.h>

#include <cxxabi.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>

#include "cupti_check.hpp"
#include "cupti_source_lines.hpp"
#include "stall_reasons.hpp"

namespace ws::cuda {

namespace {

/// PC records per buffer. A run's kernels have a few hundred instructions each; more records than
/// this are fetched by further cuptiPCSamplingGetData calls.
constexpr std::size_t kPcsPerBuffer = 4096;
constexpr std::size_t kScratchBytes = std::size_t(8) << 20;     // CUPTI's PC records before GetData
constexpr std::size_t kHardwareBytes = std::size_t(512) << 20;  // CUPTI's default: no sample dropped so far

/// PC sampling on for a context from construction; disabled on scope exit.
struct Sampling {
  CUcontext ctx;
  explicit Sampling(CUcontext c) : ctx(c) {
    CUpti_PCSamplingEnableParams p{};
    p.size = CUpti_PCSamplingEnableParamsSize;
    p.ctx = ctx;
    WS_CUPTI(cuptiPCSamplingEnable(&p));
  }
  ~Sampling() {
    CUpti_PCSamplingDisableParams p{};
    p.size = CUpti_PCSamplingDisableParamsSize;
    p.ctx = ctx;
    cuptiPCSamplingDisable(&p);
  }
  Sampling(const Sampling&) = delete;
  Sampling& operator=(const Sampling&) = delete;
};

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

}  // namespace

PcSamplingPass sample_pcs(CUcontext ctx, const std::function<void()>& run) {
  PcSamplingPass out;
  // WS_METRICS_TIMING=1 prints where the pass's time goes (issue 31: the first request with PC sampling).
  const bool timing = std::getenv("WS_METRICS_TIMING") != nullptr;
  auto t = std::chrono::steady_clock::now();
  auto lap = [&t] {
    const auto now = std::chrono::steady_clock::now();
    const double ms = std::chrono::duration<double, std::milli>(now - t).count();
    t = now;
    return ms;
  };
  // Declared before `sampling`, so they outlive cuptiPCSamplingDisable: CUPTI may write into the
  // configured buffer until then, and the function names it hands out are ours to free only after.
  std::set<char*> function_names;
  struct FreeNames {
    std::set<char*>& names;
    ~FreeNames() {
      for (char* n : names) std::free(n);
    }
  } free_names{function_names};
  std::unique_ptr<PcBuffer> configured, fetched;
  std::vector<std::uint32_t> indexes;
  Sampling sampling(ctx);
  const double t_enable = lap();

  // The stall reasons this GPU reports: CUPTI's index -> name.
  std::size_t count = 0;
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
  std::map<std::uint32_t, std::string> reason_of;
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
  a.attributeData.hardwareBufferSizeData.hardwareBufferSize = kHardwareBytes;
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

  CUpti_PCSamplingStartParams start{};
  start.size = CUpti_PCSamplingStartParamsSize;
  start.ctx = ctx;
  CUpti_PCSamplingStopParams stop{};
  stop.size = CUpti_PCSamplingStopParamsSize;
  stop.ctx = ctx;
  const double t_configure = lap();
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
  gd.pcSamplingData = &fetched->data;
  // Drained as the toolkit samples do at context teardown: GetData until a call returns no PC and
  // none remains. A failing call after the first keeps what came before it, with a warning.
  for (int call = 0; call < 100000; ++call) {
    fetched->data.totalNumPcs = 0;
    fetched->data.remainingNumPcs = 0;
    fetched->data.hardwareBufferFull = 0;
    const CUptiResult got = cuptiPCSamplingGetData(&gd);
    if (got != CUPTI_SUCCESS) {
      if (got == CUPTI_ERROR_OUT_OF_MEMORY || fetched->data.hardwareBufferFull) {
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
    const CUpti_PCSamplingData& d = fetched->data;
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
                 "pc sampling: enable %.1f, stall reasons + configure %.1f, start %.1f, run %.1f, stop %.1f, "
                 "get data + source lines %.1f ms (%zu PC records)\n",
                 t_enable, t_configure, t_start, t_run, t_stop, lap(), records.size());
  PcSampling& p = out.result;
  p.period_log2 = kPcSamplingPeriodLog2;
  for (const auto& [range, n] : total_per_range) p.hardware_samples += double(n);
  for (const auto& [range, n] : dropped_per_range) p.dropped_samples += double(n);
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

}  // namespace ws::cuda
