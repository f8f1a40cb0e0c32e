// Variants of "Parallel Reduction using C++ AMP" (MSDN blog, Parallel Programming in Native Code):
// "Parallel Reduction using C++ AMP", MSDN. Kernels: kernels/reduction/amp.cu (C++ AMP translated to CUDA:
// tile = block, tile_static = __shared__, barrier.wait() = __syncthreads()). Teaching order.
#include "registry.hpp"

namespace ws {

namespace {

constexpr const char* kSeed = "004_24e80cac4a038870.txt";

VariantInfo make(const char* id, const char* title, const char* slide, const char* description, LaunchRules rules) {
  VariantInfo v;
  v.id = id;
  v.lesson = "amp";
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

LaunchRules rules(bool pow2, int items, bool grid_stride, const char* note) {
  LaunchRules r;
  r.default_block = 256;
  r.min_block = 32;
  r.max_block = 1024;
  r.pow2_block = pow2;
  r.items_per_thread = items;
  r.grid_stride = grid_stride;
  r.note = note;
  return r;
}

}  // namespace

/// The lesson's reduction variants in teaching order, and their place among the tables (registry.hpp):
/// seed 004, its only table.
LessonVariants amp_reduction_variants() {
  std::vector<VariantInfo> t;

  t.push_back(make("amp.sequential", "CPU std::accumulate", "sequential_reduction",
                   "The reference: one CPU thread adds the elements in order with std::accumulate. Every GPU "
                   "version of the post is checked against this sum.",
                   rules(false, 1, false, "Runs on the CPU: block and grid do not apply.")));
  t.back().cpu_only = true;
  t.back().traceable = false;  // host code: no threads to step through

  t.push_back(make("amp.simple_1", "Simple: halving dispatches", "reduction_simple_1",
                   "No tiles: each dispatch runs s = m/2 threads and thread idx adds a[idx + s] into a[idx], in "
                   "place, halving m until one value is left. When m is odd the last thread first moves the "
                   "cut-off element into a separate tail sum; the host adds a[0] and the tail sum.",
                   rules(false, 2, false,
                         "One thread per pair of elements in the first dispatch; each later dispatch sizes its own "
                         "grid for the s threads it needs.")));
  t.back().writes_input = true;

  t.push_back(make("amp.simple_2", "Simple: windows of 8", "reduction_simple_2",
                   "Each thread sums a window of 8 values spaced s = m/8 apart and writes one result, so about "
                   "log8 n dispatches and 1.28n memory accesses replace log2 n and 3n. The last thread adds the "
                   "cut-off tail serially (divergence); the last fewer-than-8 values and the tail go to the host.",
                   rules(false, 8, false,
                         "One thread per 8 elements in the first dispatch; each later dispatch sizes its own grid "
                         "for the s threads it needs.")));
  t.back().writes_input = true;

  t.push_back(make("amp.tiled_1", "Tiled: modulo", "reduction_tiled_1",
                   "Tiles with tile_static (shared) memory: each thread copies one element, then the threads "
                   "with tid % (2s) == 0 add their neighbour at distance s, and thread 0 writes the tile's sum. "
                   "Repeated on the sums (two arrays used alternately) until at most a tile's worth is left for "
                   "the host.",
                   rules(true, 1, false,
                         "The tree doubles its stride up to the tile size, so the tile (block) must be a power of "
                         "two; one tile per blockDim.x elements.")));

  t.push_back(make("amp.tiled_2", "Tiled: consecutive threads", "reduction_tiled_2",
                   "As tiled_1, but thread tid works on index 2*s*tid, so the active threads are consecutive "
                   "and whole warps fall idle instead of every warp diverging. The 2s-strided accesses now hit "
                   "the same shared-memory banks.",
                   rules(true, 1, false,
                         "The tree doubles its stride up to the tile size, so the tile (block) must be a power of "
                         "two; one tile per blockDim.x elements.")));

  t.push_back(make("amp.tiled_3", "Tiled: sequential addressing", "reduction_tiled_3",
                   "The stride starts at half the tile and halves; thread tid adds tile_data[tid + s], so a warp "
                   "touches consecutive words and the bank conflicts are gone. (The post's loop prints "
                   "s /= 1, which never ends; s /= 2 is meant.)",
                   rules(true, 1, false,
                         "The stride halves from half the tile, so the tile (block) must be a power of two; one "
                         "tile per blockDim.x elements.")));

  t.push_back(make("amp.tiled_4", "Tiled: two loads per thread", "reduction_tiled_4",
                   "Half as many threads: each one reads two elements, adds them and stores the sum in shared "
                   "memory, then the tile reduces as in tiled_3. Fewer threads sit idle in the tree.",
                   rules(true, 2, false,
                         "Each thread loads two elements, so a tile covers 2*blockDim.x elements; the tree needs a "
                         "power-of-two tile.")));

  t.push_back(make("amp.cascade", "Cascade: fixed tiles", "reduction_cascade",
                   "A single dispatch of a fixed number of tiles: each thread adds elements a whole grid "
                   "(tiles * tile size) apart into its shared slot, then the tile reduces as in tiled_4 and "
                   "writes one partial. The host adds the per-tile partials.",
                   rules(true, 1, true,
                         "A grid-stride loop covers any n with any number of tiles; the tree needs a power-of-two "
                         "tile.")));

  return {TeachingPlace{4, 0}, t};
}

}  // namespace ws
