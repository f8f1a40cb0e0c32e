// The lesson "Reduction across GPUs" measured (issue 30's goals; a benchmark, not a test): on every visible
// GPU (or --gpus N), at 256 MiB per GPU,
//   1. the hand-written ring against NCCL's ring (NCCL_ALGO=Ring) in the same process, --rounds rounds that
//      alternate them (and the tree against NCCL's tree), each a run_allreduce_on_gpus of 5 warm-ups and 20
//      timed repeats (median); the ratio ring busbw / nccl_ring busbw per round and its median over rounds
//      (goal >= 0.9); the same ring with pushed copies, sliced copies and pulled copies then adds
//      (methods.hpp's CopyDirection; the product's add reads the peer) beside it;
//   2. NCCL's ring timed as nccl-tests times it (5 warm-ups, then 20 back-to-back ncclAllReduce and the
//      elapsed time / 20), and per iteration between events (median and mean of 20), against the run's
//      median of (1) (goal: within 5 %);
//   3. a size sweep, 4 KiB to 1 GiB per GPU in x4 steps, of ring, tree, nccl_ring and nccl_tree (5 warm-ups,
//      20 repeats each, every result checked), as CSV on stdout (the lines that do not start with '#').
// Usage: ws_allreduce_bench [--gpus N] [--rounds R] [--no-sweep] [--max-bytes B]. Build on the GPU machine:
// cmake --build --preset device --target ws_allreduce_bench (scripts/device-multi.sh does it all).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <numeric>
#include <string>
#include <vector>

#include "collective/allreduce_run.hpp"
#include "collective/gpu_group.hpp"
#include "collective/methods.hpp"
#include "collective/nccl_api.hpp"
#include "collective/schedule.hpp"
#include "common/check_cuda.hpp"

using namespace ws::collective;
namespace cc = ws::cuda::collective;

