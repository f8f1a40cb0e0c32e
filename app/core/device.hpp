// The GPU a backend runs on, as runs and reports record it: plain data, no device access (app/cuda
// fills it; the sim backend and replayed reports carry one without a GPU).
#pragma once
#include <string>

#include "launch_rules.hpp"

namespace ws {

/// The device a backend runs on. For the CPU-only build: available = false.
struct DeviceInfo {
  bool available = false;
  std::string name;  ///< e.g. "NVIDIA H200"
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0, max_threads_per_sm = 0;
  double memory_gib = 0;
  double mem_clock_mhz = 0;  ///< peak memory clock
  double sm_clock_mhz = 0;   ///< peak SM clock (cudaDevAttrClockRate); 0 = not known (reports before it was stored)
  int bus_width_bits = 0;
  double theoretical_gbps = 0;  ///< 2 (DDR) * clock * bus width / 8, GB/s
  double copy_gbps = 0;         ///< measured device-to-device copy, bytes read + written / time, GB/s
  std::string driver, runtime;
  std::string error;  ///< why no device, when !available
  /// The backend had a device and lost its CUDA context to a fault (CudaBackend::settle; available is false
  /// and `error` says which run faulted): its runs answer "not run" themselves rather than "no device".
  /// Written to JSON (device_to_json) only when true, so reports of a working device are unchanged.
  bool context_lost = false;
  DeviceShape shape() const { return DeviceShape{sm_count, max_threads_per_sm}; }
};

}  // namespace ws
