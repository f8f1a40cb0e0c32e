// Sim models of the scan variants ("CS 677 Lecture 6", Mordohai, scan slides; docs/patterns.md): the same
// arithmetic as kernels/scan/*.cu in the same order, thread by thread, with the traced block's steps
// (which thread adds which pair, active lanes) and the run's addition count.
#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "parallel.hpp"
#include "patterns/scan/reference.hpp"
#include "sim/model_kit.hpp"

namespace ws::sim {

namespace {

using namespace kit;

constexpr int kOutput = kPartials;  // global buffer 1: the output array
namespace pts = trace_points::stevens_scan;

/// Element i of the array the block scans: x[i], or x[i - 1] for an exclusive scan (an exclusive scan is
/// the inclusive scan of the input shifted right by one, with the identity in front). Identity past n.
template <class P>
typename P::T shifted(const GlobalView<P>& g, std::int64_t i, bool exclusive) {
  return exclusive ? (i >= 1 ? g.at(i - 1) : P::identity()) : g.at(i);
}
template <class P>
std::int64_t src_index(std::int64_t i, bool exclusive) {
  return exclusive ? i - 1 : i;
}

template <class P>
void to_output(SimOutput& out, const std::vector<typename P::T>& y) {
  out.output.resize(y.size());
  parallel_chunks(std::int64_t(y.size()), 4 * kHostChunk, [&](std::int64_t b, std::int64_t e, std::int64_t) {
    for (std::int64_t i = b; i < e; ++i) out.output[std::size_t(i)] = P::to_double(y[std::size_t(i)]);
  });
  out.output_cols = std::int64_t(y.size());
}

/// Records the load of the section into shared memory (one element per thread and per load), as the
/// kernels' load_shifted() does it: element i reads x[i] (exclusive: x[i - 1]) whenever that index is in
/// 0..n-1, so in an exclusive scan the slot just past the input (i = n) holds x[n - 1] (never used: no
/// output reads it); `sh` must hold those loaded values. Working threads: those with an element i < n.
/// `lines[k]`: the kernel line of load k (per_thread <= 2).
template <class P>
void record_load(Rec<P>& rec, const GlobalView<P>& g, std::int64_t base, int threads, int per_thread, int stride,
                 std::int64_t n, bool exclusive, const std::vector<typename P::T>& sh, const int (&lines)[2]) {
  rec.begin(TracePhase::Load, "load the section into shared memory");
  for (int k = 0; k < per_thread; ++k)
    for (int t = 0; t < threads; ++t) {
      rec.at(pts::kFile, lines[k]);
      const std::int64_t i = base + t + std::int64_t(k) * stride;
      const std::int64_t src = src_index<P>(i, exclusive);
      if (src >= 0 && src < n) rec.load_global(t, k, src, g.at(src), kInput);
      rec.store_shared(t, per_thread + k, t + k * stride, sh[std::size_t(t + k * stride)]);
      if (i < n) rec.work(t);
    }
  rec.end(sh);
}

/// The store step: element k of each thread to the output; `lines[k]`: the kernel line of store k.
template <class P>
void record_store(Rec<P>& rec, std::int64_t base, int threads, int per_thread, int stride, std::int64_t n,
                  const std::vector<typename P::T>& sh, const int (&lines)[2]) {
  rec.begin(TracePhase::Store, "write the section to the output");
  for (int k = 0; k < per_thread; ++k)
    for (int t = 0; t < threads; ++t) {
      rec.at(pts::kFile, lines[k]);
      const std::int64_t i = base + t + std::int64_t(k) * stride;
      if (i >= n) continue;
      rec.load_shared(t, k, t + k * stride, sh[std::size_t(t + k * stride)]);
      rec.store_global(t, per_thread + k, i, sh[std::size_t(t + k * stride)], kOutput);
      rec.work(t);
    }
  rec.end(sh);
}

// ---- stevens.scan_naive: thread i adds x[0] .. x[i] from global memory ("A Naïve Inclusive Parallel Scan").
// Thread i's sum is the running prefix in element order, so the whole output costs O(n) here even though the
// kernel does n(n-1)/2 additions; the traced block's loop iterations are steps (folded after kMaxLoopSteps).
template <class P>
SimOutput naive(const VariantInfo& v, const Input& in, const LaunchConfig& launch, const PatternParams& pp,
                int trace_block) {
  SimOutput out = start(v, in, launch, trace_block);
  const GlobalView<P> g = view<P>(in);
  const std::int64_t n = g.n;
  const bool ex = pp.exclusive;
  std::vector<typename P::T> y(static_cast<std::size_t>(n));
  typename P::T acc = P::identity();
  for (std::int64_t i = 0; i < n; ++i) {
    // inclusive: sum = x[0]; sum += x[j] for j = 1..i. exclusive: the same over x[0..i-1] (0 for i = 0).
    if (ex) {
      y[std::size_t(i)] = acc;
      acc = i == 0 ? g.at(0) : P::combine(acc, g.at(i));
    } else {
      acc = i == 0 ? g.at(0) : P::combine(acc, g.at(i));
      y[std::size_t(i)] = acc;
    }
  }
  to_output<P>(out, y);
  // Additions: inclusive thread i does i; exclusive thread i does max(i - 1, 0).
  const std::int64_t m = ex ? n - 1 : n;
  out.additions = m > 0 ? m * (m - 1) / 2 : 0;
  out.launches = 1;
  if (trace_block >= 0) {
    Recorder r(out.trace);
    Rec<P> rec(&r);
    const int B = launch.block;
    const std::int64_t first = std::int64_t(trace_block) * B;
    const std::int64_t last = std::min(n, first + B) - 1;  // highest i in the block
    const std::int64_t iters = std::max<std::int64_t>(1, ex ? last : last + 1);
    LoopSteps steps(&r, TracePhase::Step, "j =", iters);
    std::vector<typename P::T> sum(std::size_t(B), P::identity());
    for (std::int64_t j = 0; j < iters; ++j) {
      steps.before(j);
      for (int t = 0; t < B; ++t) {
        const std::int64_t i = first + t;
        const std::int64_t len = ex ? i : i + 1;  // elements thread i adds up
        if (i >= n || j >= len) continue;
        rec.at(pts::kFile, j == 0 ? pts::naive_first : pts::naive_add);
        rec.load_global(t, 0, j, g.at(j), kInput);
        sum[std::size_t(t)] = j == 0 ? g.at(0) : P::combine(sum[std::size_t(t)], g.at(j));
        if (j > 0) {
          rec.add(t, j, sum[std::size_t(t)]);
          rec.work(t);
        }
      }
      steps.after(j);
    }
    rec.at(pts::kFile, pts::naive_store);
    rec.begin(TracePhase::Store, "write y[i]");
    for (int t = 0; t < B; ++t)
      if (first + t < n) {
        rec.store_global(t, 0, first + t, y[std::size_t(first + t)], kOutput);
        rec.work(t);
      }
    rec.end();
  }
  return out;
}

// ---- Block scans on one shared section (used by kogge_stone, kogge_stone_db, brent_kung, hierarchical).

/// Kogge-Stone over sh[0..m) in place, as "A Kogge-Stone Parallel Scan Algorithm": for stride 1, 2, 4, ...
/// < m, threads j in [stride, m) compute T[j] + T[j - stride] (barrier) and write T[j]. Returns additions.
template <class P>
std::int64_t kogge_stone_block(std::vector<typename P::T>& sh, int m, Rec<P>& rec) {
  std::int64_t adds = 0;
  std::vector<typename P::T> temp(sh.size());
  for (int stride = 1; stride < m; stride *= 2) {
    rec.at(pts::kFile, pts::ks_add);
    rec.begin(TracePhase::Step, "stride", stride);
    for (int j = stride; j < m; ++j) {
      temp[std::size_t(j)] = P::combine(sh[std::size_t(j)], sh[std::size_t(j - stride)]);
      if (rec.on()) {
        rec.load_shared(j, 0, j, sh[std::size_t(j)]);
        rec.load_shared(j, 1, j - stride, sh[std::size_t(j - stride)]);
        rec.add(j, j - stride, temp[std::size_t(j)]);
        rec.work(j);
      }
    }
    // second __syncthreads: every read is done before anyone writes
    rec.barrier_before_access(2);
    rec.at(pts::kFile, pts::ks_write);
    for (int j = stride; j < m; ++j) {
      sh[std::size_t(j)] = temp[std::size_t(j)];
      rec.store_shared(j, 2, j, sh[std::size_t(j)]);
    }
    adds += m - stride;
    rec.end(sh);
  }
  return adds;
}

/// Double-buffered Kogge-Stone: dst[j] = src[j] + src[j - stride] for stride <= j < m, dst[j] = src[j]
/// otherwise (the copy the slide's code leaves out), then the buffers swap. Result left in sh. The trace
/// gives shared addresses as indices into the logical array (the buffer that is source this step) and
/// keeps the destination after each step: both buffers are blockDim words apart, a whole number of
/// warps, so every lane's bank is the same as in the real buffers. ThreadOp::buffer says which array
/// (0 = the first; the source alternates), so that the hazard detector tells them apart.
template <class P>
std::int64_t kogge_stone_db_block(std::vector<typename P::T>& sh, int m, Rec<P>& rec) {
  std::int64_t adds = 0;
  std::vector<typename P::T> src = sh, dst(sh.size(), P::identity());
  int sb = 0;  // ThreadOp::buffer of the array that is the source this step (the other is written)
  rec.at(pts::kFile, pts::ksdb_add);
  for (int stride = 1; stride < m; stride *= 2, sb = 1 - sb) {
    rec.begin(TracePhase::Step, "stride", stride);
    for (int j = 0; j < int(sh.size()); ++j) {
      if (j >= stride && j < m) {
        dst[std::size_t(j)] = P::combine(src[std::size_t(j)], src[std::size_t(j - stride)]);
        if (rec.on()) {
          rec.load_shared(j, 0, j, src[std::size_t(j)], sb);
          rec.load_shared(j, 1, j - stride, src[std::size_t(j - stride)], sb);
          rec.add(j, j - stride, dst[std::size_t(j)]);
          rec.work(j);
        }
      } else {
        dst[std::size_t(j)] = src[std::size_t(j)];
        if (j < m) rec.load_shared(j, 0, j, src[std::size_t(j)], sb);
      }
      if (j < m) rec.store_shared(j, 2, j, dst[std::size_t(j)], 1 - sb);
    }
    adds += m - stride;
    std::swap(src, dst);
    rec.end(src);
  }
  sh = src;
  return adds;
}

/// ceil to a power of two (m >= 1).
inline int pow2_ceil(int m) {
  int p = 1;
  while (p < m) p *= 2;
  return p;
}

/// Brent-Kung over sh[0..m), m <= 2B: up-sweep for stride 1, 2, ... < m (thread t: index = (t+1) 2 stride - 1,
/// T[index] += T[index - stride] when index < m), then down-sweep from stride pow2_ceil(m) / 4 down to 1
/// (T[index + stride] += T[index] when index + stride < m). Returns additions.
template <class P>
std::int64_t brent_kung_block(std::vector<typename P::T>& sh, int m, Rec<P>& rec) {
  std::int64_t adds = 0;
  for (int stride = 1; stride < m; stride *= 2) {
    rec.at(pts::kFile, pts::bk_up);
    rec.begin(TracePhase::UpSweep, "stride", stride);
    for (int t = 0;; ++t) {
      const std::int64_t index = std::int64_t(t + 1) * 2 * stride - 1;
      if (index >= m) break;
      sh[std::size_t(index)] = P::combine(sh[std::size_t(index)], sh[std::size_t(index - stride)]);
      ++adds;
      if (rec.on()) {
        rec.load_shared(t, 0, index - stride, sh[std::size_t(index - stride)]);
        rec.add(t, index - stride, sh[std::size_t(index)]);
        rec.store_shared(t, 1, index, sh[std::size_t(index)]);
        rec.work(t);
      }
    }
    rec.end(sh);
  }
  for (int stride = pow2_ceil(m) / 4; stride > 0; stride /= 2) {
    rec.at(pts::kFile, pts::bk_down);
    rec.begin(TracePhase::DownSweep, "stride", stride);
    for (int t = 0;; ++t) {
      const std::int64_t index = std::int64_t(t + 1) * 2 * stride - 1;
      if (index + stride >= m) break;
      sh[std::size_t(index + stride)] = P::combine(sh[std::size_t(index + stride)], sh[std::size_t(index)]);
      ++adds;
      if (rec.on()) {
        rec.load_shared(t, 0, index, sh[std::size_t(index)]);
        rec.add(t, index, sh[std::size_t(index + stride)]);
        rec.store_shared(t, 1, index + stride, sh[std::size_t(index + stride)]);
        rec.work(t);
      }
    }
    rec.end(sh);
  }
  return adds;
}

enum class BlockAlgo { KoggeStone, KoggeStoneDB, BrentKung };

// ---- stevens.kogge_stone, stevens.kogge_stone_db, stevens.brent_kung: one block scans the whole input.
template <class P, BlockAlgo A>
SimOutput single_block(const VariantInfo& v, const Input& in, const LaunchConfig& launch, const PatternParams& pp,
                       int trace_block) {
  SimOutput out = start(v, in, launch, trace_block);
  if (launch.grid != 1) throw std::runtime_error(v.id + ": one block scans the whole input (grid must be 1)");
  const GlobalView<P> g = view<P>(in);
  const int B = launch.block;
  const int per = A == BlockAlgo::BrentKung ? 2 : 1;
  const std::int64_t n = g.n;
  if (n > std::int64_t(B) * per) throw std::runtime_error(v.id + ": n exceeds the block's section");
  const int m = int(n);
  std::vector<typename P::T> sh(std::size_t(B) * per, P::identity());
  for (int i = 0; i < B * per; ++i) sh[std::size_t(i)] = shifted(g, i, pp.exclusive);  // what load_shifted() loads
  Recorder r(out.trace);
  Rec<P> rec(trace_block >= 0 ? &r : nullptr);
  // The kernel lines of the load and the store (Brent-Kung: two of each, one per element of the thread).
  const int load_lines[2] = {A == BlockAlgo::KoggeStone     ? pts::ks_load
                             : A == BlockAlgo::KoggeStoneDB ? pts::ksdb_load
                                                            : pts::bk_load_low,
                             pts::bk_load_high};
  const int store_lines[2] = {A == BlockAlgo::KoggeStone     ? pts::ks_store
                              : A == BlockAlgo::KoggeStoneDB ? pts::ksdb_store
                                                             : pts::bk_store_low,
                              pts::bk_store_high};
  if (rec.on()) record_load(rec, g, 0, B, per, B, n, pp.exclusive, sh, load_lines);
  std::int64_t adds = 0;
  if (A == BlockAlgo::KoggeStone) adds = kogge_stone_block<P>(sh, m, rec);
  if (A == BlockAlgo::KoggeStoneDB) adds = kogge_stone_db_block<P>(sh, m, rec);
  if (A == BlockAlgo::BrentKung) adds = brent_kung_block<P>(sh, m, rec);
  if (rec.on()) record_store(rec, 0, B, per, B, n, sh, store_lines);
  sh.resize(std::size_t(m));
  to_output<P>(out, sh);
  out.additions = adds;
  out.launches = 1;
  out.trace.block_result = m > 0 ? P::to_double(sh.back()) : 0.0;
  return out;
}

// ---- stevens.scan_hierarchical: Brent-Kung block scans of 2B-element sections writing block totals, a scan
// of the totals (the same kernel, recursively), and an add-back of the scanned totals of earlier sections.
template <class P>
std::int64_t hierarchical_level(std::vector<typename P::T>& data, int B, int& launches) {
  const std::int64_t n = std::int64_t(data.size());
  const std::int64_t section = 2 * std::int64_t(B);
  const std::int64_t blocks = ceil_div(n, section);
  std::vector<typename P::T> sums(static_cast<std::size_t>(blocks));
  std::atomic<std::int64_t> adds{0};
  ++launches;
  // Sections are independent (each block scans its own): they run on the host threads, each exactly as
  // the one-block model does it.
  parallel_chunks(blocks, 16, [&](std::int64_t first, std::int64_t last, std::int64_t) {
    std::vector<typename P::T> sh(static_cast<std::size_t>(section));
    std::int64_t here = 0;
    for (std::int64_t b = first; b < last; ++b) {
      const int m = int(std::min(section, n - b * section));
      std::fill(sh.begin(), sh.end(), P::identity());
      for (int i = 0; i < m; ++i) sh[std::size_t(i)] = data[std::size_t(b * section + i)];
      Rec<P> untraced;  // the traced block's section is recorded apart (hierarchical())
      here += brent_kung_block<P>(sh, m, untraced);
      for (int i = 0; i < m; ++i) data[std::size_t(b * section + i)] = sh[std::size_t(i)];
      sums[std::size_t(b)] = sh[std::size_t(m - 1)];
    }
    adds += here;
  });
  if (blocks > 1) {
    adds += hierarchical_level<P>(sums, B, launches);
    ++launches;  // add-back: section b >= 1 adds the scanned total of sections 0..b-1
    parallel_chunks(n - section, 4 * kHostChunk, [&](std::int64_t b, std::int64_t e, std::int64_t) {
      for (std::int64_t i = section + b; i < section + e; ++i)
        data[std::size_t(i)] = P::combine(data[std::size_t(i)], sums[std::size_t(i / section - 1)]);
    });
    adds += n - section;
  }
  return adds.load();
}

template <class P>
SimOutput hierarchical(const VariantInfo& v, const Input& in, const LaunchConfig& launch, const PatternParams& pp,
                       int trace_block) {
  SimOutput out = start(v, in, launch, trace_block);
  const GlobalView<P> g = view<P>(in);
  const int B = launch.block;
  const std::int64_t n = g.n, section = 2 * std::int64_t(B);
  std::vector<typename P::T> data(static_cast<std::size_t>(n));
  parallel_chunks(n, 4 * kHostChunk, [&](std::int64_t b, std::int64_t e, std::int64_t) {
    for (std::int64_t i = b; i < e; ++i) data[std::size_t(i)] = shifted(g, i, pp.exclusive);
  });
  Recorder r(out.trace);
  // The traced block's view of the first launch: its own section, scanned by Brent-Kung.
  std::vector<typename P::T> traced;
  if (trace_block >= 0) {
    Rec<P> rec(&r);
    const std::int64_t base = std::int64_t(trace_block) * section;
    const int m = int(std::min(section, n - base));
    std::vector<typename P::T> sh(std::size_t(section), P::identity());
    for (std::int64_t i = 0; i < section; ++i) sh[std::size_t(i)] = shifted(g, base + i, pp.exclusive);  // as loaded
    record_load(rec, g, base, B, 2, B, n, pp.exclusive, sh, {pts::bk_load_low, pts::bk_load_high});
    brent_kung_block<P>(sh, m, rec);
    record_store(rec, base, B, 2, B, n, sh, {pts::bk_store_low, pts::bk_store_high});
    out.trace.block_result = P::to_double(sh[std::size_t(m - 1)]);
  }
  int launches = 0;
  out.additions = hierarchical_level<P>(data, B, launches);
  out.launches = launches;
  to_output<P>(out, data);
  return out;
}

// ---- scan.decoupled_lookback (Merrill and Garland 2016). The tile of B x 16 elements is 4 rows of B x 4:
// in row k thread t holds the 4 consecutive elements at k B 4 + 4 t (one 128-bit load). Per row: a thread
// sums its 4 elements, warps scan their lanes' sums with shuffles (Kogge-Stone over 32 lanes), and the 4 x
// (B / 32) warp totals are scanned in order; the tile's exclusive prefix comes from the look-back.
// Schedule modelled: tiles run in order, so the look-back always finds its predecessor's inclusive prefix
// (the kernel's wait before its first look-back read makes that the common case on the GPU too).
template <class P>
SimOutput decoupled_lookback(const VariantInfo& v, const Input& in, const LaunchConfig& launch, const PatternParams& pp,
                             int trace_block) {
  using T = typename P::T;
  SimOutput out = start(v, in, launch, trace_block);
  out.trace.interleaving =
      "tiles run in tile order: each look-back finds its predecessor's inclusive prefix in one read";
  const GlobalView<P> g = view<P>(in);
  const int B = launch.block, W = B / 32, kRows = 4, kVec = 4;
  const std::int64_t n = g.n, tile = std::int64_t(B) * kRows * kVec;
  const std::int64_t tiles = ceil_div(n, tile);
  std::vector<T> y(static_cast<std::size_t>(n));
  T carry = P::identity();  // inclusive prefix of the previous tile
  std::int64_t adds = 0;
  Recorder r(out.trace);
  namespace dl = trace_points::decoupled_lookback;
  const int file = dl::kFile;
  for_blocks(0, tiles, trace_block, r, [&](std::int64_t b, Recorder* traced) {
    Rec<P> rec(traced);
    const std::int64_t base = b * tile;
    // Thread-level: per row k and thread t, the 4 values and their serial sum.
    std::vector<T> x(static_cast<std::size_t>(tile));
    for (std::int64_t i = 0; i < tile; ++i) x[std::size_t(i)] = g.at(base + i);
    if (rec.on()) {
      // A whole tile takes the 128-bit loads; the last, partial one loads element by element.
      rec.at(file, base + tile <= n ? dl::dl_load_vec : dl::dl_load);
      rec.begin(TracePhase::Load, "128-bit loads, 4 per thread (warp-contiguous rows)");
      for (int k = 0; k < kRows; ++k)
        for (int t = 0; t < B; ++t) {
          const std::int64_t i = base + std::int64_t(k) * B * kVec + std::int64_t(t) * kVec;
          if (i < n) {
            rec.load_global(t, k, i, x[std::size_t(i - base)], kInput);
            rec.work(t);
          }
        }
      rec.end();
    }
    std::vector<T> thread_sum(std::size_t(kRows) * B);
    rec.at(file, dl::dl_thread_sum);
    if (rec.on()) rec.begin(TracePhase::Thread, "each thread adds its 4 values per row (3 x 4 adds)");
    for (int k = 0; k < kRows; ++k)
      for (int t = 0; t < B; ++t) {
        const std::size_t o = std::size_t(k) * B * kVec + std::size_t(t) * kVec;
        T s = x[o];
        for (int e = 1; e < kVec; ++e) {
          s = P::combine(s, x[o + e]);
          rec.add(t, -1, s);
        }
        thread_sum[std::size_t(k) * B + t] = s;
        rec.work(t);
      }
    adds += std::int64_t(kRows) * B * (kVec - 1);
    if (rec.on()) rec.end();
    // Warp inclusive scans of the thread sums (shfl_up by 1, 2, 4, 8, 16), four rows at once.
    std::vector<T> ws = thread_sum;
    for (int off = 1; off < 32; off *= 2) {
      if (rec.on()) rec.begin(TracePhase::Warp, "shfl_up", off);
      std::vector<T> next = ws;
      for (int k = 0; k < kRows; ++k)
        for (int t = 0; t < B; ++t) {
          const int lane = t % 32;
          if (lane < off) continue;
          const std::size_t q = std::size_t(k) * B + t;
          next[q] = P::combine(ws[q - off], ws[q]);
          ++adds;
          if (rec.on()) {
            rec.at(file, dl::dl_shfl);
            rec.shuffle(t, lane - off, ws[q - off]);
            rec.at(file, dl::dl_warp_add);
            rec.add(t, lane - off, next[q]);
            rec.work(t);
          }
        }
      ws = next;
      if (rec.on()) rec.end();
    }
    // Warp totals in row-major order (row k, warp w), scanned serially by one thread: exclusive prefixes.
    if (rec.on()) {
      rec.at(file, dl::dl_warp_total);
      rec.begin(TracePhase::Block,
                "warp totals to shared; thread 0 scans the " + std::to_string(kRows * W) + " totals");
      for (int q = 0; q < kRows * W; ++q)
        rec.store_shared(q % W * 32 + 31, q / W, q, ws[std::size_t(q / W) * B + std::size_t(q % W) * 32 + 31]);
      rec.work(0);
    }
    std::vector<T> warp_prefix(std::size_t(kRows) * W);
    T running = P::identity();
    rec.at(file, dl::dl_block_scan);
    for (int k = 0; k < kRows; ++k)
      for (int w = 0; w < W; ++w) {
        warp_prefix[std::size_t(k) * W + w] = running;
        const T total = ws[std::size_t(k) * B + std::size_t(w) * 32 + 31];
        running = (k == 0 && w == 0) ? total : P::combine(running, total);
        if (!(k == 0 && w == 0)) {
          ++adds;
          rec.add(0, -1, running);  // recorded in the "block" step below
        }
      }
    const T aggregate = running;
    rec.end(warp_prefix);
    // Look-back: publish the aggregate, read the predecessor's inclusive prefix.
    const T exclusive_prefix = carry;
    const T inclusive_prefix = b == 0 ? aggregate : P::combine(exclusive_prefix, aggregate);
    if (b > 0) ++adds;
    if (rec.on()) {
      rec.begin(TracePhase::LookBack, b == 0 ? std::string("tile 0 publishes its inclusive prefix")
                                             : "publish aggregate, wait ~3 us; lane 0 reads tile " +
                                                   std::to_string(b - 1) + "'s inclusive prefix");
      if (b > 0) {
        rec.at(file, dl::dl_peek);
        rec.load_global(0, 0, b - 1, exclusive_prefix, kAccumulator);
        rec.at(file, dl::dl_publish_prefix);
        rec.add(0, -1, inclusive_prefix);
        rec.work(0);
      } else {
        rec.at(file, dl::dl_publish_first);
      }
      rec.store_global(0, 1, b, inclusive_prefix, kAccumulator);
      rec.end();
    }
    carry = inclusive_prefix;
    // Outputs: prefix = tile prefix + warp prefix + lane exclusive prefix, then the serial walk over 4 values.
    if (rec.on()) rec.begin(TracePhase::Store, "add the prefixes, write 4 values per row (128-bit stores)");
    for (int k = 0; k < kRows; ++k)
      for (int t = 0; t < B; ++t) {
        const int lane = t % 32, w = t / 32;
        const std::size_t q = std::size_t(k) * B + t;
        // The kernel adds the tile prefix (0 for tile 0) to the warp prefix, then the lane's.
        T p = b == 0 ? warp_prefix[std::size_t(k) * W + w]
                     : P::combine(exclusive_prefix, warp_prefix[std::size_t(k) * W + w]);
        rec.at(file, dl::dl_tile_prefix);
        rec.add(t, -1, p);
        if (lane > 0) {
          p = P::combine(p, ws[q - 1]);
          rec.at(file, dl::dl_lane_prefix);
          rec.add(t, -1, p);
        }
        rec.at(file, dl::dl_incl);
        const std::size_t o = std::size_t(k) * B * kVec + std::size_t(t) * kVec;
        for (int e = 0; e < kVec; ++e) {
          const std::int64_t i = base + std::int64_t(o) + e;
          const T incl = P::combine(p, x[o + e]);
          rec.add(t, -1, incl);
          if (i < n) y[std::size_t(i)] = pp.exclusive ? p : incl;
          p = incl;
        }
        adds += kVec + 1 + (lane > 0 ? 1 : 0);
        if (rec.on()) {
          const std::int64_t i = base + std::int64_t(o);
          rec.at(file, base + tile <= n ? dl::dl_store_vec : dl::dl_store);
          if (i < n) rec.store_global(t, k, i, y[std::size_t(i)], kOutput);
          rec.work(t);
        }
      }
    if (rec.on()) rec.end();
    if (b == trace_block) out.trace.block_result = P::to_double(aggregate);
  });
  to_output<P>(out, y);
  out.additions = adds;
  out.launches = 1;
  return out;
}

// ---- cub.scan: output only (CUB's tiles and look-back are not modelled at thread level).
template <class P>
SimOutput cub_scan(const VariantInfo& v, const Input& in, const LaunchConfig& launch, const PatternParams& pp,
                   int trace_block) {
  SimOutput out = start(v, in, launch, trace_block);
  out.trace.interleaving = "library call: output only, CUB's kernels are not modelled at thread level (no steps)";
  ArrayOutput ref;
  sequential_scan(in, pp.exclusive, ref);
  out.output = std::move(ref.values);
  out.output_cols = ref.cols;
  out.launches = 2;  // CUB's tile-status initialization, then the scan
  out.trace.block_result = out.output.empty() ? 0.0 : out.output.back();
  return out;
}

template <SimModel ForInt, SimModel ForFloat>
SimOutput typed(const VariantInfo& v, const Input& in, const LaunchConfig& launch, const PatternParams& pp,
                int trace_block) {
  return in.type == DType::Int32 ? ForInt(v, in, launch, pp, trace_block) : ForFloat(v, in, launch, pp, trace_block);
}

}  // namespace

std::vector<ModelEntry> scan_models() {
  return {
      {"stevens.scan_naive", typed<naive<SumI32>, naive<SumF32>>},
      {"stevens.kogge_stone",
       typed<single_block<SumI32, BlockAlgo::KoggeStone>, single_block<SumF32, BlockAlgo::KoggeStone>>},
      {"stevens.kogge_stone_db",
       typed<single_block<SumI32, BlockAlgo::KoggeStoneDB>, single_block<SumF32, BlockAlgo::KoggeStoneDB>>},
      {"stevens.brent_kung",
       typed<single_block<SumI32, BlockAlgo::BrentKung>, single_block<SumF32, BlockAlgo::BrentKung>>},
      {"stevens.scan_hierarchical", typed<hierarchical<SumI32>, hierarchical<SumF32>>},
      {"scan.decoupled_lookback", typed<decoupled_lookback<SumI32>, decoupled_lookback<SumF32>>},
      {"cub.scan", typed<cub_scan<SumI32>, cub_scan<SumF32>>},
  };
}

}  // namespace ws::sim
