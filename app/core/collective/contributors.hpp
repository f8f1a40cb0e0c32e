// The pictures of the lesson "Reduction across GPUs" (issue 30), for the view and `allreduce --steps`:
// after each step of a schedule, which GPUs' values each chunk of each GPU already sums. Computed from
// the schedule alone (no values), so the sim and the GPU run draw the same picture.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "collective/schedule.hpp"

namespace ws::collective {

/// A set of GPUs as a bitmask: bit g set when GPU g's value is in the sum (kMaxGpus = 8 fits a byte).
using GpuMask = std::uint8_t;

/// The contributors after the first `k` steps of `s` (0 <= k <= s.steps.size(); k = 0: before any step):
/// out[gpu][chunk] is the mask of GPUs whose values GPU `gpu`'s copy of chunk `chunk` sums. Shape:
/// s.gpus x s.chunks. Before any step every chunk of GPU g holds {g}; an adding move ORs the sender's mask
/// into the receiver's, an overwriting one copies it (the moves of a step read before any writes, as in
/// apply_schedule). Ring: after the n-1 reduce-scatter steps GPU i holds all n in chunk (i+1) mod n; after
/// the last step every chunk everywhere holds all n. Throws std::invalid_argument when k is out of range.
std::vector<std::vector<GpuMask>> contributors_after(const Schedule& s, int k);

/// The mask of every GPU of `gpus` (1..kMaxGpus): (1 << gpus) - 1.
GpuMask all_gpus_mask(int gpus);

/// A mask as text for tables: "0+1+3"; "all" when it holds every one of `gpus`; "-" when empty.
std::string mask_text(GpuMask m, int gpus);

}  // namespace ws::collective
