// The kernel files of the trace build, by pattern: generated (generated/traced_<pattern>.cpp) from the files
// kernels/CMakeLists.txt finds by their `WS_TRACE_NS_BEGIN` line, so a new traced kernel file needs no edit
// of any list. A file kernels/<pattern>/<name>.cu provides <name>_launchers() and <name>_arm() in
// ws::kernels::traced (WS_TRACE_ARM_FUNCTION(<name>_arm); TracePoints tests check the convention). Each
// pattern whose kernels have a trace build gets its table generated whole (ws_generate_traced_tables,
// cmake/generate_traced_table.cmake): patterns/<pattern>_traced.hpp in the build (namespace
// ws::cuda::<pattern>_traced: `Launchers`, `File` and `traced_files()`), whose launcher entry is the one its
// launch contract names (`namespace <pattern>_traced { using Entry = ...; }` in kernels/<pattern>/*_launch.hpp);
// its runner's `record` (pattern_runner.hpp) reads it. A marked file of a pattern whose contract names no
// entry stops the configuration.
#pragma once
#include <vector>

#include "pattern_runner.hpp"  // TraceArm

namespace ws::cuda {

/// One kernel file of the trace build: its instrumented launchers (`Entry`: the pattern's launcher entry,
/// with a variant id in `id`) and the function that arms them.
template <class Entry>
struct TracedKernelFile {
  std::vector<Entry> (*launchers)() = nullptr;
  TraceArm arm = nullptr;
};

}  // namespace ws::cuda
