// A/B timing of cs121.filter_scan_vec against cub.select (cub::DeviceSelect::If, keep x > 0) at n = 2^28
// int32 (exploration for issue 31's row "cs121.filter_scan_vec vs cub.select >= 1.05x on both cards"; not
// part of the product: an optional CMake target, bench/CMakeLists.txt).
// Candidates: the product's launcher (kernels/atomics/cs121_atomics.cu, its wait 2500 ns) at blocks 128 and
// 256, and copies of the same source built with other waits before the first look-back read
// (bench/filter_ab_wait.cu: "no wait", "wait N"). cub.select is the product's launcher too (cub_atomics.cu).
// Input: n random ints in [-1000, 1000] without 0 (about half kept). Each candidate is checked first at
// 2^28 and at awkward sizes: the count, and every kept value in input order (the output poisoned before).
// Timing as the product's (app/cuda/timing.cpp): events around one enqueue of the launcher (its memsets and
// kernel), 3 warm-ups, median of 20. Rounds alternate cub.select and every candidate; the ratio
// cub / candidate (> 1: faster than CUB) is taken per round and its median over the rounds printed.
// Build and run on the GPU machine: cmake --build build --target ws_filter_ab, then
// build/bench/ws_filter_ab [rounds].
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "atomics/atomics_launch.hpp"
#include "ck.hpp"

namespace ws::kernels {
std::vector<AtomicsLauncherEntry> cs121_atomics_launchers_wait_0();
std::vector<AtomicsLauncherEntry> cs121_atomics_launchers_wait_1245();
std::vector<AtomicsLauncherEntry> cs121_atomics_launchers_wait_4000();
}  // namespace ws::kernels
namespace wk = ws::kernels;
using Table = std::vector<wk::AtomicsLauncherEntry> (*)();

