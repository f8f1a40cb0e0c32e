// Metadata of the CS121 reduction lesson ("GPUs and CUDA 3: Intrinsics", CS121, Fall 2022,
// CS121 Parallel Computing, Fall 2022), in teaching order. The kernels are in
// kernels/reduction/cs121.cu; the lesson text in assets/lessons/cs121.json.
#include "registry.hpp"

namespace ws {

namespace {

VariantInfo make(const char* id, const char* title, const char* slide, ReduceOp op, const char* description) {
  VariantInfo v;
  v.id = id;
  v.lesson = "cs121";
  v.traceable = true;  // reports store its block-0 trace; the GPU records it from the trace build
  v.pattern = PatternKind::Reduction;
  v.title = title;
  v.seed = "003_156a830321b56386.txt";
  v.slide = slide;
  v.description = description;
  v.op = op;
  return v;
}

}  // namespace

/// The lesson's reduction variants in teaching order, and their place among the tables (registry.hpp):
/// seed 003, whose lecture teaches reductions first.
LessonVariants cs121_reduction_variants() {
  std::vector<VariantInfo> t;

  {
    VariantInfo v = make("cs121.atomic_max", "Global atomicMax", "Finding max of array", ReduceOp::Max,
                         "One thread per element, each calling atomicMax on a single global maximum. Correct in any "
                         "order, since every update is indivisible and max is commutative, but all threads contend "
                         "for one address and the updates are serialized.");
    v.rules.pow2_block = true;
    v.rules.int_only = true;
    v.rules.int_only_reason = "CUDA's atomicMax takes int, unsigned and 64-bit integers; it has no float32 form";
    v.rules.note =
        "atomicMax exists for integers only, and the slide's unguarded load needs a power-of-two block to stay inside "
        "the padded input";
    v.traced_launch = 1;  // launch 0 is init_max, which only sets the accumulators
    t.push_back(v);
  }
  {
    VariantInfo v = make("cs121.local_max", "Local maxes first", "Improving performance", ReduceOp::Max,
                         "The single maximum is split into 256 local maxes: thread i does atomicMax on "
                         "local_max[i % 256] and touches the global maximum only if that raised its local one. "
                         "Contention is spread over 256 addresses and the global maximum is rarely updated.");
    v.rules.pow2_block = true;
    v.rules.int_only = true;
    v.rules.int_only_reason = "CUDA's atomicMax takes int, unsigned and 64-bit integers; it has no float32 form";
    v.rules.note =
        "atomicMax exists for integers only, and the slide's unguarded load needs a power-of-two block to stay inside "
        "the padded input";
    v.traced_launch = 1;  // launch 0 is init_max, which only sets the accumulators
    t.push_back(v);
  }
  {
    VariantInfo v =
        make("cs121.block_reduce", "Shuffle block reduce", "Block reduce", ReduceOp::Sum,
             "One element per thread; each warp sums its 32 values with __shfl_down_sync, lane 0 of every "
             "warp writes the warp's sum to a 32-slot shared array, and the first warp sums those. Thread 0 "
             "adds the block's total to the result with one atomicAdd.");
    v.rules.default_block = 512;
    v.rules.note =
        "full-mask warp shuffles need a whole number of warps, and 32 warp sums fit the 32-slot shared array up to "
        "1024 threads";
    t.push_back(v);
  }
  {
    VariantInfo v = make("cs121.device_reduce", "Two-launch device reduce", "Reducing larger arrays", ReduceOp::Sum,
                         "Each thread sums the input with a grid-size stride, each block reduces those sums with "
                         "blockReduceSum and writes one partial sum per block. A second launch of a single 1024-thread "
                         "block reduces the partials; no atomics at all.");
    v.rules.default_block = 512;
    v.rules.grid_stride = true;
    v.rules.max_grid = 1024;
    v.rules.note = "the second launch is one block of 1024 threads, which can fold at most 1024 block sums";
    t.push_back(v);
  }
  return {TeachingPlace{3, 0}, t};
}

}  // namespace ws
