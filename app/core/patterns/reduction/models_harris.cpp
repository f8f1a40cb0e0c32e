// Sim models of the Harris / Filipovic sum reductions ("Code Optimizations", seed
// "Code Optimizations", Filipovic, Fall 2020), one per kernel of kernels/reduction/harris.cu, at thread granularity.
//
// Each model mirrors its kernel and launcher: the same indexing, loop bounds, guards and passes.
// The first pass reads the input zero-padded to whole windows (the CUDA backend's padding); every
// later pass reads the previous pass's block sums, zero-padded as the launcher's memset leaves them.
// int32 runs in uint32 (adds wrap modulo 2^32 as on the GPU), float32 in float, in the kernel's
// order of additions. Only block `trace_block` of the first launch is recorded (harris.naive: that
// block in every launch, since each launch is one tree level); the other blocks run unrecorded.
//
// Trace conventions (sim.hpp, model_kit.hpp): `access` numbers a step's warp-wide memory
// instructions in program order (tree step: 0 = load sv[a], 1 = load sv[a + s], 2 = store sv[a]);
// register ops (Add, Shuffle) have access -1. Global buffers: kit::kInput, kit::kPartials (out[]).
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sim/model_kit.hpp"
#include "sim/sim.hpp"

namespace ws::sim {

namespace {

using I64 = std::int64_t;
using kit::kInput;
using kit::kPartials;

using kit::ceil_div;
using kit::padded_input;
using kit::Rec;
using kit::round_up_to;
using kit::tree_add;
namespace pts = trace_points::harris;

/// Stated in the trace of the models whose last warp relies on lock-step execution (sim.hpp).
const char* kLockStep =
    "lock-step warps: in each line of the unrolled last warp every lane reads s[tid + offset] before any "
    "lane writes s[tid] (compute capability < 7.0, as the slide assumes)";

/// harris.cu expect_grid: kernels without a grid-stride loop need exactly one block per window.
void expect_grid(const VariantInfo& v, const Input& in, const LaunchConfig& l, I64 window) {
  if (l.grid != ceil_div(in.n(), window))
    throw std::runtime_error(v.id + ": grid " + std::to_string(l.grid) + " does not match ceil(n / " +
                             std::to_string(window) + ") = " + std::to_string(ceil_div(in.n(), window)));
}

/// The tree kernels halve or double the stride: power-of-two blocks; the unrolled last warp reads
/// sv[tid + 32], so Implementations 5-7 need at least 64 threads.
void expect_pow2_block(const VariantInfo& v, int block, int min_block) {
  if (block < min_block || block > 1024 || (block & (block - 1)) != 0)
    throw std::runtime_error(v.id + ": block size " + std::to_string(block) + " is not a power of two in " +
                             std::to_string(min_block) + "..1024");
}

/// harris.cu impl6_for / impl7_for: the block sizes Implementations 6 and 7 are instantiated for.
void expect_instantiated(const VariantInfo& v, int block) {
  if (block != 64 && block != 128 && block != 256 && block != 512 && block != 1024)
    throw std::runtime_error(v.id + ": no instantiation for block size " + std::to_string(block) +
                             " (64, 128, 256, 512 or 1024)");
}

// ---------------------------------------------------------------------------------------------
// Pieces shared by the block kernels (each the same lines in harris.cu)

/// sv[tid] = v[i] + v[i + blockDim.x], i = blockIdx.x * (blockDim.x * 2) + tid: slide "Implementation 4"
/// (Implementation 5 writes mySum = v[i] + v[i + blockDim.x]; sv[tid] = mySum: the same operations).
/// `sum_line`: the kernel line of the loads and the add; `store_line`: that of the store (the same line
/// in Implementations 4, 6; two lines in Implementation 5).
template <class P>
void load_two(const std::vector<typename P::T>& v, I64 b, std::vector<typename P::T>& sv, Rec<P>& rec, int sum_line,
              int store_line) {
  using T = typename P::T;
  const int B = int(sv.size());
  rec.begin(TracePhase::Load, "sv[tid] = v[i] + v[i + blockDim.x]");
  for (int tid = 0; tid < B; ++tid) {
    const I64 i = b * 2 * B + tid;
    const T x = v[i], y = v[i + B];
    sv[tid] = P::combine(x, y);
    rec.at(pts::kFile, sum_line);
    rec.load_global(tid, 0, i, x, kInput);
    rec.load_global(tid, 1, i + B, y, kInput);
    rec.add(tid, i + B, sv[tid]);
    rec.at(pts::kFile, store_line);
    rec.store_shared(tid, 2, tid, sv[tid]);
    rec.work(tid);
  }
  rec.end(sv);
}

/// Sequential addressing, slide "Implementation 3": for s = B/2; s > last; s >>= 1: if (tid < s)
/// sv[tid] += sv[tid + s]. last = 0: the whole tree. last = 32: slide "Implementation 6"'s unrolled
/// `if (blockSize >= 2s) { if (tid < s) sv[tid] += sv[tid + s]; __syncthreads(); }`, the same steps.
/// Only the working threads tid < s are visited: the others do nothing in the step.
/// `line_of(s)`: the kernel line of stride s's statement, or null to keep the line set by the caller.
template <class P>
void sequential_tree(std::vector<typename P::T>& sv, I64 last, Rec<P>& rec, int (*line_of)(I64) = nullptr) {
  for (I64 s = I64(sv.size()) / 2; s > last; s >>= 1) {
    if (line_of) rec.at(pts::kFile, line_of(s));
    rec.begin(TracePhase::Tree, "stride", s);
    for (int tid = 0; tid < s; ++tid) tree_add(sv, tid, tid, s, rec);
    rec.end(sv);
  }
}

/// The line of harris.cu unrolled_tree's `sv[tid] += sv[tid + s]` (s = 512 ... 64).
int unrolled_line(I64 s) {
  switch (s) {
    case 512: return pts::unrolled_512;
    case 256: return pts::unrolled_256;
    case 128: return pts::unrolled_128;
    default: return pts::unrolled_64;
  }
}

/// The line of last_warp_volatile's `s[tid] = mySum = mySum + s[tid + off]` (off = 32 ... 1).
int last_warp_line(int off) {
  switch (off) {
    case 32: return pts::last_warp_32;
    case 16: return pts::last_warp_16;
    case 8: return pts::last_warp_8;
    case 4: return pts::last_warp_4;
    case 2: return pts::last_warp_2;
    default: return pts::last_warp_1;
  }
}

/// if (tid == 0) out[blockIdx.x] = sv[0]; returns the block's sum.
template <class P>
typename P::T store_sv0(const std::vector<typename P::T>& sv, I64 b, Rec<P>& rec) {
  rec.begin(TracePhase::Combine, "out[blockIdx.x] = sv[0]");
  rec.load_shared(0, 0, 0, sv[0]);
  rec.store_global(0, 1, b, sv[0], kPartials);
  rec.work(0);
  rec.end(sv);
  return sv[0];
}

/// The unrolled last warp of slide "Implementation 5" (harris.cu last_warp_volatile):
///   s[tid] = mySum = mySum + s[tid + 32]; ... s[tid] = mySum = mySum + s[tid + 1];
/// in lock-step: in each line every lane of warp 0 reads s[tid + off] before any lane writes s[tid].
/// All 32 lanes work in every line (the slide: "if (tid < s) does not spare any computation").
/// `my_sum`: the lanes' running sums. `init_from_shared`: Implementations 6 and 7 pass sv[tid] as
/// mySum, so their first line starts with one more load (access 0, of sv[tid]).
template <class P>
void last_warp_volatile(std::vector<typename P::T>& sv, typename P::T* my_sum, bool init_from_shared, Rec<P>& rec) {
  typename P::T got[32];
  for (int off = 32; off > 0; off >>= 1) {
    rec.begin(TracePhase::Warp, "offset", off);
    const bool init = init_from_shared && off == 32;
    for (int lane = 0; lane < 32; ++lane) {  // every lane reads first ...
      if (init) my_sum[lane] = sv[lane];
      got[lane] = sv[lane + off];
    }
    for (int lane = 0; lane < 32; ++lane) {  // ... then every lane adds and writes
      int access = 0;
      if (init) {  // the read of sv[tid] in unrolled_tree's call
        rec.at(pts::kFile, pts::unrolled_last_warp);
        rec.load_shared(lane, access++, lane, my_sum[lane]);
      }
      rec.at(pts::kFile, last_warp_line(off));
      my_sum[lane] = P::combine(my_sum[lane], got[lane]);
      sv[lane] = my_sum[lane];
      rec.load_shared(lane, access, lane + off, got[lane]);
      rec.add(lane, lane + off, my_sum[lane]);
      rec.store_shared(lane, access + 1, lane, my_sum[lane]);
      rec.work(lane);
    }
    rec.end(sv);
    rec.no_barrier_after();  // warp-synchronous: one warp in lock-step (sim/hazards.hpp)
  }
}

// ---------------------------------------------------------------------------------------------
// Block kernels: one block `b` of one pass. `v` is the pass's input (zero-padded to whole
// windows), `count` the number of values it holds (the kernel's count / n where it takes one),
// `grid` the pass's blocks. Each returns what thread 0 stores to out[blockIdx.x].

template <class P>
using BlockKernel = typename P::T (*)(const std::vector<typename P::T>& v, I64 count, int block, I64 grid, I64 b,
                                      Rec<P>& rec);

/// harris.multipass, slide "Exploiting Data Locality": guarded load, then sequential addressing.
template <class P>
typename P::T multipass_block(const std::vector<typename P::T>& v, I64 count, int B, I64, I64 b, Rec<P>& rec) {
  std::vector<typename P::T> sv(std::size_t(B), P::identity());
  rec.at(pts::kFile, pts::multipass_load);
  rec.begin(TracePhase::Load, "sv[tid] = i < count ? v[i] : 0");
  for (int tid = 0; tid < B; ++tid) {
    const I64 i = b * B + tid;
    const bool inside = i < count;
    if (inside) {
      sv[tid] = v[i];
      rec.load_global(tid, 0, i, sv[tid], kInput);
    }
    rec.store_shared(tid, 1, tid, sv[tid]);
    if (inside) rec.work(tid);
  }
  rec.end(sv);
  rec.at(pts::kFile, pts::multipass_tree);
  sequential_tree(sv, 0, rec);
  rec.at(pts::kFile, pts::multipass_commit);
  return store_sv0(sv, b, rec);
}

/// harris.impl1, slide "Implementation 1": for s = 1; s < B; s *= 2: if (tid % (2*s) == 0)
/// sv[tid] += sv[tid + s]. The working threads are the multiples of 2s.
template <class P>
typename P::T impl1_block(const std::vector<typename P::T>& v, I64, int B, I64, I64 b, Rec<P>& rec) {
  std::vector<typename P::T> sv(std::size_t(B), P::identity());
  rec.at(pts::kFile, pts::impl1_load);
  kit::load_one(v, b, sv, rec, "sv[tid] = v[i]");
  rec.at(pts::kFile, pts::impl1_tree);
  for (I64 s = 1; s < B; s *= 2) {
    rec.begin(TracePhase::Tree, "stride", s);
    for (I64 tid = 0; tid < B; tid += 2 * s) tree_add(sv, int(tid), tid, s, rec);
    rec.end(sv);
  }
  rec.at(pts::kFile, pts::impl1_commit);
  return store_sv0(sv, b, rec);
}

/// harris.impl2, slide "Implementation 2": index = 2*s*tid; if (index < blockDim.x) sv[index] += sv[index + s].
template <class P>
typename P::T impl2_block(const std::vector<typename P::T>& v, I64, int B, I64, I64 b, Rec<P>& rec) {
  std::vector<typename P::T> sv(std::size_t(B), P::identity());
  rec.at(pts::kFile, pts::impl2_load);
  kit::load_one(v, b, sv, rec, "sv[tid] = v[i]");
  rec.at(pts::kFile, pts::impl2_tree);
  for (I64 s = 1; s < B; s *= 2) {
    rec.begin(TracePhase::Tree, "stride", s);
    for (I64 tid = 0; 2 * s * tid < B; ++tid) tree_add(sv, int(tid), 2 * s * tid, s, rec);
    rec.end(sv);
  }
  rec.at(pts::kFile, pts::impl2_commit);
  return store_sv0(sv, b, rec);
}

/// harris.impl3, slide "Implementation 3": sequential addressing.
template <class P>
typename P::T impl3_block(const std::vector<typename P::T>& v, I64, int B, I64, I64 b, Rec<P>& rec) {
  std::vector<typename P::T> sv(std::size_t(B), P::identity());
  rec.at(pts::kFile, pts::impl3_load);
  kit::load_one(v, b, sv, rec, "sv[tid] = v[i]");
  rec.at(pts::kFile, pts::impl3_tree);
  sequential_tree(sv, 0, rec);
  rec.at(pts::kFile, pts::impl3_commit);
  return store_sv0(sv, b, rec);
}

/// harris.impl4, slide "Implementation 4": first add during load, then Implementation 3's tree.
template <class P>
typename P::T impl4_block(const std::vector<typename P::T>& v, I64, int B, I64, I64 b, Rec<P>& rec) {
  std::vector<typename P::T> sv(std::size_t(B), P::identity());
  load_two(v, b, sv, rec, pts::impl4_load, pts::impl4_load);
  rec.at(pts::kFile, pts::impl4_tree);
  sequential_tree(sv, 0, rec);
  rec.at(pts::kFile, pts::impl4_commit);
  return store_sv0(sv, b, rec);
}

/// The tree of slide "Implementation 5" (both forms): for s = B/2; s > 32; s >>= 1: if (tid < s)
/// sv[tid] = mySum = mySum + sv[tid + s]. mySum is a register: access 0 loads sv[tid + s], 1 stores.
template <class P>
void impl5_tree(std::vector<typename P::T>& sv, std::vector<typename P::T>& my_sum, Rec<P>& rec, int line) {
  rec.at(pts::kFile, line);
  for (I64 s = I64(sv.size()) / 2; s > 32; s >>= 1) {
    rec.begin(TracePhase::Tree, "stride", s);
    for (int tid = 0; tid < s; ++tid) {
      const auto y = sv[tid + s];
      my_sum[tid] = P::combine(my_sum[tid], y);
      sv[tid] = my_sum[tid];
      rec.load_shared(tid, 0, tid + s, y);
      rec.add(tid, tid + s, my_sum[tid]);
      rec.store_shared(tid, 1, tid, my_sum[tid]);
      rec.work(tid);
    }
    rec.end(sv);
  }
}

/// harris.impl5, slide "Implementation 5": mySum in a register, the last warp unrolled (volatile).
template <class P>
typename P::T impl5_block(const std::vector<typename P::T>& v, I64, int B, I64, I64 b, Rec<P>& rec) {
  std::vector<typename P::T> sv(std::size_t(B), P::identity());
  load_two(v, b, sv, rec, pts::impl5_sum, pts::impl5_store);  // T mySum = v[i] + v[i + blockDim.x]; sv[tid] = mySum;
  std::vector<typename P::T> my_sum = sv;
  impl5_tree(sv, my_sum, rec, pts::impl5_tree);
  last_warp_volatile(sv, my_sum.data(), false, rec);
  rec.at(pts::kFile, pts::impl5_commit);
  return store_sv0(sv, b, rec);
}

/// harris.impl5_shfl, slide "Implementation 5" (warp shuffle): mySum += sv[tid + 32], then
/// mySum += __shfl_down_sync(0xffffffff, mySum, offset) for offset = 16, 8, 4, 2, 1; lane 0 stores
/// mySum. A lane whose lane + offset is past 31 receives its own value (CUDA's rule) and adds it.
template <class P>
typename P::T impl5_shfl_block(const std::vector<typename P::T>& v, I64, int B, I64, I64 b, Rec<P>& rec) {
  using T = typename P::T;
  std::vector<T> sv(std::size_t(B), P::identity());
  load_two(v, b, sv, rec, pts::impl5_shfl_sum, pts::impl5_shfl_store);
  std::vector<T> my_sum = sv;
  impl5_tree(sv, my_sum, rec, pts::impl5_shfl_tree);
  rec.at(pts::kFile, pts::impl5_shfl_32);
  rec.begin(TracePhase::Warp, "offset", 32);
  for (int lane = 0; lane < 32; ++lane) {
    const T y = sv[lane + 32];
    my_sum[lane] = P::combine(my_sum[lane], y);
    rec.load_shared(lane, 0, lane + 32, y);
    rec.add(lane, lane + 32, my_sum[lane]);
    rec.work(lane);
  }
  rec.end(sv);
  rec.no_barrier_after();
  T got[32];
  int src[32];
  rec.at(pts::kFile, pts::impl5_shfl_down);
  for (int off = 16; off > 0; off /= 2) {
    rec.begin(TracePhase::Warp, "offset", off);
    for (int lane = 0; lane < 32; ++lane) {  // the shuffle reads every lane's mySum before the adds
      src[lane] = lane + off < 32 ? lane + off : lane;
      got[lane] = my_sum[src[lane]];
    }
    for (int lane = 0; lane < 32; ++lane) {
      my_sum[lane] = P::combine(my_sum[lane], got[lane]);
      rec.shuffle(lane, src[lane], got[lane]);
      rec.add(lane, src[lane], my_sum[lane]);
      rec.work(lane);
    }
    rec.end();
    rec.no_barrier_after();
  }
  rec.at(pts::kFile, pts::impl5_shfl_commit);
  rec.begin(TracePhase::Combine, "out[blockIdx.x] = mySum");
  rec.store_global(0, 0, b, my_sum[0], kPartials);
  rec.work(0);
  rec.end();
  return my_sum[0];
}

/// harris.impl6, slide "Implementation 6": the template-unrolled tree (a step for s = 512..64 where
/// blockSize >= 2s), then the volatile last warp started from sv[tid].
template <class P>
typename P::T impl6_block(const std::vector<typename P::T>& v, I64, int B, I64, I64 b, Rec<P>& rec) {
  std::vector<typename P::T> sv(std::size_t(B), P::identity());
  load_two(v, b, sv, rec, pts::impl6_load, pts::impl6_load);
  sequential_tree(sv, 32, rec, unrolled_line);
  typename P::T my_sum[32];
  last_warp_volatile(sv, my_sum, true, rec);
  rec.at(pts::kFile, pts::impl6_commit);
  return store_sv0(sv, b, rec);
}

/// harris.impl7, slide "Implementation 7": sv[tid] = 0; while (i < n) { sv[tid] += v[i] + v[i + blockSize];
/// i += gridSize; } then Implementation 6's tree. Steps: "sv[tid] = 0", then one "load" step per
/// iteration of the while loop ("iteration k", folded after kit::kMaxLoopSteps; a thread whose i >= n
/// does not work in it) with accesses 0 = load v[i], 1 = load v[i + blockSize], 2 = load sv[tid],
/// 3 = store sv[tid] (the right-hand side first, as C++17 sequences `a += b`).
template <class P>
typename P::T impl7_block(const std::vector<typename P::T>& v, I64 n, int B, I64 grid, I64 b, Rec<P>& rec) {
  using T = typename P::T;
  std::vector<T> sv(std::size_t(B), P::identity());
  rec.at(pts::kFile, pts::impl7_zero);
  rec.begin(TracePhase::Load, "sv[tid] = 0");
  for (int tid = 0; tid < B; ++tid) {
    rec.store_shared(tid, 0, tid, sv[tid]);
    rec.work(tid);
  }
  rec.end(sv);
  const I64 first = b * 2 * B, grid_size = I64(B) * 2 * grid;
  const I64 iterations = first < n ? ceil_div(n - first, grid_size) : 0;  // thread 0's, the most of any
  rec.at(pts::kFile, pts::impl7_pair);
  kit::LoopSteps loop(rec.raw(), TracePhase::Load, "iteration", iterations);
  for (I64 k = 0; k < iterations; ++k) {
    loop.before(k);
    const I64 base = first + k * grid_size;
    for (int tid = 0; tid < B && base + tid < n; ++tid) {
      const I64 i = base + tid;
      const T x = v[i], y = v[i + B], old = sv[tid];
      const T pair = P::combine(x, y);
      sv[tid] = P::combine(old, pair);
      rec.load_global(tid, 0, i, x, kInput);
      rec.load_global(tid, 1, i + B, y, kInput);
      rec.add(tid, i + B, pair);
      rec.load_shared(tid, 2, tid, old);
      rec.add(tid, tid, sv[tid]);
      rec.store_shared(tid, 3, tid, sv[tid]);
      rec.work(tid);
    }
    if (rec.on()) rec.raw()->template shared<P>(sv);
    loop.after(k);
  }
  sequential_tree(sv, 32, rec, unrolled_line);
  T my_sum[32];
  last_warp_volatile(sv, my_sum, true, rec);
  rec.at(pts::kFile, pts::impl7_commit);
  return store_sv0(sv, b, rec);
}

// ---------------------------------------------------------------------------------------------
// Launchers (harris.cu's host code)

/// harris.cu run_passes: pass 1 runs l.grid blocks on the input (count n); every later pass runs
/// ceil(m / window) blocks on the previous pass's m block sums (count m, zero-padded to the window,
/// as the memset leaves them) until one value is left. Records block `trace_block` of pass 1.
template <class P>
SimOutput run_passes(const VariantInfo& v, const Input& in, const LaunchConfig& l, int trace_block, I64 window,
                     BlockKernel<P> kernel) {
  using T = typename P::T;
  SimOutput out = kit::start(v, in, l, trace_block);
  kit::Recorder recorder(out.trace);
  const I64 n = in.n();
  std::vector<T> src = padded_input<P>(in, std::max(round_up_to(n, window), l.grid * window));
  I64 m = n, grid = l.grid;
  do {
    std::vector<T> dst(std::size_t(round_up_to(grid, window)), P::identity());
    const int traced_block = out.launches == 0 ? trace_block : -1;  // pass 1 only
    kit::for_blocks(0, grid, traced_block, recorder, [&](std::int64_t b, kit::Recorder* traced) {
      Rec<P> rec(traced);
      dst[std::size_t(b)] = kernel(src, m, l.block, grid, b, rec);
      if (traced) out.trace.block_result = P::to_double(dst[std::size_t(b)]);
    });
    ++out.launches;
    src = std::move(dst);
    m = grid;
    grid = ceil_div(m, window);
  } while (m > 1);
  out.result = P::to_double(src[0]);
  return out;
}

/// harris.cu run_simple_passes: a one-window-per-block kernel of `items` elements per thread,
/// relaunched on its block sums.
template <class P>
SimOutput simple_passes(const VariantInfo& v, const Input& in, const LaunchConfig& l, int trace_block, int items,
                        int min_block, BlockKernel<P> kernel) {
  expect_pow2_block(v, l.block, min_block);
  const I64 window = I64(l.block) * items;
  expect_grid(v, in, l, window);
  return run_passes<P>(v, in, l, trace_block, window, kernel);
}

// ---------------------------------------------------------------------------------------------
// Models (the kit::ReduceModel signature), one per variant

/// harris.naive, slide "Naive Approach": launch k (stride s = 2^k) gives thread t the pair (i, i + s),
/// i = 2*s*t, and adds v[i + s] into v[i] in place when i + s < n; log2 n launches. One "pass" step
/// per launch ("launch k, stride s"): block `trace_block` of each launch that has one, with its
/// threads' global loads and stores. block_result stays 0: no block of it computes one sum.
template <class P>
SimOutput naive(const VariantInfo& v, const Input& in, const LaunchConfig& l, int trace_block) {
  using T = typename P::T;
  const I64 B = l.block, n = in.n();
  expect_grid(v, in, l, 2 * B);
  SimOutput out = kit::start(v, in, l, trace_block);
  kit::Recorder recorder(out.trace);
  std::vector<T> a = padded_input<P>(in, n);
  Rec<P> none;
  for (I64 s = 1; s < n; s *= 2) {
    const I64 grid = out.launches == 0 ? l.grid : ceil_div(ceil_div(n, 2 * s), B);
    Rec<P> traced(trace_block >= 0 && trace_block < grid ? &recorder : nullptr);
    traced.at(pts::kFile, pts::naive_add);
    traced.begin(TracePhase::Pass, "launch " + std::to_string(out.launches) + ", stride " + std::to_string(s));
    for (I64 t = 0, i = 0; i + s < n; ++t, i += 2 * s) {  // the threads past the last pair do nothing
      Rec<P>& rec = t / B == trace_block ? traced : none;
      const int tid = int(t % B);
      const T x = a[i], y = a[i + s];
      a[i] = P::combine(x, y);
      rec.load_global(tid, 0, i, x, kInput);
      rec.load_global(tid, 1, i + s, y, kInput);
      rec.add(tid, i + s, a[i]);
      rec.store_global(tid, 2, i, a[i], kInput);
      rec.work(tid);
    }
    traced.end();
    ++out.launches;
  }
  out.result = P::to_double(a[0]);
  return out;
}

template <class P>
SimOutput multipass(const VariantInfo& v, const Input& in, const LaunchConfig& l, int tb) {
  return simple_passes<P>(v, in, l, tb, 1, 1, multipass_block<P>);
}
template <class P>
SimOutput impl1(const VariantInfo& v, const Input& in, const LaunchConfig& l, int tb) {
  return simple_passes<P>(v, in, l, tb, 1, 1, impl1_block<P>);
}
template <class P>
SimOutput impl2(const VariantInfo& v, const Input& in, const LaunchConfig& l, int tb) {
  return simple_passes<P>(v, in, l, tb, 1, 1, impl2_block<P>);
}
template <class P>
SimOutput impl3(const VariantInfo& v, const Input& in, const LaunchConfig& l, int tb) {
  return simple_passes<P>(v, in, l, tb, 1, 1, impl3_block<P>);
}
template <class P>
SimOutput impl4(const VariantInfo& v, const Input& in, const LaunchConfig& l, int tb) {
  return simple_passes<P>(v, in, l, tb, 2, 1, impl4_block<P>);
}
template <class P>
SimOutput impl5(const VariantInfo& v, const Input& in, const LaunchConfig& l, int tb) {
  SimOutput out = simple_passes<P>(v, in, l, tb, 2, 64, impl5_block<P>);
  out.trace.interleaving = kLockStep;
  return out;
}
template <class P>
SimOutput impl5_shfl(const VariantInfo& v, const Input& in, const LaunchConfig& l, int tb) {
  return simple_passes<P>(v, in, l, tb, 2, 64, impl5_shfl_block<P>);
}
template <class P>
SimOutput impl6(const VariantInfo& v, const Input& in, const LaunchConfig& l, int tb) {
  expect_instantiated(v, l.block);
  SimOutput out = simple_passes<P>(v, in, l, tb, 2, 64, impl6_block<P>);
  out.trace.interleaving = kLockStep;
  return out;
}

/// harris.impl7: the grid-stride first pass runs on l.grid blocks (any grid), later passes on
/// ceil(m / 2B) blocks.
template <class P>
SimOutput impl7(const VariantInfo& v, const Input& in, const LaunchConfig& l, int tb) {
  expect_instantiated(v, l.block);
  const I64 window = 2 * I64(l.block);
  // harris.cu run_impl7: i and gridSize are 32-bit, so the first index plus a grid step stays below 2^32.
  if (l.grid < 1 || l.grid * window + in.n() > (I64(1) << 32) - 1)
    throw std::runtime_error(v.id + ": grid " + std::to_string(l.grid) + " overflows the kernel's 32-bit indices");
  SimOutput out = run_passes<P>(v, in, l, tb, window, impl7_block<P>);
  out.trace.interleaving = kLockStep;
  return out;
}

}  // namespace

/// The sim models of every harris.* variant (kernels/reduction/harris.cu), in teaching order.
std::vector<ModelEntry> harris_models() {
  return {
      {"harris.naive", kit::by_type<naive<kit::SumI32>, naive<kit::SumF32>>},
      {"harris.multipass", kit::by_type<multipass<kit::SumI32>, multipass<kit::SumF32>>},
      {"harris.impl1", kit::by_type<impl1<kit::SumI32>, impl1<kit::SumF32>>},
      {"harris.impl2", kit::by_type<impl2<kit::SumI32>, impl2<kit::SumF32>>},
      {"harris.impl3", kit::by_type<impl3<kit::SumI32>, impl3<kit::SumF32>>},
      {"harris.impl4", kit::by_type<impl4<kit::SumI32>, impl4<kit::SumF32>>},
      {"harris.impl5", kit::by_type<impl5<kit::SumI32>, impl5<kit::SumF32>>},
      {"harris.impl5_shfl", kit::by_type<impl5_shfl<kit::SumI32>, impl5_shfl<kit::SumF32>>},
      {"harris.impl6", kit::by_type<impl6<kit::SumI32>, impl6<kit::SumF32>>},
      {"harris.impl7", kit::by_type<impl7<kit::SumI32>, impl7<kit::SumF32>>},
  };
}

}  // namespace ws::sim
