// Theoretical occupancy of a captured launch: the CUDA occupancy API (resident blocks per SM) and
// the function's attributes (registers, shared memory), with the limiter named. Driver functions
// are reached through cudaGetDriverEntryPointByVersion, so warpscope needs no libcuda at link time.
#pragma once
#include <string>

#include "cupti/cupti_tracker.hpp"

namespace ws::cuda {

struct Occupancy {
  int blocks_per_sm = 0;  ///< from cuOccupancyMaxActiveBlocksPerMultiprocessor
  int warps_per_block = 0;
  int max_warps_per_sm = 0;
  double theoretical_pct = 0;  ///< blocks * warps per block / max warps, in %
  int registers_per_thread = 0;
  int static_smem = 0;  ///< bytes per block
  std::string limiter;  ///< occupancy_limiter() of the limits computed from the attributes
  std::string kernel;   ///< the function's (mangled) name, from cuFuncGetName
};

/// Throws std::runtime_error when a driver entry point or call fails.
Occupancy theoretical_occupancy(const CapturedLaunch& l, int device);

/// The current context of the calling thread (the runtime's primary context once it is up).
CUcontext current_context();

}  // namespace ws::cuda
