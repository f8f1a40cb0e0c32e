// Analyses of a trace: pure functions, no state. Active masks and divergence per
// step and warp, shared-memory bank conflicts, global-load sectors, atomic contention.
// Vocabulary of DESIGN.md: warp = 32 consecutive threads of the block, lane = thread % 32,
// bank = (4-byte word index) % 32, sector = 32 bytes of global memory (8 words).
#pragma once
#include <cstdint>
#include <vector>

#include "trace/trace.hpp"

namespace ws {

constexpr int kWarpSize = 32;
constexpr int kBanks = 32;        ///< shared-memory banks, 4 bytes wide
constexpr int kSectorBytes = 32;  ///< global-memory sector
constexpr int kWordBytes = 4;     ///< every element is 4 bytes (int32, float32)

/// Mask of the lanes that exist in warp `w` of a block of `block_size` threads (all 32 but in a
/// partial last warp; 0 past the block).
std::uint32_t existing_lanes(int block_size, int w);

/// One 32-bit mask per warp of the block (trace.warps() of them): bit `lane` is set when thread
/// w * 32 + lane is in step.working_threads. Threads outside the block are ignored.
std::vector<std::uint32_t> active_masks(const Trace& t, const Step& step);

/// Counters of one step over its warps.
struct WarpActivity {
  int active_warps = 0;     ///< warps with at least one active lane
  int divergent_warps = 0;  ///< active warps with some but not all of their existing lanes active
  int idle_warps = 0;       ///< warps with no active lane
  int active_lanes = 0;     ///< working threads in the block
};
/// Divergence: a warp whose mask is neither 0 nor existing_lanes(block_size, w).
bool is_divergent(std::uint32_t mask, int block_size, int w);
WarpActivity warp_activity(const Trace& t, const std::vector<std::uint32_t>& masks);

/// n-way bank conflict of one warp-wide shared access: the 4-byte word addresses of its lanes (any
/// order, repeats allowed). n = the most distinct words that fall in one bank (word % 32); lanes on the
/// same word are served together (broadcast) and do not conflict. 0 for no addresses, 1 = conflict-free.
/// Examples: words 0..31 -> 1; 0, 2, .., 62 -> 2; 0, 32, .., 992 -> 32; all lanes on word 7 -> 1.
int bank_conflict_ways(const std::vector<std::int64_t>& words);

/// Per warp, the highest n-way conflict over the step's shared accesses (Load, Store and Atomic ops in
/// Space::Shared, grouped by warp and ThreadOp::access); 0 when the warp makes no shared access.
std::vector<int> step_bank_conflicts(const Trace& t, const Step& step);

/// One warp-wide global load (Load ops in Space::Global grouped by warp, access and buffer).
struct SectorRequest {
  int warp = 0;
  int access = 0;
  int buffer = 0;
  int lanes = 0;        ///< lanes that took part
  int sectors = 0;      ///< distinct 32-byte sectors touched: distinct (word * 4 / 32)
  int min_sectors = 0;  ///< ceil(distinct words * 4 / 32): the fewest sectors those bytes can fill
};
/// Every warp-wide global load request of the step, by warp then access.
std::vector<SectorRequest> global_load_sectors(const Trace& t, const Step& step);

/// Atomics on one address (space, global buffer, word).
struct AtomicAddress {
  Space space = Space::Global;
  int buffer = 0;
  std::int64_t address = 0;
  int ops = 0;  ///< atomic operations on it in the step (or trace)
};
/// Atomic contention: operations per address, and the longest serialized chain (the most operations
/// on one address: the hardware applies them one after another).
struct AtomicStats {
  int ops = 0;
  int longest_chain = 0;
  std::vector<AtomicAddress> addresses;  ///< sorted by space, buffer, address
};
AtomicStats atomic_stats(const Step& step);
/// The same over every step of the trace.
AtomicStats atomic_stats(const Trace& t);

/// Everything the views and `trace --json` show for one step.
struct StepSummary {
  std::vector<std::uint32_t> masks;  ///< one per warp
  std::vector<int> conflict_ways;    ///< one per warp (0 = no shared access)
  WarpActivity activity;
  int load_requests = 0, sectors = 0, min_sectors = 0;  ///< summed over the step's global load requests
  AtomicStats atomics;
};
StepSummary summarize_step(const Trace& t, const Step& step);

}  // namespace ws
