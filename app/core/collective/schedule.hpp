// The all-reduce schedules of the lesson "Reduction across GPUs" (issue 30): which chunk moves from which
// GPU to which in each step of the ring and of the tree, for any GPU count. One schedule drives the sim
// model (the pictures a student steps through without a GPU), the hand-written CUDA ring and tree (each
// step: peer copies, then an add kernel) and the checks that the two agree step for step.
//
// Sources: the ring is the bandwidth-optimal all-reduce of Patarasuk and Yuan, "Bandwidth optimal all-reduce
// algorithms for clusters of workstations" (JPDC 2009): a reduce-scatter of n-1 steps, then an all-gather of
// n-1 steps, each GPU sending one chunk of L/n elements per step. The tree is the binomial tree of the
// reduction lessons' second pass (EPITA "Reduction" and CS121's deviceReduce: partials meet pairwise,
// log2(n) levels) applied to whole vectors, then the same tree backwards to broadcast. Bus bandwidth follows
// nccl-tests' definition (doc/PERFORMANCE.md of NVIDIA/nccl-tests): busbw = algbw * 2(n-1)/n for all-reduce.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ws::collective {

/// The hand-written all-reduce algorithms.
enum class Algorithm { Ring, Tree };

/// The phase a step belongs to. Ring: ReduceScatter then AllGather; tree: Reduce then Broadcast.
enum class Phase { ReduceScatter, AllGather, Reduce, Broadcast };

/// "ring", "tree" / "reduce-scatter", "all-gather", "reduce", "broadcast".
const char* to_string(Algorithm a);
const char* to_string(Phase p);

/// One chunk travelling over one link in one step.
/// src_gpu, dst_gpu: device ordinals in [0, gpus); chunk: index in [0, Schedule::chunks).
/// add: true when the receiver adds the chunk into its own copy (reduce-scatter, reduce); false when it
/// overwrites its copy with it (all-gather, broadcast).
struct ChunkMove {
  int src_gpu = 0;
  int dst_gpu = 0;
  int chunk = 0;
  bool add = true;
  bool operator==(const ChunkMove& o) const {
    return src_gpu == o.src_gpu && dst_gpu == o.dst_gpu && chunk == o.chunk && add == o.add;
  }
};

/// One step: moves that run at the same time (each GPU sends at most one chunk and receives at most one).
struct Step {
  Phase phase = Phase::ReduceScatter;
  std::vector<ChunkMove> moves;
  bool operator==(const Step& o) const { return phase == o.phase && moves == o.moves; }
};

/// A whole all-reduce: `chunks` equal parts of the vector (chunk_range), `steps` in order.
struct Schedule {
  Algorithm algorithm = Algorithm::Ring;
  int gpus = 1;
  int chunks = 1;
  std::vector<Step> steps;
};

/// The largest GPU count the schedules and the view accept (a DGX node).
inline constexpr int kMaxGpus = 8;

/// The ring all-reduce on `gpus` GPUs (1..kMaxGpus): chunks = gpus, 2(gpus-1) steps of `gpus` moves.
/// Reduce-scatter step s (0 <= s < gpus-1): GPU i sends chunk (i - s) mod n to GPU (i + 1) mod n, which adds
/// it; after it GPU i holds the sum of chunk (i + 1) mod n. All-gather step s: GPU i sends chunk
/// (i + 1 - s) mod n to GPU (i + 1) mod n, which overwrites its copy. One GPU: no steps.
/// Throws std::invalid_argument outside 1..kMaxGpus.
Schedule ring_schedule(int gpus);

/// The binomial-tree all-reduce on `gpus` GPUs (1..kMaxGpus): one chunk (the whole vector),
/// 2 * ceil(log2 gpus) steps. Reduce level k: every GPU i with i mod 2^(k+1) == 2^k sends to GPU i - 2^k,
/// which adds; after the last level GPU 0 holds the sum. Broadcast: the levels backwards, each receiver
/// overwriting. Throws std::invalid_argument outside 1..kMaxGpus.
Schedule tree_schedule(int gpus);

/// ring_schedule or tree_schedule.
Schedule make_schedule(Algorithm a, int gpus);

/// The element range [begin, end) of chunk `c` of a vector of `length` elements split into `chunks` parts:
/// the first length % chunks parts are one element longer. Throws std::invalid_argument when c is not in
/// [0, chunks) or chunks < 1.
struct Range {
  std::int64_t begin = 0;
  std::int64_t end = 0;
};
Range chunk_range(std::int64_t length, int chunks, int c);

/// Runs a schedule on the host: `buffers` holds one vector per GPU (all of one length); each step reads
/// every sender's chunk before any receiver writes (the moves of a step happen at once, as on the GPUs).
/// After the last step every buffer holds the element-wise sum (in the order the schedule adds: the
/// reference the GPU runs are compared with). `steps` limits how many steps run (-1: all), for the sim's
/// step-by-step pictures. Throws std::invalid_argument when buffers.size() != schedule.gpus or the
/// lengths differ.
void apply_schedule(const Schedule& s, std::vector<std::vector<float>>& buffers, int steps = -1);

/// Elements GPU `gpu` sends over the whole all-reduce: the sum of chunk_range sizes of its moves (the ring:
/// about 2(n-1)/n * length for every GPU; the tree: length per level it sends in, at most ceil(log2 n) + 1).
std::int64_t elements_sent(const Schedule& s, std::int64_t length, int gpu);

/// Algorithm bandwidth in GB/s (1e9 bytes/s): bytes of one GPU's vector / time. Bus bandwidth:
/// algbw * 2(n-1)/n, nccl-tests' all-reduce factor (0 for one GPU: nothing crosses a link).
/// ms must be > 0, else 0 is returned.
double algorithm_bandwidth_gbs(std::int64_t bytes, double ms);
double bus_bandwidth_gbs(std::int64_t bytes, double ms, int gpus);

}  // namespace ws::collective
