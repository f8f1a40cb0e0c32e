// The kernel files of the trace build, by pattern: generated (generated/traced_*.cpp) from the files
// kernels/CMakeLists.txt finds by their `WS_TRACE_NS_BEGIN` line, so a new traced kernel file needs no
// edit of gpu_trace.cpp. A file kernels/<pattern>/<name>.cu provides <name>_launchers() and <name>_arm()
// in ws::kernels::traced (WS_TRACE_ARM_FUNCTION(<name>_arm); TracePoints tests check the convention).
#pragma once
#include <string>
#include <vector>

#include "reduction/reduce_launch.hpp"
#include "scan/scan_launch.hpp"

namespace ws::cuda {

/// One reduction kernel file of the trace build: its instrumented launchers and the function that arms them.
struct TracedReductionFile {
  std::vector<kernels::LauncherEntry> (*launchers)() = nullptr;
  kernels::traced::ArmFunction arm = nullptr;
};

/// One scan kernel file of the trace build (every scan model traces launch 0).
struct TracedScanFile {
  std::vector<kernels::ScanLauncherEntry> (*launchers)() = nullptr;
  kernels::traced::ArmFunction arm = nullptr;
};

/// Every kernels/reduction/*.cu of the trace build (generated/traced_reductions.cpp), sorted by file name.
std::vector<TracedReductionFile> traced_reduction_files();
/// Every kernels/scan/*.cu of the trace build (generated/traced_scans.cpp), sorted by file name.
std::vector<TracedScanFile> traced_scan_files();

/// The ids of the variants the GPU can record a trace of (the launchers of every traced file), sorted.
std::vector<std::string> gpu_traced_variant_ids();

}  // namespace ws::cuda
