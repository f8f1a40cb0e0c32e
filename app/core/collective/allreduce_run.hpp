// A run of the lesson "Reduction across GPUs" (issue 30): what to run (AllReduceRequest), what came back
// (AllReduceResult), the per-GPU input both the host reference and the GPUs use, and the entry point that a
// CUDA build provides (app/cuda/collective/) and a build without CUDA answers with a one-line refusal
// (collective/allreduce_gpus_none.cpp, in ws_backend_none).
//
// The methods, after the reduction lessons' one-device kernels (EPITA reduce7, CS121 deviceReduce):
//   HostAdd     each GPU reduces its shard to one value with the single-GPU kernel; the host adds them.
//   PeerToGpu0  the same partials travel GPU-to-GPU (peer copies over NVLink/PCIe) to GPU 0, which adds them.
//   Ring, Tree  all-reduce of a vector, hand-written: collective/schedule.hpp's steps, each step peer copies
//               and an add kernel; every GPU ends with the element-wise sum.
//   NcclRing, NcclTree  ncclAllReduce with NCCL_ALGO=Ring / Tree (NCCL_NVLS_ENABLE=0 always).
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "name_table.hpp"

namespace ws::collective {

/// The lesson's variants.
enum class Method { HostAdd, PeerToGpu0, Ring, Tree, NcclRing, NcclTree };

inline constexpr std::pair<Method, const char*> kMethodNames[] = {
    {Method::HostAdd, "host_add"}, {Method::PeerToGpu0, "peer_to_gpu0"}, {Method::Ring, "ring"},
    {Method::Tree, "tree"},        {Method::NcclRing, "nccl_ring"},      {Method::NcclTree, "nccl_tree"},
};

/// "host_add", "peer_to_gpu0", "ring", "tree", "nccl_ring", "nccl_tree".
inline const char* to_string(Method m) { return name_in(kMethodNames, m); }

/// Parses a name written by to_string; false (out untouched) on anything else.
inline bool parse_method(const std::string& s, Method& out) { return value_in(kMethodNames, s, out); }

/// True for the all-reduce methods (a vector on every GPU); false for HostAdd and PeerToGpu0, which
/// reduce every GPU's shard to one int64 total.
inline bool is_all_reduce(Method m) { return m != Method::HostAdd && m != Method::PeerToGpu0; }

/// What to run. gpus: how many of the machine's GPUs, 1..8 (0: every visible GPU, capped at 8).
/// length: elements per GPU (float32 for the all-reduces, int32 for the scalar reductions);
/// warmup, repeats: untimed and timed repetitions (the median is reported), per METHOD.md.
struct AllReduceRequest {
  Method method = Method::Ring;
  int gpus = 0;
  std::int64_t length = std::int64_t(1) << 26;  // 64 Mi elements = 256 MiB per GPU
  int warmup = 3;
  int repeats = 20;
};

/// What a run measured (or, from the sim, what the model computed: `simulated` true).
/// median_ms: the whole collective, CUDA events on GPU 0 around launches on every GPU (stream waits make
/// GPU 0's stop event follow every GPU's work). step_ms: for Ring and Tree, the median time of each step of
/// the schedule (size = schedule steps); empty otherwise. algbw/busbw: schedule.hpp's formulas over
/// length * 4 bytes. peer_gbs: measured cudaMemcpyPeerAsync bandwidth GPU 0 -> 1 of the same bytes (0 with
/// one GPU); link_gbs: the link's theoretical bandwidth read from the topology (0 when unknown);
/// link: its name ("NVLink x18", "PCIe"). correct: every GPU's result equals the host reference
/// (exact: the inputs are small integers). error: one line when the run could not happen (then ran is false).
struct AllReduceResult {
  Method method = Method::Ring;
  int gpus = 0;
  std::int64_t length = 0;
  bool ran = false;
  bool simulated = false;
  bool correct = false;
  std::string error;
  std::string detail;  // what was wrong when !correct: "GPU 1, element 4095: 12 (reference 14)"
  double median_ms = 0;
  std::vector<double> step_ms;
  double algbw_gbs = 0;
  double busbw_gbs = 0;
  double peer_gbs = 0;
  double link_gbs = 0;
  std::string link;
  std::vector<std::string> device_names;
};

/// The input of GPU `gpu` at element `i`: small integers (-8..8) so that sums over 8 GPUs are exact in
/// float32 and int64 whatever the order of the adds. The same function fills the host reference, the sim
/// and the uploads.
inline int input_value(int gpu, std::int64_t i) { return int((i * 7 + std::int64_t(gpu) * 13 + (i >> 10)) % 17) - 8; }

/// Runs `r` on this machine's GPUs. A build without CUDA, fewer GPUs than asked, no peer access where
/// the method needs it, or no NCCL: ran = false and a one-line error saying which. Never throws.
AllReduceResult run_allreduce_on_gpus(const AllReduceRequest& r);

/// How many GPUs this process sees (0 in a build without CUDA or with no usable device). Never throws.
int visible_gpu_count();

}  // namespace ws::collective
