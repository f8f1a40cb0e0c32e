// The reduction pattern's trace build (traced_kernels.hpp): every kernels/reduction/*.cu with a line
// WS_TRACE_NS_BEGIN, tabled by app/cuda/CMakeLists.txt (generated/traced_reduction.cpp) and read by the
// reduction runner's record (run_reduction.cpp).
#pragma once
#include <vector>

#include "reduction/reduce_launch.hpp"
#include "traced_kernels.hpp"

namespace ws::cuda::reduction_traced {

/// What a traced reduction file's <name>_launchers() returns.
using Launchers = std::vector<kernels::LauncherEntry>;
/// One traced reduction file: its launchers and its arm function.
using File = TracedKernelFile<kernels::LauncherEntry>;

/// Every traced kernels/reduction/*.cu (generated/traced_reduction.cpp), sorted by file name.
std::vector<File> traced_files();

}  // namespace ws::cuda::reduction_traced
