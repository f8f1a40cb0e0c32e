// Sim models of "Parallel Reduction using C++ AMP" ("Parallel Reduction using C++ AMP", MSDN), one per kernel
// of kernels/reduction/amp.cu (the post translated to CUDA: tile = block, tile_static = __shared__),
// at thread granularity.
//
// Each model mirrors its kernel and launcher: the same indexing, loop bounds and dispatches, and the
// same host-side finish: the launchers leave a few partial results, which the backend adds up as
// the post's std::accumulate does (cuda_backend.cpp combine(): int32 wrapping, float32 in double).
// int32 runs in uint32 (adds wrap modulo 2^32), float32 in float, in the kernel's order of
// additions. Tiled inputs are zero-padded to whole tiles (the backend's padding and the launcher's
// memsets). Recorded: tile `trace_block` of the first dispatch (simple_1/2: that block of every
// dispatch, since each dispatch is one step of the reduction); the other blocks run unrecorded.
//
// Trace conventions (sim.hpp, model_kit.hpp): `access` numbers a step's warp-wide memory
// instructions in program order; register ops have access -1. Global buffers: kit::kInput,
// kit::kPartials (the tiles' sums), kit::kAccumulator (simple_1/2's tail sum, address 0).
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "sim/model_kit.hpp"
#include "sim/sim.hpp"

