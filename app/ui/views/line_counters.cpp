#include "views/line_counters.hpp"

#include <cstdio>

#include "metric_catalog.hpp"

namespace ws::ui {

namespace {

std::string count(double v) {
  MetricDef d;
  d.unit = "count";
  return format_metric_value(d, v);
}

std::string ratio(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

}  // namespace

const char* const kLineMemoryLegend =
    "w/i: shared-memory wavefronts per shared instruction, the line's bank-conflict ways: 1.0 conflict-free, "
    "2.0 a 2-way conflict, up to 32 (for 32-bit words; 64- and 128-bit accesses need 2 and 4).\n"
    "s/r: 32-byte sectors per global memory request: 4.0 for a warp's coalesced 4-byte loads, up to 32 when "
    "every lane hits a sector of its own.\n"
    "From the SASS metrics of the run (smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared, "
    "smsp__sass_sectors_mem_global), as Nsight Compute's source page counts them.";

std::string line_memory_label(const LineMetrics& l) {
  if (l.shared_instructions() > 0 && l.shared_wavefronts > 0)
    return ratio(l.wavefronts_per_shared_instruction()) + " w/i";
  if (l.global_requests() > 0 && l.global_sectors > 0) return ratio(l.sectors_per_request()) + " s/r";
  return "";
}

bool line_memory_costly(const LineMetrics& l) {
  if (l.shared_instructions() > 0 && l.shared_wavefronts > 0) return l.wavefronts_per_shared_instruction() > 1.05;
  return l.global_requests() > 0 && l.sectors_per_request() > 4.05;
}

std::string line_counters_tooltip(const LineMetrics& l) {
  std::string t = "line " + std::to_string(l.line) + ": " + count(l.warp_instructions) + " warp instructions, " +
                  ratio(l.lanes_per_instruction()) + " active lanes each (of 32)";
  if (l.shared_instructions() > 0) {
    t += "\nshared memory: " + count(l.shared_instructions()) + " instructions (" + count(l.shared_loads) + " loads, " +
         count(l.shared_stores) + " stores";
    if (l.shared_atomics > 0) t += ", " + count(l.shared_atomics) + " atomics";
    t += ")";
    if (l.shared_wavefronts > 0)
      t += ", " + count(l.shared_wavefronts) + " wavefronts: " + ratio(l.wavefronts_per_shared_instruction()) +
           " per instruction, " + count(l.bank_conflicts()) + " bank conflicts (excess wavefronts)";
    else
      t += "; wavefronts not counted (see the run's warnings)";
  }
  if (l.global_requests() > 0) {
    t += "\nglobal memory: " + count(l.global_requests()) + " requests (" + count(l.global_loads) + " loads, " +
         count(l.global_stores) + " stores";
    if (l.global_atomics > 0) t += ", " + count(l.global_atomics) + " atomics";
    t += ")";
    if (l.global_sectors > 0)
      t += ", " + count(l.global_sectors) + " sectors of 32 bytes: " + ratio(l.sectors_per_request()) + " per request";
    else
      t += "; sectors not counted (see the run's warnings)";
  }
  return t;
}

std::map<int, LineMetrics> lines_of_file(const std::vector<LineMetrics>& lines, const std::string& file) {
  std::map<int, LineMetrics> out;
  for (const LineMetrics& l : lines) {
    if (l.file != file) continue;
    LineMetrics& o = out[l.line];
    o.file = l.file;
    o.line = l.line;
    o.warp_instructions += l.warp_instructions;
    o.thread_instructions += l.thread_instructions;
    o.shared_loads += l.shared_loads;
    o.shared_stores += l.shared_stores;
    o.shared_atomics += l.shared_atomics;
    o.shared_wavefronts += l.shared_wavefronts;
    o.global_loads += l.global_loads;
    o.global_stores += l.global_stores;
    o.global_atomics += l.global_atomics;
    o.global_sectors += l.global_sectors;
  }
  return out;
}

}  // namespace ws::ui
