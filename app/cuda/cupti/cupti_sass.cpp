#include "cupti/cupti_sass.hpp"

#include <cupti_pcsampling.h>
#include <cupti_profiler_target.h>
#include <cupti_sass_metrics.h>
#include <cupti_target.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
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

/// A per-line memory counter: the LineMetrics field it fills and the SASS metrics that count it, tried in
/// order (each alternative a set of metrics summed). The first alternative is Nsight Compute's name; the
/// others are spellings and splits some CUPTI versions list instead. None offered: a warning, never a
/// failed collection.
struct LineCounter {
  const char* what;
  double LineMetrics::*field;
  std::vector<std::vector<const char*>> alternatives;
};

const std::vector<LineCounter>& line_counters() {
  static const std::vector<LineCounter> counters = {
      {"shared loads", &LineMetrics::shared_loads, {{"smsp__sass_inst_executed_op_shared_ld"}}},
      {"shared stores", &LineMetrics::shared_stores, {{"smsp__sass_inst_executed_op_shared_st"}}},
      {"shared atomics", &LineMetrics::shared_atomics, {{"smsp__sass_inst_executed_op_shared_atom"}}},
      {"shared wavefronts",
       &LineMetrics::shared_wavefronts,
       {{"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared"},
        {"smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared"},
        {"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld",
         "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st"}}},
      {"global loads", &LineMetrics::global_loads, {{"smsp__sass_inst_executed_op_global_ld"}}},
      {"global stores", &LineMetrics::global_stores, {{"smsp__sass_inst_executed_op_global_st"}}},
      {"global atomics",
       &LineMetrics::global_atomics,
       {{"smsp__sass_inst_executed_op_global_atom", "smsp__sass_inst_executed_op_global_red"},
        {"smsp__sass_inst_executed_op_global_red"}}},
      {"global sectors",
       &LineMetrics::global_sectors,
       {{"smsp__sass_sectors_mem_global"},
        {"smsp__sass_sectors_mem_global_op_ld", "smsp__sass_sectors_mem_global_op_st"}}},
  };
  return counters;
}

/// Whether `name` is a SASS metric of the chip; its id in `id`.
bool sass_metric_id(const char* chip, const char* name, std::uint64_t& id) {
  CUpti_SassMetrics_GetProperties_Params prop{CUpti_SassMetrics_GetProperties_Params_STRUCT_SIZE};
  prop.pChipName = chip;
  prop.pMetricName = name;
  if (cuptiSassMetricsGetProperties(&prop) != CUPTI_SUCCESS) return false;
  id = prop.metric.metricId;
  return true;
}

/// The chip's SASS metric names that contain `word`, comma-separated (at most 12), for a warning that
/// names what the GPU offers instead; "" when the list cannot be read.
std::string offered_metrics(const char* chip, const std::string& word) {
  CUpti_SassMetrics_GetNumOfMetrics_Params num{CUpti_SassMetrics_GetNumOfMetrics_Params_STRUCT_SIZE};
  num.pChipName = chip;
  if (cuptiSassMetricsGetNumOfMetrics(&num) != CUPTI_SUCCESS || num.numOfMetrics == 0) return "";
  std::vector<CUpti_SassMetrics_MetricDetails> list(num.numOfMetrics);
  CUpti_SassMetrics_GetMetrics_Params get{CUpti_SassMetrics_GetMetrics_Params_STRUCT_SIZE};
  get.pChipName = chip;
  get.numOfMetrics = list.size();
  get.pMetricsList = list.data();
  if (cuptiSassMetricsGetMetrics(&get) != CUPTI_SUCCESS) return "";
  std::string out;
  int shown = 0;
  for (const auto& m : list)
    if (m.pMetricName && std::string(m.pMetricName).find(word) != std::string::npos && shown++ < 12)
      out += (out.empty() ? "" : ", ") + std::string(m.pMetricName);
  return out;
}

}  // namespace

const char* const kSassCounters[5] = {
    "smsp__sass_branch_targets_threads_uniform", "smsp__sass_branch_targets_threads_divergent",
    "smsp__sass_inst_executed_op_global_atom", "smsp__sass_inst_executed_op_global_red",
    "smsp__sass_inst_executed_op_shared_atom"};

