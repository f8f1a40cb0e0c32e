// The process's one CUPTI callback subscriber (CUPTI allows one): it keeps a copy of every module
// (cubin) the CUDA context loads, for mapping SASS program counters to source lines, and, while
// capture is on, records kernel launches (function, block, dynamic shared memory) for the
// occupancy API. Must start before the CUDA context exists (CudaBackend's constructor does it),
// so that no module load is missed.
#pragma once
#include <cuda.h>

#include <cstdint>
#include <string>
#include <vector>

namespace ws::cuda {

/// A kernel launch seen by the driver-API callback.
struct CapturedLaunch {
  CUfunction function = nullptr;
  std::string name;              ///< symbol name as CUPTI reports it (mangled)
  unsigned grid = 0, block = 0;  ///< x * y * z
  unsigned dynamic_smem = 0;     ///< bytes
};

/// Subscribes once (later calls do nothing). Returns "" or why not (the metrics then say so).
std::string start_cupti_tracking();

/// Starts / stops recording launches; stop returns those seen since start, in launch order.
void begin_launch_capture();
std::vector<CapturedLaunch> end_launch_capture();

/// The cubins loaded so far (copies), with CUPTI's CRC of each.
struct LoadedCubin {
  std::vector<char> image;
  std::uint64_t crc = 0;
};
std::vector<const LoadedCubin*> loaded_cubins();

}  // namespace ws::cuda
