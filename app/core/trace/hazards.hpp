// Shared-memory hazards in a trace: two threads touching the same shared word between two barriers,
// at least one of them writing, with nothing that orders them (what compute-sanitizer's racecheck
// calls a hazard; seed 000, slide "Output Privatization": "Is this correct? No!").
//
// The rules, and why:
// - Barrier intervals. Ops belong to the interval between two __syncthreads: a new interval starts
//   after every step with Step::barrier_after, and inside a step at Step::barrier_before_access.
// - Reads and writes. Load = read; Store = write; Atomic = read-modify-write. Two atomics on one word
//   never race (the hardware serializes them); an atomic and a plain load or store do.
// - Warps in lock-step. The slides' model (seed 000 "Loop unrolling": the volatile warpReduce with no
//   barrier) and every sim model run a warp's 32 lanes as one instruction stream: each statement reads
//   for all lanes, then writes for all lanes, and statements follow program order. Accesses of one
//   warp are therefore ordered and never a hazard; a hazard needs two threads of different warps. So
//   reduce5/reduce6's unrolled last warp (one warp, no barrier) is clean, and a kernel that drops a
//   barrier between warps (reduce1_nosync's commit, a tree step without __syncthreads) is not.
//   (Since Volta, lanes may be scheduled apart; the lessons that teach __syncwarp say so. The slides
//   and these models do not.)
// - Folded steps (ops not recorded) are not analysed.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "trace/trace.hpp"

namespace ws {

/// One of the two accesses of a hazard.
struct HazardAccess {
  int step = 0;                ///< Step::index
  int thread = 0;              ///< threadIdx.x
  OpKind kind = OpKind::Load;  ///< Load, Store or Atomic
  int line = 0;                ///< source line of Trace::source_file, 0 = not known
};

/// Every conflicting pair of accesses to one shared word in one barrier interval, represented by one
/// pair: `first` (the earlier in trace order: step, then thread) and `second` (from another warp).
/// When the word has a read among its conflicts, `first` or `second` is one.
struct Hazard {
  int buffer = 0;                     ///< ThreadOp::buffer of the shared word (0 but in double-buffered kernels)
  std::int64_t word = 0;              ///< shared word index
  int interval = 0;                   ///< barrier interval, 0-based
  int first_step = 0, last_step = 0;  ///< the interval's steps
  HazardAccess first, second;
  std::int64_t pairs = 0;   ///< conflicting pairs on the word in the interval (threads of different warps)
  bool read_write = false;  ///< true: a read against a write; false: two writes
};

/// The hazards of a trace in interval order, then by buffer and word. Empty for a trace without
/// shared accesses. Pure; cost O(ops + conflicting words x accesses on them).
std::vector<Hazard> shared_hazards(const Trace& t);

/// One line for students, e.g. "thread 3 reads shared[4] while thread 35 writes it, no barrier
/// between (steps 1-2, lines 41 and 45; 31 more pairs on this word)".
std::string describe_hazard(const Hazard& h);

/// The hazards that involve step `step` (either access in it), in the order of shared_hazards.
std::vector<const Hazard*> hazards_at_step(const std::vector<Hazard>& all, int step);

}  // namespace ws
