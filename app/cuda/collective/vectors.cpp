// The all-reduces' float vectors: upload, restore before each repeat, check against the host's sum.
#include <algorithm>
#include <mutex>
#include <sstream>
#include <thread>

#include "collective/methods.hpp"
#include "common/check_cuda.hpp"

namespace ws::cuda::collective {

using ws::collective::input_value;

namespace {

/// Runs f(begin, end) over [0, n) split between the machine's cores (the host side of a 1 GiB run:
/// inputs, reference and check, would otherwise outlast the GPUs' work many times over).
template <typename F>
void parallel_for(std::int64_t n, const F& f) {
  const std::int64_t threads = std::clamp<std::int64_t>(std::thread::hardware_concurrency(), 1, 32);
  if (n < (std::int64_t(1) << 20) || threads == 1) {
    f(std::int64_t(0), n);
    return;
  }
  std::vector<std::thread> pool;
  const std::int64_t per = (n + threads - 1) / threads;
  for (std::int64_t b = 0; b < n; b += per) pool.emplace_back([&f, b, n, per] { f(b, std::min(n, b + per)); });
  for (std::thread& t : pool) t.join();
}

}  // namespace

std::vector<float*> Vectors::work_ptrs() const {
  std::vector<float*> p;
  for (const DeviceBuffer& b : work) p.push_back(b.as<float>());
  return p;
}

Vectors upload_vectors(int gpus, std::int64_t length) {
  Vectors v;
  v.length = length;
  const std::size_t bytes = std::size_t(length) * sizeof(float);
  std::vector<float> host(static_cast<std::size_t>(length));
  for (int g = 0; g < gpus; ++g) {
    parallel_for(length, [&](std::int64_t b, std::int64_t e) {
      for (std::int64_t i = b; i < e; ++i) host[std::size_t(i)] = float(input_value(g, i));
    });
    v.input.emplace_back(g, bytes);
    v.work.emplace_back(g, bytes);
    WS_CUDA(cudaMemcpy(v.input.back().ptr, host.data(), bytes, cudaMemcpyHostToDevice));
  }
  return v;
}

void restore(const Vectors& v, const GpuGroup& group) {
  for (int g = 0; g < group.count(); ++g) {
    WS_CUDA(cudaSetDevice(g));
    WS_CUDA(cudaMemcpyAsync(v.work[g].ptr, v.input[g].ptr, v.work[g].bytes, cudaMemcpyDeviceToDevice, group.stream(g)));
  }
}

bool check_vectors(const Vectors& v, std::string& detail) {
  const int gpus = int(v.work.size());
  std::vector<float> reference(std::size_t(v.length), 0.0f), got(std::size_t(v.length));
  parallel_for(v.length, [&](std::int64_t b, std::int64_t e) {
    for (int g = 0; g < gpus; ++g)
      for (std::int64_t i = b; i < e; ++i) reference[std::size_t(i)] += float(input_value(g, i));
  });
  for (int g = 0; g < gpus; ++g) {
    WS_CUDA(cudaSetDevice(g));
    WS_CUDA(cudaMemcpy(got.data(), v.work[g].ptr, v.work[g].bytes, cudaMemcpyDeviceToHost));
    // The first element that differs (NaN differs too): each part finds its own, the smallest wins.
    std::vector<std::int64_t> firsts;
    std::mutex m;
    parallel_for(v.length, [&](std::int64_t b, std::int64_t e) {
      for (std::int64_t i = b; i < e; ++i)
        if (!(got[std::size_t(i)] == reference[std::size_t(i)])) {
          std::lock_guard<std::mutex> lock(m);
          firsts.push_back(i);
          return;
        }
    });
    if (!firsts.empty()) {
      const std::int64_t i = *std::min_element(firsts.begin(), firsts.end());
      std::ostringstream s;
      s << "GPU " << g << ", element " << i << ": " << got[std::size_t(i)] << " (reference "
        << reference[std::size_t(i)] << ")";
      detail = s.str();
      return false;
    }
  }
  return true;
}

}  // namespace ws::cuda::collective
