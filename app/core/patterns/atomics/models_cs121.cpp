// Sim models of the CS121 atomics lesson ("GPUs and CUDA 3: Intrinsics", CS121, Fall 2022),
// one per variant of kernels/atomics/*.cu: same indexing, guards, loops and launches.
//
// Stated interleaving (every model): blocks run one after another in block order, and the atomics of a
// block in thread order, so each atomicAdd's old value is known; the filters' outputs then come out in
// input order (the GPU's order differs: filters are compared as multisets). The racy model states its
// own schedule (below). Global buffers in ThreadOp::buffer: 0 = input, 1 = output (histogram bins or
// dst), 2 = counter (d_a, nres), 3 = tile status (filter_scan, filter_scan_vec). Byte loads record the 4-byte word
// that holds the byte (address i / 4), so the sector analysis counts bytes correctly.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "parallel.hpp"
#include "patterns/atomics/reference.hpp"
#include "sim/model_kit.hpp"

namespace ws::sim {

namespace {

using namespace kit;
namespace pts = trace_points::cs121_atomics;

/// Every value the models record (bins, counts, offsets, the int32 inputs) is an exact integer.
using P = CountI64;

constexpr int kOut = 1, kCounter = 2, kStatus = 3;

void require_type(const VariantInfo& v, const Input& in, DType t) {
  if (in.type != t) throw std::runtime_error(v.id + " takes " + to_string(t) + " input, got " + to_string(in.type));
}

std::int64_t warps_of(std::int64_t threads) { return (threads + 31) / 32; }

/// The filters' output under the stated interleaving (blocks in order, threads in order): the positive
/// values in input order, as doubles. Its own code (not the CPU reference's), on the host threads: each
/// chunk counts its kept values, then writes them at its offset.
HostVector<double> kept_in_order(const Input& in) {
  const std::int64_t n = in.n(), chunk = 4 * kHostChunk;
  const std::int32_t* x = in.i32.data();
  std::vector<std::int64_t> offset(static_cast<std::size_t>(chunk_count(n, chunk)) + 1, 0);
  parallel_chunks(n, chunk, [&](std::int64_t b, std::int64_t e, std::int64_t k) {
    std::int64_t c = 0;
    for (std::int64_t i = b; i < e; ++i) c += x[i] > 0;
    offset[std::size_t(k) + 1] = c;
  });
  for (std::size_t k = 1; k < offset.size(); ++k) offset[k] += offset[k - 1];
  HostVector<double> out(static_cast<std::size_t>(offset.back()));
  parallel_chunks(n, chunk, [&](std::int64_t b, std::int64_t e, std::int64_t k) {
    double* o = out.data() + offset[std::size_t(k)];
    for (std::int64_t i = b; i < e; ++i)
      if (x[i] > 0) *o++ = double(x[i]);
  });
  return out;
}

/// Positive values in in.i32[0, end), counted on the host threads.
std::int64_t kept_before(const Input& in, std::int64_t end) {
  end = std::min(end, in.n());
  return chunked_reduce<std::int64_t>(
      end, 4 * kHostChunk, 0,
      [&](std::int64_t b, std::int64_t e) {
        std::int64_t c = 0;
        for (std::int64_t i = b; i < e; ++i) c += in.i32[std::size_t(i)] > 0;
        return c;
      },
      [](std::int64_t a, std::int64_t c) { return a + c; });
}

/// The blocks a filter model walks thread by thread. Fast paths off: every block, from nothing kept.
/// On: only the traced block (none when trace_block < 0), starting from what the blocks before it kept;
/// the whole output then comes from kept_in_order(), which is what walking every block appends (blocks in
/// order, each appending its kept values in input order; tests compare the two).
struct FilterWalk {
  std::int64_t from = 0, to = 0;  ///< blocks [from, to)
  std::int64_t skipped = 0;       ///< values kept by the blocks before `from`
  bool fast = false;
};

FilterWalk filter_walk(const Input& in, std::int64_t grid, std::int64_t values_per_block, int trace_block) {
  FilterWalk w;
  w.fast = fast_paths();
  if (!w.fast) {
    w.to = grid;
    return w;
  }
  if (trace_block < 0 || trace_block >= grid) return w;
  w.from = trace_block;
  w.to = trace_block + 1;
  w.skipped = kept_before(in, std::int64_t(trace_block) * values_per_block);
  return w;
}

/// The model's output and result: `dst` as walked (fast paths off), or every block's kept values.
void finish_filter(SimOutput& out, HostVector<double>& dst, const FilterWalk& w, const Input& in) {
  out.output = w.fast ? kept_in_order(in) : std::move(dst);
  out.result = double(out.output.size());
  out.launches = 1;
}

/// cs121.race (slide "Race conditions"): `*d_a += 1` by every thread of <<<grid, block>>>, unguarded.
/// Interleaving: the lanes of a warp run the statement in lock-step (all load the same old value, then
/// all store old + 1), and warps run one after another, so each warp adds exactly 1: the count is the
/// number of warps. Steps: load (`*d_a`), store (`*d_a = old + 1`).
SimOutput race(const VariantInfo& v, const Input& in, const LaunchConfig& launch, const PatternParams&,
               int trace_block) {
  SimOutput out = start(v, in, launch, trace_block);
  out.trace.interleaving =
      "lanes of a warp in lock-step (all read the same old value, then all write old + 1); warps one after another, so "
      "every warp adds 1";
  const std::int64_t per_block = warps_of(launch.block);
  if (trace_block >= 0) {
    Recorder recorder(out.trace);
    Rec<P> rec(&recorder, pts::kFile);
    const std::int64_t base = trace_block * per_block;  // value of *d_a when the traced block starts
    rec.at(pts::race_add);
    rec.begin(TracePhase::Load, "old = *d_a (each warp reads the same value)");
    for (int t = 0; t < launch.block; ++t) {
      rec.load_global(t, 0, 0, base + t / 32, kCounter);
      rec.work(t);
    }
    rec.end();
    rec.begin(TracePhase::Store, "*d_a = old + 1 (lanes overwrite each other)");
    for (int t = 0; t < launch.block; ++t) {
      rec.store_global(t, 0, 0, base + t / 32 + 1, kCounter);
      rec.work(t);
    }
    rec.end();
    out.trace.block_result = double(per_block);
  }
  out.result = double(per_block * launch.grid);
  out.output = {out.result};  // the counter, as the pattern's one-element output
  out.launches = 1;
  return out;
}

/// cs121.atomic_counter (slide "CUDA atomics"): `atomicAdd(d_a, 1)` by every thread, unguarded. Every
/// increment counts; all of them are one chain on one address. Step: atomic.
SimOutput atomic_counter(const VariantInfo& v, const Input& in, const LaunchConfig& launch, const PatternParams&,
                         int trace_block) {
  SimOutput out = start(v, in, launch, trace_block);
  if (trace_block >= 0) {
    Recorder recorder(out.trace);
    Rec<P> rec(&recorder, pts::kFile);
    rec.at(pts::counter_add);
    rec.begin(TracePhase::Atomic, "atomicAdd(d_a, 1)");
    for (int t = 0; t < launch.block; ++t) {
      rec.atomic_global(t, 0, 0, 1, kCounter);
      rec.work(t);
    }
    rec.end();
    out.trace.block_result = double(launch.block);
  }
  out.result = double(std::int64_t(launch.block) * launch.grid);
  out.output = {out.result};
  out.launches = 1;
  return out;
}

HostVector<double> as_doubles(const std::vector<std::int64_t>& v) { return HostVector<double>(v.begin(), v.end()); }

/// cs121.hist_global (slide "Computing a histogram"): `while (i < size) { atomicAdd(&hist[vals[i]], 1);
/// i += stride; }` with stride = blockDim.x * gridDim.x. One step per pass of the loop (kit::LoopSteps
/// folds passes past 31): the byte load, then the global atomic on its bin.
SimOutput hist_global(const VariantInfo& v, const Input& in, const LaunchConfig& launch, const PatternParams&,
                      int trace_block) {
  require_type(v, in, DType::UInt8);
  SimOutput out = start(v, in, launch, trace_block);
  const std::int64_t n = in.n(), stride = std::int64_t(launch.block) * launch.grid;
  std::vector<std::int64_t> hist(kHistogramBins, 0);
  Recorder recorder(out.trace);
  for_blocks(0, launch.grid, trace_block, recorder, [&](std::int64_t b, Recorder* traced) {
    Rec<P> rec(traced, pts::kFile);
    const std::int64_t first = b * launch.block;
    const std::int64_t passes = first < n ? (n - first + stride - 1) / stride : 0;
    rec.at(pts::hist_global_add);
    LoopSteps steps(rec.raw(), TracePhase::Atomic, "pass", passes);
    std::int64_t block_count = 0;
    for (std::int64_t k = 0; k < passes; ++k) {
      steps.before(k);
      const std::int64_t base = first + k * stride;
      for (int t = 0; t < launch.block && base + t < n; ++t) {
        const std::int64_t i = base + t;
        const int bin = in.u8[std::size_t(i)];
        ++hist[std::size_t(bin)];
        ++block_count;
        rec.load_global(t, 0, i / 4, bin, kInput);
        rec.atomic_global(t, 1, bin, 1, kOut);
        rec.work(t);
      }
      steps.after(k);
    }
    if (rec.on()) out.trace.block_result = double(block_count);
  });
  out.output = as_doubles(hist);
  out.result = double(n);
  out.launches = 1;
  return out;
}

/// cs121.hist_shared (second slide "Improving performance"): threads < 256 zero local_hist[threadIdx.x];
/// the grid-stride loop does atomicAdd(&local_hist[vals[i]], 1) in shared memory; threads < 256 add
/// local_hist[threadIdx.x] to hist[threadIdx.x] with one global atomicAdd each (zeros included).
/// Steps: init, one per pass (folded past 31; the shared bins after each), flush.
SimOutput hist_shared(const VariantInfo& v, const Input& in, const LaunchConfig& launch, const PatternParams&,
                      int trace_block) {
  require_type(v, in, DType::UInt8);
  if (launch.block < kHistogramBins)
    throw std::runtime_error(
        v.id + ": threads 0..255 zero and flush the shared bins, so the block needs at least 256 threads");
  SimOutput out = start(v, in, launch, trace_block);
  const std::int64_t n = in.n(), stride = std::int64_t(launch.block) * launch.grid;
  std::vector<std::int64_t> hist(kHistogramBins, 0);
  std::vector<std::int64_t> local(kHistogramBins);  // the block's __shared__ local_hist
  Recorder recorder(out.trace);
  for_blocks(0, launch.grid, trace_block, recorder, [&](std::int64_t b, Recorder* traced) {
    Rec<P> rec(traced, pts::kFile);
    std::fill(local.begin(), local.end(), 0);
    if (rec.on()) {
      rec.at(pts::hist_shared_zero);
      rec.begin(TracePhase::Load, "local_hist[threadIdx.x] = 0 (threads < 256)");
      for (int t = 0; t < kHistogramBins; ++t) {
        rec.store_shared(t, 0, t, 0);
        rec.work(t);
      }
      rec.end(local);
    }
    const std::int64_t first = b * launch.block;
    const std::int64_t passes = first < n ? (n - first + stride - 1) / stride : 0;
    rec.at(pts::hist_shared_add);
    LoopSteps steps(rec.raw(), TracePhase::Atomic, "pass", passes);
    for (std::int64_t k = 0; k < passes; ++k) {
      steps.before(k);
      const std::int64_t base = first + k * stride;
      for (int t = 0; t < launch.block && base + t < n; ++t) {
        const std::int64_t i = base + t;
        const int bin = in.u8[std::size_t(i)];
        ++local[std::size_t(bin)];
        rec.load_global(t, 0, i / 4, bin, kInput);
        rec.atomic_shared(t, 1, bin, 1);
        rec.work(t);
      }
      rec.shared(local);
      steps.after(k);
    }
    std::int64_t block_count = 0;
    for (int t = 0; t < kHistogramBins; ++t) {
      hist[std::size_t(t)] += local[std::size_t(t)];
      block_count += local[std::size_t(t)];
    }
    if (rec.on()) {
      rec.at(pts::hist_shared_flush);
      rec.begin(TracePhase::Combine, "atomicAdd(&hist[threadIdx.x], local_hist[threadIdx.x]) (threads < 256)");
      for (int t = 0; t < kHistogramBins; ++t) {
        rec.load_shared(t, 0, t, local[std::size_t(t)]);
        rec.atomic_global(t, 1, t, local[std::size_t(t)], kOut);
        rec.work(t);
      }
      rec.end(local);
      out.trace.block_result = double(block_count);
    }
  });
  out.output = as_doubles(hist);
  out.result = double(n);
  out.launches = 1;
  return out;
}

/// cs121.hist_shared_vec (beyond the slide; kernels/atomics/cs121_atomics.cu): per-warp shared bins
/// (warp w's bin b at shared word w * 256 + b) zeroed by a block-stride loop; a grid-stride loop over
/// 16-byte chunks c (one uint4 load: words 4c .. 4c+3), 16 shared atomics per chunk; block 0's threads
/// < size % 16 count the tail bytes; threads < 256 sum their bin over the warps and do one global
/// atomicAdd. Steps: init, one per pass (folded past 31), tail (block 0), merge.
SimOutput hist_shared_vec(const VariantInfo& v, const Input& in, const LaunchConfig& launch, const PatternParams&,
                          int trace_block) {
  require_type(v, in, DType::UInt8);
  if (launch.block < kHistogramBins || launch.block % 32 != 0)
    throw std::runtime_error(
        v.id + ": threads 0..255 merge the per-warp bins, so the block needs at least 256 threads (whole warps)");
  SimOutput out = start(v, in, launch, trace_block);
  const std::int64_t n = in.n(), chunks = n / 16, stride = std::int64_t(launch.block) * launch.grid;
  const int warps = launch.block / 32;
  std::vector<std::int64_t> hist(kHistogramBins, 0);
  std::vector<std::int64_t> sub(std::size_t(warps) * kHistogramBins);  // the block's per-warp bins
  Recorder recorder(out.trace);
  for_blocks(0, launch.grid, trace_block, recorder, [&](std::int64_t b, Recorder* traced) {
    Rec<P> rec(traced, pts::kFile);
    std::fill(sub.begin(), sub.end(), 0);
    if (rec.on()) {
      rec.at(pts::vec_zero);
      rec.begin(TracePhase::Load, "warp_hist[*] = 0 (block-stride loop)");
      for (std::size_t j = 0; j < sub.size(); ++j) {
        const int t = int(j % std::size_t(launch.block));
        rec.store_shared(t, int(j / std::size_t(launch.block)), std::int64_t(j), 0);
        rec.work(t);
      }
      rec.end(sub);
    }
    const std::int64_t first = b * launch.block;
    const std::int64_t passes = first < chunks ? (chunks - first + stride - 1) / stride : 0;
    LoopSteps steps(rec.raw(), TracePhase::Atomic, "pass", passes);
    for (std::int64_t k = 0; k < passes; ++k) {
      steps.before(k);
      const std::int64_t base = first + k * stride;
      for (int t = 0; t < launch.block && base + t < chunks; ++t) {
        const std::int64_t c = base + t;
        const std::int64_t w = t / 32;
        if (rec.on()) {
          rec.at(pts::vec_load);
          for (int q = 0; q < 4; ++q) rec.load_global(t, 0, 4 * c + q, in.u8[std::size_t(16 * c + 4 * q)], kInput);
          rec.work(t);
        }
        // Byte j of the chunk is byte j % 4 of word j / 4: the kernel's j % 4-th atomicAdd line.
        static constexpr int kByteLine[4] = {pts::vec_add_byte0, pts::vec_add_byte1, pts::vec_add_byte2,
                                             pts::vec_add_byte3};
        for (int j = 0; j < 16; ++j) {
          const int bin = in.u8[std::size_t(16 * c + j)];
          ++sub[std::size_t(w * kHistogramBins + bin)];
          rec.at(kByteLine[j % 4]);
          rec.atomic_shared(t, 1 + j, w * kHistogramBins + bin, 1);
        }
      }
      rec.shared(sub);
      steps.after(k);
    }
    if (b == 0) {
      const int tail = int(n % 16);
      rec.at(pts::vec_tail);
      if (rec.on() && tail)
        rec.begin(TracePhase::Atomic,
                  "tail: atomicAdd(&mine[vals[chunks * 16 + threadIdx.x]], 1) (threads < size % 16)");
      for (int t = 0; t < tail; ++t) {
        const int bin = in.u8[std::size_t(chunks * 16 + t)];
        ++sub[std::size_t(bin)];  // threads < 16 are in warp 0
        rec.load_global(t, 0, (chunks * 16 + t) / 4, bin, kInput);
        rec.atomic_shared(t, 1, bin, 1);
        rec.work(t);
      }
      if (tail) rec.end(sub);
    }
    std::int64_t block_count = 0;
    if (rec.on())
      rec.begin(TracePhase::Combine,
                "sum of warp_hist[w * 256 + threadIdx.x] over warps; atomicAdd(&hist[threadIdx.x], sum)");
    for (int t = 0; t < kHistogramBins; ++t) {
      std::int64_t sum = 0;
      rec.at(pts::vec_sum);
      for (int w = 0; w < warps; ++w) {
        const std::int64_t mine = sub[std::size_t(w * kHistogramBins + t)];
        sum += mine;
        rec.load_shared(t, w, w * kHistogramBins + t, mine);
      }
      hist[std::size_t(t)] += sum;
      block_count += sum;
      rec.at(pts::vec_flush);
      rec.atomic_global(t, warps, t, sum, kOut);
      rec.work(t);
    }
    if (rec.on()) {
      rec.end(sub);
      out.trace.block_result = double(block_count);
    }
  });
  out.output = as_doubles(hist);
  out.result = double(n);
  out.launches = 1;
  return out;
}

/// Library baselines, result only: CUB's kernels are not modelled at thread level (no steps); the
/// output is what the library computes (the 256 bins, or the kept values in input order).
SimOutput cub_histogram(const VariantInfo& v, const Input& in, const LaunchConfig& launch, const PatternParams&,
                        int trace_block) {
  require_type(v, in, DType::UInt8);
  SimOutput out = start(v, in, launch, trace_block);
  out.trace.interleaving = "library call: result only, CUB's kernels are not modelled at thread level (no steps)";
  out.output = as_doubles(histogram_reference(in));
  out.result = double(in.n());
  out.trace.block_result = out.result;
  out.launches = 1;
  return out;
}

SimOutput cub_select(const VariantInfo& v, const Input& in, const LaunchConfig& launch, const PatternParams&,
                     int trace_block) {
  require_type(v, in, DType::Int32);
  SimOutput out = start(v, in, launch, trace_block);
  out.trace.interleaving = "library call: result only, CUB's kernels are not modelled at thread level (no steps)";
  out.output = kept_in_order(in);
  out.result = double(out.output.size());
  out.trace.block_result = out.result;
  out.launches = 1;
  return out;
}

/// cs121.filter_global (slide "Aggregation and atomics", global memory atomics): `if (i < n && src[i] >
/// 0) dst[atomicAdd(nres, 1)] = src[i];`. Steps: load, atomic (kept lanes), store.
SimOutput filter_global(const VariantInfo& v, const Input& in, const LaunchConfig& launch, const PatternParams&,
                        int trace_block) {
  require_type(v, in, DType::Int32);
  SimOutput out = start(v, in, launch, trace_block);
  const std::int64_t n = in.n();
  HostVector<double> dst;
  Recorder recorder(out.trace);
  const FilterWalk walk = filter_walk(in, launch.grid, launch.block, trace_block);
  for_blocks(walk.from, walk.to, trace_block, recorder, [&](std::int64_t b, Recorder* traced) {
    const std::int64_t first = b * launch.block;
    const std::int64_t nres_before = walk.skipped + std::int64_t(dst.size());
    for (int t = 0; t < launch.block && first + t < n; ++t) {
      const std::int32_t x = in.i32[std::size_t(first + t)];
      if (x > 0) dst.push_back(x);
    }
    if (!traced) return;  // an untraced block: nothing more to record
    Rec<P> rec(traced, pts::kFile);
    rec.at(pts::filter_global_test);
    rec.begin(TracePhase::Load, "src[i] (i < n)");
    for (int t = 0; t < launch.block && first + t < n; ++t) {
      rec.load_global(t, 0, first + t, in.i32[std::size_t(first + t)], kInput);
      rec.work(t);
    }
    rec.end();
    rec.at(pts::filter_global_keep);
    rec.begin(TracePhase::Atomic, "pos = atomicAdd(nres, 1) (src[i] > 0)");
    std::int64_t pos = nres_before;
    std::vector<std::int64_t> slot(std::size_t(launch.block), -1);
    for (int t = 0; t < launch.block && first + t < n; ++t) {
      if (in.i32[std::size_t(first + t)] <= 0) continue;
      slot[std::size_t(t)] = pos++;
      rec.atomic_global(t, 0, 0, 1, kCounter);
      rec.work(t);
    }
    rec.end();
    rec.begin(TracePhase::Store, "dst[pos] = src[i]");
    for (int t = 0; t < launch.block; ++t) {
      if (slot[std::size_t(t)] < 0) continue;
      rec.store_global(t, 0, slot[std::size_t(t)], in.i32[std::size_t(first + t)], kOut);
      rec.work(t);
    }
    rec.end();
    out.trace.block_result = double(pos - nres_before);
  });
  finish_filter(out, dst, walk, in);
  return out;
}

/// cs121.filter_shared (slide "Aggregation and atomics", shared memory atomics): NPER_THREAD rounds of
/// `i = blockIdx.x * (NPER_THREAD * blockDim.x) + threadIdx.x`, `i += blockDim.x`; per round thread 0
/// zeroes l_n, kept lanes take pos = atomicAdd(&l_n, 1), thread 0 turns l_n into the block's base with
/// atomicAdd(nres, l_n), kept lanes write dst[pos + l_n]. Steps per round: count, reserve, store.
SimOutput filter_shared(const VariantInfo& v, const Input& in, const LaunchConfig& launch, const PatternParams&,
                        int trace_block) {
  require_type(v, in, DType::Int32);
  SimOutput out = start(v, in, launch, trace_block);
  const std::int64_t n = in.n();
  HostVector<double> dst;
  std::vector<std::int64_t> pos(std::size_t(launch.block));
  Recorder recorder(out.trace);
  const FilterWalk walk = filter_walk(in, launch.grid, std::int64_t(kFilterSharedItems) * launch.block, trace_block);
  auto nres = [&] { return walk.skipped + std::int64_t(dst.size()); };  // *nres: what earlier blocks reserved
  for_blocks(walk.from, walk.to, trace_block, recorder, [&](std::int64_t b, Recorder* traced) {
    Rec<P> rec(traced, pts::kFile);
    std::int64_t i0 = b * std::int64_t(kFilterSharedItems) * launch.block;
    std::int64_t block_kept = 0;
    for (int iter = 0; iter < kFilterSharedItems; ++iter, i0 += launch.block) {
      std::int64_t l_n = 0;  // the block's __shared__ l_n
      const std::string round = rec.on() ? "round " + std::to_string(iter) + ": " : std::string();
      if (rec.on()) rec.begin(TracePhase::Atomic, round + "l_n = 0; pos = atomicAdd(&l_n, 1) (src[i] > 0)");
      rec.at(pts::filter_shared_zero);
      rec.store_shared(0, 0, 0, 0);
      for (int t = 0; t < launch.block; ++t) {
        pos[std::size_t(t)] = -1;
        const std::int64_t i = i0 + t;
        if (i >= n) continue;
        const std::int32_t d = in.i32[std::size_t(i)];
        rec.at(pts::filter_shared_load);
        rec.load_global(t, 1, i, d, kInput);
        if (d > 0) {
          pos[std::size_t(t)] = l_n++;
          rec.at(pts::filter_shared_count);
          rec.atomic_shared(t, 2, 0, 1);
          rec.work(t);
        }
      }
      if (rec.on()) {
        rec.end(l_n);
        rec.begin(TracePhase::Atomic, round + "l_n = atomicAdd(nres, l_n) (thread 0)");
        rec.at(pts::filter_shared_reserve);
        rec.atomic_global(0, 0, 0, l_n, kCounter);
        rec.work(0);
        rec.end(nres());
        rec.begin(TracePhase::Store, round + "dst[pos + l_n] = d");
      }
      const std::int64_t base = nres();
      for (int t = 0; t < launch.block; ++t) {
        if (pos[std::size_t(t)] < 0) continue;
        const std::int32_t d = in.i32[std::size_t(i0 + t)];
        dst.push_back(d);
        rec.at(pts::filter_shared_offset);
        rec.load_shared(t, 0, 0, base);
        rec.at(pts::filter_shared_store);
        rec.store_global(t, 1, base + pos[std::size_t(t)], d, kOut);
        rec.work(t);
      }
      rec.end(base);
      block_kept += l_n;
    }
    if (rec.on()) out.trace.block_result = double(block_kept);
  });
  finish_filter(out, dst, walk, in);
  return out;
}

/// cs121.filter_warp_agg (slide "Warp-aggregated filtering"): `if (i >= n) return; if (src[i] > 0)
/// dst[atomicAggInc(nres)] = src[i];` with atomicAggInc: mask = __ballot_sync(__activemask(), 1) (the
/// lanes with a positive value), leader = __ffs(mask) - 1, the leader's atomicAdd(ctr, __popc(mask)),
/// __shfl_sync(mask, res, leader), res + __popc(mask & ((1 << lane) - 1)). Steps: load, ballot, atomic
/// (one per warp: its leader, adding the warp's count), broadcast, store.
SimOutput filter_warp_agg(const VariantInfo& v, const Input& in, const LaunchConfig& launch, const PatternParams&,
                          int trace_block) {
  require_type(v, in, DType::Int32);
  SimOutput out = start(v, in, launch, trace_block);
  out.trace.interleaving =
      "__activemask() inside `if (src[i] > 0)` is taken as exactly the warp's lanes with a positive value (converged); "
      "warps in order";
  const std::int64_t n = in.n();
  HostVector<double> dst;
  Recorder recorder(out.trace);
  const int warps = int(warps_of(launch.block));
  std::vector<std::uint32_t> masks(static_cast<std::size_t>(warps));
  const FilterWalk walk = filter_walk(in, launch.grid, launch.block, trace_block);
  for_blocks(walk.from, walk.to, trace_block, recorder, [&](std::int64_t b, Recorder* traced) {
    const std::int64_t first = b * launch.block;
    const std::int64_t nres_before = walk.skipped + std::int64_t(dst.size());
    std::fill(masks.begin(), masks.end(), 0u);
    for (int t = 0; t < launch.block && first + t < n; ++t) {
      const std::int32_t x = in.i32[std::size_t(first + t)];
      if (x > 0) {
        masks[std::size_t(t / 32)] |= 1u << (t % 32);
        dst.push_back(x);  // warps in order, lanes in order: the slots atomicAggInc hands out
      }
    }
    if (!traced) return;  // an untraced block: nothing more to record
    Rec<P> rec(traced, pts::kFile);
    auto kept = [&](int t) { return first + t < n && in.i32[std::size_t(first + t)] > 0; };
    rec.at(pts::warp_agg_test);
    rec.begin(TracePhase::Load, "if (i >= n) return; src[i]");
    for (int t = 0; t < launch.block && first + t < n; ++t) {
      rec.load_global(t, 0, first + t, in.i32[std::size_t(first + t)], kInput);
      rec.work(t);
    }
    rec.end();
    rec.at(pts::warp_agg_ballot);
    rec.begin(TracePhase::Warp, "mask = __ballot_sync(__activemask(), 1) (src[i] > 0)");
    for (int t = 0; t < launch.block; ++t)
      if (kept(t)) rec.work(t);  // the ballot's mask is the step's active mask
    rec.end();
    rec.at(pts::warp_agg_atomic);
    rec.begin(TracePhase::Atomic, "leader = __ffs(mask) - 1: atomicAdd(ctr, __popc(mask))");
    std::vector<std::int64_t> res(static_cast<std::size_t>(warps));
    std::int64_t ctr = nres_before;
    for (int w = 0; w < warps; ++w) {
      res[std::size_t(w)] = ctr;
      const std::uint32_t m = masks[std::size_t(w)];
      if (!m) continue;
      const int leader = __builtin_ffs(int(m)) - 1;
      rec.atomic_global(w * 32 + leader, 0, 0, __builtin_popcount(m), kCounter);
      ctr += __builtin_popcount(m);
    }
    for (int t = 0; t < launch.block; ++t)
      if (kept(t)) rec.work(t);  // the whole mask waits in atomicAggInc; only the leader issues the atomic
    rec.end();
    rec.at(pts::warp_agg_shfl);
    rec.begin(TracePhase::Warp, "res = __shfl_sync(mask, res, leader)");
    for (int t = 0; t < launch.block; ++t)
      if (kept(t)) {
        rec.shuffle(t, __builtin_ffs(int(masks[std::size_t(t / 32)])) - 1, res[std::size_t(t / 32)]);
        rec.work(t);
      }
    rec.end();
    rec.at(pts::warp_agg_store);
    rec.begin(TracePhase::Store, "dst[res + __popc(mask & ((1 << lane) - 1))] = src[i]");
    for (int t = 0; t < launch.block; ++t)
      if (kept(t)) {
        const std::uint32_t below = masks[std::size_t(t / 32)] & ((1u << (t % 32)) - 1u);
        rec.store_global(t, 0, res[std::size_t(t / 32)] + __builtin_popcount(below), in.i32[std::size_t(first + t)],
                         kOut);
        rec.work(t);
      }
    rec.end();
    out.trace.block_result = double(ctr - nres_before);
  });
  finish_filter(out, dst, walk, in);
  return out;
}

/// cs121.filter_scan (kernels/atomics/filter_scan.cu; the slide names Thrust's copy_if): tiles of
/// blockDim.x = 256 threads x 16 values, value k of thread t at tile * 4096 + k * 256 + t. Each warp
/// ballots row k and lane 0 stores the count in cnt[k * 8 + warp]; warp 0 scans the 128 counts
/// (exclusive) and, in a single-pass scan over the tiles (decoupled look-back on the status array),
/// finds the number of values kept by all earlier tiles; every kept value goes to tile offset +
/// cnt prefix + kept lanes below it. Output in input order. Steps: load, count, scan, look-back, store.
SimOutput filter_scan(const VariantInfo& v, const Input& in, const LaunchConfig& launch, const PatternParams&,
                      int trace_block) {
  require_type(v, in, DType::Int32);
  if (launch.block != kFilterScanBlock)
    throw std::runtime_error(v.id + ": tiles are 256 threads x 16 values, got a block of " +
                             std::to_string(launch.block));
  SimOutput out = start(v, in, launch, trace_block);
  out.trace.interleaving =
      "tiles in order; the look-back of a tile finds its predecessor's inclusive prefix already published";
  const std::int64_t n = in.n();
  constexpr int B = kFilterScanBlock, K = kFilterScanItems, W = B / 32;
  HostVector<double> dst;
  std::vector<std::int64_t> cnt(std::size_t(K * W));
  Recorder recorder(out.trace);
  const FilterWalk walk = filter_walk(in, launch.grid, std::int64_t(B) * K, trace_block);
  for (std::int64_t tile = walk.from; tile < walk.to; ++tile) {
    const std::int64_t base = tile * std::int64_t(B) * K;
    const std::int64_t before = walk.skipped + std::int64_t(dst.size());
    for (std::int64_t i = base; i < std::min(n, base + std::int64_t(B) * K); ++i)
      if (in.i32[std::size_t(i)] > 0) dst.push_back(in.i32[std::size_t(i)]);
    if (tile != trace_block) continue;
    Rec<P> rec(&recorder, pts::kFile);
    auto at = [&](int k, int t) { return base + std::int64_t(k) * B + t; };
    auto kept = [&](int k, int t) { return at(k, t) < n && in.i32[std::size_t(at(k, t))] > 0; };
    rec.at(pts::scan_load);
    rec.begin(TracePhase::Load, "v[k] = src[tile * 4096 + k * 256 + t] (16 striped loads)");
    for (int t = 0; t < B; ++t) {
      for (int k = 0; k < K; ++k)
        if (at(k, t) < n) rec.load_global(t, k, at(k, t), in.i32[std::size_t(at(k, t))], kInput);
      if (at(0, t) < n) rec.work(t);
    }
    rec.end();
    rec.at(pts::scan_count);
    rec.begin(TracePhase::Count, "cnt[k * 8 + warp] = __popc(__ballot_sync(full, v[k] > 0)) (lane 0)");
    for (int k = 0; k < K; ++k)
      for (int w = 0; w < W; ++w) {
        std::int64_t c = 0;
        for (int l = 0; l < 32; ++l) c += kept(k, w * 32 + l);
        cnt[std::size_t(k * W + w)] = c;
        rec.store_shared(w * 32, k, k * W + w, c);
        rec.work(w * 32);
      }
    rec.end(cnt);
    rec.at(pts::scan_counts);
    rec.begin(TracePhase::Scan, "warp 0: exclusive scan of the 128 counts");
    std::vector<std::int64_t> prefix(cnt.size());
    std::int64_t run = 0;
    for (std::size_t j = 0; j < cnt.size(); ++j) {
      prefix[j] = run;
      run += cnt[j];
    }
    for (int l = 0; l < 32; ++l) {
      for (int q = 0; q < 4; ++q) rec.load_shared(l, q, l * 4 + q, cnt[std::size_t(l * 4 + q)]);
      rec.work(l);
    }
    rec.end(prefix);
    rec.begin(TracePhase::LookBack, "warp 0: read the status of up to 32 earlier tiles, publish this tile's prefix");
    if (tile > 0) {  // the stated interleaving: the predecessor's inclusive prefix is already there
      rec.at(pts::scan_peek);
      rec.load_global(0, 0, tile - 1, before, kStatus);
    }
    rec.at(tile > 0 ? pts::scan_publish_prefix : pts::scan_publish_first);
    rec.store_global(0, 1, tile, before + run, kStatus);
    rec.work(0);
    rec.end();
    rec.at(pts::scan_store);
    rec.begin(TracePhase::Store, "dst[offset + prefix[k * 8 + warp] + kept lanes below] = v[k]");
    for (int k = 0; k < K; ++k)
      for (int t = 0; t < B; ++t) {
        if (!kept(k, t)) continue;
        std::int64_t below = 0;
        for (int l = 0; l < t % 32; ++l) below += kept(k, (t / 32) * 32 + l);
        rec.store_global(t, k, before + prefix[std::size_t(k * W + t / 32)] + below, in.i32[std::size_t(at(k, t))],
                         kOut);
        rec.work(t);
      }
    rec.end();
    out.trace.block_result = double(run);
  }
  finish_filter(out, dst, walk, in);
  return out;
}

/// cs121.filter_scan_vec (beyond the slide; kernels/atomics/cs121_atomics.cu): tiles of B = blockDim.x
/// (128 or 256) threads x 32 values, tile = blockIdx.x; value j of int4 row r of thread t at
/// tile * 32B + r * 4B + 4t + j (8 int4 loads per thread). Each warp counts row r (cnt[r * W + warp]),
/// warp 0 scans the 8W counts and looks back for the tile's offset; every kept value goes to shared
/// stage[offset % 4 + rank], rank = cnt prefix + kept values of lower lanes in the row + kept values
/// earlier in its int4; then the block copies stage quad q to dst quad (offset - offset % 4) / 4 + q,
/// value by value in the partial quads at both ends. Output in input order.
/// Steps: load, count, scan, look-back, stage, store.
SimOutput filter_scan_vec(const VariantInfo& v, const Input& in, const LaunchConfig& launch, const PatternParams&,
                          int trace_block) {
  require_type(v, in, DType::Int32);
  if (launch.block != 128 && launch.block != 256)
    throw std::runtime_error(v.id + ": tiles are 128 or 256 threads x 32 values, got a block of " +
                             std::to_string(launch.block));
  SimOutput out = start(v, in, launch, trace_block);
  out.trace.interleaving =
      "tiles in order; the look-back of a tile finds its predecessor's inclusive prefix already published";
  const std::int64_t n = in.n();
  const int B = launch.block, W = B / 32, R = kFilterScanVecItems / 4;
  const std::int64_t T = std::int64_t(B) * kFilterScanVecItems;
  HostVector<double> dst = kept_in_order(in);
  if (trace_block >= 0 && trace_block < launch.grid) {
    const std::int64_t tile = trace_block, base = tile * T;
    const std::int64_t before = kept_before(in, base);
    Recorder recorder(out.trace);
    Rec<P> rec(&recorder, pts::kFile);
    auto at = [&](int r, int t, int j) { return base + std::int64_t(r) * B * 4 + 4 * t + j; };
    auto kept = [&](int r, int t, int j) { return at(r, t, j) < n && in.i32[std::size_t(at(r, t, j))] > 0; };
    // A whole tile takes the int4 loads; the last, partial one loads component by component.
    const bool whole = base + T <= n;
    static constexpr int kLoadLine[4] = {pts::svec_load_x, pts::svec_load_y, pts::svec_load_z, pts::svec_load_w};
    rec.begin(TracePhase::Load, "v[r] = src4[tile * 8 * blockDim.x + r * blockDim.x + t] (8 int4 loads)");
    for (int t = 0; t < B; ++t) {
      for (int r = 0; r < R; ++r)
        for (int j = 0; j < 4; ++j)
          if (at(r, t, j) < n) {
            rec.at(whole ? pts::svec_load : kLoadLine[j]);
            rec.load_global(t, r, at(r, t, j), in.i32[std::size_t(at(r, t, j))], kInput);
          }
      if (at(0, t, 0) < n) rec.work(t);
    }
    rec.end();
    std::vector<std::int64_t> cnt(std::size_t(R * W));
    rec.at(pts::svec_count);
    rec.begin(TracePhase::Count, "cnt[r * W + warp] = __reduce_add_sync(full, kept values of row r) (lane 0)");
    for (int r = 0; r < R; ++r)
      for (int w = 0; w < W; ++w) {
        std::int64_t c = 0;
        for (int l = 0; l < 32; ++l)
          for (int j = 0; j < 4; ++j) c += kept(r, w * 32 + l, j);
        cnt[std::size_t(r * W + w)] = c;
        rec.store_shared(w * 32, r, r * W + w, c);
        rec.work(w * 32);
      }
    rec.end(cnt);
    rec.at(pts::svec_counts);
    rec.begin(TracePhase::Scan, "warp 0: exclusive scan of the 8 * W counts");
    std::vector<std::int64_t> prefix(cnt.size());
    std::int64_t total = 0;
    for (std::size_t k = 0; k < cnt.size(); ++k) {
      prefix[k] = total;
      total += cnt[k];
    }
    const int per = R * W / 32;
    for (int l = 0; l < 32; ++l) {
      for (int q = 0; q < per; ++q) rec.load_shared(l, q, l * per + q, cnt[std::size_t(l * per + q)]);
      rec.work(l);
    }
    rec.end(prefix);
    rec.begin(TracePhase::LookBack, "warp 0: read the status of up to 32 earlier tiles, publish this tile's prefix");
    if (tile > 0) {
      rec.at(pts::svec_peek);
      rec.load_global(0, 0, tile - 1, before, kStatus);
    }
    rec.at(tile > 0 ? pts::svec_publish_prefix : pts::svec_publish_first);
    rec.store_global(0, 1, tile, before + total, kStatus);
    rec.work(0);
    rec.end();
    const std::int64_t shift = before % 4;
    std::vector<std::int64_t> stage(std::size_t(T + 4), 0);  // the block's __shared__ stage
    static constexpr int kStageLine[4] = {pts::svec_stage_x, pts::svec_stage_y, pts::svec_stage_z, pts::svec_stage_w};
    rec.begin(TracePhase::Stage,
              "stage[offset % 4 + cnt prefix + kept lanes below + kept earlier in the int4] = value");
    for (int r = 0; r < R; ++r)
      for (int t = 0; t < B; ++t) {
        std::int64_t pos = shift + prefix[std::size_t(r * W + t / 32)];
        for (int l = (t / 32) * 32; l < t; ++l)
          for (int j = 0; j < 4; ++j) pos += kept(r, l, j);
        bool any = false;
        for (int j = 0; j < 4; ++j)
          if (kept(r, t, j)) {
            stage[std::size_t(pos)] = in.i32[std::size_t(at(r, t, j))];
            rec.at(kStageLine[j]);
            rec.store_shared(t, 4 * r + j, pos, stage[std::size_t(pos)]);
            ++pos;
            any = true;
          }
        if (any) rec.work(t);
      }
    rec.end(stage);
    rec.begin(TracePhase::Store, "dst4[(offset - offset % 4) / 4 + q] = stage4[q] (ends value by value)");
    const std::int64_t end = shift + total, quads = (end + 3) / 4;
    for (std::int64_t q = 0; q < quads; ++q) {
      const int t = int(q % B), access = int(q / B);
      rec.at(4 * q >= shift && 4 * q + 4 <= end ? pts::svec_store_quad : pts::svec_store_end);
      for (std::int64_t j = 4 * q; j < 4 * q + 4; ++j)
        if (j >= shift && j < end) rec.store_global(t, access, before - shift + j, stage[std::size_t(j)], kOut);
      rec.work(t);
    }
    rec.end();
    out.trace.block_result = double(total);
  }
  out.result = double(dst.size());
  out.output = std::move(dst);
  out.launches = 1;
  return out;
}

}  // namespace

std::vector<ModelEntry> atomics_models() {
  return {
      {"cs121.race", race},
      {"cs121.atomic_counter", atomic_counter},
      {"cs121.hist_global", hist_global},
      {"cs121.hist_shared", hist_shared},
      {"cs121.hist_shared_vec", hist_shared_vec},
      {"cub.histogram", cub_histogram},
      {"cs121.filter_global", filter_global},
      {"cs121.filter_shared", filter_shared},
      {"cs121.filter_warp_agg", filter_warp_agg},
      {"cs121.filter_scan", filter_scan},
      {"cs121.filter_scan_vec", filter_scan_vec},
      {"cub.select", cub_select},
  };
}

}  // namespace ws::sim
