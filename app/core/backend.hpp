// The backend interface: a RunRequest goes in, a RunResult comes out (DESIGN.md, "Backends").
#pragma once
#include <memory>
#include <string>

#include "inputs.hpp"
#include "launch_rules.hpp"
#include "pattern_params.hpp"
#include "run_types.hpp"
#include "sim/trace.hpp"
#include "variant.hpp"

namespace ws {

/// The device a backend runs on. For the CPU-only build: available = false.
struct DeviceInfo {
  bool available = false;
  std::string name;            ///< e.g. "NVIDIA H200"
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0, max_threads_per_sm = 0;
  double memory_gib = 0;
  double mem_clock_mhz = 0;    ///< peak memory clock
  double sm_clock_mhz = 0;     ///< peak SM clock (cudaDevAttrClockRate); 0 = not known (reports before it was stored)
  int bus_width_bits = 0;
  double theoretical_gbps = 0; ///< 2 (DDR) * clock * bus width / 8, GB/s
  double copy_gbps = 0;        ///< measured device-to-device copy, bytes read + written / time, GB/s
  std::string driver, runtime;
  std::string error;           ///< why no device, when !available
  DeviceShape shape() const { return DeviceShape{sm_count, max_threads_per_sm}; }
};

/// A place where variants run. run() never throws for bad input: it returns status "error".
class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;
  virtual const DeviceInfo& device() const = 0;
  /// Runs an already validated request on its input. `launch` is the resolved launch.
  virtual RunResult run(const VariantInfo& v, const RunRequest& req, const Input& in, const LaunchConfig& launch) = 0;
  /// Records on the device the trace of block `block_index` of the variant's traced launch, building
  /// it against `model` (the sim trace of the same run, for step labels). `params`: the array patterns'
  /// parameters the model ran with (a scan's exclusive flag). Returns "" or a one-line reason. Backends
  /// that cannot record say so.
  virtual std::string record_trace(const VariantInfo& v, const Input& in, const LaunchConfig& launch, int block_index,
                                   const Trace& model, Trace& out, const PatternParams& params = PatternParams{}) {
    (void)v, (void)in, (void)launch, (void)block_index, (void)model, (void)out, (void)params;
    return "the " + name() + " backend does not record traces on a device";
  }
};

}  // namespace ws
