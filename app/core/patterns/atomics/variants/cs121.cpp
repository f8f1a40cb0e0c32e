// Metadata of the CS121 atomics lesson ("GPUs and CUDA 3: Intrinsics", CS121, Fall 2022,
// CS121 Parallel Computing, Fall 2022), in teaching order after the lesson's reductions: the race,
// atomics, histograms and filters, and their CUB baselines. Kernels: kernels/atomics/*.cu; CPU
// references: app/core/patterns/atomics/reference.hpp; sim models: app/core/patterns/atomics/models_cs121.cpp.
#include "patterns/atomics/reference.hpp"
#include "registry.hpp"

namespace ws {

namespace {

VariantInfo make(const char* id, const char* title, const char* slide, const char* description) {
  VariantInfo v;
  v.id = id;
  v.lesson = "cs121";
  v.pattern = PatternKind::Atomics;
  v.title = title;
  v.seed = "003_156a830321b56386.txt";
  v.slide = slide;
  v.description = description;
  return v;
}

/// Threads per block of "Race conditions" (raceKernel<<<1000, 1000>>>).
constexpr int kRaceBlock = 1000;

}  // namespace

/// The lesson's atomics variants in teaching order, and their place among the tables (registry.hpp):
/// seed 003, after its reductions.
LessonVariants cs121_atomics_variants() {
  std::vector<VariantInfo> t;
  {
    VariantInfo v = make("cs121.race", "Race: *d_a += 1", "Race conditions",
                         "Every thread of a 1000 x 1000 launch adds 1 to one int in global memory with a plain "
                         "read-modify-write. Threads read the same old value and overwrite each other's updates, so "
                         "the count ends far below 1,000,000 (the slide printed 88).");
    v.racy = true;
    v.rules.default_block = kRaceBlock;
    v.rules.min_block = 1;
    v.rules.warp_multiple = false;
    v.rules.int_only = true;
    v.rules.int_only_reason =
        "it reads no input; every thread adds 1 to one int counter (`*d_a += 1`), and the result is that count";
    v.rules.default_n = std::int64_t(kRaceBlock) * kRaceBlock;
    v.rules.note =
        "n counts threads: the kernel launches n / block blocks and every thread adds 1, so n must be a multiple of "
        "the block (the slide: 1000 blocks of 1000)";
    v.caution = "The slide declares `int a = 0; *d_a;`, read as `int a = 0, *d_a;` (README errata).";
    v.atomics = AtomicsKind::Counter;
    t.push_back(v);
  }
  {
    VariantInfo v = make("cs121.atomic_counter", "atomicAdd counter", "CUDA atomics",
                         "The race fixed with an atomic: atomicAdd(d_a, 1) reads, adds and writes without "
                         "interruption, so all 1,000,000 increments count. They are serialized on one address: the "
                         "longest chain is every thread of the grid.");
    v.rules.default_block = kRaceBlock;
    v.rules.min_block = 1;
    v.rules.warp_multiple = false;
    v.rules.int_only = true;
    v.rules.int_only_reason =
        "it reads no input; every thread does atomicAdd(d_a, 1) on one int counter, and the result is that count";
    v.rules.default_n = std::int64_t(kRaceBlock) * kRaceBlock;
    v.rules.note =
        "n counts threads: the kernel launches n / block blocks and every thread adds 1, so n must be a multiple of "
        "the block";
    v.atomics = AtomicsKind::Counter;
    t.push_back(v);
  }
  {
    VariantInfo v = make("cs121.hist_global", "Histogram, global atomics", "Computing a histogram",
                         "A grid-stride loop over the bytes; each thread does atomicAdd(&hist[vals[i]], 1) on the "
                         "256-bin histogram in global memory. All threads of the grid contend for 256 addresses, "
                         "and every increment goes to L2.");
    v.rules.grid_stride = true;
    v.rules.bytes_input = true;
    v.rules.min_block = 1;
    v.rules.warp_multiple = false;
    v.rules.note = "a grid-stride loop: any block and grid cover the input";
    v.atomics = AtomicsKind::Histogram;
    t.push_back(v);
  }
  {
    VariantInfo v = make("cs121.hist_shared", "Histogram, shared privatization", "Improving performance",
                         "Each block counts into its own 256-bin histogram in shared memory (threads < 256 zero it), "
                         "then threads < 256 add the block's bins to the global histogram with one atomicAdd each. "
                         "Shared atomics are faster and only the block's threads contend.");
    v.rules.grid_stride = true;
    v.rules.bytes_input = true;
    v.rules.min_block = 256;
    v.rules.warp_multiple = false;
    v.rules.note = "threads 0..255 zero and flush the 256 shared bins, so the block needs at least 256 threads";
    v.atomics = AtomicsKind::Histogram;
    t.push_back(v);
  }
  {
    VariantInfo v = make("cs121.hist_shared_vec", "Histogram, 16 bytes per load", "Improving performance",
                         "Beyond the slide: the privatized histogram of hist_shared, with each thread reading 16 bytes "
                         "at once (one uint4 load) and every warp counting into its own 256 shared bins, merged by "
                         "threads < 256 into one global atomicAdd per bin and block. Fewer load instructions and less "
                         "contention between warps: the tuned form to compare with CUB.");
    v.rules.grid_stride = true;
    v.rules.bytes_input = true;
    v.rules.default_block = 512;
    v.rules.min_block = 256;
    v.rules.items_per_thread = 16;
    v.rules.note =
        "threads 0..255 merge the per-warp bins, so the block needs at least 256 threads; each thread reads 16 bytes "
        "per pass";
    v.copy_shared = "block*32";  // 256 int bins per warp: block / 32 x 256 x 4 bytes
    v.atomics = AtomicsKind::Histogram;
    t.push_back(v);
  }
  {
    VariantInfo v = make("cs121.filter_global", "Filter, global atomicAdd", "Aggregation and atomics",
                         "One thread per element: a thread whose value is positive takes an output slot with "
                         "atomicAdd(nres, 1) on one global counter and writes its value there. Every kept value is one "
                         "atomic on the same address, so the time grows with the fraction kept.");
    v.rules.int_only = true;
    v.rules.int_only_reason = "the slide's filter_k copies positive int values (const int* src to int* dst)";
    v.rules.min_block = 1;
    v.rules.warp_multiple = false;
    v.rules.note = "the slide's filter copies positive int values";
    v.atomics = AtomicsKind::Filter;
    v.any_order = true;  // each thread takes its output slot from an atomicAdd
    t.push_back(v);
  }
  {
    VariantInfo v = make("cs121.filter_shared", "Filter, shared atomics", "Aggregation and atomics",
                         "Each block counts its kept values with atomicAdd on a shared counter l_n, thread 0 reserves "
                         "that many output slots with one global atomicAdd, and the threads write at the block's base "
                         "plus their shared slot; NPER_THREAD = 8 rounds per block.");
    v.rules.int_only = true;
    v.rules.int_only_reason = "the slide's filter_shared_k copies positive int values (const int* src to int* dst)";
    v.rules.min_block = 1;
    v.rules.warp_multiple = false;
    v.rules.items_per_thread = kFilterSharedItems;
    v.rules.note = "each block filters NPER_THREAD = 8 rounds of blockDim.x values";
    v.atomics = AtomicsKind::Filter;
    v.any_order = true;  // each thread takes its output slot from an atomicAdd
    t.push_back(v);
  }
  {
    VariantInfo v = make("cs121.filter_warp_agg", "Filter, warp-aggregated atomics", "Warp-aggregated filtering",
                         "atomicAggInc: the lanes with a positive value form a mask with a ballot, the lowest lane "
                         "(__ffs) adds the mask's population (__popc) to the counter once for the warp and broadcasts "
                         "the old value with a shuffle; each lane adds the count of kept lanes below it.");
    v.rules.int_only = true;
    v.rules.int_only_reason = "the slide's filter_warp_agg_k copies positive int values (const int* src to int* dst)";
    v.rules.note = "the slide's filter copies positive int values; lanes are threadIdx.x % 32";
    v.caution =
        "The slide's atomicAggInc uses the pre-CUDA-9 __ballot, __shfl and an undeclared lane_id; the kernel "
        "uses __ballot_sync(__activemask(), 1), __shfl_sync and threadIdx.x % 32 (README errata).";
    v.atomics = AtomicsKind::Filter;
    v.any_order = true;  // each thread takes its output slot from an atomicAdd
    t.push_back(v);
  }
  {
    VariantInfo v =
        make("cs121.filter_scan", "Filter, scan based", "Aggregation and atomics",
             "No atomics on the data path: each tile of 4096 values ranks its kept values with warp ballots "
             "and a scan of the per-warp counts, and learns its output offset from a single-pass scan of "
             "the tile counts (decoupled look-back). The output keeps the input order, like Thrust's copy_if.");
    v.rules.int_only = true;
    v.rules.int_only_reason =
        "filter_scan_k copies positive int values (const int* src to int* dst), like the slide's filters";
    v.rules.default_block = kFilterScanBlock;
    v.rules.fixed_block = kFilterScanBlock;
    v.rules.items_per_thread = kFilterScanItems;
    v.rules.note =
        "tiles of 256 threads x 16 values; the slide names Thrust's copy_if, our kernel is a single-pass scan";
    v.atomics = AtomicsKind::Filter;
    t.push_back(v);
  }
  {
    VariantInfo v =
        make("cs121.filter_scan_vec", "Filter, scan based, 16 bytes per load", "Aggregation and atomics",
             "Beyond the slide: filter_scan tuned like cub.select. Each thread loads 8 int4 (32 values) "
             "before using any, the tile is blockIdx.x (no tile counter), and the kept values are staged "
             "in shared memory at their rank, then written out with aligned 16-byte stores. Per-warp counts use "
             "__reduce_add_sync from sm_80 and five __shfl_xor_sync on Turing (sm_75); a run says which.");
    v.rules.int_only = true;
    v.rules.int_only_reason = "its int4 loads and stores move four int values at a time (const int* src to int* dst)";
    v.rules.default_block = kFilterScanBlock;
    v.rules.min_block = 128;
    v.rules.max_block = 256;
    v.rules.pow2_block = true;
    v.rules.items_per_thread = kFilterScanVecItems;
    v.rules.note = "tiles of blockDim.x (128 or 256) threads x 32 values, 8 int4 loads per thread; beyond the slide";
    v.atomics = AtomicsKind::Filter;
    t.push_back(v);
  }
  // The library baselines of the histograms and filters (lesson "cub"), last as in the lesson.
  {
    VariantInfo v;
    v.id = "cub.histogram";
    v.lesson = "cub";
    v.pattern = PatternKind::Atomics;
    v.title = "CUB DeviceHistogram::HistogramEven";
    v.seed = "CUDA Toolkit (CUB)";
    v.slide = "cub::DeviceHistogram::HistogramEven";
    v.description =
        "The CUDA Toolkit's tuned histogram: 256 even bins over the byte values 0..255, privatized per block "
        "in shared memory by the library. The baseline of the histogram variants.";
    v.baseline = true;
    v.rules.grid_stride = true;
    v.rules.bytes_input = true;
    v.rules.note = "CUB chooses its own launch shape, so the requested block and grid are ignored";
    v.atomics = AtomicsKind::Histogram;
    t.push_back(v);
  }
  {
    VariantInfo v;
    v.id = "cub.select";
    v.lesson = "cub";
    v.pattern = PatternKind::Atomics;
    v.title = "CUB DeviceSelect::If";
    v.seed = "CUDA Toolkit (CUB)";
    v.slide = "cub::DeviceSelect::If";
    v.description =
        "The CUDA Toolkit's stream compaction with the predicate x > 0: a single-pass scan with decoupled "
        "look-back; the output keeps the input order. The baseline of the filter variants.";
    v.baseline = true;
    v.rules.int_only = true;
    v.rules.int_only_reason =
        "it is the baseline of the int filters, so cub::DeviceSelect::If is instantiated here for int (keep x > 0) on "
        "their int input";
    v.rules.grid_stride = true;
    v.rules.note = "CUB chooses its own launch shape, so the requested block and grid are ignored";
    v.atomics = AtomicsKind::Filter;
    t.push_back(v);
  }
  return {TeachingPlace{3, 1}, t};
}

}  // namespace ws
