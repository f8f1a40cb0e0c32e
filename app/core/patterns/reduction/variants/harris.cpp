// Variants of "Code Optimizations" (Jiri Filipovic, Fall 2020, after Mark Harris):
// "Code Optimizations", Filipovic, Fall 2020. Kernels: kernels/reduction/harris.cu. Teaching order.
#include "registry.hpp"

namespace ws {

namespace {

constexpr const char* kSeed = "002_7b2a1433db94dde3.txt";

const char* kLockStepCaution =
    "The last warp is unrolled through a volatile pointer without __syncwarp(): correct only while "
    "the 32 threads of a warp run in lock-step (before Volta, compute capability < 7.0). Since Volta's "
    "independent thread scheduling nothing orders one lane's read after another lane's write, so it "
    "is a race in principle, even if it usually gives the right sum; harris.impl5_shfl is the safe form.";

VariantInfo make(const char* id, const char* title, const char* slide, const char* description, LaunchRules rules) {
  VariantInfo v;
  v.id = id;
  v.lesson = "harris";
  v.traceable = true;  // reports store its block-0 trace; the GPU records it from the trace build
  v.pattern = PatternKind::Reduction;
  v.title = title;
  v.seed = kSeed;
  v.slide = slide;
  v.description = description;
  v.op = ReduceOp::Sum;
  v.rules = rules;
  return v;
}

LaunchRules rules(int min_block, bool pow2, int items, bool grid_stride, const char* note) {
  LaunchRules r;
  r.default_block = 256;
  r.min_block = min_block;
  r.max_block = 1024;
  r.pow2_block = pow2;
  r.items_per_thread = items;
  r.grid_stride = grid_stride;
  r.note = note;
  // Block-wide trees with no warp-level code also take the slides' 8- and 16-thread blocks.
  if (min_block <= kSmallestTeachingBlock) r.warp_multiple = false;
  return r;
}

}  // namespace

/// The lesson's reduction variants in teaching order, and their place among the tables (registry.hpp):
/// seed 002, its only table.
LessonVariants harris_reduction_variants() {
  std::vector<VariantInfo> t;

  t.push_back(make("harris.naive", "Naive pairwise launches", "Naive Approach",
                   "One kernel launch per level of the tree: launch k adds v[i + 2^k] into v[i] for every "
                   "i that is a multiple of 2^(k+1), in place in global memory. The kernel boundary serves "
                   "as the global barrier; it costs log2 n launches and three memory accesses per addition.",
                   rules(32, false, 2, false,
                         "The first launch has one thread per pair of elements; each later launch sizes its "
                         "own grid for the pairs that are left.")));
  t.back().writes_input = true;

  t.push_back(make("harris.multipass", "Shared-memory block sums", "Exploiting Data Locality",
                   "Each block loads blockDim.x numbers into shared memory, reduces them there in log2 "
                   "steps and writes one number. The kernel is relaunched on the block sums until one "
                   "value is left: log_m n launches and about n + n/m reads instead of 2n.",
                   rules(kSmallestTeachingBlock, true, 1, false,
                         "The shared-memory tree halves its stride each step, so the block must be a power "
                         "of two; one block per blockDim.x elements.")));

  t.push_back(make("harris.impl1", "1: interleaved, modulo", "Implementation 1",
                   "The block tree with interleaved addressing: in step s the threads with tid % (2s) == 0 "
                   "add their neighbour at distance s. Every warp keeps a few active lanes (divergence) and "
                   "the modulo is expensive; relaunched on the block sums until one value is left.",
                   rules(kSmallestTeachingBlock, true, 1, false,
                         "The tree doubles its stride up to the block size, so the block must be a power of two; "
                         "one block per blockDim.x elements.")));

  t.push_back(make("harris.impl2", "2: strided index", "Implementation 2",
                   "Same tree, but thread tid works on index 2*s*tid, so the active threads are consecutive "
                   "and the modulo is gone. The accesses 2s words apart now collide in shared-memory banks.",
                   rules(kSmallestTeachingBlock, true, 1, false,
                         "The tree doubles its stride up to the block size, so the block must be a power of two; "
                         "one block per blockDim.x elements.")));

  t.push_back(make("harris.impl3", "3: sequential addressing", "Implementation 3",
                   "The stride starts at half the block and halves; thread tid adds sv[tid + s]. A warp reads "
                   "consecutive words: no divergence and no bank conflicts, but half the threads only load.",
                   rules(kSmallestTeachingBlock, true, 1, false,
                         "The stride halves from blockDim.x/2, so the block must be a power of two; one block per "
                         "blockDim.x elements.")));

  t.push_back(make("harris.impl4", "4: first add during load", "Implementation 4",
                   "Each block covers twice as many elements and every thread adds its two elements while "
                   "loading them into shared memory. Half as many blocks, and no thread idles in the first step.",
                   rules(kSmallestTeachingBlock, true, 2, false,
                         "Each thread loads two elements, so a block covers 2*blockDim.x elements; the tree needs a "
                         "power-of-two block.")));

  t.push_back(make("harris.impl5", "5: unrolled last warp (volatile)", "Implementation 5",
                   "When 32 or fewer threads are left, warp 0 finishes the last six steps alone, without "
                   "__syncthreads(), through a volatile pointer and with the running sum in a register. Saves "
                   "the barriers and loop overhead of the last steps in every block.",
                   rules(64, true, 2, false,
                         "The unrolled last warp reads sv[tid + 32], so the block needs at least 64 threads, a "
                         "power of two; two elements per thread.")));
  t.back().caution = kLockStepCaution;

  t.push_back(make("harris.impl5_shfl", "5: last warp with shuffles", "Implementation 5",
                   "The slide's warp-shuffle form of the last warp: the running sums move between lanes with "
                   "__shfl_down_sync instead of through shared memory. The intrinsic synchronizes the warp, so "
                   "this is correct on every GPU (the slide's call misses the mask argument; we pass the full warp).",
                   rules(64, true, 2, false,
                         "The last warp first adds sv[tid + 32], so the block needs at least 64 threads, a power of "
                         "two; two elements per thread.")));

  t.push_back(make("harris.impl6", "6: template-unrolled tree", "Implementation 6",
                   "The block size becomes a template parameter, so every step of the tree is unrolled and "
                   "its if (blockSize >= ...) is decided at compile time. The slide stops at 512 threads; the "
                   "tree here starts at 1024. The last warp is Implementation 5's.",
                   rules(64, true, 2, false,
                         "Instantiated for power-of-two blocks from 64 (the unrolled last warp reads sv[tid + 32]) "
                         "to 1024; two elements per thread.")));
  t.back().caution = kLockStepCaution;

  t.push_back(make("harris.impl7", "7: many elements per thread", "Implementation 7",
                   "Fewer blocks than windows: each thread first adds pairs of elements while striding over "
                   "the input by the whole grid, then the block runs Implementation 6's tree once. O(n / log n) "
                   "threads make the total work O(n); the block sums are reduced by relaunching on them.",
                   rules(64, true, 2, true,
                         "A grid-stride loop covers any n with any grid; blocks are Implementation 6's (powers of "
                         "two from 64 to 1024).")));
  t.back().caution = kLockStepCaution;

  return {TeachingPlace{2, 0}, t};
}

}  // namespace ws
