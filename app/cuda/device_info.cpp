#include "device_info.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "common/check_cuda.hpp"

namespace ws::cuda {

namespace {
std::string version_string(int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); }
}  // namespace

DeviceInfo query_device(int ordinal) {
  DeviceInfo d;
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    // Without libcuda the runtime answers "driver version is insufficient", which would send the user
    // to upgrade a driver that is not there: the driver version (0 = none installed) tells them apart.
    int drv = 0, rt = 0;
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    if (drv == 0)
      d.error = "no NVIDIA driver or GPU was found on this machine (libcuda.so.1 is not installed)";
    else if (err == cudaErrorInsufficientDriver)
      d.error = "the NVIDIA driver supports CUDA " + version_string(drv) + ", older than the CUDA " +
                version_string(rt) + " runtime of this build: update the driver";
    else if (err == cudaErrorNoDevice)
      d.error = "the NVIDIA driver found no GPU on this machine";
    else
      d.error = std::string("CUDA could not list the GPUs: ") + cudaGetErrorString(err);
    cudaGetLastError();
    return d;
  }
  if (count <= ordinal) {
    d.error = "the NVIDIA driver found no GPU on this machine";
    return d;
  }
  cudaDeviceProp p{};
  if ((err = cudaGetDeviceProperties(&p, ordinal)) != cudaSuccess) {
    d.error = cudaGetErrorString(err);
    return d;
  }
  d.available = true;
  d.name = p.name;
  d.cc_major = p.major;
  d.cc_minor = p.minor;
  d.sm_count = p.multiProcessorCount;
  d.max_threads_per_sm = p.maxThreadsPerMultiProcessor;
  d.memory_gib = double(p.totalGlobalMem) / (1024.0 * 1024.0 * 1024.0);
  int clock_khz = 0, bus_bits = 0;
  cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, ordinal);
  cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, ordinal);
  d.mem_clock_mhz = clock_khz / 1000.0;
  d.bus_width_bits = bus_bits;
  int sm_khz = 0;
  cudaDeviceGetAttribute(&sm_khz, cudaDevAttrClockRate, ordinal);
  d.sm_clock_mhz = sm_khz / 1000.0;
  d.theoretical_gbps = 2.0 * clock_khz * 1e3 * (bus_bits / 8.0) / 1e9;
  int drv = 0, rt = 0;
  cudaDriverGetVersion(&drv);
  cudaRuntimeGetVersion(&rt);
  d.driver = version_string(drv);
  d.runtime = version_string(rt);
  return d;
}

GpuIdentity query_gpu_identity(int ordinal) {
  GpuIdentity id;
  cudaDeviceProp p{};
  if (cudaGetDeviceProperties(&p, ordinal) == cudaSuccess) {
    id.uuid = format_gpu_uuid(reinterpret_cast<const unsigned char*>(p.uuid.bytes));
    id.name = p.name;
  }
  char bus[32] = {};
  if (cudaDeviceGetPCIBusId(bus, sizeof bus, ordinal) == cudaSuccess) id.pci_bus_id = bus;
  cudaGetLastError();
  return id;
}

double measure_copy_gbps(std::size_t bytes, int repeat) {
  void *src = nullptr, *dst = nullptr;
  WS_CUDA(cudaMalloc(&src, bytes));
  WS_CUDA(cudaMalloc(&dst, bytes));
  WS_CUDA(cudaMemset(src, 1, bytes));
  cudaEvent_t start, stop;
  WS_CUDA(cudaEventCreate(&start));
  WS_CUDA(cudaEventCreate(&stop));
  std::vector<float> ms;
  for (int i = 0; i < repeat + 2; ++i) {
    WS_CUDA(cudaEventRecord(start));
    WS_CUDA(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice));
    WS_CUDA(cudaEventRecord(stop));
    WS_CUDA(cudaEventSynchronize(stop));
    float t = 0;
    WS_CUDA(cudaEventElapsedTime(&t, start, stop));
    if (i >= 2) ms.push_back(t);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaFree(src);
  cudaFree(dst);
  std::sort(ms.begin(), ms.end());
  const double median = ms[ms.size() / 2];
  return 2.0 * double(bytes) / (median * 1e-3) / 1e9;
}

}  // namespace ws::cuda
