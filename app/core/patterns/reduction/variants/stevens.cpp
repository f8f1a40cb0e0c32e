// The reduction trees of Stevens CS 677 Lecture 6 (Mordohai): "CS 677 Lecture 6", Mordohai, section
// "Reduction Trees". Kernels: kernels/reduction/stevens.cu. Teaching order.
#include "registry.hpp"

namespace ws {

namespace {

VariantInfo make(const char* id, const char* title, const char* slide, const char* description) {
  VariantInfo v;
  v.id = id;
  v.lesson = "stevens";
  v.traceable = true;  // reports store its block-0 trace; the GPU records it from the trace build
  v.pattern = PatternKind::Reduction;
  v.title = title;
  v.seed = "001_9970031c1e4143ff.txt";
  v.slide = slide;
  v.description = description;
  v.op = ReduceOp::Sum;
  v.rules.default_block = 512;
  v.rules.min_block = kSmallestTeachingBlock;  // block-wide trees only: the slides' 8- and 16-element trees fit
  v.rules.warp_multiple = false;
  v.rules.max_block = 1024;
  v.rules.pow2_block = true;
  v.rules.items_per_thread = 2;
  v.rules.note =
      "Each thread loads two elements into partialSum[2 * BLOCK_SIZE] and the tree halves (or doubles) "
      "its stride, so the block must be a power of two; one block per 2 * blockDim.x elements, "
      "relaunched on the block sums.";
  return v;
}

}  // namespace

/// The lesson's reduction variants in teaching order, and their place among the tables (registry.hpp):
/// seed 001, after its convolutions: the reduction trees.
LessonVariants stevens_reduction_variants() {
  std::vector<VariantInfo> t;
  t.push_back(make("stevens.reduce_divergent", "Tree with branch divergence", "Vector Reduction with Branch Divergence",
                   "Thread t owns partialSum[2t]; in the step with stride s the threads with t % s == 0 add the "
                   "element s places to the right. After the first step every odd thread idles, so each warp runs "
                   "both sides of the if (divergence) until whole warps drop out from stride 64 on."));
  t.push_back(make("stevens.reduce_compact", "Compact tree (consecutive threads)", "A Better Reduction Kernel",
                   "The partial sums are compacted into the first locations: thread t < stride adds "
                   "partialSum[t + stride], stride halving from blockDim.x. The active threads stay consecutive, so "
                   "warps are fully active or fully idle until fewer than 32 threads are left (the last 5 steps)."));
  t.back().caution =
      "The slide starts the loop at blockDim.x/2 while loading 2 * blockDim.x elements, which would skip "
      "the upper half; its own count of active threads (1024, 512, ... for a 1024-thread block) needs "
      "stride = blockDim.x first, as here.";
  return {TeachingPlace{1, 1}, t};
}

}  // namespace ws
