#include "cpu_variants.hpp"

#include <chrono>
#include <cstdint>
#include <numeric>

namespace ws {

namespace {
double sequential_sum(const Input& in) {
  if (in.type == DType::Int32) {
    // Unsigned accumulation wraps modulo 2^32 exactly like the GPU's 32-bit adds.
    std::uint32_t s = std::accumulate(in.i32.begin(), in.i32.end(), std::uint32_t(0),
                                      [](std::uint32_t a, std::int32_t x) { return a + std::uint32_t(x); });
    return double(std::int32_t(s));
  }
  return std::accumulate(in.f32.begin(), in.f32.end(), 0.0);
}
}  // namespace

void run_cpu_variant(const VariantInfo&, const Input& in, int warmup, int repeat, RunResult& r) {
  volatile double sink = 0;
  for (int i = 0; i < warmup; ++i) sink = sequential_sum(in);
  std::vector<double> samples;
  double value = 0;
  for (int i = 0; i < repeat; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    value = sequential_sum(in);
    auto t1 = std::chrono::steady_clock::now();
    samples.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  (void)sink;
  r.result = value;
  r.timing = summarize(samples);
  r.timed = true;
  r.launches = 0;
}

}  // namespace ws
