// Metadata of the EPITA reduction lesson ("Reduction Pattern", Carlinet and Chazalon, EPITA GPU Computing,
// Fall 2023, after Mark Harris), in teaching order. The kernels are in
// kernels/reduction/epita.cu; the lesson text in assets/lessons/epita.json.
#include <algorithm>
#include <cstdint>

#include "inputs.hpp"
#include "registry.hpp"

namespace ws {

namespace {

constexpr const char* kSeed = "000_27438c05e47b0926.txt";

VariantInfo make(const char* id, const char* title, const char* slide, const char* description) {
  VariantInfo v;
  v.id = id;
  v.lesson = "epita";
  v.traceable = true;  // reports store its block-0 trace; the GPU records it from the trace build
  v.pattern = PatternKind::Reduction;
  v.title = title;
  v.seed = kSeed;
  v.slide = slide;
  v.description = description;
  v.op = ReduceOp::Sum;
  return v;
}

// Kernels with no warp-level code (no shuffles, no unrolled last warp, no fixed 32-thread block)
// take blocks of 8 and 16 threads, as the slides draw their trees; their rule notes say why.
void allow_small_blocks(VariantInfo& v) {
  v.rules.min_block = kSmallestTeachingBlock;
  v.rules.warp_multiple = false;
}

// What the slide's reduce8 really returns: block b (32 threads, thread t reading b*32 + t + 32k for
// k < 32) sums the window [32 b, 32 b + 1024), so index j is counted once for every block b < grid with
// 32 b <= j < 32 b + 1024. Indices >= n are padding (0). int32 wraps modulo 2^32; float32 in double.
double reduce8_slide_model(const Input& in, const LaunchConfig& launch) {
  const std::int64_t n = in.n();
  const std::int64_t grid = launch.grid > 0 ? launch.grid : (n + 1023) / 1024;
  if (n <= 0 || grid <= 0) return 0.0;
  const std::int64_t end = std::min(n, 32 * (grid - 1) + 1024);  // past this no block reads
  std::uint32_t isum = 0;
  double fsum = 0.0;
  for (std::int64_t j = 0; j < end; ++j) {
    const std::int64_t first = j >= 1024 ? (j - 1024) / 32 + 1 : 0;  // first block whose window holds j
    const std::int64_t last = std::min(grid - 1, j / 32);            // last one
    const std::int64_t times = last - first + 1;                     // 1..32 (32 in the overlap zone)
    if (in.type == DType::Int32)
      isum += std::uint32_t(in.i32[std::size_t(j)]) * std::uint32_t(times);
    else
      fsum += double(in.f32[std::size_t(j)]) * double(times);
  }
  return in.type == DType::Int32 ? double(std::int32_t(isum)) : fsum;
}

}  // namespace

/// The lesson's reduction variants in teaching order, and their place among the tables (registry.hpp):
/// seed 000, its only table.
LessonVariants epita_reduction_variants() {
  std::vector<VariantInfo> t;

  {
    VariantInfo v = make("epita.race", "Racy global sum", "Data Race",
                         "One thread per element, each adding its value to the global sum with a plain `*sum += x`. "
                         "The read, the add and the write of different threads interleave, so most additions are "
                         "lost and the result changes from run to run.");
    v.racy = true;
    v.default_input = "ones";
    v.rules.note =
        "one thread per element guarded by x < size, so any block of 8 threads or more works (no warp-level code)";
    allow_small_blocks(v);
    t.push_back(v);
  }
  {
    VariantInfo v = make("epita.reduce0", "Global atomicAdd", "Reduction Pattern Corrected",
                         "The same one-thread-per-element kernel with the update made atomic: atomicAdd(sum, x). "
                         "The answer is right, but every thread contends for one address, so the additions are "
                         "serialized by the memory system.");
    v.rules.note =
        "one thread per element guarded by x < size, so any block of 8 threads or more works (no warp-level code)";
    allow_small_blocks(v);
    t.push_back(v);
  }
  {
    VariantInfo v = make("epita.reduce1_nosync", "Privatization without barriers",
                         "Output Privatization (\"Is this correct? No! we need synchronization\")",
                         "Each block accumulates into a shared local_sum with shared-memory atomics and thread 0 adds "
                         "it to the global sum, but nothing orders thread 0's zeroing and commit against the other "
                         "threads' additions. Values added before the zeroing or after the commit are lost.");
    v.racy = true;
    v.default_input = "ones";
    v.rules.min_block = 64;
    v.rules.note =
        "a single-warp block runs the zeroing, the additions and the commit in program order and hides the race, so it "
        "takes at least two warps";
    t.push_back(v);
  }
  {
    VariantInfo v =
        make("epita.reduce1", "Output privatization", "Reduction Pattern V2: Output privatization (with syncs)",
             "reduce1 with a __syncthreads after zeroing local_sum and another before thread 0 commits it. "
             "Correct, with one global atomic per block instead of one per element; inside a block the "
             "shared atomics are still a sequential chain.");
    v.rules.note =
        "one thread per element guarded by x < size, so any block of 8 threads or more works (no warp-level code)";
    allow_small_blocks(v);
    t.push_back(v);
  }
  {
    VariantInfo v = make("epita.reduce2", "Interleaved tree", "Reduction Pattern: tree reduction without atomics",
                         "Each thread copies one element to shared memory and the block sums them as a tree: at "
                         "stride s, threads whose index is a multiple of 2s add the value s places to the right. The "
                         "working threads are scattered over every warp, so warps diverge and stay busy for few "
                         "useful additions.");
    v.rules.pow2_block = true;
    v.rules.note =
        "the tree halves the active threads each step and the load is unguarded, so the block must be a power of two";
    allow_small_blocks(v);
    t.push_back(v);
  }
  {
    VariantInfo v = make("epita.reduce3", "Sequential addressing", "Efficient Reduction Trees",
                         "The same tree with the stride starting at half the block and halving, and threads "
                         "tid < stride doing the additions. Active threads are packed into the first warps, so whole "
                         "warps retire and only the last five steps diverge.");
    v.rules.pow2_block = true;
    v.rules.note =
        "the stride halves from blockDim.x / 2 down to 1 and the load is unguarded, so the block must be a power of "
        "two";
    allow_small_blocks(v);
    t.push_back(v);
  }
  {
    VariantInfo v = make("epita.reduce4", "Double loading", "Double loading",
                         "Each block covers twice its size: every thread stores two elements (guarded by x < size) "
                         "into a shared array of 2 * blockDim.x values and the tree starts at stride blockDim.x. "
                         "Half as many blocks and no idle thread in the first step, for twice the shared memory.");
    v.rules.pow2_block = true;
    v.rules.items_per_thread = 2;
    v.rules.note =
        "each block covers 2 * blockDim.x elements and the tree halves the stride, so the block must be a power of two";
    allow_small_blocks(v);
    t.push_back(v);
  }
  {
    VariantInfo v = make("epita.add_twice", "First add during load",
                         "Performance summary (row \"add twice\", not shown on a slide)",
                         "Each thread adds two elements blockDim.x apart while loading and stores only their sum, so "
                         "the shared array is back to blockDim.x values. The sequential-addressing tree follows, with "
                         "every thread busy in its first step.");
    v.rules.pow2_block = true;
    v.rules.items_per_thread = 2;
    v.rules.note =
        "each block covers 2 * blockDim.x elements with unguarded loads and the tree halves the stride, so the block "
        "must be a power of two";
    allow_small_blocks(v);
    t.push_back(v);
  }
  {
    VariantInfo v = make("epita.reduce5", "Algorithm cascading", "Algorithm Cascading",
                         "A grid sized to fill the GPU walks the input with a grid-size stride, each thread summing "
                         "its share into its own shared slot; then each block runs the sequential-addressing tree "
                         "once and adds its total with one atomicAdd. The work per thread adapts to n.");
    v.rules.pow2_block = true;
    v.rules.grid_stride = true;
    v.rules.note =
        "the grid-stride loop accepts any grid, and the tree halves the stride, so the block must be a power of two";
    allow_small_blocks(v);
    t.push_back(v);
  }
  {
    VariantInfo v = make("epita.reduce6", "Last-warp unroll", "Loop unrolling",
                         "reduce5 whose tree loop stops once 64 values are left; the first warp finishes with six "
                         "unrolled steps on a volatile shared pointer, without __syncthreads. The slide calls the "
                         "helper warpReduce4 at the call site (a typo for warpReduce).");
    v.rules.min_block = 64;
    v.rules.pow2_block = true;
    v.rules.grid_stride = true;
    v.rules.note =
        "the unrolled last warp reads partialSum[tid + 32], so it needs at least 64 threads, and the tree needs a "
        "power of two";
    v.caution =
        "The last warp's steps go through a volatile pointer with no __syncwarp(): that is correct only if the 32 "
        "threads run in lock-step. Since Volta (independent thread scheduling) it is a race in principle, even "
        "if it usually gives the right sum; __syncwarp() between steps or a shuffle reduction is the safe form.";
    t.push_back(v);
  }
  {
    VariantInfo v = make(
        "epita.full_unroll", "Full unroll (templated block size)",
        "Loop unrolling (\"Unroll all tree reduction loops\"; row \"cascading, full unroll\", not shown on a slide)",
        "reduce6 with the block size as a template parameter, so every tree step is an if on a "
        "compile-time constant and the loop disappears; the cascading loop is unrolled four times. "
        "The host picks the instantiation for the block size.");
    v.rules.min_block = 64;
    v.rules.pow2_block = true;
    v.rules.grid_stride = true;
    v.rules.note =
        "the kernel is instantiated for power-of-two blocks 64..1024 and the last warp reads partialSum[tid + 32]";
    v.caution =
        "The last warp is reduce6's volatile warpReduce without __syncwarp(): correct only under lock-step warps, "
        "a race in principle since Volta (independent thread scheduling).";
    t.push_back(v);
  }
  {
    VariantInfo v = make("epita.reduce7", "Cascading + atomic per thread", "Performance summary (reduce7)",
                         "No shared memory and no tree: each thread accumulates its grid-stride share in a register "
                         "and adds it to the global sum with one atomicAdd. With a grid of one wave there are few "
                         "enough atomics to hide behind the loads.");
    v.rules.grid_stride = true;
    v.rules.note =
        "the grid-stride loop accepts any grid and there is no tree, so any block of 8 threads or more works (no "
        "warp-level code)";
    allow_small_blocks(v);
    t.push_back(v);
  }
  {
    VariantInfo v = make("epita.reduce8", "32x32 blocks (slide's bug kept)", "Performance summary (reduce8)",
                         "The slide's last kernel as written: blocks of 32 threads, each thread adding 32 values 32 "
                         "apart, a shared atomicAdd per thread and one global atomicAdd per block, ceil(n / 1024) "
                         "blocks. Its block offset is blockIdx.x * 32 instead of blockIdx.x * 1024.");
    v.cautionary = true;
    v.rules.fixed_block = 32;
    v.rules.items_per_thread = 32;
    v.rules.note = "the slide's code hard-codes 32 threads per block, each reading 32 elements (1024 per block)";
    v.caution =
        "Block b reads [32 b, 32 b + 1024) because i = blockIdx.x * blockDim.x + tid steps by 32, not 1024: the "
        "windows overlap 32-fold and everything past about n / 32 is never read, so the sum is wrong (for n <= 1024 "
        "the single block happens "
        "to be right). That is how the table's 0.56 ms for 132 M ints (943 GB/s on a 192 GB/s GTX 1060) was possible.";
    v.slide_model = reduce8_slide_model;
    t.push_back(v);
  }
  {
    VariantInfo v =
        make("epita.reduce8_fixed", "32x32 blocks, corrected", "Performance summary (reduce8, indexing corrected)",
             "reduce8 with the block offset fixed to blockIdx.x * blockDim.x * 32, so block b covers "
             "[1024 b, 1024 b + 1024) and every element is read once. Same 32-thread blocks, coalesced "
             "loads and two levels of atomics.");
    v.rules.fixed_block = 32;
    v.rules.items_per_thread = 32;
    v.rules.note = "the slide's code hard-codes 32 threads per block, each reading 32 elements (1024 per block)";
    t.push_back(v);
  }
  {
    VariantInfo v = make("epita.tuned", "Tuned single pass (beyond the slides)", "",
                         "Not from the slides: what closes the gap to a library. Each thread reads 16-byte vectors "
                         "(int4/float4), four of them before any add, so more bytes are in flight; warps sum with "
                         "shuffles instead of a shared-memory tree; blocks take tiles of the input from a counter "
                         "(a block on a faster SM takes more), each tile's sum its own partial; and one launch does "
                         "it all: the last block to finish (a ticket counter) folds the partials in a fixed order, "
                         "so no second launch, no atomics on the sum and the same float32 bits every run.");
    v.seed.clear();  // not from a seed: its title and the lesson's text say so
    v.beyond_slides = true;
    v.traceable = false;         // its point is speed; its steps are full_unroll's with shuffles
    v.rules.grid_stride = true;  // its blocks take tiles until none are left, so any grid works
    v.rules.items_per_thread = 4;
    v.rules.default_block = 1024;  // with the one-wave grid: 2 blocks per SM on the H100 and H200 (bench/reduce_ab.cu)
    v.rules.note =
        "warp shuffles need a whole number of warps (up to 32 of them), and the grid-stride loop accepts any grid";
    t.push_back(v);
  }
  return {TeachingPlace{0, 0}, t};
}

}  // namespace ws