namespace {

/// The SASS metric config is set once per device and process: a second cuptiSassMetricsSetConfig
/// after an unset answered CUPTI_ERROR_OUT_OF_MEMORY on the H200, so it stays set; patching itself is
/// enabled only around each collection. A config CUPTI refuses whole is set again with its first `base`
/// configs only (the instruction counters and kSassCounters, without the per-line memory counters);
/// returns false then, in this and every later call of the process.
bool ensure_config(int device, std::vector<CUpti_SassMetrics_Config>& configs, std::size_t base) {
  static std::map<int, bool> configured;  // device -> the full config was taken
  if (auto it = configured.find(device); it != configured.end()) return it->second;
  CUpti_SassMetricsSetConfig_Params set{CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE};
  set.pConfigs = configs.data();
  set.numOfMetricConfig = configs.size();
  set.deviceIndex = std::uint32_t(device);
  bool full = true;
  if (configs.size() > base && cuptiSassMetricsSetConfig(&set) != CUPTI_SUCCESS) {
    full = false;
    set.numOfMetricConfig = base;
    WS_CUPTI(cuptiSassMetricsSetConfig(&set));
  } else if (configs.size() <= base) {
    WS_CUPTI(cuptiSassMetricsSetConfig(&set));
  }
  configured[device] = full;
  return full;
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
  // WS_METRICS_TIMING=1 prints where the pass's time goes: the configs, the patched run, the source lines.
  auto t0 = std::chrono::steady_clock::now();
  auto lap = [&t0] {
    const auto now = std::chrono::steady_clock::now();
    const double ms = std::chrono::duration<double, std::milli>(now - t0).count();
    t0 = now;
    return ms;
  };
  CUpti_Profiler_Initialize_Params init{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
  WS_CUPTI(cuptiProfilerInitialize(&init));
  CUpti_Device_GetChipName_Params chip{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
  chip.deviceIndex = std::size_t(device);
  WS_CUPTI(cuptiDeviceGetChipName(&chip));

  std::vector<CUpti_SassMetrics_Config> configs;
  std::map<std::uint64_t, std::string> name_of;
  std::map<std::uint64_t, double LineMetrics::*> field_of;  // per-line memory counters
  std::uint64_t warp_id = 0, thread_id = 0;
  auto add_config = [&](std::uint64_t id, const char* name) {
    if (name_of.count(id)) return;
    CUpti_SassMetrics_Config c{};
    c.metricId = id;
    c.outputGranularity = CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU;
    configs.push_back(c);
    name_of[id] = name;
  };
  std::vector<const char*> wanted = {kWarpInst, kThreadInst};
  wanted.insert(wanted.end(), std::begin(kSassCounters), std::end(kSassCounters));
  for (const char* name : wanted) {
    std::uint64_t id = 0;
    if (name == kWarpInst || name == kThreadInst) {  // these two must be there: CUPTI's error otherwise
      CUpti_SassMetrics_GetProperties_Params prop{CUpti_SassMetrics_GetProperties_Params_STRUCT_SIZE};
      prop.pChipName = chip.pChipName;
      prop.pMetricName = name;
      WS_CUPTI(cuptiSassMetricsGetProperties(&prop));
      id = prop.metric.metricId;
      (name == kWarpInst ? warp_id : thread_id) = id;
    } else if (!sass_metric_id(chip.pChipName, name, id)) {
      out.warnings.push_back(std::string("skipped ") + name + ": not a SASS metric on " + chip.pChipName);
      continue;
    }
    add_config(id, name);
  }
  const std::size_t base_configs = configs.size();
  for (const LineCounter& lc : line_counters()) {
    bool found = false;
    std::string tried;
    for (const auto& alternative : lc.alternatives) {
      std::vector<std::uint64_t> ids;
      for (const char* name : alternative) {
        std::uint64_t id = 0;
        if (sass_metric_id(chip.pChipName, name, id)) ids.push_back(id);
      }
      std::string names;
      for (const char* name : alternative) names += (names.empty() ? "" : " + ") + std::string(name);
      tried += (tried.empty() ? "" : ", ") + names;
      if (ids.size() != alternative.size()) continue;
      for (std::size_t i = 0; i < ids.size(); ++i) {
        add_config(ids[i], alternative[i]);
        field_of[ids[i]] = lc.field;
      }
      found = true;
      break;
    }
    if (!found) {
      const std::string word = std::string(lc.what).find("wavefronts") != std::string::npos ? "wavefronts"
                               : std::string(lc.what).find("sectors") != std::string::npos  ? "sectors"
                                                                                            : "inst_executed_op";
      const std::string offered = offered_metrics(chip.pChipName, word);
      out.warnings.push_back("per-line " + std::string(lc.what) + ": not counted, none of " + tried +
                             " is a SASS metric on " + chip.pChipName +
                             (offered.empty() ? "" : " (it offers " + offered + ")"));
    }
  }

  std::vector<CUpti_SassMetrics_Data> records;
  std::vector<std::vector<CUpti_SassMetrics_InstanceValue>> values;
  std::size_t instances = 0;
  if (!ensure_config(device, configs, base_configs)) {
    out.warnings.push_back(
        "per-line shared wavefronts, bank conflicts and global sectors: not counted, CUPTI refused the SASS "
        "config with them (" +
        std::to_string(configs.size()) + " metrics); counted without them");
    for (std::size_t i = base_configs; i < configs.size(); ++i) {
      field_of.erase(configs[i].metricId);
      name_of.erase(configs[i].metricId);
    }
  }
  // Lazy patching (kernels patched at their first launch) first. On the H200 a second SASS-only
  // collection in one process found no patched instruction that way; then every loaded module is
  // patched up front (enableLazyPatching = 0) and the run repeated.
  const double config_ms = lap();
  double enable_ms = 0, patched_run_ms = 0, flush_ms = 0;  // parts of run_ms, for WS_METRICS_TIMING
  for (bool lazy : {true, false}) {
    Patching patching(ctx, lazy);
    enable_ms += lap();
    run();
    patched_run_ms += lap();
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
    flush_ms = lap();
    break;
  }

  const double run_ms = enable_ms + patched_run_ms + flush_ms + lap();  // the last lap: the disable
  // Sum per (file, line); instructions whose line is unknown are counted in a warning.
  std::map<std::pair<std::string, int>, LineMetrics> by_line;
  double unknown_warp_inst = 0;
  SourceLineMapper mapper;
  for (const auto& [id, name] : name_of) out.totals[name] = 0;  // counted, even where no instruction adds to it
  for (std::size_t i = 0; i < records.size(); ++i) {
    const auto& r = records[i];
    const std::string fn = r.functionName ? r.functionName : "";
    LineMetrics here;  // this instruction's counts
    for (std::size_t k = 0; k < instances; ++k) {
      const std::uint64_t id = values[i][k].metricId;
      const double v = double(values[i][k].value);
      if (id == warp_id) here.warp_instructions += v;
      if (id == thread_id) here.thread_instructions += v;
      if (auto f = field_of.find(id); f != field_of.end()) here.*(f->second) += v;
      if (auto n = name_of.find(id); n != name_of.end()) out.totals[n->second] += v;
    }
    std::string file;
    int line = 0;
    if (mapper.find(r.cubinCrc, fn, r.pcOffset, file, line)) {
      auto& lm = by_line[{file, line}];
      lm.file = file;
      lm.line = line;
      lm.warp_instructions += here.warp_instructions;
      lm.thread_instructions += here.thread_instructions;
      for (const LineCounter& lc : line_counters()) lm.*(lc.field) += here.*(lc.field);
    } else {
      unknown_warp_inst += here.warp_instructions;
    }
    std::free(const_cast<char*>(r.functionName));  // CUPTI allocates it for the caller (see the sample)
  }
  for (auto& [k, lm] : by_line)
    if (lm.warp_instructions > 0) out.lines.push_back(lm);
  if (unknown_warp_inst > 0)
    out.warnings.push_back(
        "per-line metrics: " + std::to_string(std::int64_t(unknown_warp_inst)) +
        " warp instructions have no source line (no -lineinfo, or the module was loaded before tracking)");
  if (std::getenv("WS_METRICS_TIMING"))
    std::fprintf(stderr,
                 "sass pass: configs %.1f ms, patched run + flush %.1f ms (enable %.1f, run %.1f, flush %.1f, disable "
                 "%.1f), lines %.1f ms (%zu instructions)\n",
                 config_ms, run_ms, enable_ms, patched_run_ms, flush_ms, run_ms - enable_ms - patched_run_ms - flush_ms,
                 lap(), records.size());
  return out;
}

}  // namespace ws::cuda
