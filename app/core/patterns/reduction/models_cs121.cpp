// Sim models of the CS121 reduction lesson ("GPUs and CUDA 3: Intrinsics", CS121, Fall 2022, "GPUs and CUDA 3:
// Intrinsics"), one per variant of kernels/reduction/cs121.cu: same indexing, guards, padding (max
// inputs are padded with INT_MIN) and launches. Atomics are applied in block order, then thread order.
// Warp shuffles run in lock-step: every lane reads its source lane's value before any lane updates.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/model_kit.hpp"

namespace ws::sim {

namespace {

using namespace kit;
namespace pts = trace_points::cs121;

template <class P>
using Vec = std::vector<typename P::T>;

template <class P>
double d(typename P::T v) {
  return P::to_double(v);
}

/// Local maxes of "Improving performance" (the slide's num_locals; kernels/reduction/cs121.cu kNumLocals).
constexpr int kNumLocals = 256;

/// warpReduceSum (slide "Shuffle warp reduce") on warps [0, warps) of `val`:
/// `for (offset = 16; offset > 0; offset /= 2) val += __shfl_down_sync(0xffffffff, val, offset);`.
/// A lane whose source lane + offset is >= 32 receives its own value (shfl_down semantics), so it adds
/// its value to itself. One "warp" step per offset; ops: Shuffle (operand = source lane), then Add.
template <class P>
void warp_reduce_sum(Vec<P>& val, unsigned warps, const Vec<P>& shared, const std::string& suffix, Rec<P>& rec) {
  typename P::T next[32];
  rec.at(pts::warp_shfl);
  for (unsigned offset = 16; offset > 0; offset /= 2) {
    rec.begin(TracePhase::Warp, "offset " + std::to_string(offset) + suffix);
    for (unsigned w = 0; w < warps; ++w) {
      typename P::T* lanes = val.data() + std::size_t(w) * 32;
      for (unsigned lane = 0; lane < 32; ++lane) {
        const unsigned src = lane + offset < 32 ? lane + offset : lane;
        next[lane] = P::combine(lanes[lane], lanes[src]);
        if (rec.on()) {
          const int t = int(w * 32 + lane);
          rec.shuffle(t, int(src), lanes[src]);
          rec.combine(t, -1, next[lane]);
          rec.work(t);
        }
      }
      for (unsigned lane = 0; lane < 32; ++lane) lanes[lane] = next[lane];
    }
    rec.end(shared);
    rec.no_barrier_after();  // shuffles: one warp in lock-step (the _sync intrinsics)
  }
}

/// blockReduceSum (slide "Block reduce") over `val` (one value per thread, blockDim.x = val.size(),
/// a multiple of 32): warp sums, lane 0 writes shared[wid], threads < warps read shared[lane] (others
/// take 0), the first warp sums them. Returns thread 0's value. `shared` is the 32-slot array (slots
/// never written keep what they held; the model starts them at 0).
template <class P>
typename P::T block_reduce_sum(Vec<P>& val, Vec<P>& shared, Rec<P>& rec) {
  const unsigned threads = unsigned(val.size()), warps = threads / 32;
  warp_reduce_sum<P>(val, warps, shared, "", rec);
  rec.at(pts::block_store);
  rec.begin(TracePhase::Combine, "shared[wid] = val (lane 0 of each warp)");
  for (unsigned w = 0; w < warps; ++w) {
    shared[w] = val[std::size_t(w) * 32];
    rec.store_shared(int(w * 32), 0, w, shared[w]);
    rec.work(int(w * 32));
  }
  rec.end(shared);
  rec.at(pts::block_load);
  rec.begin(TracePhase::Combine, "val = shared[lane] (threads < warps; others 0)");
  for (unsigned t = 0; t < threads; ++t) {
    if (t < warps) {
      val[t] = shared[t % 32];
      rec.load_shared(int(t), 0, t % 32, val[t]);
      rec.work(int(t));
    } else {
      val[t] = P::identity();
    }
  }
  rec.end(shared);
  warp_reduce_sum<P>(val, 1, shared, ", first warp", rec);
  return val[0];
}

void require_whole_warps(const VariantInfo& v, unsigned threads) {
  if (threads % 32 != 0 || threads > 1024)
    throw std::runtime_error(v.id + ": full-mask shuffles need a whole number of warps (at most 32), got " +
                             std::to_string(threads) + " threads");
}

/// cs121.atomic_max (slide "Finding max of array"): `int val = vals[i]; atomicMax(global_max, val);`
/// unguarded (padding INT_MIN). Two launches: init_max, then the kernel (traced). Steps: load, atomic.
SimOutput atomic_max(const VariantInfo& v, const Input& in, const LaunchConfig& launch, int trace_block) {
  using P = MaxI32;
  SimOutput out = start(v, in, launch, trace_block);
  const GlobalView<P> g = view<P>(in);
  const unsigned threads = unsigned(launch.block);
  Recorder recorder(out.trace);
  P::T global_max = P::identity();  // init_max
  for_blocks(0, launch.grid, trace_block, recorder, [&](std::int64_t b, Recorder* traced) {
    Rec<P> rec(traced, pts::kFile);
    const std::int64_t first = b * threads;
    if (rec.on()) {
      rec.at(pts::max_global_load);
      rec.begin(TracePhase::Load, "val = vals[i]");
      for (unsigned t = 0; t < threads; ++t) {
        rec.load_global(int(t), 0, first + t, g.at(first + t), kInput);
        rec.work(int(t));
      }
      rec.end();
      rec.at(pts::max_global_atomic);
      rec.begin(TracePhase::Atomic, "atomicMax(global_max, val)");
    }
    P::T block_max = P::identity();
    for (unsigned t = 0; t < threads; ++t) {
      const P::T val = g.at(first + t);
      global_max = P::combine(global_max, val);
      block_max = P::combine(block_max, val);
      rec.atomic_global(int(t), 0, 0, val, kAccumulator);
      rec.work(int(t));
    }
    if (rec.on()) {
      rec.end();
      out.trace.block_result = d<P>(block_max);
    }
  });
  out.result = d<P>(global_max);
  out.launches = 2;
  return out;
}

/// cs121.local_max (slide "Improving performance"): `old = atomicMax(&local_max[i % 256], val); if
/// (old < val) atomicMax(global_max, val);`. Two launches (init_max, kernel). Steps: load, atomic
/// (local maxes, global buffer 1), atomic (global max, only threads whose local max grew: which ones
/// depends on the atomics' order, here block then thread order; the result does not).
SimOutput local_max(const VariantInfo& v, const Input& in, const LaunchConfig& launch, int trace_block) {
  using P = MaxI32;
  SimOutput out = start(v, in, launch, trace_block);
  out.trace.interleaving =
      "atomics in block order, then thread order: which threads find that their local max grew depends on it; the "
      "result does not";
  const GlobalView<P> g = view<P>(in);
  const unsigned threads = unsigned(launch.block);
  Recorder recorder(out.trace);
  std::vector<P::T> local(kNumLocals, P::identity());
  P::T global_max = P::identity();
  std::vector<char> grew(threads);
  for_blocks(0, launch.grid, trace_block, recorder, [&](std::int64_t b, Recorder* traced) {
    Rec<P> rec(traced, pts::kFile);
    const std::int64_t first = b * threads;
    P::T block_max = P::identity();
    for (unsigned t = 0; t < threads; ++t) {
      const std::int64_t i = first + t;
      const P::T val = g.at(i);
      P::T& slot = local[std::size_t(i % kNumLocals)];
      const P::T old = slot;
      slot = P::combine(old, val);
      grew[t] = old < val;
      if (grew[t]) {
        global_max = P::combine(global_max, val);
        block_max = P::combine(block_max, val);
      }
    }
    if (!rec.on()) return;  // an untraced block: nothing more to record
    rec.at(pts::max_local_load);
    rec.begin(TracePhase::Load, "val = vals[i]");
    for (unsigned t = 0; t < threads; ++t) {
      rec.load_global(int(t), 0, first + t, g.at(first + t), kInput);
      rec.work(int(t));
    }
    rec.end();
    rec.at(pts::max_local_atomic);
    rec.begin(TracePhase::Atomic, "old_max = atomicMax(&local_max[i % num_locals], val)");
    for (unsigned t = 0; t < threads; ++t) {
      rec.atomic_global(int(t), 0, (first + t) % kNumLocals, g.at(first + t), kPartials);
      rec.work(int(t));
    }
    rec.end();
    rec.at(pts::max_local_global);
    rec.begin(TracePhase::Atomic,
              "if (old_max < val) atomicMax(global_max, val) (which threads win depends on the order of the atomics; "
              "modelled: blocks, then threads, in order)");
    for (unsigned t = 0; t < threads; ++t) {
      if (!grew[t]) continue;
      rec.atomic_global(int(t), 0, 0, g.at(first + t), kAccumulator);
      rec.work(int(t));
    }
    rec.end();
    out.trace.block_result = d<P>(block_max);
  });
  out.result = d<P>(global_max);
  out.launches = 2;
  return out;
}

/// cs121.block_reduce (slide "Block reduce"): `val = i < n ? in[i] : 0`, blockReduceSum, thread 0's
/// atomicAdd(sum, val). Steps: load, 5 warp, 2 combine (shared[wid], shared[lane]), 5 warp, atomic.
template <class P>
SimOutput block_reduce(const VariantInfo& v, const Input& in, const LaunchConfig& launch, int trace_block) {
  SimOutput out = start(v, in, launch, trace_block);
  out.trace.interleaving = "warp shuffles in lock-step (the _sync intrinsics guarantee it)";
  const GlobalView<P> g = view<P>(in);
  const unsigned threads = unsigned(launch.block);
  require_whole_warps(v, threads);
  Vec<P> val(threads), shared(32, P::identity());
  Recorder recorder(out.trace);
  typename P::T sum = P::identity();
  for_blocks(0, launch.grid, trace_block, recorder, [&](std::int64_t b, Recorder* traced) {
    Rec<P> rec(traced, pts::kFile);
    const std::int64_t first = b * threads;
    rec.at(pts::block_reduce_load);
    rec.begin(TracePhase::Load, "val = i < n ? in[i] : 0");
    for (unsigned t = 0; t < threads; ++t) {
      const std::int64_t i = first + t;
      val[t] = i < g.n ? g.at(i) : P::identity();
      if (rec.on() && i < g.n) {
        rec.load_global(int(t), 0, i, val[t], kInput);
        rec.work(int(t));
      }
    }
    rec.end(shared);
    const typename P::T block_sum = block_reduce_sum<P>(val, shared, rec);
    sum = P::combine(sum, block_sum);
    if (rec.on()) {
      rec.at(pts::block_reduce_atomic);
      rec.begin(TracePhase::Atomic, "atomicAdd(sum, val) (thread 0)");
      rec.atomic_global(0, 0, 0, block_sum, kAccumulator);
      rec.work(0);
      rec.end(shared);
      out.trace.block_result = d<P>(block_sum);
    }
  });
  out.result = d<P>(sum);
  out.launches = 1;
  return out;
}

/// cs121.device_reduce (slide "Reducing larger arrays"): deviceReduceKernel<<<grid, block>>> (grid-stride
/// sums, blockReduceSum, out[blockIdx.x] = sum; traced), then deviceReduceKernel<<<1, 1024>>>(out, out,
/// grid) folding the partials in place. Steps of the traced block: passes, 5 warp, 2 combine, 5 warp,
/// combine (the store of out[blockIdx.x], global buffer 1).
template <class P>
SimOutput device_reduce(const VariantInfo& v, const Input& in, const LaunchConfig& launch, int trace_block) {
  if (launch.grid > 1024)
    throw std::runtime_error(v.id + ": the second pass folds at most 1024 block sums, got a grid of " +
                             std::to_string(launch.grid));
  SimOutput out = start(v, in, launch, trace_block);
  out.trace.interleaving = "warp shuffles in lock-step (the _sync intrinsics guarantee it)";
  const GlobalView<P> g = view<P>(in);
  const unsigned threads = unsigned(launch.block);
  require_whole_warps(v, threads);
  const std::int64_t grid_size = std::int64_t(threads) * launch.grid;
  Vec<P> val(threads), shared(32, P::identity()), partials(std::size_t(launch.grid));
  Recorder recorder(out.trace);
  for_blocks(0, launch.grid, trace_block, recorder, [&](std::int64_t b, Recorder* traced) {
    Rec<P> rec(traced, pts::kFile);
    std::fill(val.begin(), val.end(), P::identity());  // T sum = 0
    const std::int64_t first = b * threads;
    const std::int64_t passes = first < g.n ? (g.n - first + grid_size - 1) / grid_size : 0;
    rec.at(pts::device_cascade);
    LoopSteps steps(rec.raw(), TracePhase::Load, "pass", passes);
    for (std::int64_t k = 0; k < passes; ++k) {
      steps.before(k);
      const std::int64_t base = first + k * grid_size;
      for (unsigned t = 0; t < threads && base + t < g.n; ++t) {
        const typename P::T x = g.at(base + t);
        val[t] = P::combine(val[t], x);
        rec.load_global(int(t), 0, base + t, x, kInput);
        rec.combine(int(t), base + t, val[t]);
        rec.work(int(t));
      }
      rec.shared(shared);
      steps.after(k);
    }
    partials[std::size_t(b)] = block_reduce_sum<P>(val, shared, rec);
    if (rec.on()) {
      rec.at(pts::device_store);
      rec.begin(TracePhase::Combine, "out[blockIdx.x] = sum (thread 0)");
      rec.store_global(0, 0, b, partials[std::size_t(b)], kPartials);
      rec.work(0);
      rec.end(shared);
      out.trace.block_result = d<P>(partials[std::size_t(b)]);
    }
  });
  // Second launch: one block of 1024 threads over N = grid partials (guarded: i < N).
  Vec<P> second(1024, P::identity());
  for (std::int64_t i = 0; i < launch.grid; ++i)
    second[std::size_t(i % 1024)] = P::combine(second[std::size_t(i % 1024)], partials[std::size_t(i)]);
  Rec<P> untraced;
  out.result = d<P>(block_reduce_sum<P>(second, shared, untraced));
  out.launches = 2;
  return out;
}

}  // namespace

std::vector<ModelEntry> cs121_models() {
  return {
      {"cs121.atomic_max", int_only<atomic_max>},
      {"cs121.local_max", int_only<local_max>},
      {"cs121.block_reduce", by_type<block_reduce<SumI32>, block_reduce<SumF32>>},
      {"cs121.device_reduce", by_type<device_reduce<SumI32>, device_reduce<SumF32>>},
  };
}

}  // namespace ws::sim
