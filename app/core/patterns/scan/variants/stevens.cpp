// Scan variants of seed 001 ("CS 677 Lecture 6", Mordohai: Stevens CS 677 Lecture 6, scan slides), in
// teaching order, then the single-pass scan after Merrill and Garland (2016) and the CUB baseline.
// Kernels: kernels/scan/*.cu; sim models: app/core/patterns/scan/models_stevens.cpp;
// lesson: assets/lessons/stevens.json.
#include "registry.hpp"

namespace ws {

namespace {

constexpr const char* kSeed = "001_9970031c1e4143ff.txt";

VariantInfo make(const char* id, const char* lesson, const char* title, const char* seed, const char* slide,
                 const char* description) {
  VariantInfo v;
  v.id = id;
  v.lesson = lesson;
  v.traceable = true;  // reports store its block-0 trace; the GPU records it from the trace build
  v.pattern = PatternKind::Scan;
  v.title = title;
  v.seed = seed;
  v.slide = slide;
  v.description = description;
  v.op = ReduceOp::Sum;
  return v;
}

}  // namespace

/// The lesson's scan variants in teaching order, and their place among the tables (registry.hpp):
/// seed 001, after its reduction trees.
LessonVariants stevens_scan_variants() {
  std::vector<VariantInfo> t;

  VariantInfo v = make(
      "stevens.scan_sequential", "stevens", "Sequential scan (CPU)", kSeed, "A Work Efficient C Implementation",
      "y[0] = x[0]; y[i] = y[i-1] + x[i]: one pass over the input on the host, n - 1 additions, the work "
      "every parallel scan is measured against. float32 accumulates in double, so this baseline is the reference.");
  v.cpu_only = true;
  v.traceable = false;  // host code: no threads to step through
  v.rules.note = "runs on the host CPU: block and grid do not apply";
  t.push_back(v);

  v = make("stevens.scan_naive", "stevens", "Naive parallel scan: each thread adds its whole prefix", kSeed,
           "A Naïve Inclusive Parallel Scan",
           "One thread per output element; thread i adds x[0] .. x[i] itself from global memory. Embarrassingly "
           "parallel but "
           "n(n-1)/2 additions in all: \"easy as long as you do not care about performance\".");
  v.rules.default_block = 256;
  v.rules.max_n = std::int64_t(1) << 20;
  v.rules.note = "n(n-1)/2 additions: n is limited to 2^20";
  v.rules.min_block = kSmallestTeachingBlock;  // no warp-level code: the slide's 16-element ladder fits
  v.rules.warp_multiple = false;
  t.push_back(v);

  v = make(
      "stevens.kogge_stone", "stevens", "Kogge-Stone scan in one block (two __syncthreads per step)", kSeed,
      "A Kogge-Stone Parallel Scan Algorithm",
      "The block loads its section into shared memory T; at stride 1, 2, 4, ... threads stride..n-1 add T[j - stride] "
      "into T[j]. Each step needs two barriers: one before reading (inputs in place), one before writing (every read "
      "done). "
      "log2(n) steps, n log2(n) - (n - 1) additions.");
  v.rules.default_block = 1024;
  v.rules.max_grid = 1;
  v.rules.max_n = 1024;
  v.rules.note =
      "one block scans the whole input, as the slides use Kogge-Stone within a block (n <= block <= 1024); "
      "stevens.scan_hierarchical takes any n";
  v.rules.min_block = kSmallestTeachingBlock;  // no warp-level code: the slide's 16-element ladder fits
  v.rules.warp_multiple = false;
  t.push_back(v);

  v = make(
      "stevens.kogge_stone_db", "stevens", "Double-buffered Kogge-Stone (one __syncthreads per step)", kSeed,
      "A Double-Buffered Kogge-Stone Parallel Scan Algorithm",
      "Two shared arrays swap roles as source and destination every step, so a thread never overwrites a value another "
      "thread may still read: one barrier per step. Threads below the stride copy their value to the destination "
      "(the slide's code leaves that out; without it the destination keeps a value from two steps back).");
  v.rules.default_block = 1024;
  v.rules.max_grid = 1;
  v.rules.max_n = 1024;
  v.rules.note = "one block scans the whole input (n <= block <= 1024); stevens.scan_hierarchical takes any n";
  v.rules.min_block = kSmallestTeachingBlock;  // no warp-level code: the slide's 16-element ladder fits
  v.rules.warp_multiple = false;
  t.push_back(v);

  v = make(
      "stevens.brent_kung", "stevens", "Brent-Kung scan: up-sweep and down-sweep (work-efficient)", kSeed,
      "Work Efficiency Analysis",
      "The sequel the slides announce (\"To be continued\"): a reduction tree (up-sweep) leaves partial sums at "
      "positions 2^k - 1, a reverse tree (down-sweep) pushes them to the positions between. Each thread owns two "
      "elements; 2(n - 1) - log2(n) additions instead of Kogge-Stone's n log2(n) - (n - 1), in 2 log2(n) - 1 steps.");
  v.rules.default_block = 1024;
  v.rules.items_per_thread = 2;
  v.rules.pow2_block = true;
  v.rules.max_grid = 1;
  v.rules.max_n = 2048;
  v.rules.note =
      "one block of a power-of-two size scans the whole input, two elements per thread (n <= 2 x block <= 2048)";
  v.rules.min_block = kSmallestTeachingBlock;  // no warp-level code: the slide's 16-element ladder fits
  v.rules.warp_multiple = false;
  t.push_back(v);

  v = make("stevens.scan_hierarchical", "stevens", "Hierarchical scan: block scans, scan of block sums, add back",
           kSeed, "Work Efficiency Analysis",
           "Any n: every block scans its 2 x block section with Brent-Kung and writes its total; the block totals are "
           "scanned "
           "the same way (recursively when there are more than one block's worth), then each block adds the scanned "
           "total of "
           "the blocks before it. Three kinds of launch; the input is read twice and the output written twice.");
  v.rules.default_block = 512;
  v.rules.items_per_thread = 2;
  v.rules.pow2_block = true;
  v.rules.min_block = 64;
  v.rules.note = "Brent-Kung block scans need a power-of-two block; two elements per thread";
  v.not_editable =
      "its launcher runs three kernels (block scans, a scan of the block totals, the add-back), and a copy runs "
      "one: the ws_gpu_copy_tests copy scanned each block alone";
  t.push_back(v);

  v = make(
      "scan.decoupled_lookback", "scan", "Single-pass scan with decoupled look-back", "Merrill and Garland (2016)",
      "Single-pass Parallel Prefix Scan with Decoupled Look-back",
      "One launch, each element read once and written once: a block takes the next tile (16 elements a thread: 8192 "
      "at the default 512 threads, 128-bit loads), "
      "scans it in registers and warp shuffles, publishes its tile total, waits about 3 microseconds (so that its "
      "predecessors "
      "have published their inclusive prefixes; from 1024 tiles on) and looks back over its predecessors' published "
      "totals, a warp at a time, until it meets an inclusive prefix; then it publishes its own inclusive prefix.");
  v.rules.default_block = 512;  // kernels/scan/decoupled_lookback.cu says why (measured on the H100)
  v.rules.items_per_thread = 16;
  v.rules.min_block = 128;
  v.rules.max_block = 512;
  v.rules.pow2_block = true;
  v.rules.note = "tiles of block x 16 elements, blocks of 128, 256 or 512 threads";
  v.no_gpu_trace =
      "what its look-back reads depends on when the tiles before it publish, i.e. on timing, not on the code";
  t.push_back(v);

  v = make(
      "cub.scan", "cub", "CUB DeviceScan (inclusive / exclusive sum)", "CUDA Toolkit (CUB)",
      "cub::DeviceScan::InclusiveSum / ExclusiveSum",
      "The CUDA Toolkit's tuned single-pass scan (decoupled look-back, tile sizes chosen per GPU): the baseline the "
      "scan lesson is measured against.");
  v.baseline = true;
  v.traceable = false;  // a library call: CUB's kernels are not modelled at thread level
  v.rules.default_block = 256;
  v.rules.grid_stride = true;
  v.rules.note = "CUB chooses its own launch shape, so the requested block and grid are ignored";
  t.push_back(v);
  return {TeachingPlace{1, 2}, t};
}

}  // namespace ws
