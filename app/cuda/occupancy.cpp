#include "occupancy.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>

#include "metric_catalog.hpp"

namespace ws::cuda {

namespace {

/// A driver function by name, as of driver API version `version` (a function is found only from the
/// version that introduced it: cuFuncGetName needs 12030). nullptr when the driver has none.
template <typename Fn>
Fn driver_fn_or_null(const char* name, unsigned version = 12000) {
  void* p = nullptr;
  cudaDriverEntryPointQueryResult q{};
  if (cudaGetDriverEntryPointByVersion(name, &p, version, cudaEnableDefault, &q) != cudaSuccess || !p ||
      q != cudaDriverEntryPointSuccess)
    return nullptr;
  return reinterpret_cast<Fn>(p);
}

template <typename Fn>
Fn driver_fn(const char* name, unsigned version = 12000) {
  Fn f = driver_fn_or_null<Fn>(name, version);
  if (!f) throw std::runtime_error(std::string("driver entry point ") + name + " not found");
  return f;
}

void check(CUresult r, const char* what) {
  if (r != CUDA_SUCCESS)
    throw std::runtime_error(std::string(what) + " failed (CUresult " + std::to_string(int(r)) + ")");
}

int attr(int device, cudaDeviceAttr a) {
  int v = 0;
  if (cudaDeviceGetAttribute(&v, a, device) != cudaSuccess) throw std::runtime_error("cudaDeviceGetAttribute failed");
  return v;
}

}  // namespace

CUcontext current_context() {
  static auto get = driver_fn<CUresult (*)(CUcontext*)>("cuCtxGetCurrent");
  CUcontext ctx = nullptr;
  check(get(&ctx), "cuCtxGetCurrent");
  if (!ctx) throw std::runtime_error("no current CUDA context");
  return ctx;
}

Occupancy theoretical_occupancy(const CapturedLaunch& l, int device) {
  static auto max_blocks =
      driver_fn<CUresult (*)(int*, CUfunction, int, size_t)>("cuOccupancyMaxActiveBlocksPerMultiprocessor");
  static auto func_attr = driver_fn<CUresult (*)(int*, CUfunction_attribute, CUfunction)>("cuFuncGetAttribute");
  static auto kernel_attr =
      driver_fn_or_null<CUresult (*)(int*, CUfunction_attribute, CUkernel, CUdevice)>("cuKernelGetAttribute", 12000);
  static auto func_name = driver_fn_or_null<CUresult (*)(const char**, CUfunction)>("cuFuncGetName", 12030);
  static auto kernel_name = driver_fn_or_null<CUresult (*)(const char**, CUkernel)>("cuKernelGetName", 12030);
  if (!l.function || l.block == 0) throw std::runtime_error("no kernel launch was seen");
  Occupancy o;
  check(max_blocks(&o.blocks_per_sm, l.function, int(l.block), l.dynamic_smem),
        "cuOccupancyMaxActiveBlocksPerMultiprocessor");
  // CUDA 13's runtime launches library kernels: the handle the driver callback sees is then a
  // CUkernel, which cuFuncGetAttribute refused on the H200 (CUDA_ERROR_INVALID_HANDLE) while the
  // occupancy call took it; cuKernelGetAttribute / cuKernelGetName answer for a CUkernel.
  const auto kernel = reinterpret_cast<CUkernel>(l.function);
  int regs = 0;
  const bool is_function = func_attr(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, l.function) == CUDA_SUCCESS;
  auto attribute = [&](CUfunction_attribute a, int& v, const char* what) {
    if (is_function ? func_attr(&v, a, l.function) == CUDA_SUCCESS
                    : kernel_attr && kernel_attr(&v, a, kernel, CUdevice(device)) == CUDA_SUCCESS)
      return;
    throw std::runtime_error(std::string("no ") + what +
                             " for the launched kernel (neither a CUfunction nor a CUkernel answered)");
  };
  attribute(CU_FUNC_ATTRIBUTE_NUM_REGS, o.registers_per_thread, "register count");
  attribute(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, o.static_smem, "static shared memory size");
  const char* name = nullptr;
  if (is_function ? func_name && func_name(&name, l.function) == CUDA_SUCCESS
                  : kernel_name && kernel_name(&name, kernel) == CUDA_SUCCESS)
    if (name) o.kernel = name;
  o.warps_per_block = int((l.block + 31) / 32);
  o.max_warps_per_sm = attr(device, cudaDevAttrMaxThreadsPerMultiProcessor) / 32;
  o.theoretical_pct = o.max_warps_per_sm > 0 ? 100.0 * o.blocks_per_sm * o.warps_per_block / o.max_warps_per_sm : 0;

  // The limits behind the API's answer (occupancy calculator rules): registers are allocated per
  // warp in units of 256, shared memory per block plus the runtime's reserved bytes.
  OccupancyLimits lim;
  const int big = 1 << 20;
  lim.blocks_by_warps = o.max_warps_per_sm / std::max(1, o.warps_per_block);
  const int regs_per_warp = ((o.registers_per_thread * 32 + 255) / 256) * 256;
  lim.blocks_by_registers =
      regs_per_warp > 0 ? (attr(device, cudaDevAttrMaxRegistersPerMultiprocessor) / regs_per_warp) / o.warps_per_block
                        : big;
  const int smem = o.static_smem + int(l.dynamic_smem);
  lim.blocks_by_shared = smem > 0 ? attr(device, cudaDevAttrMaxSharedMemoryPerMultiprocessor) /
                                        (smem + attr(device, cudaDevAttrReservedSharedMemoryPerBlock))
                                  : big;
  lim.blocks_by_cap = attr(device, cudaDevAttrMaxBlocksPerMultiprocessor);
  o.limiter = occupancy_limiter(lim);
  return o;
}

}  // namespace ws::cuda
