// The library baseline every lesson is compared against: cub::DeviceReduce::Sum from the CUDA Toolkit.
// CUB chooses its own launch shape (tile size, grid) per GPU architecture, so the resolved block and
// grid of the request are ignored. Its temporary storage is carved from the backend's scratch buffer.
#include <cub/device/device_reduce.cuh>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "reduction/reduce_launch.hpp"

namespace ws::kernels {
namespace {

/// cub.reduce: cub::DeviceReduce::Sum into the result, temporary storage taken from the scratch buffer.
template <typename T>
ReduceOutcome run_cub_reduce(const ReduceArgs& a) {
  const T* in = static_cast<const T*>(a.data);
  T* out = static_cast<T*>(a.result);
  const int n = static_cast<int>(a.n);  // n <= 2^30

  // First call with no storage: CUB only reports how many bytes it needs (nothing is enqueued).
  std::size_t temp_bytes = 0;
  WS_CUDA(cub::DeviceReduce::Sum(nullptr, temp_bytes, in, out, n, a.stream));
  const std::size_t scratch_bytes = static_cast<std::size_t>(a.scratch_elems) * sizeof(T);
  if (temp_bytes > scratch_bytes)
    throw std::runtime_error("cub.reduce: CUB needs " + std::to_string(temp_bytes) +
                             " bytes of temporary storage, the scratch buffer holds " + std::to_string(scratch_bytes));

  WS_CUDA(cub::DeviceReduce::Sum(a.scratch, temp_bytes, in, out, n, a.stream));
  // CUB asks for exactly 1 byte when the input fits one tile (a single kernel); otherwise it runs two
  // kernels: per-block partial sums into the temporary storage, then one block folding them.
  const int launches = temp_bytes <= 1 ? 1 : 2;
  return {out, 1, launches};
}

ReduceOutcome run_cub(const ReduceArgs& a) {
  return a.type == DType::Int32 ? run_cub_reduce<int>(a) : run_cub_reduce<float>(a);
}

}  // namespace

std::vector<LauncherEntry> cub_reduce_launchers() {
  return {
      {"cub.reduce", run_cub},
  };
}

}  // namespace ws::kernels
