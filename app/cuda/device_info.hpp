// Device facts for the status bar and for bandwidth percentages.
#pragma once
#include "backend.hpp"
#include "gpu_fault_marks.hpp"

namespace ws::cuda {

/// Reads device `ordinal`: name, SMs, memory clock and bus width -> theoretical bandwidth
/// (2 transfers per clock * clock * bus width / 8, in GB/s). available = false with `error` set when
/// there is no device or no driver. Does not measure copy bandwidth.
DeviceInfo query_device(int ordinal);

/// Device `ordinal`'s UUID (cudaDeviceProp::uuid, nvidia-smi's form) and PCI bus id (cudaDeviceGetPCIBusId),
/// the identity its fault mark carries (gpu_fault_marks.hpp). Fields stay "" when CUDA cannot tell.
GpuIdentity query_gpu_identity(int ordinal);

/// Measures device-to-device copy bandwidth in GB/s, counting bytes read + written, as the median of
/// `repeat` cudaMemcpyAsync calls of `bytes` bytes after 2 warm-ups (CUDA events). Throws on CUDA errors.
double measure_copy_gbps(std::size_t bytes, int repeat);

}  // namespace ws::cuda
