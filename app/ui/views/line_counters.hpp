// Per source line counters as the editor's margin and the Source view show them: the memory column
// ("2.0 w/i": shared wavefronts per shared instruction, the bank-conflict ways; "4.0 s/r": 32-byte sectors
// per global request) and the tooltip that spells a line's counters out. Text only: the callers draw it.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "metrics.hpp"

namespace ws::ui {

/// The memory column's text for a line: "2.0 w/i" where it has shared instructions and wavefronts were
/// counted, else "4.0 s/r" where it has global requests and sectors were counted, else "".
std::string line_memory_label(const LineMetrics& l);

/// Whether the line's memory column marks a cost: more than 1.05 wavefronts per shared instruction (a bank
/// conflict, for 32-bit words), or more than 4.05 sectors per global request (more than a warp's
/// coalesced 4-byte lanes need).
bool line_memory_costly(const LineMetrics& l);

/// A line's counters in words, for its tooltip: warp instructions and lanes, then the shared figures
/// (instructions, wavefronts, ways, conflicts) and the global ones (requests, sectors, per request) it has.
std::string line_counters_tooltip(const LineMetrics& l);

/// The memory column's legend (a tooltip): what w/i and s/r are and their conflict-free values.
extern const char* const kLineMemoryLegend;

/// The counters of `lines` that name `file`, summed per line number (1-based).
std::map<int, LineMetrics> lines_of_file(const std::vector<LineMetrics>& lines, const std::string& file);

}  // namespace ws::ui