namespace {

AllReduceResult run(Method m, int gpus, std::int64_t length) {
  AllReduceRequest r;
  r.method = m;
  r.gpus = gpus;
  r.length = length;
  r.warmup = 5;
  r.repeats = 20;
  return run_allreduce_on_gpus(r);
}

/// The hand-written ring with another way of moving and adding its chunks (methods.hpp's CopyDirection: Pull,
/// Push, PullSliced; the product's is PeerRead), through the same runner, for the choice between them.
AllReduceResult run_ring_mode(int gpus, std::int64_t length, cc::CopyDirection mode) {
  AllReduceRequest r;
  r.method = Method::Ring;
  r.gpus = gpus;
  r.length = length;
  r.warmup = 5;
  r.repeats = 20;
  AllReduceResult out;
  out.method = Method::Ring;
  out.gpus = gpus;
  out.length = length;
  try {
    out.error = cc::enable_peer_access(gpus);
    if (!out.error.empty()) return out;
    cc::run_schedule_all_reduce(r, gpus, out, mode);
    out.algbw_gbs = algorithm_bandwidth_gbs(length * 4, out.median_ms);
    out.busbw_gbs = bus_bandwidth_gbs(length * 4, out.median_ms, gpus);
  } catch (const std::exception& e) {
    out.ran = false;
    out.error = e.what();
  }
  return out;
}

void print_run(const AllReduceResult& r, const char* name = nullptr) {
  if (!name) name = to_string(r.method);
  if (!r.ran) {
    std::printf("#   %-10s did not run: %s\n", name, r.error.c_str());
    return;
  }
  std::printf("#   %-10s %8.4f ms  algbw %7.1f GB/s  busbw %7.1f GB/s  %s", name, r.median_ms, r.algbw_gbs, r.busbw_gbs,
              r.correct ? "correct" : ("WRONG: " + r.detail).c_str());
  if (!r.step_ms.empty()) {
    std::printf("  steps ms:");
    for (double s : r.step_ms) std::printf(" %.4f", s);
  }
  std::printf("\n");
}

/// NCCL's ring at `length` floats per GPU, timed like nccl-tests (warm-up 5, 20 back-to-back, elapsed / 20)
/// and per iteration (median, mean). Returns false (and says why) when NCCL cannot run.
bool nccl_tests_style(int gpus, std::int64_t length, double& back_to_back_ms, double& median_ms, double& mean_ms) {
  std::string error;
  const std::vector<void*>* comms = cc::nccl_communicators("Ring", gpus, error);
  if (!comms) {
    std::printf("# nccl-tests-style timing not run: %s\n", error.c_str());
    return false;
  }
  std::vector<cc::DeviceBuffer> buffers;
  std::vector<float*> ptrs;
  for (int g = 0; g < gpus; ++g) {
    buffers.emplace_back(g, std::size_t(length) * sizeof(float));
    WS_CUDA(cudaMemset(buffers.back().ptr, 0x3c, buffers.back().bytes));  // not zeros: 0.0115 per float
    ptrs.push_back(buffers.back().as<float>());
  }
  cc::GpuGroup group(gpus);
  std::vector<cudaStream_t> streams;
  for (int g = 0; g < gpus; ++g) streams.push_back(group.stream(g));
  std::string nccl_error;
  auto once = [&] {
    if (nccl_error.empty()) nccl_error = cc::nccl_all_reduce_sum(*comms, ptrs, std::size_t(length), streams);
  };
  // nccl-tests: warm-up, then `iters` operations back to back, one clock around them all.
  const std::vector<double> block = group.time_repeats(5, 1, {}, [&] {
    for (int i = 0; i < 20; ++i) once();
  });
  back_to_back_ms = block.empty() ? 0 : block[0] / 20;
  const std::vector<double> each = group.time_repeats(5, 20, {}, once);
  median_ms = cc::median(each);
  mean_ms = each.empty() ? 0 : std::accumulate(each.begin(), each.end(), 0.0) / double(each.size());
  if (!nccl_error.empty()) {
    std::printf("# nccl-tests-style timing failed: %s\n", nccl_error.c_str());
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  setenv("NCCL_NVLS_ENABLE", "0", 1);  // NVLink multicast stays off on these machines
  int gpus = 0, rounds = 5;
  bool sweep = true;
  std::int64_t max_bytes = std::int64_t(1) << 30;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--gpus" && i + 1 < argc)
      gpus = std::atoi(argv[++i]);
    else if (a == "--rounds" && i + 1 < argc)
      rounds = std::max(1, std::atoi(argv[++i]));
    else if (a == "--no-sweep")
      sweep = false;
    else if (a == "--max-bytes" && i + 1 < argc)
      max_bytes = std::atoll(argv[++i]);
    else {
      std::fprintf(stderr, "usage: ws_allreduce_bench [--gpus N] [--rounds R] [--no-sweep] [--max-bytes B]\n");
      return 2;
    }
  }
  std::string nccl_error;
  const std::string nccl = cc::nccl_version(nccl_error);
  std::printf("# %s\n", nccl.empty() ? nccl_error.c_str() : nccl.c_str());
  const int visible = visible_gpu_count();
  if (gpus == 0) gpus = std::min(visible, kMaxGpus);
  std::printf("# visible GPUs: %d; running on %d\n", visible, gpus);
  if (gpus < 2) {
    std::printf("# the all-reduce needs at least 2 GPUs\n");
    return 1;
  }

  // 1. Hand-written against NCCL at 256 MiB per GPU, alternating, same process.
  const std::int64_t length = std::int64_t(1) << 26;
  std::vector<double> ring_ratio, tree_ratio, push_ratio, sliced_ratio, pull_ratio;
  double nccl_ring_median = 0;
  bool all_correct = true;
  std::vector<double> nccl_ring_ms;
  for (int round = 1; round <= rounds; ++round) {
    std::printf("# round %d, 256 MiB per GPU:\n", round);
    const AllReduceResult ring = run(Method::Ring, gpus, length);
    const AllReduceResult nring = run(Method::NcclRing, gpus, length);
    const AllReduceResult tree = run(Method::Tree, gpus, length);
    const AllReduceResult ntree = run(Method::NcclTree, gpus, length);
    const AllReduceResult push = run_ring_mode(gpus, length, cc::CopyDirection::Push);
    const AllReduceResult sliced = run_ring_mode(gpus, length, cc::CopyDirection::PullSliced);
    const AllReduceResult pull = run_ring_mode(gpus, length, cc::CopyDirection::Pull);
    for (const AllReduceResult* r : {&ring, &nring, &tree, &ntree}) {
      print_run(*r);
      all_correct = all_correct && r->ran && r->correct;
    }
    print_run(push, "ring_push");
    print_run(sliced, "ring_slice");
    print_run(pull, "ring_pull");
    for (const AllReduceResult* r : {&push, &sliced, &pull}) all_correct = all_correct && r->ran && r->correct;
    if (push.ran && nring.ran && nring.busbw_gbs > 0) push_ratio.push_back(push.busbw_gbs / nring.busbw_gbs);
    if (sliced.ran && nring.ran && nring.busbw_gbs > 0) sliced_ratio.push_back(sliced.busbw_gbs / nring.busbw_gbs);
    if (pull.ran && nring.ran && nring.busbw_gbs > 0) pull_ratio.push_back(pull.busbw_gbs / nring.busbw_gbs);
    if (round == 1 && ring.ran)
      std::printf("#   devices %s; link %s (%.0f GB/s per direction); peer copy GPU 0 -> 1 %.1f GB/s\n",
                  ring.device_names.empty() ? "?" : ring.device_names[0].c_str(), ring.link.c_str(), ring.link_gbs,
                  ring.peer_gbs);
    if (ring.ran && nring.ran && nring.busbw_gbs > 0) ring_ratio.push_back(ring.busbw_gbs / nring.busbw_gbs);
    if (tree.ran && ntree.ran && ntree.busbw_gbs > 0) tree_ratio.push_back(tree.busbw_gbs / ntree.busbw_gbs);
    if (nring.ran) nccl_ring_ms.push_back(nring.median_ms);
  }
  nccl_ring_median = cc::median(nccl_ring_ms);
  if (!ring_ratio.empty())
    std::printf("# ring / nccl_ring bus bandwidth: %.3fx (median of %zu rounds; min %.3f, max %.3f; goal >= 0.9): %s\n",
                cc::median(ring_ratio), ring_ratio.size(), *std::min_element(ring_ratio.begin(), ring_ratio.end()),
                *std::max_element(ring_ratio.begin(), ring_ratio.end()),
                cc::median(ring_ratio) >= 0.9 ? "met" : "MISSED");
  if (!push_ratio.empty())
    std::printf("# ring with pushed copies / nccl_ring bus bandwidth: %.3fx (median of %zu rounds)\n",
                cc::median(push_ratio), push_ratio.size());
  if (!sliced_ratio.empty())
    std::printf("# ring with sliced copies / nccl_ring bus bandwidth: %.3fx (median of %zu rounds)\n",
                cc::median(sliced_ratio), sliced_ratio.size());
  if (!pull_ratio.empty())
    std::printf("# ring with pulled copies then adds / nccl_ring bus bandwidth: %.3fx (median of %zu rounds)\n",
                cc::median(pull_ratio), pull_ratio.size());
  if (!tree_ratio.empty())
    std::printf("# tree / nccl_tree bus bandwidth: %.3fx (median of %zu rounds)\n", cc::median(tree_ratio),
                tree_ratio.size());

  // 2. NCCL as nccl-tests times it, against the run's median.
  double b2b = 0, med = 0, mean = 0;
  if (nccl_tests_style(gpus, length, b2b, med, mean)) {
    const double bytes = double(length) * 4;
    std::printf(
        "# nccl ring, nccl-tests style: %.4f ms back to back (busbw %.1f GB/s); per iteration median %.4f, "
        "mean %.4f ms\n",
        b2b, bus_bandwidth_gbs(std::int64_t(bytes), b2b, gpus), med, mean);
    if (nccl_ring_median > 0 && b2b > 0) {
      const double diff = nccl_ring_median / b2b - 1;
      std::printf("# run's nccl_ring median %.4f ms vs nccl-tests style: %+.1f %% (goal within 5 %%): %s\n",
                  nccl_ring_median, 100 * diff, std::abs(diff) <= 0.05 ? "met" : "MISSED");
    }
  }

  // 3. Latency-bound to bandwidth-bound: the sweep, CSV.
  if (sweep) {
    std::printf("method,gpus,bytes,median_ms,algbw_gbs,busbw_gbs,peer_gbs,correct\n");
    for (std::int64_t bytes = 4096; bytes <= max_bytes; bytes *= 4)
      for (Method m : {Method::Ring, Method::Tree, Method::NcclRing, Method::NcclTree}) {
        const AllReduceResult r = run(m, gpus, bytes / 4);
        if (!r.ran) {
          std::printf("# %s at %lld bytes did not run: %s\n", to_string(m), static_cast<long long>(bytes),
                      r.error.c_str());
          continue;
        }
        all_correct = all_correct && r.correct;
        std::printf("%s,%d,%lld,%.5f,%.2f,%.2f,%.1f,%d\n", to_string(m), r.gpus, static_cast<long long>(bytes),
                    r.median_ms, r.algbw_gbs, r.busbw_gbs, r.peer_gbs, r.correct ? 1 : 0);
        std::fflush(stdout);
      }
  }
  std::printf("# every result correct: %s\n", all_correct ? "yes" : "NO");
  return all_correct ? 0 : 1;
}
