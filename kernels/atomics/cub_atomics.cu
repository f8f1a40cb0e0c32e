// The library baselines of the atomics lesson: cub::DeviceHistogram::HistogramEven (256 bins of bytes)
// and cub::DeviceSelect::If (keep x > 0), from the CUDA Toolkit. CUB chooses its own launch shape, so
// the resolved block and grid are ignored; temporary storage is the runner's scratch buffer, sized by
// asking CUB first (a call with no storage enqueues nothing).
#include <cub/device/device_histogram.cuh>
#include <cub/device/device_select.cuh>

#include <cstddef>
#include <stdexcept>
#include <string>

#include "atomics/atomics_launch.hpp"
#include "common/shared_types.hpp"

namespace ws::kernels {
namespace {

int as_int(std::int64_t n) { return static_cast<int>(n); }  // n <= 2^30

/// The filters' predicate (slide "Aggregation and atomics": "we copy all positive values").
struct Positive {
  __host__ __device__ bool operator()(const int& x) const { return x > 0; }
};

void require_scratch(const AtomicsArgs& a, std::size_t need, const char* id) {
  if (need > a.scratch_bytes)
    throw std::runtime_error(std::string(id) + ": CUB needs " + std::to_string(need) +
                             " bytes of temporary storage, the scratch buffer holds " +
                             std::to_string(a.scratch_bytes));
}

// ---------------------------------------------------------------------------------------------------
// cub.histogram. The baseline of the histograms: cub::DeviceHistogram::HistogramEven with 257 levels
// 0, 1, .., 256 over the byte values, so bin b counts the bytes equal to b. CUB zeroes the bins, then
// counts into per-block privatized histograms and merges them.
std::size_t histogram_scratch(std::int64_t n) {
  std::size_t bytes = 0;
  WS_CUDA(cub::DeviceHistogram::HistogramEven(nullptr, bytes, static_cast<const unsigned char*>(nullptr),
                                              static_cast<int*>(nullptr), kHistogramBins + 1, 0, kHistogramBins,
                                              as_int(n)));
  return bytes;
}

AtomicsOutcome run_cub_histogram(const AtomicsArgs& a) {
  std::size_t bytes = histogram_scratch(a.n);
  require_scratch(a, bytes, "cub.histogram");
  WS_CUDA(cub::DeviceHistogram::HistogramEven(a.scratch, bytes, static_cast<const unsigned char*>(a.in),
                                              static_cast<int*>(a.out), kHistogramBins + 1, 0, kHistogramBins,
                                              as_int(a.n), a.stream));
  return {2};  // CUB zeroes the bins in one kernel and sweeps the samples in another
}

// ---------------------------------------------------------------------------------------------------
// cub.select. The baseline of the filters: cub::DeviceSelect::If with the predicate x > 0 keeps the
// positive values in input order (a single-pass scan with decoupled look-back) and writes their count.
std::size_t select_scratch(std::int64_t n) {
  std::size_t bytes = 0;
  WS_CUDA(cub::DeviceSelect::If(nullptr, bytes, static_cast<const int*>(nullptr), static_cast<int*>(nullptr),
                                static_cast<int*>(nullptr), as_int(n), Positive()));
  return bytes;
}

AtomicsOutcome run_cub_select(const AtomicsArgs& a) {
  std::size_t bytes = select_scratch(a.n);
  require_scratch(a, bytes, "cub.select");
  WS_CUDA(cub::DeviceSelect::If(a.scratch, bytes, static_cast<const int*>(a.in), static_cast<int*>(a.out), a.counter,
                                as_int(a.n), Positive(), a.stream));
  return {2};  // CUB initializes its tile states, then runs the single-pass select
}

}  // namespace

std::vector<AtomicsLauncherEntry> cub_atomics_launchers() {
  return {
      {"cub.histogram", run_cub_histogram, histogram_scratch, {}},
      {"cub.select", run_cub_select, select_scratch, {}},
  };
}

}  // namespace ws::kernels