namespace {
struct Cand {
  std::string name;
  wk::AtomicsLauncherEntry entry;
  int block;
};

Cand find(const char* name, Table table, const char* id, int block) {
  for (const auto& e : table())
    if (std::string(e.id) == id) return {name, e, block};
  printf("no %s in %s's table\n", id, name);
  exit(1);
}
}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::max(1, atoi(argv[1])) : 5;
  const long long N = 1ll << 28;
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  printf("device %s, %d SMs\n", prop.name, prop.multiProcessorCount);
  const Cand cub = find("cub.select", wk::cub_atomics_launchers, "cub.select", 256);
  const std::vector<Cand> cands = {
      find("product B=128", wk::cs121_atomics_launchers, "cs121.filter_scan_vec", 128),
      find("product B=256", wk::cs121_atomics_launchers, "cs121.filter_scan_vec", 256),
      find("B=256 no wait", wk::cs121_atomics_launchers_wait_0, "cs121.filter_scan_vec", 256),
      find("B=256 wait 1245", wk::cs121_atomics_launchers_wait_1245, "cs121.filter_scan_vec", 256),
      find("B=256 wait 4000", wk::cs121_atomics_launchers_wait_4000, "cs121.filter_scan_vec", 256),
      find("B=128 no wait", wk::cs121_atomics_launchers_wait_0, "cs121.filter_scan_vec", 128),
      find("B=128 wait 4000", wk::cs121_atomics_launchers_wait_4000, "cs121.filter_scan_vec", 128),
  };
  std::vector<int> h(N);
  std::mt19937 rng(12345);
  for (auto& e : h) {
    e = int(rng() % 2000) - 1000;
    if (e >= 0) ++e;  // [-1000, -1] or [1, 1000]
  }
  int *dx, *dy, *dcount;
  CK(cudaMalloc(&dx, N * 4));
  CK(cudaMalloc(&dy, N * 4));
  CK(cudaMalloc(&dcount, 256));
  CK(cudaMemcpy(dx, h.data(), N * 4, cudaMemcpyHostToDevice));
  std::size_t scratch_bytes = 16;
  for (const Cand* c : {&cub, &cands[0], &cands[1]})
    if (c->entry.scratch_bytes) scratch_bytes = std::max(scratch_bytes, c->entry.scratch_bytes(N));
  void* scratch;
  CK(cudaMalloc(&scratch, scratch_bytes));
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  auto args = [&](const Cand& c, long long n) {
    wk::AtomicsArgs a;
    a.in = dx;
    a.n = n;
    a.out = dy;
    a.counter = dcount;
    a.scratch = scratch;
    a.scratch_bytes = scratch_bytes;
    a.block = c.block;
    const long long tile = c.block * 32;
    a.grid = (n + tile - 1) / tile;
    a.stream = s;
    return a;
  };
  // Check: the kept values of x[0..n) in order, and their count.
  std::vector<int> got(N);
  auto check = [&](const Cand& c) -> std::string {
    for (long long n : {1ll, 31ll, 4095ll, 4097ll, 100003ll, (1ll << 20) + 3, (1ll << 24) - 1, N}) {
      CK(cudaMemset(dy, 0xff, n * 4));
      CK(cudaDeviceSynchronize());
      c.entry.launch(args(c, n));
      CK(cudaStreamSynchronize(s));
      CK(cudaGetLastError());
      int count = -1;
      CK(cudaMemcpy(&count, dcount, 4, cudaMemcpyDeviceToHost));
      long long want = 0;
      for (long long i = 0; i < n; ++i) want += h[i] > 0;
      if (count != want)
        return "n=" + std::to_string(n) + " count " + std::to_string(count) + " want " + std::to_string(want);
      CK(cudaMemcpy(got.data(), dy, std::size_t(count) * 4, cudaMemcpyDeviceToHost));
      long long k = 0;
      for (long long i = 0; i < n; ++i)
        if (h[i] > 0 && got[k++] != h[i]) return "n=" + std::to_string(n) + " out[" + std::to_string(k - 1) + "]";
    }
    return "ok";
  };
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  auto time_it = [&](const Cand& c) {
    const wk::AtomicsArgs a = args(c, N);
    return median_of_20_ms(s, e0, e1, [&] { c.entry.launch(a); });
  };
  const float copy_ms = [&] {
    for (int i = 0; i < 3; ++i) CK(cudaMemcpyAsync(dy, dx, N * 4, cudaMemcpyDeviceToDevice, s));
    CK(cudaEventRecord(e0, s));
    CK(cudaMemcpyAsync(dy, dx, N * 4, cudaMemcpyDeviceToDevice, s));
    CK(cudaEventRecord(e1, s));
    CK(cudaEventSynchronize(e1));
    float m;
    CK(cudaEventElapsedTime(&m, e0, e1));
    return m;
  }();
  printf("copy D2D 2^28 int32: %.4f ms\n", copy_ms);
  printf("cub.select check: %s\n", check(cub).c_str());
  for (const Cand& c : cands) printf("%-18s check: %s\n", c.name.c_str(), check(c).c_str());
  std::vector<std::vector<float>> ratio(cands.size()), ms(cands.size());
  std::vector<float> cub_ms;
  for (int r = 0; r < rounds; ++r) {
    for (std::size_t i = 0; i < cands.size(); ++i) {
      const float base = time_it(cub);
      const float t = time_it(cands[i]);
      cub_ms.push_back(base);
      ms[i].push_back(t);
      ratio[i].push_back(base / t);
    }
  }
  auto median = [](std::vector<float> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  printf(
      "\n%d rounds, cub.select median %.4f ms\n| candidate | ms (median of rounds) | x cub.select (median) | min | max "
      "|\n"
      "|---|---:|---:|---:|---:|\n",
      rounds, median(cub_ms));
  for (std::size_t i = 0; i < cands.size(); ++i)
    printf("| %s | %.4f | %.4f | %.4f | %.4f |\n", cands[i].name.c_str(), median(ms[i]), median(ratio[i]),
           *std::min_element(ratio[i].begin(), ratio[i].end()), *std::max_element(ratio[i].begin(), ratio[i].end()));
  return 0;
}
