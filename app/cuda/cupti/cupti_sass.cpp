#include "cupti/cupti_sass.hpp"

#include <cupti_pcsampling.h>
#include <cupti_profiler_target.h>
#include <cupti_sass_metrics.h>
#include <cupti_target.h>

#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <map>

#include "cupti/cupti_check.hpp"
#include "cupti/cupti_source_lines.hpp"
#include "cupti/cupti_tracker.hpp"

namespace ws::cuda {

namespace {

const char* const kWarpInst = "smsp__sass_inst_executed";
const char* const kThreadInst = "smsp__sass_thread_inst_executed_pred_on";

}  // namespace

const char* const kSassCounters[5] = {
    "smsp__sass_branch_targets_threads_uniform", "smsp__sass_branch_targets_threads_divergent",
    "smsp__sass_inst_executed_op_global_atom", "smsp__sass_inst_executed_op_global_red",
    "smsp__sass_inst_executed_op_shared_atom"};

namespace {

/// The SASS metric config is set once per device and process: a second cuptiSassMetricsSetConfig
/// after an unset answered CUPTI_ERROR_OUT_OF_MEMORY on the H200, so it stays set; patching itself is
/// enabled only around each collection.
void ensure_config(int device, std::vector<CUpti_SassMetrics_Config>& configs) {
  static std::vector<int> configured;
  for (int d : configured)
    if (d == device) return;
  CUpti_SassMetricsSetConfig_Params set{CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE};
  set.pConfigs = configs.data();
  set.numOfMetricConfig = configs.size();
  set.deviceIndex = std::uint32_t(device);
  WS_CUPTI(cuptiSassMetricsSetConfig(&set));
  configured.push_back(device);
}

/// Turns SASS patching on for a context; off on scope exit.
struct Patching {
  CUcontext ctx;
  Patching(CUcontext c, bool lazy) : ctx(c) {
    CUpti_SassMetricsEnable_Params en{CUpti_SassMetricsEnable_Params_STRUCT_SIZE};
    en.ctx = ctx;
    en.enableLazyPatching = lazy ? 1 : 0;
    WS_CUPTI(cuptiSassMetricsEnable(&en));
  }
  ~Patching() {
    CUpti_SassMetricsDisable_Params d{CUpti_SassMetricsDisable_Params_STRUCT_SIZE};
    d.ctx = ctx;
    cuptiSassMetricsDisable(&d);
  }
  Patching(const Patching&) = delete;
  Patching& operator=(const Patching&) = delete;
};

}  // namespace

LineProfile profile_lines(CUcontext ctx, int device, const std::function<void()>& run) {
  LineProfile out;
  CUpti_Profiler_Initialize_Params init{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
  WS_CUPTI(cuptiProfilerInitialize(&init));
  CUpti_Device_GetChipName_Params chip{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
  chip.deviceIndex = std::size_t(device);
  WS_CUPTI(cuptiDeviceGetChipName(&chip));

  std::vector<CUpti_SassMetrics_Config> configs;
  std::map<std::uint64_t, std::string> name_of;
  std::uint64_t warp_id = 0, thread_id = 0;
  std::vector<const char*> wanted = {kWarpInst, kThreadInst};
  wanted.insert(wanted.end(), std::begin(kSassCounters), std::end(kSassCounters));
  for (const char* name : wanted) {
    CUpti_SassMetrics_GetProperties_Params prop{CUpti_SassMetrics_GetProperties_Params_STRUCT_SIZE};
    prop.pChipName = chip.pChipName;
    prop.pMetricName = name;
    if (name != kWarpInst && name != kThreadInst && cuptiSassMetricsGetProperties(&prop) != CUPTI_SUCCESS) {
      out.warnings.push_back(std::string("skipped ") + name + ": not a SASS metric on " + chip.pChipName);
      continue;
    }
    WS_CUPTI(cuptiSassMetricsGetProperties(&prop));
    CUpti_SassMetrics_Config c{};
    c.metricId = prop.metric.metricId;
    c.outputGranularity = CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU;
    configs.push_back(c);
    name_of[c.metricId] = name;
    if (name == kWarpInst) warp_id = c.metricId;
    if (name == kThreadInst) thread_id = c.metricId;
  }

  std::vector<CUpti_SassMetrics_Data> records;
  std::vector<std::vector<CUpti_SassMetrics_InstanceValue>> values;
  std::size_t instances = 0;
  ensure_config(device, configs);
  // Lazy patching (kernels patched at their first launch) first. On the H200 a second SASS-only
  // collection in one process found no patched instruction that way; then every loaded module is
  // patched up front (enableLazyPatching = 0) and the run repeated.
  for (bool lazy : {true, false}) {
    Patching patching(ctx, lazy);
    run();
    CUpti_SassMetricsGetDataProperties_Params props{CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE};
    props.ctx = ctx;
    WS_CUPTI(cuptiSassMetricsGetDataProperties(&props));
    instances = props.numOfInstances;
    if (props.numOfPatchedInstructionRecords == 0 || instances == 0) {
      if (lazy) continue;
      out.warnings.push_back("per-line metrics: no patched instruction was executed");
      return out;
    }
    records.resize(props.numOfPatchedInstructionRecords);
    values.assign(records.size(), std::vector<CUpti_SassMetrics_InstanceValue>(instances));
    for (std::size_t i = 0; i < records.size(); ++i) {
      records[i].structSize = sizeof(CUpti_SassMetrics_Data);
      records[i].pInstanceValues = values[i].data();
    }
    CUpti_SassMetricsFlushData_Params flush{CUpti_SassMetricsFlushData_Params_STRUCT_SIZE};
    flush.ctx = ctx;
    flush.numOfPatchedInstructionRecords = records.size();
    flush.numOfInstances = instances;
    flush.pMetricsData = records.data();
    WS_CUPTI(cuptiSassMetricsFlushData(&flush));
    break;
  }

  // Sum per (file, line); instructions whose line is unknown are counted in a warning.
  std::map<std::pair<std::string, int>, LineMetrics> by_line;
  double unknown_warp_inst = 0;
  SourceLineMapper mapper;
  for (const auto& [id, name] : name_of) out.totals[name] = 0;  // counted, even where no instruction adds to it
  for (std::size_t i = 0; i < records.size(); ++i) {
    const auto& r = records[i];
    const std::string fn = r.functionName ? r.functionName : "";
    double w = 0, t = 0;
    for (std::size_t k = 0; k < instances; ++k) {
      if (values[i][k].metricId == warp_id) w += double(values[i][k].value);
      if (values[i][k].metricId == thread_id) t += double(values[i][k].value);
      if (auto n = name_of.find(values[i][k].metricId); n != name_of.end())
        out.totals[n->second] += double(values[i][k].value);
    }
    std::string file;
    int line = 0;
    if (mapper.find(r.cubinCrc, fn, r.pcOffset, file, line)) {
      auto& lm = by_line[{file, line}];
      lm.file = file;
      lm.line = line;
      lm.warp_instructions += w;
      lm.thread_instructions += t;
    } else {
      unknown_warp_inst += w;
    }
    std::free(const_cast<char*>(r.functionName));  // CUPTI allocates it for the caller (see the sample)
  }
  for (auto& [k, lm] : by_line)
    if (lm.warp_instructions > 0) out.lines.push_back(lm);
  if (unknown_warp_inst > 0)
    out.warnings.push_back(
        "per-line metrics: " + std::to_string(std::int64_t(unknown_warp_inst)) +
        " warp instructions have no source line (no -lineinfo, or the module was loaded before tracking)");
  return out;
}

}  // namespace ws::cuda
