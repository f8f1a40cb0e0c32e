#include "collective/topology.hpp"

#include <dlfcn.h>

#include <vector>

#include "collective/gpu_group.hpp"
#include "common/check_cuda.hpp"

namespace ws::cuda::collective {

namespace {

// The few NVML entry points read here, declared as NVML's C API documents them (nvml.h is not part of the
// CUDA toolkit this builds with, and the library comes with the driver: it is opened at run time, so a
// machine without it still runs everything else).
using nvmlDevice = struct nvmlDevice_st*;
constexpr int kNvmlSuccess = 0;
constexpr int kNvmlFeatureEnabled = 1;
constexpr unsigned kNvlinkMaxLinks = 18;  // NVML_NVLINK_MAX_LINKS for Hopper and Blackwell
struct Nvml {
  int (*init)() = nullptr;
  int (*handle_by_pci_bus_id)(const char*, nvmlDevice*) = nullptr;
  int (*nvlink_state)(nvmlDevice, unsigned, int*) = nullptr;
};

const Nvml* nvml() {
  static const Nvml* loaded = []() -> const Nvml* {
    void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return nullptr;
    static Nvml n;
    n.init = reinterpret_cast<int (*)()>(dlsym(lib, "nvmlInit_v2"));
    n.handle_by_pci_bus_id =
        reinterpret_cast<int (*)(const char*, nvmlDevice*)>(dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2"));
    n.nvlink_state = reinterpret_cast<int (*)(nvmlDevice, unsigned, int*)>(dlsym(lib, "nvmlDeviceGetNvLinkState"));
    if (!n.init || !n.handle_by_pci_bus_id || !n.nvlink_state || n.init() != kNvmlSuccess) return nullptr;
    return &n;  // NVML stays initialized for the process (nvmlShutdown is not needed at exit)
  }();
  return loaded;
}

/// GB/s per link and direction by compute capability major (NVLink generation of that architecture).
double per_link_gbs(int major) {
  if (major >= 10) return 50;  // Blackwell, NVLink 5
  if (major >= 7) return 25;   // Volta NVLink 2, Ampere NVLink 3, Hopper NVLink 4
  return 0;
}

}  // namespace

Link link_between(int a, int b) {
  Link l;
  int access = 0, rank = 0;
  if (cudaDeviceGetP2PAttribute(&access, cudaDevP2PAttrAccessSupported, a, b) != cudaSuccess) {
    (void)cudaGetLastError();
    l.name = "unknown (the CUDA runtime could not read the peer attributes)";
    return l;
  }
  if (!access) {
    l.name = "no peer access";
    return l;
  }
  (void)cudaDeviceGetP2PAttribute(&rank, cudaDevP2PAttrPerformanceRank, a, b);
  const Nvml* n = nvml();
  char bus_id[32] = {};
  if (!n || cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, a) != cudaSuccess) {
    (void)cudaGetLastError();
    l.name = "unknown (peer access, performance rank " + std::to_string(rank) + "; NVML not available)";
    return l;
  }
  nvmlDevice dev = nullptr;
  if (n->handle_by_pci_bus_id(bus_id, &dev) != kNvmlSuccess) {
    l.name = "unknown (peer access; NVML does not know GPU " + std::to_string(a) + ")";
    return l;
  }
  int links = 0;
  for (unsigned k = 0; k < kNvlinkMaxLinks; ++k) {
    int active = 0;
    if (n->nvlink_state(dev, k, &active) == kNvmlSuccess && active == kNvmlFeatureEnabled) ++links;
  }
  if (links == 0) {
    l.name = "PCIe";
    return l;
  }
  int major = 0;
  (void)cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, a);
  l.name = "NVLink x" + std::to_string(links);
  l.gbs = links * per_link_gbs(major);
  return l;
}

double peer_copy_gbs(int src, int dst, std::int64_t bytes, int warmup, int repeats) {
  if (bytes <= 0) return 0;
  DeviceBuffer from(src, std::size_t(bytes)), to(dst, std::size_t(bytes));
  WS_CUDA(cudaSetDevice(src));
  cudaStream_t s = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  WS_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  WS_CUDA(cudaEventCreate(&start));
  WS_CUDA(cudaEventCreate(&stop));
  WS_CUDA(cudaMemsetAsync(from.ptr, 1, std::size_t(bytes), s));  // copy written bytes, not fresh pages
  std::vector<double> ms;
  cudaError_t err = cudaSuccess;
  for (int i = 0; i < warmup + repeats && err == cudaSuccess; ++i) {
    err = cudaEventRecord(start, s);
    if (err == cudaSuccess) err = cudaMemcpyPeerAsync(to.ptr, dst, from.ptr, src, std::size_t(bytes), s);
    if (err == cudaSuccess) err = cudaEventRecord(stop, s);
    if (err == cudaSuccess) err = cudaEventSynchronize(stop);
    float t = 0;
    if (err == cudaSuccess && i >= warmup) err = cudaEventElapsedTime(&t, start, stop);
    if (err == cudaSuccess && i >= warmup) ms.push_back(t);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaStreamDestroy(s);
  WS_CUDA(err);
  const double m = median(ms);
  return m > 0 ? double(bytes) / (m * 1e6) : 0.0;
}

}  // namespace ws::cuda::collective
