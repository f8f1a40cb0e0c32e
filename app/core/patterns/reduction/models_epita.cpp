// Sim models of the EPITA reduction lesson ("Reduction Pattern", Carlinet and Chazalon, EPITA GPU Computing,
// Fall 2023), one per kernel of kernels/reduction/epita.cu, with the same indexing, loop bounds, guards,
// padding (reads past n give 0) and launches. Every block runs the same code; only the traced block
// has a Recorder. Atomics are applied in block order, then thread order (the GPU's order varies; int32
// results do not depend on it, float32 ones only by rounding).
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/model_kit.hpp"

namespace ws::sim {

namespace {

using namespace kit;
namespace pts = trace_points::epita;

template <class P>
using Vec = std::vector<typename P::T>;

template <class P>
double d(typename P::T v) {
  return P::to_double(v);
}

// ---------------------------------------------------------------------------------------------------
// Building blocks: the trees and the commit as the kernels write them.

/// Sequential addressing (slide "Efficient Reduction Trees"):
/// for (stride = first; stride > last; stride /= 2) { if (tid < stride) s[tid] += s[tid + stride]; __syncthreads(); }
/// (last = 0 is the slide's `stride >= 1`; reduce6 stops at `s > 32`). `threads` = blockDim.x.
template <class P>
void sequential_tree(Vec<P>& s, unsigned threads, unsigned first, unsigned last, Rec<P>& rec) {
  for (unsigned stride = first; stride > last; stride /= 2) {
    rec.begin(TracePhase::Tree, "stride", stride);
    for (unsigned tid = 0; tid < stride && tid < threads; ++tid) tree_add<P>(s, int(tid), tid, stride, rec);
    rec.end(s);
  }
}

/// One full-unroll step `if (BlockSize >= limit) { if (tid < stride) ...; __syncthreads(); }`.
template <class P>
void unrolled_tree_step(Vec<P>& s, unsigned threads, unsigned stride, Rec<P>& rec) {
  sequential_tree<P>(s, threads, stride, stride / 2, rec);
}

/// Interleaved addressing (slide "Reduction Pattern: tree reduction without atomics"):
/// for (stride = 1; stride < blockDim.x; stride *= 2) { if (tid % (2 * stride) == 0) s[tid] += s[tid + stride]; ... }
template <class P>
void interleaved_tree(Vec<P>& s, unsigned threads, Rec<P>& rec) {
  for (unsigned stride = 1; stride < threads; stride *= 2) {
    rec.begin(TracePhase::Tree, "stride", stride);
    for (unsigned tid = 0; tid < threads; tid += 2 * stride) tree_add<P>(s, int(tid), tid, stride, rec);
    rec.end(s);
  }
}

/// The slide's volatile warpReduce ("Loop unrolling"), run by threads tid < 32: six statements
/// `s[tid] += s[tid + offset]`, offset 32 .. 1, with no barrier. Modelled in lock-step: in each
/// statement all 32 lanes load before any lane stores (the slide's assumption).
template <class P>
void volatile_warp_reduce(Vec<P>& s, Rec<P>& rec) {
  typename P::T next[32];
  const int lines[] = {pts::warp_32, pts::warp_16, pts::warp_8, pts::warp_4, pts::warp_2, pts::warp_1};
  int statement = 0;
  for (unsigned offset = 32; offset >= 1; offset /= 2) {
    rec.at(lines[statement++]);
    rec.begin(TracePhase::Warp, "offset", offset);
    for (unsigned lane = 0; lane < 32; ++lane) {
      const typename P::T a = s[lane], b = s[lane + offset];
      next[lane] = P::combine(a, b);
      rec.load_shared(int(lane), 0, lane, a);
      rec.load_shared(int(lane), 1, lane + offset, b);
      rec.combine(int(lane), lane + offset, next[lane]);
      rec.store_shared(int(lane), 2, lane, next[lane]);
      rec.work(int(lane));
    }
    for (unsigned lane = 0; lane < 32; ++lane) s[lane] = next[lane];
    rec.end(s);
    rec.no_barrier_after();  // warp-synchronous: one warp in lock-step (sim/hazards.hpp)
  }
}

/// `if (tid == 0) atomicAdd(sum, partialSum[0]);`: access 0 = load s[0], 1 = the global atomic.
template <class P>
void commit_partial0(const Vec<P>& s, typename P::T& sum, Rec<P>& rec) {
  sum = P::combine(sum, s[0]);
  rec.begin(TracePhase::Combine, "atomicAdd(sum, partialSum[0])");
  rec.load_shared(0, 0, 0, s[0]);
  rec.atomic_global(0, 1, 0, s[0], kAccumulator);
  rec.work(0);
  rec.end(s);
}

/// One element per thread into shared memory, unguarded (reduce2/reduce3's collaborative loading):
/// `partialSum[tid] = buffer[blockIdx.x * blockDim.x + tid]`: access 0 = global load, 1 = shared store.
template <class P>
void load_one_per_thread(Vec<P>& s, const GlobalView<P>& g, std::int64_t b, unsigned threads, Rec<P>& rec) {
  rec.begin(TracePhase::Load, "partialSum[tid] = buffer[i]");
  const std::int64_t first = b * threads;
  for (unsigned tid = 0; tid < threads; ++tid) {
    const std::int64_t i = first + tid;
    s[tid] = g.at(i);
    rec.load_global(int(tid), 0, i, s[tid], kInput);
    rec.store_shared(int(tid), 1, tid, s[tid]);
    rec.work(int(tid));
  }
  rec.end(s);
}

/// Algorithm cascading into shared memory (slide "Algorithm Cascading"):
/// `partialSum[t] = 0; while (x < size) { partialSum[t] += buffer[x]; x += gridSize; }`.
/// Steps: "partialSum[t] = 0", then one per pass (access 0 = global load, 1 = load s[t], 2 = store s[t]).
template <class P>
void cascade_into_shared(Vec<P>& s, const GlobalView<P>& g, std::int64_t b, unsigned threads, std::int64_t grid,
                         int zero_line, int add_line, Rec<P>& rec) {
  std::fill(s.begin(), s.end(), P::identity());
  rec.at(zero_line);
  if (rec.on()) {
    rec.begin(TracePhase::Load, "partialSum[t] = 0");
    for (unsigned t = 0; t < threads; ++t) {
      rec.store_shared(int(t), 0, t, P::identity());
      rec.work(int(t));
    }
    rec.end(s);
  }
  const std::int64_t n = g.n, first = b * threads, grid_size = std::int64_t(threads) * grid;
  const std::int64_t passes = first < n ? (n - first + grid_size - 1) / grid_size : 0;
  rec.at(add_line);
  LoopSteps steps(rec.raw(), TracePhase::Load, "pass", passes);
  for (std::int64_t k = 0; k < passes; ++k) {
    steps.before(k);
    const std::int64_t base = first + k * grid_size;
    for (unsigned t = 0; t < threads && base + t < n; ++t) {
      const std::int64_t x = base + t;
      const typename P::T a = s[t], v = g.at(x), r = P::combine(a, v);
      s[t] = r;
      rec.load_global(int(t), 0, x, v, kInput);
      rec.load_shared(int(t), 1, t, a);
      rec.combine(int(t), x, r);
      rec.store_shared(int(t), 2, t, r);
      rec.work(int(t));
    }
    rec.shared(s);
    steps.after(k);
  }
}

/// Shared `local_sum = 0` by thread 0 and the load of `buffer[x]` (x < size) by every thread, as one
/// "load" step (access 0 = thread 0's store, 1 = the global loads). Fills `vals` (identity past n).
/// zero_line, add_line: the kernel's `local_sum = 0` and `atomicAdd(&local_sum, buffer[x])` lines
/// (the next ops stay at add_line).
template <class P>
void zero_local_and_load(Vec<P>& vals, const GlobalView<P>& g, std::int64_t b, unsigned threads, int zero_line,
                         int add_line, Rec<P>& rec) {
  const std::int64_t first = b * threads;
  for (unsigned t = 0; t < threads; ++t) vals[t] = g.at(first + t);
  if (!rec.on()) return;
  rec.begin(TracePhase::Load, "local_sum = 0 (thread 0); buffer[x]");
  rec.at(zero_line);
  rec.store_shared(0, 0, 0, P::identity());
  rec.work(0);
  rec.at(add_line);
  for (unsigned t = 0; t < threads && first + t < g.n; ++t) {
    rec.load_global(int(t), 1, first + t, vals[t], kInput);
    rec.work(int(t));
  }
  rec.end(P::identity());
}

/// Shared atomics `atomicAdd(&local_sum, buffer[x])` of threads [from, to) with x < size, in thread order.
template <class P>
void shared_atomics(const Vec<P>& vals, typename P::T& local, std::int64_t first, std::int64_t n, unsigned from,
                    unsigned to, Rec<P>& rec) {
  for (unsigned t = from; t < to && first + t < n; ++t) {
    local = P::combine(local, vals[t]);
    rec.atomic_shared(int(t), 0, 0, vals[t]);
    rec.work(int(t));
  }
}

/// `if (threadIdx.x == 0) atomicAdd(sum, local_sum)`: access 0 = load local_sum, 1 = global atomic.
template <class P>
void commit_local(typename P::T local, typename P::T& sum, const std::string& label, Rec<P>& rec) {
  sum = P::combine(sum, local);
  rec.begin(TracePhase::Combine, label);
  rec.load_shared(0, 0, 0, local);
  rec.atomic_global(0, 1, 0, local, kAccumulator);
  rec.work(0);
  rec.end(local);
}

/// Passes of a grid-stride loop for block b: ceil((n - b * block) / (block * grid)), 0 past the input.
std::int64_t passes_of(std::int64_t n, std::int64_t b, unsigned threads, std::int64_t grid) {
  const std::int64_t first = b * threads, grid_size = std::int64_t(threads) * grid;
  return first < n ? (n - first + grid_size - 1) / grid_size : 0;
}

SimOutput finish(SimOutput out, double result, int launches) {
  out.result = result;
  out.launches = launches;
  return out;
}

// ---------------------------------------------------------------------------------------------------
// The models, in teaching order.

/// epita.race (slide "Data Race"): `if (x < size) *sum += buffer[x];` as three separate steps.
/// Interleaving: lock-step warps, warps and blocks in order; all active lanes of a warp read *sum,
/// then write what they read plus their value in lane order, so only the last active lane's value
/// survives per warp. Steps: load (buffer[x]), combine (access 0 = load *sum, 1 = store *sum).
template <class P>
SimOutput race(const VariantInfo& v, const Input& in, const LaunchConfig& launch, int trace_block) {
  SimOutput out = start(v, in, launch, trace_block);
  out.trace.racy_model = true;
  out.trace.interleaving =
      "lock-step warps, warps in order, blocks in order: all active lanes of a warp read *sum, then each writes what "
      "it read plus its value in lane order, so only the warp's last active lane's addition survives";
  const GlobalView<P> g = view<P>(in);
  const unsigned threads = unsigned(launch.block);
  Recorder recorder(out.trace);
  typename P::T sum = P::identity();
  for_blocks(0, launch.grid, trace_block, recorder, [&](std::int64_t b, Recorder* traced) {
    Rec<P> rec(traced, pts::kFile);
    const std::int64_t first = b * threads;
    rec.at(pts::race_add);
    if (rec.on()) {
      rec.begin(TracePhase::Load, "buffer[x]");
      for (unsigned t = 0; t < threads && first + t < g.n; ++t) {
        rec.load_global(int(t), 0, first + t, g.at(first + t), kInput);
        rec.work(int(t));
      }
      rec.end();
      rec.begin(TracePhase::Combine, "*sum += buffer[x] (racy: read, add, write)");
    }
    typename P::T contribution = P::identity();
    for (unsigned w = 0; w * 32 < threads; ++w) {
      const typename P::T read = sum;  // every lane of the warp reads the same *sum
      typename P::T last = P::identity();
      for (unsigned lane = 0; lane < 32; ++lane) {
        const unsigned t = w * 32 + lane;
        if (t >= threads || first + t >= g.n) break;
        const typename P::T x = g.at(first + t), written = P::combine(read, x);
        sum = written;  // the later lane overwrites the earlier one
        last = x;
        rec.load_global(int(t), 0, 0, read, kAccumulator);
        rec.combine(int(t), first + t, written);
        rec.store_global(int(t), 1, 0, written, kAccumulator);
        rec.work(int(t));
      }
      contribution = P::combine(contribution, last);
    }
    if (rec.on()) {
      rec.end();
      out.trace.block_result = d<P>(contribution);
    }
  });
  return finish(std::move(out), d<P>(sum), 1);
}

/// epita.reduce0 (slide "Reduction Pattern Corrected"): `if (x < size) atomicAdd(sum, buffer[x]);`.
/// Steps: load (buffer[x]), atomic (every thread with x < size, one address).
template <class P>
SimOutput reduce0(const VariantInfo& v, const Input& in, const LaunchConfig& launch, int trace_block) {
  SimOutput out = start(v, in, launch, trace_block);
  const GlobalView<P> g = view<P>(in);
  const unsigned threads = unsigned(launch.block);
  Recorder recorder(out.trace);
  typename P::T sum = P::identity();
  for_blocks(0, launch.grid, trace_block, recorder, [&](std::int64_t b, Recorder* traced) {
    Rec<P> rec(traced, pts::kFile);
    const std::int64_t first = b * threads;
    rec.at(pts::reduce0_add);
    if (rec.on()) {
      rec.begin(TracePhase::Load, "buffer[x]");
      for (unsigned t = 0; t < threads && first + t < g.n; ++t) {
        rec.load_global(int(t), 0, first + t, g.at(first + t), kInput);
        rec.work(int(t));
      }
      rec.end();
      rec.begin(TracePhase::Atomic, "atomicAdd(sum, buffer[x])");
    }
    typename P::T block_sum = P::identity();
    for (unsigned t = 0; t < threads && first + t < g.n; ++t) {
      const typename P::T x = g.at(first + t);
      sum = P::combine(sum, x);
      block_sum = P::combine(block_sum, x);
      rec.atomic_global(int(t), 0, 0, x, kAccumulator);
      rec.work(int(t));
    }
    if (rec.on()) {
      rec.end();
      out.trace.block_result = d<P>(block_sum);
    }
  });
  return finish(std::move(out), d<P>(sum), 1);
}

/// epita.reduce1_nosync (slide "Output Privatization", "Is this correct? No!"). Interleaving: warps run
/// one after another, each to the end of the kernel (no barrier holds warp 0 back), lanes in lock-step:
/// thread 0 zeroes local_sum, warp 0 adds its values, thread 0 commits local_sum, and the other warps'
/// additions come after the commit and are lost. Steps: load, atomic (warp 0), combine, atomic (rest).
template <class P>
SimOutput reduce1_nosync(const VariantInfo& v, const Input& in, const LaunchConfig& launch, int trace_block) {
  SimOutput out = start(v, in, launch, trace_block);
  out.trace.racy_model = true;
  out.trace.interleaving =
      "warps run one after another, each to the end of the kernel (no barrier holds warp 0 back), lanes in lock-step: "
      "thread 0 zeroes local_sum, warp 0 adds, thread 0 commits, then warps 1.. add after the commit (lost)";
  const GlobalView<P> g = view<P>(in);
  const unsigned threads = unsigned(launch.block);
  Vec<P> vals(threads);
  Recorder recorder(out.trace);
  typename P::T sum = P::identity();
  for_blocks(0, launch.grid, trace_block, recorder, [&](std::int64_t b, Recorder* traced) {
    Rec<P> rec(traced, pts::kFile);
    const std::int64_t first = b * threads;
    // The lesson: none of these steps ends in a __syncthreads.
    zero_local_and_load<P>(vals, g, b, threads, pts::nosync_zero, pts::nosync_add, rec);
    rec.no_barrier_after();
    typename P::T local = P::identity();
    rec.begin(TracePhase::Atomic, "warp 0: atomicAdd(&local_sum, buffer[x])");
    shared_atomics<P>(vals, local, first, g.n, 0, std::min(32u, threads), rec);
    rec.end(local);
    rec.no_barrier_after();
    rec.at(pts::nosync_commit);
    commit_local<P>(local, sum, "thread 0: atomicAdd(sum, local_sum), before warps 1.. (no barrier)", rec);
    if (rec.on()) {
      rec.no_barrier_after();
      out.trace.block_result = d<P>(local);
    }
    rec.at(pts::nosync_add);
    if (threads > 32) {
      rec.begin(TracePhase::Atomic, "warps 1..: atomicAdd(&local_sum, buffer[x]) after the commit (lost)");
      shared_atomics<P>(vals, local, first, g.n, 32, threads, rec);
      rec.end(local);
    }
  });
  return finish(std::move(out), d<P>(sum), 1);
}

/// epita.reduce1 (slide "Reduction Pattern V2: Output privatization (with syncs)"). Steps: load
/// (local_sum = 0, buffer[x]), atomic (shared atomicAdd by every thread with x < size), combine.
template <class P>
SimOutput reduce1(const VariantInfo& v, const Input& in, const LaunchConfig& launch, int trace_block) {
  SimOutput out = start(v, in, launch, trace_block);
  const GlobalView<P> g = view<P>(in);
  const unsigned threads = unsigned(launch.block);
  Vec<P> vals(threads);
  Recorder recorder(out.trace);
  typename P::T sum = P::identity();
  for_blocks(0, launch.grid, trace_block, recorder, [&](std::int64_t b, Recorder* traced) {
    Rec<P> rec(traced, pts::kFile);
    zero_local_and_load<P>(vals, g, b, threads, pts::reduce1_zero, pts::reduce1_add, rec);
    typename P::T local = P::identity();
    rec.begin(TracePhase::Atomic, "atomicAdd(&local_sum, buffer[x])");
    shared_atomics<P>(vals, local, b * threads, g.n, 0, threads, rec);
    rec.end(local);
    rec.at(pts::reduce1_commit);
    commit_local<P>(local, sum, "atomicAdd(sum, local_sum) (thread 0)", rec);
    if (rec.on()) out.trace.block_result = d<P>(local);
  });
  return finish(std::move(out), d<P>(sum), 1);
}

/// epita.reduce2 (slide "Reduction Pattern: tree reduction without atomics"): load, interleaved tree
/// (stride 1, 2, .. < blockDim.x), combine.
template <class P>
SimOutput reduce2(const VariantInfo& v, const Input& in, const LaunchConfig& launch, int trace_block) {
  SimOutput out = start(v, in, launch, trace_block);
  const GlobalView<P> g = view<P>(in);
  const unsigned threads = unsigned(launch.block);
  Vec<P> s(threads);
  Recorder recorder(out.trace);
  typename P::T sum = P::identity();
  for_blocks(0, launch.grid, trace_block, recorder, [&](std::int64_t b, Recorder* traced) {
    Rec<P> rec(traced, pts::kFile);
    rec.at(pts::reduce2_load);
    load_one_per_thread<P>(s, g, b, threads, rec);
    rec.at(pts::reduce2_tree);
    interleaved_tree<P>(s, threads, rec);
    rec.at(pts::reduce2_commit);
    commit_partial0<P>(s, sum, rec);
    if (rec.on()) out.trace.block_result = d<P>(s[0]);
  });
  return finish(std::move(out), d<P>(sum), 1);
}

/// epita.reduce3 (slide "Efficient Reduction Trees"): load, sequential tree (stride blockDim.x / 2 .. 1), combine.
template <class P>
SimOutput reduce3(const VariantInfo& v, const Input& in, const LaunchConfig& launch, int trace_block) {
  SimOutput out = start(v, in, launch, trace_block);
  const GlobalView<P> g = view<P>(in);
  const unsigned threads = unsigned(launch.block);
  Vec<P> s(threads);
  Recorder recorder(out.trace);
  typename P::T sum = P::identity();
  for_blocks(0, launch.grid, trace_block, recorder, [&](std::int64_t b, Recorder* traced) {
    Rec<P> rec(traced, pts::kFile);
    rec.at(pts::reduce3_load);
    load_one_per_thread<P>(s, g, b, threads, rec);
    rec.at(pts::reduce3_tree);
    sequential_tree<P>(s, threads, threads / 2, 0, rec);
    rec.at(pts::reduce3_commit);
    commit_partial0<P>(s, sum, rec);
    if (rec.on()) out.trace.block_result = d<P>(s[0]);
  });
  return finish(std::move(out), d<P>(sum), 1);
}

/// epita.reduce4 (slide "Double loading"): each thread stores two guarded elements into a shared array
/// of 2 * blockDim.x (access 0 = load x, 1 = store s[t], 2 = load x + blockDim.x, 3 = store
/// s[t + blockDim.x]); tree from stride = blockDim.x; combine.
template <class P>
SimOutput reduce4(const VariantInfo& v, const Input& in, const LaunchConfig& launch, int trace_block) {
  SimOutput out = start(v, in, launch, trace_block);
  const GlobalView<P> g = view<P>(in);
  const unsigned threads = unsigned(launch.block);
  Vec<P> s(2 * std::size_t(threads));
  Recorder recorder(out.trace);
  typename P::T sum = P::identity();
  for_blocks(0, launch.grid, trace_block, recorder, [&](std::int64_t b, Recorder* traced) {
    Rec<P> rec(traced, pts::kFile);
    const std::int64_t start_x = 2 * b * threads;
    rec.begin(TracePhase::Load, "partialSum[t] = buffer[x]; partialSum[t + blockDim.x] = buffer[x + blockDim.x]");
    for (unsigned t = 0; t < threads; ++t) {
      const std::int64_t x0 = start_x + t, x1 = x0 + threads;
      s[t] = x0 < g.n ? g.at(x0) : P::identity();
      s[t + threads] = x1 < g.n ? g.at(x1) : P::identity();
      if (rec.on()) {
        rec.at(pts::reduce4_load_low);
        if (x0 < g.n) rec.load_global(int(t), 0, x0, s[t], kInput);
        rec.store_shared(int(t), 1, t, s[t]);
        rec.at(pts::reduce4_load_high);
        if (x1 < g.n) rec.load_global(int(t), 2, x1, s[t + threads], kInput);
        rec.store_shared(int(t), 3, t + threads, s[t + threads]);
        rec.work(int(t));
      }
    }
    rec.end(s);
    rec.at(pts::reduce4_tree);
    sequential_tree<P>(s, threads, threads, 0, rec);
    rec.at(pts::reduce4_commit);
    commit_partial0<P>(s, sum, rec);
    if (rec.on()) out.trace.block_result = d<P>(s[0]);
  });
  return finish(std::move(out), d<P>(sum), 1);
}

/// epita.add_twice ("Performance summary", row "add twice"): `partialSum[tid] = buffer[x] +
/// buffer[x + blockDim.x]` unguarded (access 0, 1 = global loads, 2 = shared store); sequential tree; combine.
template <class P>
SimOutput add_twice(const VariantInfo& v, const Input& in, const LaunchConfig& launch, int trace_block) {
  SimOutput out = start(v, in, launch, trace_block);
  const GlobalView<P> g = view<P>(in);
  const unsigned threads = unsigned(launch.block);
  Vec<P> s(threads);
  Recorder recorder(out.trace);
  typename P::T sum = P::identity();
  for_blocks(0, launch.grid, trace_block, recorder, [&](std::int64_t b, Recorder* traced) {
    Rec<P> rec(traced, pts::kFile);
    rec.at(pts::add_twice_load);
    rec.begin(TracePhase::Load, "partialSum[tid] = buffer[x] + buffer[x + blockDim.x]");
    for (unsigned tid = 0; tid < threads; ++tid) {
      const std::int64_t x = b * (2 * std::int64_t(threads)) + tid;
      const typename P::T a = g.at(x), c = g.at(x + threads);
      s[tid] = P::combine(a, c);
      rec.load_global(int(tid), 0, x, a, kInput);
      rec.load_global(int(tid), 1, x + threads, c, kInput);
      rec.combine(int(tid), x + threads, s[tid]);
      rec.store_shared(int(tid), 2, tid, s[tid]);
      rec.work(int(tid));
    }
    rec.end(s);
    rec.at(pts::add_twice_tree);
    sequential_tree<P>(s, threads, threads / 2, 0, rec);
    rec.at(pts::add_twice_commit);
    commit_partial0<P>(s, sum, rec);
    if (rec.on()) out.trace.block_result = d<P>(s[0]);
  });
  return finish(std::move(out), d<P>(sum), 1);
}

/// epita.reduce5 (slide "Algorithm Cascading"): partialSum[t] = 0, grid-stride passes, sequential tree, combine.
template <class P>
SimOutput reduce5(const VariantInfo& v, const Input& in, const LaunchConfig& launch, int trace_block) {
  SimOutput out = start(v, in, launch, trace_block);
  const GlobalView<P> g = view<P>(in);
  const unsigned threads = unsigned(launch.block);
  Vec<P> s(threads);
  Recorder recorder(out.trace);
  typename P::T sum = P::identity();
  for_blocks(0, launch.grid, trace_block, recorder, [&](std::int64_t b, Recorder* traced) {
    Rec<P> rec(traced, pts::kFile);
    cascade_into_shared<P>(s, g, b, threads, launch.grid, pts::reduce5_zero, pts::reduce5_cascade, rec);
    rec.at(pts::reduce5_tree);
    sequential_tree<P>(s, threads, threads / 2, 0, rec);
    rec.at(pts::reduce5_commit);
    commit_partial0<P>(s, sum, rec);
    if (rec.on()) out.trace.block_result = d<P>(s[0]);
  });
  return finish(std::move(out), d<P>(sum), 1);
}

/// epita.reduce6 (slide "Loop unrolling"): reduce5 with the tree loop stopping at s > 32, then the
/// first warp's volatile warpReduce (six "warp" steps, lock-step), combine.
template <class P>
SimOutput reduce6(const VariantInfo& v, const Input& in, const LaunchConfig& launch, int trace_block) {
  SimOutput out = start(v, in, launch, trace_block);
  out.trace.interleaving =
      "lock-step warps: in each statement of the volatile warpReduce all 32 lanes load before any lane stores (the "
      "slide's assumption)";
  const GlobalView<P> g = view<P>(in);
  const unsigned threads = unsigned(launch.block);
  if (threads < 64)
    throw std::runtime_error(v.id +
                             ": the last warp reads partialSum[tid + 32], so the block needs at least 64 threads");
  Vec<P> s(threads);
  Recorder recorder(out.trace);
  typename P::T sum = P::identity();
  for_blocks(0, launch.grid, trace_block, recorder, [&](std::int64_t b, Recorder* traced) {
    Rec<P> rec(traced, pts::kFile);
    cascade_into_shared<P>(s, g, b, threads, launch.grid, pts::reduce6_zero, pts::reduce6_cascade, rec);
    rec.at(pts::reduce6_tree);
    sequential_tree<P>(s, threads, threads / 2, 32, rec);
    volatile_warp_reduce<P>(s, rec);
    rec.at(pts::reduce6_commit);
    commit_partial0<P>(s, sum, rec);
    if (rec.on()) out.trace.block_result = d<P>(s[0]);
  });
  return finish(std::move(out), d<P>(sum), 1);
}

/// epita.full_unroll (slide "Loop unrolling", "Unroll all tree reduction loops"): reduce6 with one `if`
/// per tree step on the templated block size (64..1024), then the same last warp.
template <class P>
SimOutput full_unroll(const VariantInfo& v, const Input& in, const LaunchConfig& launch, int trace_block) {
  const unsigned threads = unsigned(launch.block);
  if (threads != 64 && threads != 128 && threads != 256 && threads != 512 && threads != 1024)
    throw std::runtime_error(v.id + ": block size " + std::to_string(threads) +
                             " has no instantiation (powers of two 64..1024)");
  SimOutput out = start(v, in, launch, trace_block);
  out.trace.interleaving =
      "lock-step warps: in each statement of the volatile warpReduce all 32 lanes load before any lane stores (the "
      "slide's assumption)";
  const GlobalView<P> g = view<P>(in);
  Vec<P> s(threads);
  Recorder recorder(out.trace);
  typename P::T sum = P::identity();
  for_blocks(0, launch.grid, trace_block, recorder, [&](std::int64_t b, Recorder* traced) {
    Rec<P> rec(traced, pts::kFile);
    // `#pragma unroll 4` keeps the order
    cascade_into_shared<P>(s, g, b, threads, launch.grid, pts::full_unroll_zero, pts::full_unroll_cascade, rec);
    if (threads >= 1024) rec.at(pts::full_unroll_512), unrolled_tree_step<P>(s, threads, 512, rec);
    if (threads >= 512) rec.at(pts::full_unroll_256), unrolled_tree_step<P>(s, threads, 256, rec);
    if (threads >= 256) rec.at(pts::full_unroll_128), unrolled_tree_step<P>(s, threads, 128, rec);
    if (threads >= 128) rec.at(pts::full_unroll_64), unrolled_tree_step<P>(s, threads, 64, rec);
    volatile_warp_reduce<P>(s, rec);
    rec.at(pts::full_unroll_commit);
    commit_partial0<P>(s, sum, rec);
    if (rec.on()) out.trace.block_result = d<P>(s[0]);
  });
  return finish(std::move(out), d<P>(sum), 1);
}

/// epita.reduce7 ("Performance summary", reduce7): grid-stride passes into a register (access 0 =
/// global load, then a register add), then every thread's atomicAdd(sum, private_acc).
template <class P>
SimOutput reduce7(const VariantInfo& v, const Input& in, const LaunchConfig& launch, int trace_block) {
  SimOutput out = start(v, in, launch, trace_block);
  const GlobalView<P> g = view<P>(in);
  const unsigned threads = unsigned(launch.block);
  const std::int64_t grid_size = std::int64_t(threads) * launch.grid;
  Vec<P> acc(threads);
  Recorder recorder(out.trace);
  typename P::T sum = P::identity();
  for_blocks(0, launch.grid, trace_block, recorder, [&](std::int64_t b, Recorder* traced) {
    Rec<P> rec(traced, pts::kFile);
    std::fill(acc.begin(), acc.end(), P::identity());
    const std::int64_t first = b * threads, passes = passes_of(g.n, b, threads, launch.grid);
    rec.at(pts::reduce7_cascade);
    LoopSteps steps(rec.raw(), TracePhase::Load, "pass", passes);
    for (std::int64_t k = 0; k < passes; ++k) {
      steps.before(k);
      const std::int64_t base = first + k * grid_size;
      for (unsigned t = 0; t < threads && base + t < g.n; ++t) {
        const typename P::T x = g.at(base + t);
        acc[t] = P::combine(acc[t], x);
        rec.load_global(int(t), 0, base + t, x, kInput);
        rec.combine(int(t), base + t, acc[t]);
        rec.work(int(t));
      }
      steps.after(k);
    }
    rec.at(pts::reduce7_atomic);
    rec.begin(TracePhase::Atomic, "atomicAdd(sum, private_acc)");
    typename P::T block_sum = P::identity();
    for (unsigned t = 0; t < threads; ++t) {  // every thread, even one whose accumulator stayed 0
      sum = P::combine(sum, acc[t]);
      block_sum = P::combine(block_sum, acc[t]);
      rec.atomic_global(int(t), 0, 0, acc[t], kAccumulator);
      rec.work(int(t));
    }
    if (rec.on()) {
      rec.end();
      out.trace.block_result = d<P>(block_sum);
    }
  });
  return finish(std::move(out), d<P>(sum), 1);
}

/// epita.reduce8 / reduce8_fixed ("Performance summary", reduce8): block_sum = 0 (thread 0); 32 passes
/// `thread_sum += buffer[i + k * 32]`; shared atomicAdd(&block_sum, thread_sum); thread 0's global
/// atomicAdd. `block_step` = elements between blocks: blockDim.x for the slide's code (the bug:
/// windows overlap 32-fold), blockDim.x * 32 for the fix.
template <class P, bool Fixed>
SimOutput reduce8(const VariantInfo& v, const Input& in, const LaunchConfig& launch, int trace_block) {
  SimOutput out = start(v, in, launch, trace_block);
  const GlobalView<P> g = view<P>(in);
  const unsigned threads = unsigned(launch.block);
  const std::int64_t block_step = Fixed ? std::int64_t(threads) * 32 : std::int64_t(threads);
  Vec<P> thread_sum(threads);
  Recorder recorder(out.trace);
  typename P::T sum = P::identity();
  for_blocks(0, launch.grid, trace_block, recorder, [&](std::int64_t b, Recorder* traced) {
    Rec<P> rec(traced, pts::kFile);
    const std::int64_t first = b * block_step;  // i = first + tid
    rec.at(Fixed ? pts::reduce8_fixed_zero : pts::reduce8_zero);
    rec.begin(TracePhase::Load, "block_sum = 0 (thread 0)");
    rec.store_shared(0, 0, 0, P::identity());
    rec.work(0);
    rec.end(P::identity());
    std::fill(thread_sum.begin(), thread_sum.end(), P::identity());
    typename P::T block_sum = P::identity();
    rec.at(Fixed ? pts::reduce8_fixed_cascade : pts::reduce8_cascade);
    for (int k = 0; k < 32; ++k) {
      rec.begin(TracePhase::Load, "pass", k);
      for (unsigned t = 0; t < threads; ++t) {
        const std::int64_t x = first + t + std::int64_t(k) * 32;
        const typename P::T val = g.at(x);
        thread_sum[t] = P::combine(thread_sum[t], val);
        rec.load_global(int(t), 0, x, val, kInput);
        rec.combine(int(t), x, thread_sum[t]);
        rec.work(int(t));
      }
      rec.end(block_sum);
    }
    rec.at(Fixed ? pts::reduce8_fixed_atomic : pts::reduce8_atomic);
    rec.begin(TracePhase::Atomic, "atomicAdd(&block_sum, thread_sum)");
    for (unsigned t = 0; t < threads; ++t) {
      block_sum = P::combine(block_sum, thread_sum[t]);
      rec.atomic_shared(int(t), 0, 0, thread_sum[t]);
      rec.work(int(t));
    }
    rec.end(block_sum);
    rec.at(Fixed ? pts::reduce8_fixed_commit : pts::reduce8_commit);
    commit_local<P>(block_sum, sum, "atomicAdd(sum, block_sum) (thread 0)", rec);
    if (rec.on()) out.trace.block_result = d<P>(block_sum);
  });
  return finish(std::move(out), d<P>(sum), 1);
}

/// Lane 0's value after the shuffle tree of warp_sum (kernels/reduction/epita.cu, epita.tuned): offsets
/// 16, 8, 4, 2, 1, each lane adding the lane `offset` above it (a lane past 31 adds its own value).
template <class P>
typename P::T tuned_warp_sum(std::array<typename P::T, 32> s) {
  for (int offset = 16; offset > 0; offset /= 2) {
    std::array<typename P::T, 32> next = s;
    for (int l = 0; l < 32; ++l)
      next[std::size_t(l)] = P::combine(s[std::size_t(l)], s[std::size_t(l + offset < 32 ? l + offset : l)]);
    s = next;
  }
  return s[0];
}

/// block_sum of epita.tuned: warp sums, then the first warp sums those (lanes past the warps add 0).
template <class P>
typename P::T tuned_block_sum(const std::vector<typename P::T>& per_thread) {
  const std::size_t warps = per_thread.size() / 32;
  std::array<typename P::T, 32> firsts{};
  firsts.fill(P::identity());
  for (std::size_t w = 0; w < warps; ++w) {
    std::array<typename P::T, 32> lanes;
    for (std::size_t l = 0; l < 32; ++l) lanes[l] = per_thread[w * 32 + l];
    firsts[w] = tuned_warp_sum<P>(lanes);
  }
  return tuned_warp_sum<P>(firsts);
}

/// epita.tuned (beyond the slides; kernels/reduction/tuned.cuh, Schedule::DynamicTiles): the input's
/// 4-element vectors in tiles of 4 x block vectors. In a tile, thread t adds vectors t, t + block,
/// t + 2 block and t + 3 block into four accumulators (the last, partial tile: every vector t + k block
/// into the first), each vector as (x + y) + (z + w), and sums them in order; the tile's partial is the
/// block sum of those by shuffle trees. The last block folds the partials: thread t sums partials t,
/// t + block, ..., then the same block sum. Which block took which tile does not change the order, so
/// the model needs no grid. Not traced (its point is speed, not steps).
template <class P>
SimOutput tuned(const VariantInfo& v, const Input& in, const LaunchConfig& launch, int trace_block) {
  SimOutput out = start(v, in, launch, trace_block);
  const GlobalView<P> g = view<P>(in);
  constexpr int kUnroll = 4;
  const std::int64_t threads = launch.block, n4 = (g.n + 3) / 4, tile = kUnroll * threads;
  if (threads % 32) throw std::runtime_error(v.id + ": the block must be a whole number of warps");
  using T = typename P::T;
  auto vec = [&](std::int64_t i) {
    const T x = g.at(4 * i), y = g.at(4 * i + 1), z = g.at(4 * i + 2), w = g.at(4 * i + 3);
    return P::combine(P::combine(x, y), P::combine(z, w));
  };
  const std::int64_t tiles = (n4 + tile - 1) / tile;
  std::vector<T> partials(static_cast<std::size_t>(tiles)), per_thread(static_cast<std::size_t>(threads));
  for (std::int64_t b = 0; b < tiles; ++b) {
    for (std::int64_t t = 0; t < threads; ++t) {
      T acc[kUnroll] = {P::identity(), P::identity(), P::identity(), P::identity()};
      const std::int64_t first = b * tile + t;
      if ((b + 1) * tile <= n4) {
        for (int k = 0; k < kUnroll; ++k) acc[k] = P::combine(acc[k], vec(first + k * threads));
      } else {
        for (std::int64_t i = first; i < n4; i += threads) acc[0] = P::combine(acc[0], vec(i));
      }
      T s = acc[0];
      for (int k = 1; k < kUnroll; ++k) s = P::combine(s, acc[k]);
      per_thread[std::size_t(t)] = s;
    }
    partials[std::size_t(b)] = tuned_block_sum<P>(per_thread);
  }
  for (std::int64_t t = 0; t < threads; ++t) {
    T p = P::identity();
    for (std::int64_t j = t; j < tiles; j += threads) p = P::combine(p, partials[std::size_t(j)]);
    per_thread[std::size_t(t)] = p;
  }
  out.result = d<P>(tuned_block_sum<P>(per_thread));
  out.launches = 1;
  return out;
}

}  // namespace

std::vector<ModelEntry> epita_models() {
  return {
      {"epita.race", by_type<race<SumI32>, race<SumF32>>},
      {"epita.reduce0", by_type<reduce0<SumI32>, reduce0<SumF32>>},
      {"epita.reduce1_nosync", by_type<reduce1_nosync<SumI32>, reduce1_nosync<SumF32>>},
      {"epita.reduce1", by_type<reduce1<SumI32>, reduce1<SumF32>>},
      {"epita.reduce2", by_type<reduce2<SumI32>, reduce2<SumF32>>},
      {"epita.reduce3", by_type<reduce3<SumI32>, reduce3<SumF32>>},
      {"epita.reduce4", by_type<reduce4<SumI32>, reduce4<SumF32>>},
      {"epita.add_twice", by_type<add_twice<SumI32>, add_twice<SumF32>>},
      {"epita.reduce5", by_type<reduce5<SumI32>, reduce5<SumF32>>},
      {"epita.reduce6", by_type<reduce6<SumI32>, reduce6<SumF32>>},
      {"epita.full_unroll", by_type<full_unroll<SumI32>, full_unroll<SumF32>>},
      {"epita.reduce7", by_type<reduce7<SumI32>, reduce7<SumF32>>},
      {"epita.reduce8", by_type<reduce8<SumI32, false>, reduce8<SumF32, false>>},
      {"epita.reduce8_fixed", by_type<reduce8<SumI32, true>, reduce8<SumF32, true>>},
      {"epita.tuned", by_type<tuned<SumI32>, tuned<SumF32>>},
  };
}

}  // namespace ws::sim
