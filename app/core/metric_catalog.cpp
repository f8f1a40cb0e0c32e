#include "metric_catalog.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

namespace ws {

const char* to_string(MetricSource s) {
  switch (s) {
    case MetricSource::Range: return "range profiler";
    case MetricSource::PerLine: return "sass per line";
    case MetricSource::Sass: return "sass counters";
    case MetricSource::Occupancy: return "occupancy api";
    case MetricSource::Derived: return "derived";
    case MetricSource::PcSampling: return "pc sampling";
  }
  return "?";
}

namespace {

MetricDef range(std::string name, std::string short_name, std::string unit, std::string group, std::string explain,
                bool in_default, std::string prediction = "") {
  MetricDef d;
  d.name = std::move(name);
  d.short_name = std::move(short_name);
  d.unit = std::move(unit);
  d.group = std::move(group);
  d.explain = std::move(explain);
  d.in_default = in_default;
  d.prediction = std::move(prediction);
  return d;
}

MetricDef with_source(MetricDef d, MetricSource s, std::vector<std::string> inputs = {}) {
  d.source = s;
  d.inputs = std::move(inputs);
  return d;
}

std::vector<MetricDef> build_catalog() {
  std::vector<MetricDef> c;
  // Duration
  c.push_back(range("gpu__time_duration.sum", "duration", "ns", "duration",
                    "GPU time of the run's kernels while profiled.\n"
                    "Profiling replays the kernels, so use the timed runs for speed; this is for rates.",
                    true));
  // Occupancy
  c.push_back(range("sm__warps_active.avg.pct_of_peak_sustained_active", "achieved occupancy", "%", "occupancy",
                    "Warps resident on an SM on average, in % of the most it can hold (64 on Hopper).\n"
                    "Never above the theoretical occupancy; lower when blocks end unevenly or the grid is small.",
                    true));
  c.push_back(with_source(range("ws__theoretical_occupancy_pct", "theoretical occupancy", "%", "occupancy",
                                "Warps an SM could hold for this launch, from the CUDA occupancy API.\n"
                                "Limited by registers, shared memory, block size or blocks per SM (the limiter).",
                                true),
                          MetricSource::Occupancy));
  c.push_back(with_source(range("ws__blocks_per_sm", "blocks per SM", "blocks", "occupancy",
                                "Blocks of the main kernel that fit on one SM at once (occupancy API).\n"
                                "Times the warps per block, over the SM's warp slots, gives the theoretical occupancy.",
                                true),
                          MetricSource::Occupancy));
  c.push_back(with_source(range("ws__registers_per_thread", "registers per thread", "registers", "occupancy",
                                "Registers the compiler gave each thread of the main kernel.\n"
                                "65536 registers per SM are shared by all resident threads.",
                                false),
                          MetricSource::Occupancy));
  // Execution
  c.push_back(range("smsp__inst_executed.sum", "warp instructions", "warp inst", "execution",
                    "Instructions issued, counted once per warp (32 lanes) whatever the lanes on.\n"
                    "Divergent code issues instructions for warps with few lanes on: work for nothing.",
                    true));
  c.push_back(range("smsp__average_thread_inst_executed_pred_on_per_inst_executed.ratio", "lanes per instruction",
                    "lanes", "execution",
                    "Threads (lanes) that did the work of an average warp instruction, 0 to 32.\n"
                    "Kernel-wide it hides where divergence is: look per source line.",
                    true, "tree steps: mean active lanes of the warps that still work (trace of one block)"));
  c.push_back(range("smsp__thread_inst_executed_pred_on.sum", "thread instructions", "thread inst", "execution",
                    "Instructions counted once per lane that executed them (predicate on).\n"
                    "Divided by warp instructions: the average lanes on.",
                    false));
  c.push_back(range("smsp__sass_average_branch_targets_threads_uniform.pct", "uniform branch targets", "%", "execution",
                    "Nsight Compute's branch uniformity: branch targets where all active lanes went the same way.\n"
                    "Costs a range-profiler pass of its own; the default set counts branches in the SASS pass instead.",
                    false));
  c.push_back(with_source(
      range("smsp__sass_branch_targets_threads_uniform", "uniform branch executions", "branches", "execution",
            "Warp branch executions where all active lanes took the same target (SASS counter).\n"
            "Counted in the same patched run as the per-line metrics.",
            false),
      MetricSource::Sass));
  c.push_back(
      with_source(range("smsp__sass_branch_targets_threads_divergent", "divergent branches", "branches", "execution",
                        "Warp branch executions where active lanes took different targets (SASS counter).\n"
                        "Each one splits the warp: both paths run one after the other, lanes idle.",
                        true),
                  MetricSource::Sass));
  c.push_back(
      with_source(range("ws__uniform_branch_pct", "uniform branches", "%", "execution",
                        "Share of warp branch executions where all active lanes went the same way.\n"
                        "100 % means divergence, if any, is predication (lanes off), not split branches.",
                        true),
                  MetricSource::Derived,
                  {"smsp__sass_branch_targets_threads_uniform", "smsp__sass_branch_targets_threads_divergent"}));
  c.push_back(with_source(
      range("smsp__sass_inst_executed", "warp instructions per line", "warp inst", "execution",
            "Per source line: warp instructions issued, predicated-off ones too (kernels built with -lineinfo).\n"
            "nvcc predicates a short if-body: idle warps still issue it, with every lane off.",
            true),
      MetricSource::PerLine));
  c.push_back(with_source(
      range("smsp__sass_thread_inst_executed_pred_on", "thread instructions per line", "thread inst", "execution",
            "Per source line: lanes that executed its instructions, summed.\n"
            "Over the line's warp instructions: active lanes per instruction (0..32).",
            true),
      MetricSource::PerLine));
  // Shared memory
  c.push_back(range("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "shared load bank conflicts",
                    "conflicts", "shared memory",
                    "Extra shared-memory cycles (wavefronts) loads needed because lanes hit the same bank.\n"
                    "An n-way conflict costs n-1; not 0 even for conflict-free code on real hardware.",
                    true, "sum over warp-wide shared loads of (ways - 1), trace of one block x grid"));
  c.push_back(range("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "shared store bank conflicts",
                    "conflicts", "shared memory",
                    "The same for shared-memory stores.\n"
                    "Strided indices (index = 2*s*tid) conflict on stores as on loads.",
                    true, "sum over warp-wide shared stores of (ways - 1), trace of one block x grid"));
  c.push_back(range("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "shared load wavefronts", "wavefronts",
                    "shared memory",
                    "Passes the shared-memory unit made to serve loads (1 per conflict-free instruction).\n"
                    "More wavefronts than instructions means bank conflicts.",
                    false));
  c.push_back(range("smsp__inst_executed_op_shared_ld.sum", "shared load instructions", "warp inst", "shared memory",
                    "Warp-wide shared-memory load instructions issued.\n"
                    "The denominator of wavefronts and conflicts per instruction.",
                    true));
  c.push_back(with_source(
      range("ws__shared_ld_wavefronts_per_inst", "wavefronts per shared load", "wavefronts", "shared memory",
            "Shared load wavefronts over shared load instructions: 1 without conflicts, 32 for 32-way.\n"
            "Below 1 when loads are issued with every lane off (predicated code): they need no wavefront.",
            false),
      MetricSource::Derived,
      {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "smsp__inst_executed_op_shared_ld.sum"}));
  c.push_back(with_source(
      range("ws__shared_ld_conflicts_per_inst", "conflicts per shared load", "conflicts", "shared memory",
            "Shared load bank conflicts over shared load instructions.\n"
            "Compare variants: the strided index has many times those of sequential addressing.",
            true),
      MetricSource::Derived,
      {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "smsp__inst_executed_op_shared_ld.sum"}));
  // Atomics
  c.push_back(range("l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", "global atomic requests", "requests",
                    "atomics",
                    "Warp-level requests for global atomics whose old value is used (atom).\n"
                    "One request serves all lanes of a warp instruction.",
                    false, "thread-level global atomics in the source (trace of one block x grid)"));
  c.push_back(range("l1tex__t_requests_pipe_lsu_mem_global_op_red.sum", "global reduction requests", "requests",
                    "atomics",
                    "Warp-level requests for global atomics whose result is unused (red).\n"
                    "The compiler may first add the lanes of a warp together, so far fewer than in the source.",
                    false, "thread-level global atomics in the source (trace of one block x grid)"));
  c.push_back(range("lts__t_requests_op_atom.sum", "L2 atomic requests", "requests", "atomics",
                    "Atomic requests that reached the L2 cache, where global atomics are performed.\n"
                    "Requests to one address are applied one after another.",
                    true));
  c.push_back(range("lts__t_requests_op_red.sum", "L2 reduction requests", "requests", "atomics",
                    "Reduction (red) requests that reached the L2 cache.\n"
                    "reduce0's one atomicAdd per element arrives here about once per warp.",
                    true));
  c.push_back(
      with_source(range("smsp__sass_inst_executed_op_global_atom", "global atomic instructions", "warp inst", "atomics",
                        "Warp-wide global atomic instructions whose old value is used (ATOMG; SASS counter).\n"
                        "One instruction serves all lanes of a warp: one L1 request each.",
                        true, "thread-level global atomics in the source (trace of one block x grid)"),
                  MetricSource::Sass));
  c.push_back(with_source(
      range("smsp__sass_inst_executed_op_global_red", "global reduction instructions", "warp inst", "atomics",
            "Warp-wide global atomics whose result is unused (REDG; SASS counter).\n"
            "The compiler may first add the lanes of a warp together, so far fewer than in the source.",
            true, "thread-level global atomics in the source (trace of one block x grid)"),
      MetricSource::Sass));
  c.push_back(range("smsp__inst_executed_op_shared_atom.sum", "shared atomic instructions (counter)", "warp inst",
                    "atomics",
                    "Warp-wide atomic instructions on shared memory (hardware counter, its own pass).\n"
                    "The default set counts them in the SASS pass instead.",
                    false));
  c.push_back(
      with_source(range("smsp__sass_inst_executed_op_shared_atom", "shared atomic instructions", "warp inst", "atomics",
                        "Warp-wide atomic instructions on shared memory (ATOMS; SASS counter).\n"
                        "Block-local atomics: cheaper than global ones, still serialized per address.",
                        true),
                  MetricSource::Sass));
  c.push_back(with_source(
      range("ws__global_atomics_per_ns", "global atomic throughput", "1/ns", "atomics",
            "Global atomic and reduction warp instructions per nanosecond of kernel time (= G/s).\n"
            "count / duration: how fast the memory system served them.",
            true),
      MetricSource::Derived,
      {"smsp__sass_inst_executed_op_global_atom", "smsp__sass_inst_executed_op_global_red", "gpu__time_duration.sum"}));
  // Memory
  c.push_back(range("dram__bytes_read.sum", "DRAM bytes read", "bytes", "memory",
                    "Bytes read from device memory (HBM).\n"
                    "A reduction must read its input once: n x 4 bytes; more means re-reading.",
                    true, "n x element size: every input element read once"));
  c.push_back(range("dram__bytes_write.sum", "DRAM bytes written", "bytes", "memory",
                    "Bytes written to device memory.\n"
                    "Small for a reduction; large for in-place variants that overwrite their input.",
                    true));
  c.push_back(range("dram__throughput.avg.pct_of_peak_sustained_elapsed", "DRAM throughput", "%", "memory",
                    "Device-memory traffic in % of its peak over the kernel's time.\n"
                    "Near 90 % the kernel is memory-bound and done; low values leave bandwidth unused.",
                    false));
  c.push_back(with_source(range("ws__dram_gbps", "DRAM bandwidth", "GB/s", "memory",
                                "DRAM bytes read and written over the profiled kernel time (bytes per ns = GB/s).\n"
                                "Compare with the device copy bandwidth: near it, the kernel is memory-bound and done.",
                                true),
                          MetricSource::Derived,
                          {"dram__bytes_read.sum", "dram__bytes_write.sum", "gpu__time_duration.sum"}));
  c.push_back(range("lts__t_sector_hit_rate.pct", "L2 hit rate", "%", "memory",
                    "Share of L2 sector accesses found in the L2 cache.\n"
                    "A streaming reduction misses almost always; re-read data (multi-pass) hits.",
                    false));
  c.push_back(range("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "global load sectors", "sectors", "memory",
                    "32-byte sectors global loads touched.\n"
                    "Coalesced loads of 4-byte words need 4 sectors per warp request.",
                    false));
  c.push_back(range("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "global load requests", "requests", "memory",
                    "Warp-wide global load requests.\n"
                    "Sectors over requests: 4 when coalesced (int32), up to 32 when scattered.",
                    false));
  // Barriers
  c.push_back(range("smsp__warp_issue_stalled_barrier_per_warp_active.pct", "barrier stalls", "%", "barriers",
                    "Share of warp cycles spent waiting at __syncthreads() for the rest of the block.\n"
                    "The cost of a block-wide barrier; warp-synchronous code (shuffles) avoids it.",
                    false));
  // Stalls: a pass of its own with the PC Sampling API (not in the default set: it costs a run).
  c.push_back(
      with_source(range("ws__pc_samples", "pcsampling", "samples", "stalls",
                        "Warp program counters sampled every 2^k cycles, each with why the warp did not issue.\n"
                        "Per source line and reason (barrier, long scoreboard, ...): the Source tab's stall column.",
                        false),
                  MetricSource::PcSampling));
  return c;
}

std::string trim(const std::string& s) {
  std::size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

}  // namespace

const std::vector<MetricDef>& metric_catalog() {
  static const std::vector<MetricDef> c = build_catalog();
  return c;
}

const MetricDef* find_metric(const std::string& name) {
  for (const auto& d : metric_catalog())
    if (d.name == name || d.short_name == name) return &d;
  return nullptr;
}

std::string parse_metric_selection(const std::string& spec, MetricSelection& out) {
  out = MetricSelection{};
  if (trim(spec).empty()) return "";
  std::set<std::string> asked;
  std::size_t pos = 0;
  while (true) {
    std::size_t comma = spec.find(',', pos);
    std::string tok = trim(spec.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos));
    if (tok.empty()) return "--metrics '" + spec + "' has an empty name (use default, all or NAME,NAME)";
    if (tok == "default" || tok == "all") {
      for (const auto& d : metric_catalog())
        if (tok == "all" || d.in_default) asked.insert(d.name);
    } else if (const MetricDef* d = find_metric(tok)) {
      asked.insert(d->name);
    } else {
      return "unknown metric '" + tok + "' (warpscope-cli metrics lists them)";
    }
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  std::set<std::string> range_set;
  for (const auto& d : metric_catalog()) {
    if (!asked.count(d.name)) continue;
    out.metrics.push_back(&d);
    if (d.source == MetricSource::Range) range_set.insert(d.name);
    if (d.source == MetricSource::Derived)
      for (const auto& in : d.inputs) {
        const MetricDef* src = find_metric(in);
        if (src && src->source == MetricSource::Sass)
          out.sass = true;
        else
          range_set.insert(in);
      }
    if (d.source == MetricSource::PerLine) out.per_line = true;
    if (d.source == MetricSource::Sass) out.sass = true;
    if (d.source == MetricSource::Occupancy) out.occupancy = true;
    if (d.source == MetricSource::PcSampling) out.pc_sampling = true;
  }
  for (const auto& d : metric_catalog())  // catalog order, so passes and output are stable
    if (range_set.count(d.name)) out.range_metrics.push_back(d.name);
  return "";
}

void derive_metrics(const MetricSelection& sel, KernelMetrics& m) {
  auto has = [&](const std::string& k) { return m.values.count(k) > 0; };
  for (const MetricDef* d : sel.metrics) {
    if (d->source != MetricSource::Derived) continue;
    std::vector<std::string> missing;
    for (const auto& in : d->inputs)
      if (!has(in)) missing.push_back(in);
    if (!missing.empty()) {
      m.warnings.push_back("no " + d->short_name + ": " + missing.front() + " was not measured");
      continue;
    }
    double num = 0, den = 0;
    if (d->name == "ws__global_atomics_per_ns" || d->name == "ws__dram_gbps") {
      num = m.values[d->inputs[0]] + m.values[d->inputs[1]];
      den = m.values[d->inputs[2]];
    } else if (d->name == "ws__uniform_branch_pct") {  // uniform / (uniform + divergent), in %
      num = 100.0 * m.values[d->inputs[0]];
      den = m.values[d->inputs[0]] + m.values[d->inputs[1]];
    } else {  // ratios of two counters
      num = m.values[d->inputs[0]];
      den = m.values[d->inputs[1]];
    }
    if (den > 0)
      m.values[d->name] = num / den;
    else if (d->name == "ws__uniform_branch_pct")
      m.warnings.push_back("no " + d->short_name +
                           ": the kernels executed no branch (the compiler predicated the ifs)");
    else
      m.warnings.push_back("no " + d->short_name + ": " + d->inputs.back() + " is 0");
  }
}

std::map<std::string, double> predict_metrics(const PredictionInputs& in) {
  std::map<std::string, double> p;
  const double g = double(in.grid);
  if (in.n > 0) p["dram__bytes_read.sum"] = double(in.n) * in.element_bytes;
  if (g <= 0) return p;
  p["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"] = in.shared_load_conflicts * g;
  p["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"] = in.shared_store_conflicts * g;
  // No prediction of shared load instructions (nor of ratios over them): nvcc predicates short
  // if-bodies, so the GPU issues loads for warps with every lane off, which the model does not count
  // (H200, harris.impl2: 8.49 M issued against 1.64 M warp-wide loads with lanes on).
  // The source's atomics, per thread: the compiler decides whether they become atom or red requests,
  // and may aggregate a warp's lanes into one; the view says so next to the measured value.
  p["ws__source_global_atomics"] = in.global_atomics * g;
  if (in.shared_atomics > 0) {
    p["smsp__inst_executed_op_shared_atom.sum"] = in.shared_atomics * g;
    p["smsp__sass_inst_executed_op_shared_atom"] = in.shared_atomics * g;
  }
  if (in.tree_lanes_per_warp > 0)
    p["smsp__average_thread_inst_executed_pred_on_per_inst_executed.ratio"] = in.tree_lanes_per_warp;
  return p;
}

std::string occupancy_limiter(const OccupancyLimits& l) {
  const std::pair<int, const char*> limits[] = {{l.blocks_by_warps, "block size"},
                                                {l.blocks_by_registers, "registers"},
                                                {l.blocks_by_shared, "shared memory"},
                                                {l.blocks_by_cap, "blocks per SM"}};
  int best = -1;
  const char* name = "";
  for (const auto& [v, n] : limits)
    if (v > 0 && (best < 0 || v < best)) {
      best = v;
      name = n;
    }
  return name;
}

std::string format_metric_value(const MetricDef& d, double v) {
  char buf[64];
  if (d.unit == "%") {
    std::snprintf(buf, sizeof buf, "%.1f %%", v);
  } else if (d.unit == "ns") {
    if (v >= 1e6)
      std::snprintf(buf, sizeof buf, "%.3g ms", v / 1e6);
    else if (v >= 1e3)
      std::snprintf(buf, sizeof buf, "%.3g us", v / 1e3);
    else
      std::snprintf(buf, sizeof buf, "%.3g ns", v);
  } else if (d.unit == "bytes") {
    if (v >= 1e9)
      std::snprintf(buf, sizeof buf, "%.3g GB", v / 1e9);
    else if (v >= 1e6)
      std::snprintf(buf, sizeof buf, "%.3g MB", v / 1e6);
    else if (v >= 1e3)
      std::snprintf(buf, sizeof buf, "%.3g kB", v / 1e3);
    else
      std::snprintf(buf, sizeof buf, "%.0f B", v);
  } else if (d.unit == "1/ns") {
    std::snprintf(buf, sizeof buf, "%.3g G/s", v);
  } else if (std::fabs(v) >= 1e9) {
    std::snprintf(buf, sizeof buf, "%.3g G", v / 1e9);
  } else if (std::fabs(v) >= 1e6) {
    std::snprintf(buf, sizeof buf, "%.3g M", v / 1e6);
  } else if (std::fabs(v) >= 1e4) {
    std::snprintf(buf, sizeof buf, "%.3g k", v / 1e3);
  } else if (v == std::floor(v)) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
  } else {
    std::snprintf(buf, sizeof buf, "%.3g", v);
  }
  return buf;
}

}  // namespace ws
