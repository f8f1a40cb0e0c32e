// The scan pattern's trace build (traced_kernels.hpp): every kernels/scan/*.cu with a line
// WS_TRACE_NS_BEGIN, tabled by app/cuda/CMakeLists.txt (generated/traced_scan.cpp) and read by the scan
// runner's record (run_scan.cpp). Every scan model traces the first launch (launch 0).
#pragma once
#include <vector>

#include "scan/scan_launch.hpp"
#include "traced_kernels.hpp"

namespace ws::cuda::scan_traced {

/// What a traced scan file's <name>_launchers() returns.
using Launchers = std::vector<kernels::ScanLauncherEntry>;
/// One traced scan file: its launchers and its arm function.
using File = TracedKernelFile<kernels::ScanLauncherEntry>;

/// Every traced kernels/scan/*.cu (generated/traced_scan.cpp), sorted by file name.
std::vector<File> traced_files();

}  // namespace ws::cuda::scan_traced
