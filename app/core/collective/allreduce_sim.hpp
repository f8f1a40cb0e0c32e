// The sim of the lesson "Reduction across GPUs" (issue 30): what an all-reduce would take on a machine
// described by a LinkModel (collective/link_model.hpp), step by step, so a student without GPUs sees the
// same table and pictures as the GPU run. Nothing here is measured: every result has simulated = true.
//
// The cost model (alpha-beta, link_model.hpp's sources), for a vector of L float32 per GPU (B = 4L bytes):
//   hand-written step k of a schedule (Ring, Tree): the moves of a step run at once, each on its own link
//     (NVSwitch), so the step lasts as long as its largest chunk c_k bytes takes:
//       step_ms[k] = max(alpha_k, c_k / peer_gbs (+ 3 c_k / hbm_gbs when the receiver adds: it reads its
//       chunk and the received one and writes the sum)), alpha_k = step_gpu_us n + step_move_us (moves of
//       step k): the host issues a step asynchronously, so its fixed cost and the transfer overlap (the
//       bundled 4-GPU sweep: steps of 45 us up to 4 MiB chunks, then growing with the bytes)
//     Ring: 2(n-1) steps with c = ceil(L/n) * 4 bytes; Tree: 2 ceil(log2 n) steps with c = B.
//   NCCL (fused copy and add, pipelined): ms = S alpha_nccl + B * 2(n-1)/n / busbw, S = 2(n-1) (ring) or
//     2 ceil(log2 n) (tree): the bus bandwidth of nccl-tests' definition, read backwards.
//   HostAdd: every GPU reduces its shard at HBM speed, then one small copy to the host and its wait:
//     ms = alpha + B / hbm_gbs + host_sync.
//   PeerToGpu0: the same local reduction, then one step of peer copies of the partials and GPU 0's add:
//     ms = 2 alpha + B / hbm_gbs.
// median_ms is the sum of step_ms for Ring and Tree; algbw and busbw come from schedule.hpp's formulas over
// B and median_ms (nccl-tests' definitions). One GPU: no step, 0 ms, 0 GB/s.
#pragma once
#include <cstdint>
#include <vector>

#include "collective/allreduce_run.hpp"
#include "collective/link_model.hpp"
#include "collective/schedule.hpp"

namespace ws::collective {

/// How many elements of each GPU's vector the sim checks against the host reference: all of them up to
/// this count, else this prefix (the schedule runs on the prefix; sums of every element of a 1-GiB
/// vector on 8 GPUs would take the sim seconds and prove nothing more).
inline constexpr std::int64_t kSimCheckElements = std::int64_t(1) << 20;

/// The elements simulate_allreduce checks for a vector of `length`: min(length, kSimCheckElements).
std::int64_t sim_checked_elements(std::int64_t length);

/// The schedule behind an all-reduce method: Ring and NcclRing -> Algorithm::Ring, Tree and NcclTree ->
/// Algorithm::Tree. Throws std::invalid_argument for HostAdd and PeerToGpu0 (no schedule).
Algorithm schedule_algorithm(Method m);

/// A hand-written step's fixed cost in ms: step_gpu_us x `gpus` + step_move_us x `moves` (link_model.hpp); the
/// step takes at least this long, and longer when its transfer does.
double step_alpha_ms(const LinkModel& link, int gpus, int moves);

/// The modelled time of every step of `s` for `length` float32 per GPU, in ms (size = s.steps.size()),
/// by the formula above. Throws std::invalid_argument when length < 1.
std::vector<double> model_step_ms(const Schedule& s, std::int64_t length, const LinkModel& link);

/// The modelled time in ms of `m` on `gpus` GPUs (1..kMaxGpus) with `length` elements per GPU, by the
/// formulas above (for Ring and Tree: the sum of model_step_ms). Throws std::invalid_argument when gpus or
/// length is out of range.
double model_ms(Method m, int gpus, std::int64_t length, const LinkModel& link);

/// Runs `r` in the model: times as above; correct from running the method's schedule (apply_schedule;
/// NCCL's methods: the schedule of their algorithm) on input_value inputs and comparing every GPU's
/// sim_checked_elements(length) first elements with the host reference (the sum over GPUs in int64), or
/// for HostAdd and PeerToGpu0 the total of the partials; `detail` names the first difference.
/// peer_gbs and link_gbs are the model's (0 with one GPU: nothing crosses a link), link its name,
/// simulated = true. A request with gpus outside 1..kMaxGpus (0, "every visible GPU", means nothing without
/// GPUs) or length < 1 comes back with ran = false and a one-line error. Never throws.
AllReduceResult simulate_allreduce(const AllReduceRequest& r, const LinkModel& link);

}  // namespace ws::collective
