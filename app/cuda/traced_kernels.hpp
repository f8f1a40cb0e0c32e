// The kernel files of the trace build, by pattern: generated (generated/traced_<pattern>.cpp) from the files
// kernels/CMakeLists.txt finds by their `WS_TRACE_NS_BEGIN` line, so a new traced kernel file needs no edit
// of any list. A file kernels/<pattern>/<name>.cu provides <name>_launchers() and <name>_arm() in
// ws::kernels::traced (WS_TRACE_ARM_FUNCTION(<name>_arm); TracePoints tests check the convention). Each
// pattern whose kernels have a trace build declares its table in app/cuda/patterns/<pattern>_traced.hpp
// (namespace ws::cuda::<pattern>_traced: `Launchers`, `File` and `traced_files()`), which app/cuda/CMakeLists.txt
// generates; its runner's `record` (pattern_runner.hpp) reads it. A marked file of a pattern without that
// header stops the configuration.
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
