// ---------------------------------------------------------------------------------------------------
// cub.scan. The library baseline: CUB's DeviceScan from the CUDA Toolkit (a tuned single-pass scan with
// decoupled look-back; tile sizes chosen per GPU). InclusiveSum, or ExclusiveSum for --exclusive.
#include <cub/device/device_scan.cuh>

#include <stdexcept>

#include "scan/scan_launch.hpp"

namespace ws::kernels {
namespace {

template <typename T>
std::size_t cub_scratch_t(std::int64_t n) {
  std::size_t inclusive = 0, exclusive = 0;
  const int items = static_cast<int>(n);
  WS_CUDA(cub::DeviceScan::InclusiveSum(nullptr, inclusive, static_cast<const T*>(nullptr), static_cast<T*>(nullptr),
                                        items));
  WS_CUDA(cub::DeviceScan::ExclusiveSum(nullptr, exclusive, static_cast<const T*>(nullptr), static_cast<T*>(nullptr),
                                        items));
  return inclusive > exclusive ? inclusive : exclusive;
}

std::size_t cub_scratch(std::int64_t n, int, DType type) {
  return type == DType::Int32 ? cub_scratch_t<int>(n) : cub_scratch_t<float>(n);
}

template <typename T>
int run_cub_t(const ScanArgs& a) {
  std::size_t bytes = a.scratch_bytes;
  const auto* in = static_cast<const T*>(a.in);
  auto* out = static_cast<T*>(a.out);
  const int items = static_cast<int>(a.n);
  if (a.exclusive)
    WS_CUDA(cub::DeviceScan::ExclusiveSum(a.scratch, bytes, in, out, items, a.stream));
  else
    WS_CUDA(cub::DeviceScan::InclusiveSum(a.scratch, bytes, in, out, items, a.stream));
  return 2;  // CUB's tile-status initialization kernel, then the scan kernel
}

int run_cub(const ScanArgs& a) { return a.type == DType::Int32 ? run_cub_t<int>(a) : run_cub_t<float>(a); }

}  // namespace

std::vector<ScanLauncherEntry> cub_scan_launchers() { return {{"cub.scan", run_cub, cub_scratch}}; }

}  // namespace ws::kernels
