#include "occupancy.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>

#include "metric_catalog.hpp"

namespace ws::cuda {

namespace {

template <typename Fn>
Fn driver_fn(const char* name) {
  void* p = nullptr;
  cudaDriverEntryPointQueryResult q{};
  if (cudaGetDriverEntryPointByVersion(name, &p, 12000, cudaEnableDefault, &q) != cudaSuccess || !p ||
      q != cudaDriverEntryPointSuccess)
    throw std::runtime_error(std::string("driver entry point ") + name + " not found");
  return reinterpret_cast<Fn>(p);
}

void check(CUresult r, const char* what) {
  if (r != CUDA_SUCCESS) throw std::runtime_error(std::string(what) + " failed (CUresult " + std::to_string(int(r)) + ")");
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
  static auto max_blocks = driver_fn<CUresult (*)(int*, CUfunction, int, size_t)>("cuOccupancyMaxActiveBlocksPerMultiprocessor");
  static auto func_attr = driver_fn<CUresult (*)(int*, CUfunction_attribute, CUfunction)>("cuFuncGetAttribute");
  static auto kernel_function = driver_fn<CUresult (*)(CUfunction*, CUkernel)>("cuKernelGetFunction");
  static auto func_name = driver_fn<CUresult (*)(const char**, CUfunction)>("cuFuncGetName");
  if (!l.function || l.block == 0) throw std::runtime_error("no kernel launch was seen");
  Occupancy o;
  // CUDA 13's runtime launches library kernels: the handle the driver callback sees may be a CUkernel,
  // which cuFuncGetAttribute refuses; its function in the current context answers.
  CUfunction f = l.function;
  int probe = 0;
  if (func_attr(&probe, CU_FUNC_ATTRIBUTE_NUM_REGS, f) != CUDA_SUCCESS)
    check(kernel_function(&f, reinterpret_cast<CUkernel>(l.function)), "cuKernelGetFunction");
  check(max_blocks(&o.blocks_per_sm, f, int(l.block), l.dynamic_smem), "cuOccupancyMaxActiveBlocksPerMultiprocessor");
  check(func_attr(&o.registers_per_thread, CU_FUNC_ATTRIBUTE_NUM_REGS, f), "cuFuncGetAttribute(NUM_REGS)");
  check(func_attr(&o.static_smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f), "cuFuncGetAttribute(SHARED_SIZE_BYTES)");
  const char* name = nullptr;
  if (func_name(&name, f) == CUDA_SUCCESS && name) o.kernel = name;
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
      regs_per_warp > 0 ? (attr(device, cudaDevAttrMaxRegistersPerMultiprocessor) / regs_per_warp) / o.warps_per_block : big;
  const int smem = o.static_smem + int(l.dynamic_smem);
  lim.blocks_by_shared = smem > 0 ? attr(device, cudaDevAttrMaxSharedMemoryPerMultiprocessor) /
                                        (smem + attr(device, cudaDevAttrReservedSharedMemoryPerBlock))
                                  : big;
  lim.blocks_by_cap = attr(device, cudaDevAttrMaxBlocksPerMultiprocessor);
  o.limiter = occupancy_limiter(lim);
  return o;
}

}  // namespace ws::cuda