namespace ws::sim {

namespace {

using I64 = std::int64_t;
using kit::kAccumulator;
using kit::kInput;
using kit::kPartials;

using kit::ceil_div;
using kit::for_blocks;
using kit::padded_input;
using kit::Rec;
using kit::Recorder;
using kit::round_up_to;
using kit::tree_add;
namespace pts = trace_points::amp;

/// The host's sum of the partials a launcher leaves (cuda_backend.cpp combine()): int32 wrapping
/// modulo 2^32, float32 accumulated in double, in the order the launcher left them.
template <class P>
double host_combine(const std::vector<typename P::T>& partials) {
  if constexpr (std::is_same<P, kit::SumI32>::value) {
    std::uint32_t s = 0;
    for (auto x : partials) s += x;
    return P::to_double(s);
  } else {
    double s = 0;
    for (auto x : partials) s += double(x);
    return s;
  }
}

/// The tiled kernels' trees halve or double the stride up to the tile size: power-of-two tiles.
void expect_pow2_tile(const VariantInfo& v, int block) {
  if (block < 1 || block > 1024 || (block & (block - 1)) != 0)
    throw std::runtime_error(v.id + ": tile size " + std::to_string(block) + " is not a power of two in 1..1024");
}

// ---------------------------------------------------------------------------------------------
// Simple model (no tiles): one dispatch per step of the reduction, in place in global memory

/// amp.simple_1, section "reduction_simple_1": for s = m/2 (m = n, then m = s): s threads, thread
/// idx adds a[idx + s] into a[idx]; when m is odd, thread s - 1 first adds the cut-off a[2s] into the
/// tail sum. The host adds a[0] and the tail sum. One "pass" step per dispatch ("launch k, stride s"),
/// block `trace_block` of each dispatch that has one. Accesses: tail (m odd only) 0 = load a[2s],
/// 1 = load the tail sum, 2 = store it; then load a[idx], load a[idx + s], store a[idx].
template <class P>
SimOutput simple_1(const VariantInfo& v, const Input& in, const LaunchConfig& l, int trace_block) {
  using T = typename P::T;
  const I64 B = l.block, n = in.n();
  if (l.grid * B < n / 2)  // amp.cu expect_first_dispatch
    throw std::runtime_error(v.id + ": grid " + std::to_string(l.grid) + " of " + std::to_string(B) +
                             " threads cannot run the first dispatch of " + std::to_string(n / 2) + " threads");
  SimOutput out = kit::start(v, in, l, trace_block);
  kit::Recorder recorder(out.trace);
  std::vector<T> a = padded_input<P>(in, n);
  T tail = P::identity();
  Rec<P> none;
  for (I64 m = n, s = m / 2; s > 0; m = s, s = m / 2) {
    const I64 grid = out.launches == 0 ? l.grid : ceil_div(s, B);
    Rec<P> traced(trace_block >= 0 && trace_block < grid ? &recorder : nullptr);
    traced.begin(TracePhase::Pass, "launch " + std::to_string(out.launches) + ", stride " + std::to_string(s));
    const bool odd = (m & 1) != 0;
    const int first = odd ? 3 : 0;       // access of the main load a[idx]
    for (I64 idx = 0; idx < s; ++idx) {  // threads idx >= s return at once
      Rec<P>& rec = idx / B == trace_block ? traced : none;
      const int tid = int(idx % B);
      if (odd && idx == s - 1) {  // *tail_sum += a[2 * s]
        const T x = a[2 * s], old = tail;
        tail = P::combine(old, x);
        rec.at(pts::kFile, pts::simple_1_tail);
        rec.load_global(tid, 0, 2 * s, x, kInput);
        rec.load_global(tid, 1, 0, old, kAccumulator);
        rec.add(tid, 2 * s, tail);
        rec.store_global(tid, 2, 0, tail, kAccumulator);
      }
      const T x = a[idx], y = a[idx + s];
      a[idx] = P::combine(x, y);
      rec.at(pts::kFile, pts::simple_1_add);
      rec.load_global(tid, first, idx, x, kInput);
      rec.load_global(tid, first + 1, idx + s, y, kInput);
      rec.add(tid, idx + s, a[idx]);
      rec.store_global(tid, first + 2, idx, a[idx], kInput);
      rec.work(tid);
    }
    traced.end();
    ++out.launches;
  }
  out.result = host_combine<P>({a[0], tail});
  return out;
}

/// amp.simple_2, section "reduction_simple_2": for s = m/8: s threads, thread idx sums the window
/// a[idx], a[idx + s], ..., a[idx + 7s] (from 0, in that order) into a[idx]; thread s - 1 then adds
/// the cut-off tail a[8s..m) serially into the tail sum (the post's divergence). Stops when fewer
/// than 8 values are left; the host adds them and the tail sum. Accesses: 0..7 the window's loads,
/// 8 the store of a[idx], then per tail element j: load a[j], load the tail sum, store it.
template <class P>
SimOutput simple_2(const VariantInfo& v, const Input& in, const LaunchConfig& l, int trace_block) {
  using T = typename P::T;
  constexpr I64 kWindowWidth = 8;
  const I64 B = l.block, n = in.n();
  if (l.grid * B < n / kWindowWidth)  // amp.cu expect_first_dispatch
    throw std::runtime_error(v.id + ": grid " + std::to_string(l.grid) + " of " + std::to_string(B) +
                             " threads cannot run the first dispatch of " + std::to_string(n / kWindowWidth) +
                             " threads");
  SimOutput out = kit::start(v, in, l, trace_block);
  kit::Recorder recorder(out.trace);
  std::vector<T> a = padded_input<P>(in, n);
  T tail = P::identity();
  Rec<P> none;
  I64 m = n;
  for (I64 s = m / kWindowWidth; s > 0; m = s, s = m / kWindowWidth) {
    const I64 grid = out.launches == 0 ? l.grid : ceil_div(s, B);
    Rec<P> traced(trace_block >= 0 && trace_block < grid ? &recorder : nullptr);
    traced.begin(TracePhase::Pass, "launch " + std::to_string(out.launches) + ", stride " + std::to_string(s));
    for (I64 idx = 0; idx < s; ++idx) {
      Rec<P>& rec = idx / B == trace_block ? traced : none;
      const int tid = int(idx % B);
      T sum = P::identity();
      rec.at(pts::kFile, pts::simple_2_window);
      for (I64 i = 0; i < kWindowWidth; ++i) {
        const T x = a[idx + i * s];
        sum = P::combine(sum, x);
        rec.load_global(tid, int(i), idx + i * s, x, kInput);
        rec.add(tid, idx + i * s, sum);
      }
      a[idx] = sum;
      rec.at(pts::kFile, pts::simple_2_store);
      rec.store_global(tid, int(kWindowWidth), idx, sum, kInput);
      rec.work(tid);
      rec.at(pts::kFile, pts::simple_2_tail);
      if (idx == s - 1) {
        for (I64 j = kWindowWidth * s; j < m; ++j) {  // *tail_sum += a[j]
          const int access = int(kWindowWidth + 1 + 3 * (j - kWindowWidth * s));
          const T x = a[j], old = tail;
          tail = P::combine(old, x);
          rec.load_global(tid, access, j, x, kInput);
          rec.load_global(tid, access + 1, 0, old, kAccumulator);
          rec.add(tid, j, tail);
          rec.store_global(tid, access + 2, 0, tail, kAccumulator);
        }
      }
    }
    traced.end();
    ++out.launches;
  }
  std::vector<T> partials(a.begin(), a.begin() + m);  // the K = m < 8 values left, then the tail sum
  partials.push_back(tail);
  out.result = host_combine<P>(partials);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Tiled model: pieces of the tile kernels (each the same lines in amp.cu)

/// Sequential addressing (reduction_tiled_3, _4 and cascade): for s = tile_size/2; s > 0; s /= 2:
/// if (tid < s) tile_data[tid] += tile_data[tid + s]. Only the working threads tid < s are visited.
template <class P>
void sequential_tree(std::vector<typename P::T>& tile, Rec<P>& rec, int line) {
  rec.at(pts::kFile, line);
  for (I64 s = I64(tile.size()) / 2; s > 0; s /= 2) {
    rec.begin(TracePhase::Tree, "stride", s);
    for (int tid = 0; tid < s; ++tid) tree_add(tile, tid, tid, s, rec);
    rec.end(tile);
  }
}

/// if (tid == 0) dst[blockIdx.x] = tile_data[0]; returns the tile's sum. `line`: that statement's.
template <class P>
typename P::T store_tile0(const std::vector<typename P::T>& tile, I64 b, const char* label, Rec<P>& rec, int line) {
  rec.at(pts::kFile, line);
  rec.begin(TracePhase::Combine, label);
  rec.load_shared(0, 0, 0, tile[0]);
  rec.store_global(0, 1, b, tile[0], kPartials);
  rec.work(0);
  rec.end(tile);
  return tile[0];
}

template <class P>
using TileKernel = typename P::T (*)(const std::vector<typename P::T>& src, int block, I64 b, Rec<P>& rec);

/// amp.tiled_1, section "reduction_tiled_1": for s = 1; s < tile_size; s *= 2: if (tid % (2*s) == 0)
/// tile_data[tid] += tile_data[tid + s]. The working threads are the multiples of 2s.
template <class P>
typename P::T tiled_1_block(const std::vector<typename P::T>& src, int B, I64 b, Rec<P>& rec) {
  std::vector<typename P::T> tile(std::size_t(B), P::identity());
  rec.at(pts::kFile, pts::tiled_1_load);
  kit::load_one(src, b, tile, rec, "tile_data[tid] = src[idx]");
  for (I64 s = 1; s < B; s *= 2) {
    rec.at(pts::kFile, pts::tiled_1_tree);
    rec.begin(TracePhase::Tree, "stride", s);
    for (I64 tid = 0; tid < B; tid += 2 * s) tree_add(tile, int(tid), tid, s, rec);
    rec.end(tile);
  }
  return store_tile0(tile, b, "dst[tile] = tile_data[0]", rec, pts::tiled_1_commit);
}

/// amp.tiled_2, section "reduction_tiled_2": index = 2*s*tid; if (index < tile_size)
/// tile_data[index] += tile_data[index + s]: consecutive working threads, 2s-strided addresses.
template <class P>
typename P::T tiled_2_block(const std::vector<typename P::T>& src, int B, I64 b, Rec<P>& rec) {
  std::vector<typename P::T> tile(std::size_t(B), P::identity());
  rec.at(pts::kFile, pts::tiled_2_load);
  kit::load_one(src, b, tile, rec, "tile_data[tid] = src[idx]");
  for (I64 s = 1; s < B; s *= 2) {
    rec.at(pts::kFile, pts::tiled_2_tree);
    rec.begin(TracePhase::Tree, "stride", s);
    for (I64 tid = 0; 2 * s * tid < B; ++tid) tree_add(tile, int(tid), 2 * s * tid, s, rec);
    rec.end(tile);
  }
  return store_tile0(tile, b, "dst[tile] = tile_data[0]", rec, pts::tiled_2_commit);
}

/// amp.tiled_3, section "reduction_tiled_3": sequential addressing (the post's `s /= 1` read as s /= 2).
template <class P>
typename P::T tiled_3_block(const std::vector<typename P::T>& src, int B, I64 b, Rec<P>& rec) {
  std::vector<typename P::T> tile(std::size_t(B), P::identity());
  rec.at(pts::kFile, pts::tiled_3_load);
  kit::load_one(src, b, tile, rec, "tile_data[tid] = src[idx]");
  sequential_tree(tile, rec, pts::tiled_3_tree);
  return store_tile0(tile, b, "dst[tile] = tile_data[0]", rec, pts::tiled_3_commit);
}

/// amp.tiled_4, section "reduction_tiled_4": tile_data[tid] = src[rel_idx] + src[rel_idx + tile_size],
/// rel_idx = blockIdx.x * (2 * tile_size) + tid, then tiled_3's tree.
template <class P>
typename P::T tiled_4_block(const std::vector<typename P::T>& src, int B, I64 b, Rec<P>& rec) {
  using T = typename P::T;
  std::vector<T> tile(std::size_t(B), P::identity());
  rec.at(pts::kFile, pts::tiled_4_load);
  rec.begin(TracePhase::Load, "tile_data[tid] = src[rel_idx] + src[rel_idx + tile_size]");
  for (int tid = 0; tid < B; ++tid) {
    const I64 i = b * 2 * B + tid;
    const T x = src[i], y = src[i + B];
    tile[tid] = P::combine(x, y);
    rec.load_global(tid, 0, i, x, kInput);
    rec.load_global(tid, 1, i + B, y, kInput);
    rec.add(tid, i + B, tile[tid]);
    rec.store_shared(tid, 2, tid, tile[tid]);
    rec.work(tid);
  }
  rec.end(tile);
  sequential_tree(tile, rec, pts::tiled_4_tree);
  return store_tile0(tile, b, "dst[tile] = tile_data[0]", rec, pts::tiled_4_commit);
}

/// amp.cu run_tiled: pass 1 runs l.grid tiles on the input; each later pass runs ceil(m / window)
/// tiles on the previous pass's m tile sums (zero-padded to the window, as the memset leaves them),
/// while more than tile_size partials are left; the host adds the last m <= tile_size partials.
template <class P>
SimOutput run_tiled(const VariantInfo& v, const Input& in, const LaunchConfig& l, int trace_block, int items,
                    TileKernel<P> kernel) {
  using T = typename P::T;
  expect_pow2_tile(v, l.block);
  const I64 n = in.n(), window = I64(l.block) * items;
  if (l.grid != ceil_div(n, window))
    throw std::runtime_error(v.id + ": grid " + std::to_string(l.grid) + " does not match ceil(n / " +
                             std::to_string(window) + ") = " + std::to_string(ceil_div(n, window)));
  SimOutput out = kit::start(v, in, l, trace_block);
  kit::Recorder recorder(out.trace);
  std::vector<T> src = padded_input<P>(in, round_up_to(n, window));
  I64 m = n, grid = l.grid;
  do {
    std::vector<T> dst(std::size_t(round_up_to(grid, window)), P::identity());
    const int traced_block = out.launches == 0 ? trace_block : -1;  // pass 1 only
    kit::for_blocks(0, grid, traced_block, recorder, [&](std::int64_t b, kit::Recorder* traced) {
      Rec<P> rec(traced);
      dst[std::size_t(b)] = kernel(src, l.block, b, rec);
      if (traced) out.trace.block_result = P::to_double(dst[std::size_t(b)]);
    });
    ++out.launches;
    src = std::move(dst);
    m = grid;
    grid = ceil_div(m, window);
  } while (m > l.block);
  out.result = host_combine<P>(std::vector<T>(src.begin(), src.begin() + m));
  return out;
}

/// amp.cascade, section "reduction_cascade", one tile: tile_data[tid] = 0; for (i = blockIdx.x *
/// blockDim.x + tid; i < n; i += gridDim.x * blockDim.x) tile_data[tid] += a[i]; then tiled_3's tree;
/// thread 0 writes partial[blockIdx.x]. Steps: "tile_data[tid] = 0", then one "load" step per
/// iteration of the loop ("iteration k", folded after kit::kMaxLoopSteps; a thread whose i >= n does
/// not work in it) with accesses 0 = load a[i], 1 = load tile_data[tid], 2 = store tile_data[tid].
template <class P>
typename P::T cascade_block(const std::vector<typename P::T>& a, I64 n, int B, I64 grid, I64 b, Rec<P>& rec) {
  using T = typename P::T;
  std::vector<T> tile(std::size_t(B), P::identity());
  rec.at(pts::kFile, pts::cascade_zero);
  rec.begin(TracePhase::Load, "tile_data[tid] = 0");
  for (int tid = 0; tid < B; ++tid) {
    rec.store_shared(tid, 0, tid, tile[tid]);
    rec.work(tid);
  }
  rec.end(tile);
  const I64 first = b * B, stride = grid * B;
  const I64 iterations = first < n ? ceil_div(n - first, stride) : 0;  // thread 0's, the most of any
  rec.at(pts::kFile, pts::cascade_add);
  kit::LoopSteps loop(rec.raw(), TracePhase::Load, "iteration", iterations);
  for (I64 k = 0; k < iterations; ++k) {
    loop.before(k);
    const I64 base = first + k * stride;
    for (int tid = 0; tid < B && base + tid < n; ++tid) {
      const I64 i = base + tid;
      const T x = a[i], old = tile[tid];
      tile[tid] = P::combine(old, x);
      rec.load_global(tid, 0, i, x, kInput);
      rec.load_shared(tid, 1, tid, old);
      rec.add(tid, i, tile[tid]);
      rec.store_shared(tid, 2, tid, tile[tid]);
      rec.work(tid);
    }
    if (rec.on()) rec.raw()->template shared<P>(tile);
    loop.after(k);
  }
  sequential_tree(tile, rec, pts::cascade_tree);
  return store_tile0(tile, b, "partial[tile] = tile_data[0]", rec, pts::cascade_commit);
}

// ---------------------------------------------------------------------------------------------
// Models (the kit::ReduceModel signature)

template <class P>
SimOutput tiled_1(const VariantInfo& v, const Input& in, const LaunchConfig& l, int tb) {
  return run_tiled<P>(v, in, l, tb, 1, tiled_1_block<P>);
}
template <class P>
SimOutput tiled_2(const VariantInfo& v, const Input& in, const LaunchConfig& l, int tb) {
  return run_tiled<P>(v, in, l, tb, 1, tiled_2_block<P>);
}
template <class P>
SimOutput tiled_3(const VariantInfo& v, const Input& in, const LaunchConfig& l, int tb) {
  return run_tiled<P>(v, in, l, tb, 1, tiled_3_block<P>);
}
template <class P>
SimOutput tiled_4(const VariantInfo& v, const Input& in, const LaunchConfig& l, int tb) {
  return run_tiled<P>(v, in, l, tb, 2, tiled_4_block<P>);
}

/// amp.cascade: one dispatch of l.grid tiles (any grid); the host adds the l.grid partials.
template <class P>
SimOutput cascade(const VariantInfo& v, const Input& in, const LaunchConfig& l, int trace_block) {
  using T = typename P::T;
  expect_pow2_tile(v, l.block);
  const I64 n = in.n();
  // amp.cu run_cascade: the 32-bit index plus one stride of the whole grid must stay below 2^32.
  if (l.grid < 1 || l.grid * l.block + n > (I64(1) << 32) - 1)
    throw std::runtime_error(v.id + ": grid " + std::to_string(l.grid) + " overflows the kernel's 32-bit indices");
  SimOutput out = kit::start(v, in, l, trace_block);
  kit::Recorder recorder(out.trace);
  const std::vector<T> a = padded_input<P>(in, n);
  std::vector<T> partial(std::size_t(l.grid));
  for_blocks(0, l.grid, trace_block, recorder, [&](std::int64_t b, Recorder* traced) {
    Rec<P> rec(traced);
    partial[std::size_t(b)] = cascade_block(a, n, l.block, l.grid, b, rec);
    if (rec.on()) out.trace.block_result = P::to_double(partial[std::size_t(b)]);
  });
  out.launches = 1;
  out.result = host_combine<P>(partial);
  return out;
}

/// amp.sequential, section "sequential_reduction": std::accumulate on the CPU, as cpu_variants.cpp
/// runs it (int32 wrapping, float32 accumulated in double). No kernel: no launch, no block; the
/// trace has one "sequential" step without operations.
SimOutput sequential(const VariantInfo& v, const Input& in, const LaunchConfig& l, int) {
  SimOutput out;
  if (in.type == DType::Int32) {
    const std::uint32_t s = std::accumulate(in.i32.begin(), in.i32.end(), std::uint32_t(0),
                                            [](std::uint32_t acc, std::int32_t x) { return acc + std::uint32_t(x); });
    out.result = double(std::int32_t(s));
  } else {
    out.result = std::accumulate(in.f32.begin(), in.f32.end(), 0.0);
  }
  out.launches = 0;
  out.trace.variant = v.id;
  out.trace.source = "sim";
  out.trace.n = in.n();
  out.trace.type = in.type;
  out.trace.launch = l;
  Step step;
  step.phase = TracePhase::Sequential;
  step.label = "std::accumulate";
  out.trace.steps.push_back(step);
  out.trace.block_result = out.result;
  return out;
}

}  // namespace

/// The sim models of every amp.* variant (kernels/reduction/amp.cu; amp.sequential runs on the host).
std::vector<ModelEntry> amp_models() {
  return {
      {"amp.sequential", kit::without_params<sequential>},
      {"amp.simple_1", kit::by_type<simple_1<kit::SumI32>, simple_1<kit::SumF32>>},
      {"amp.simple_2", kit::by_type<simple_2<kit::SumI32>, simple_2<kit::SumF32>>},
      {"amp.tiled_1", kit::by_type<tiled_1<kit::SumI32>, tiled_1<kit::SumF32>>},
      {"amp.tiled_2", kit::by_type<tiled_2<kit::SumI32>, tiled_2<kit::SumF32>>},
      {"amp.tiled_3", kit::by_type<tiled_3<kit::SumI32>, tiled_3<kit::SumF32>>},
      {"amp.tiled_4", kit::by_type<tiled_4<kit::SumI32>, tiled_4<kit::SumF32>>},
      {"amp.cascade", kit::by_type<cascade<kit::SumI32>, cascade<kit::SumF32>>},
  };
}

}  // namespace ws::sim
