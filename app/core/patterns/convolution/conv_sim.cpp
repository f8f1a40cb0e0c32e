#include "patterns/convolution/conv_sim.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "parallel.hpp"
#include "sim/model_kit.hpp"
#include "sim/sim.hpp"

namespace ws::sim {

namespace {

using I64 = std::int64_t;
using F = kit::SumF32;

/// The stevens_conv.cu kernels' recorder: at(line) names a line of stevens_conv.cu; stores to global
/// memory go to the output buffer P (kConvOutput).
using Rec = kit::Rec<F>;

/// Shared state of one simulated launch.
struct Launch {
  const ConvGeometry& g;
  ConstSpan<float> n;  ///< zero-padded to g.capacity
  const std::vector<float>& m;
  HostVector<double>& p;  ///< g.capacity outputs: the kernel's float values, widened (exact)
  int r() const { return g.mask_width / 2; }
};

// ---- 1D kernels ------------------------------------------------------------------------------

/// The "store" step of the 1D kernels: P[i] = Pvalue for every thread (no bound check, as the slides).
/// `line`: the kernel's `P[i] = Pvalue;`.
void store_1d(Launch& L, I64 b, const std::vector<float>& pv, Rec& rec, int line) {
  const int B = L.g.block_x;
  rec.at(line);
  rec.begin(TracePhase::Store, "P[i] = Pvalue");
  for (int t = 0; t < B; ++t) {
    const I64 i = b * B + t;
    L.p[std::size_t(i)] = pv[std::size_t(t)];
    rec.store_global(t, 0, i, pv[std::size_t(t)], kConvOutput);
    rec.work(t);
  }
  rec.end();
}

/// conv1d_basic (mask_in_global) and conv1d_const: global N, no shared memory.
void basic_1d(Launch& L, I64 b, bool mask_in_global, Rec& rec) {
  const int B = L.g.block_x, w = L.g.mask_width;
  const I64 width = L.g.width;
  std::vector<float> pv(std::size_t(B), 0.0f);
  namespace pts = trace_points::stevens_conv;
  rec.at(mask_in_global ? pts::basic_1d_compute : pts::const_1d_compute);
  rec.begin(TracePhase::Compute, mask_in_global ? "Pvalue += N[N_start_point + j] * M[j] (M global)"
                                                : "Pvalue += N[N_start_point + j] * M[j] (M constant)");
  for (int t = 0; t < B; ++t) {
    const I64 i = b * B + t, start = i - w / 2;
    float acc = 0;
    for (int j = 0; j < w; ++j) {
      const I64 k = start + j;
      if (k < 0 || k >= width) continue;  // ghost cell
      const float x = L.n[std::size_t(k)];
      acc += x * L.m[std::size_t(j)];
      rec.load_global(t, 2 * j, k, x, kConvInput);
      if (mask_in_global) rec.load_global(t, 2 * j + 1, j, L.m[std::size_t(j)], kConvMask);
      rec.add(t, k, acc);
    }
    pv[std::size_t(t)] = acc;
    rec.work(t);
  }
  rec.end();
  store_1d(L, b, pv, rec, mask_in_global ? pts::basic_1d_store : pts::const_1d_store);
}

/// conv1d_tiled: left halo, internal elements, right halo into N_ds, then the mask loop on N_ds.
void tiled_1d(Launch& L, I64 b, Rec& rec) {
  const int B = L.g.block_x, w = L.g.mask_width, n = w / 2;
  const I64 width = L.g.width;
  std::vector<float> ns(std::size_t(B + w - 1), 0.0f);
  namespace pts = trace_points::stevens_conv;
  rec.at(pts::tiled_1d_left);
  rec.begin(TracePhase::Halo, "left halo: threads >= blockDim.x - n");
  for (int t = B - n; t < B; ++t) {
    const I64 hl = (b - 1) * B + t;
    const float x = hl < 0 ? 0.0f : L.n[std::size_t(hl)];
    if (hl >= 0) rec.load_global(t, 0, hl, x, kConvInput);
    ns[std::size_t(t - (B - n))] = x;
    rec.store_shared(t, 1, t - (B - n), x);
    rec.work(t);
  }
  rec.end(ns);
  rec.at(pts::tiled_1d_internal);
  rec.begin(TracePhase::Load, "internal: N_ds[n + threadIdx.x] = N[i]");
  for (int t = 0; t < B; ++t) {
    const I64 i = b * B + t;
    const float x = L.n[std::size_t(i)];
    rec.load_global(t, 0, i, x, kConvInput);
    ns[std::size_t(n + t)] = x;
    rec.store_shared(t, 1, n + t, x);
    rec.work(t);
  }
  rec.end(ns);
  rec.at(pts::tiled_1d_right);
  rec.begin(TracePhase::Halo, "right halo: threads < n");
  for (int t = 0; t < n && t < B; ++t) {
    const I64 hr = (b + 1) * B + t;
    const float x = hr >= width ? 0.0f : L.n[std::size_t(hr)];
    if (hr < width) rec.load_global(t, 0, hr, x, kConvInput);
    ns[std::size_t(n + B + t)] = x;
    rec.store_shared(t, 1, n + B + t, x);
    rec.work(t);
  }
  rec.end(ns);
  std::vector<float> pv(std::size_t(B), 0.0f);
  rec.at(pts::tiled_1d_compute);
  rec.begin(TracePhase::Compute, "Pvalue += N_ds[threadIdx.x + j] * M[j]");
  for (int t = 0; t < B; ++t) {
    float acc = 0;
    for (int j = 0; j < w; ++j) {
      const float x = ns[std::size_t(t + j)];
      acc += x * L.m[std::size_t(j)];
      rec.load_shared(t, j, t + j, x);
      rec.add(t, t + j, acc);
    }
    pv[std::size_t(t)] = acc;
    rec.work(t);
  }
  rec.end(ns);
  store_1d(L, b, pv, rec, pts::tiled_1d_store);
}

/// conv1d_tiled_cache: the block's own tile in N_ds, the halo straight from N (through the caches).
void tiled_cache_1d(Launch& L, I64 b, Rec& rec) {
  const int B = L.g.block_x, w = L.g.mask_width;
  const I64 width = L.g.width;
  std::vector<float> ns(std::size_t(B), 0.0f);
  namespace pts = trace_points::stevens_conv;
  rec.at(pts::tiled_cache_1d_load);
  rec.begin(TracePhase::Load, "N_ds[threadIdx.x] = N[i]");
  for (int t = 0; t < B; ++t) {
    const I64 i = b * B + t;
    ns[std::size_t(t)] = L.n[std::size_t(i)];
    rec.load_global(t, 0, i, ns[std::size_t(t)], kConvInput);
    rec.store_shared(t, 1, t, ns[std::size_t(t)]);
    rec.work(t);
  }
  rec.end(ns);
  std::vector<float> pv(std::size_t(B), 0.0f);
  const I64 this_start = b * B, next_start = (b + 1) * B;
  rec.begin(TracePhase::Compute, "N_ds inside the tile, N (cache) for the halo");
  for (int t = 0; t < B; ++t) {
    const I64 i = b * B + t, start = i - w / 2;
    float acc = 0;
    for (int j = 0; j < w; ++j) {
      const I64 k = start + j;
      if (k < 0 || k >= width) continue;
      float x;
      if (k >= this_start && k < next_start) {
        x = ns[std::size_t(t + j - w / 2)];
        rec.at(pts::tiled_cache_1d_shared);
        rec.load_shared(t, j, t + j - w / 2, x);
      } else {
        x = L.n[std::size_t(k)];
        rec.at(pts::tiled_cache_1d_global);
        rec.load_global(t, j, k, x, kConvInput);
      }
      acc += x * L.m[std::size_t(j)];
      rec.add(t, k, acc);
    }
    pv[std::size_t(t)] = acc;
    rec.work(t);
  }
  rec.end(ns);
  store_1d(L, b, pv, rec, pts::tiled_cache_1d_store);
}

// ---- 2D kernels ------------------------------------------------------------------------------

void basic_2d(Launch& L, I64 bx, I64 by, Rec& rec) {
  const ConvGeometry& g = L.g;
  const int w = g.mask_width;
  std::vector<float> pv(std::size_t(g.threads()), 0.0f);
  namespace pts = trace_points::stevens_conv;
  rec.at(pts::basic_2d_compute);
  rec.begin(TracePhase::Compute, "Pvalue += N[r][c] * M[i][j] (M global)");
  for (int ty = 0; ty < g.block_y; ++ty)
    for (int tx = 0; tx < g.block_x; ++tx) {
      const int t = ty * g.block_x + tx;
      const I64 col = bx * g.block_x + tx, row = by * g.block_y + ty;
      if (row >= g.height || col >= g.width) continue;
      float acc = 0;
      for (int i = 0; i < w; ++i)
        for (int j = 0; j < w; ++j) {
          const I64 rr = row - w / 2 + i, cc = col - w / 2 + j;
          if (rr < 0 || rr >= g.height || cc < 0 || cc >= g.width) continue;
          const float x = L.n[std::size_t(rr * g.width + cc)];
          acc += x * L.m[std::size_t(i * w + j)];
          rec.load_global(t, 2 * (i * w + j), rr * g.width + cc, x, kConvInput);
          rec.load_global(t, 2 * (i * w + j) + 1, i * w + j, L.m[std::size_t(i * w + j)], kConvMask);
          rec.add(t, rr * g.width + cc, acc);
        }
      pv[std::size_t(t)] = acc;
      rec.work(t);
    }
  rec.end();
  rec.at(pts::basic_2d_store);
  rec.begin(TracePhase::Store, "P[row][col] = Pvalue");
  for (int ty = 0; ty < g.block_y; ++ty)
    for (int tx = 0; tx < g.block_x; ++tx) {
      const int t = ty * g.block_x + tx;
      const I64 col = bx * g.block_x + tx, row = by * g.block_y + ty;
      if (row >= g.height || col >= g.width) continue;
      L.p[std::size_t(row * g.width + col)] = pv[std::size_t(t)];
      rec.store_global(t, 0, row * g.width + col, pv[std::size_t(t)], kConvOutput);
      rec.work(t);
    }
  rec.end();
}

void tiled_2d(Launch& L, I64 bx, I64 by, Rec& rec) {
  const ConvGeometry& g = L.g;
  const int w = g.mask_width, T = g.tile_x, BS = g.block_x;
  std::vector<float> ns(std::size_t(BS * BS), 0.0f);
  namespace pts = trace_points::stevens_conv;
  rec.begin(TracePhase::Load, "Ns[ty][tx] = N[row_i][col_i] or 0");
  for (int ty = 0; ty < BS; ++ty)
    for (int tx = 0; tx < BS; ++tx) {
      const int t = ty * BS + tx;
      const I64 row_i = by * T + ty - w / 2, col_i = bx * T + tx - w / 2;
      float x = 0.0f;
      rec.at(pts::tiled_2d_ghost);
      if (row_i >= 0 && row_i < g.height && col_i >= 0 && col_i < g.width) {
        x = L.n[std::size_t(row_i * g.width + col_i)];
        rec.at(pts::tiled_2d_load);
        rec.load_global(t, 0, row_i * g.width + col_i, x, kConvInput);
      }
      ns[std::size_t(t)] = x;
      rec.store_shared(t, 1, t, x);
      rec.work(t);
    }
  rec.end(ns);
  std::vector<float> pv(std::size_t(BS * BS), 0.0f);
  rec.at(pts::tiled_2d_compute);
  rec.begin(TracePhase::Compute, "ty, tx < TILE_SIZE: output += Mc[i][j] * Ns[i + ty][j + tx]");
  for (int ty = 0; ty < T; ++ty)
    for (int tx = 0; tx < T; ++tx) {
      const int t = ty * BS + tx;
      float acc = 0;
      for (int i = 0; i < w; ++i)
        for (int j = 0; j < w; ++j) {
          const int a = (i + ty) * BS + j + tx;
          const float x = ns[std::size_t(a)];
          acc += L.m[std::size_t(i * w + j)] * x;
          rec.load_shared(t, i * w + j, a, x);
          rec.add(t, a, acc);
        }
      pv[std::size_t(t)] = acc;
      rec.work(t);
    }
  rec.end(ns);
  rec.at(pts::tiled_2d_store);
  rec.begin(TracePhase::Store, "row_o < height && col_o < width: P[row_o][col_o] = output");
  for (int ty = 0; ty < T; ++ty)
    for (int tx = 0; tx < T; ++tx) {
      const I64 row_o = by * T + ty, col_o = bx * T + tx;
      if (row_o >= g.height || col_o >= g.width) continue;
      const int t = ty * BS + tx;
      L.p[std::size_t(row_o * g.width + col_o)] = pv[std::size_t(t)];
      rec.store_global(t, 0, row_o * g.width + col_o, pv[std::size_t(t)], kConvOutput);
      rec.work(t);
    }
  rec.end();
}

void coarse_2d(Launch& L, I64 bx, I64 by, Rec& rec) {
  const ConvGeometry& g = L.g;
  const int w = g.mask_width, C = g.coarsen, TX = g.tile_x, TY = g.tile_y, BX = g.block_x, BY = g.block_y;
  const int IN_X = TX + w - 1, IN_Y = TY + w - 1;
  const int col_iters = (IN_X + BX - 1) / BX;
  const I64 row_start = by * TY - w / 2, col_start = bx * TX - w / 2;
  std::vector<float> ns(std::size_t(IN_X * IN_Y), 0.0f);
  namespace pts = trace_points::stevens_conv;
  rec.at(pts::coarse_2d_load);
  rec.begin(TracePhase::Load, "input tile row by row: Ns[r][c] = N[...] or 0");
  for (int ty = 0; ty < BY; ++ty)
    for (int tx = 0; tx < BX; ++tx) {
      const int t = ty * BX + tx;
      for (int r = ty; r < IN_Y; r += BY)
        for (int c = tx; c < IN_X; c += BX) {
          const int access = 2 * (((r - ty) / BY) * col_iters + (c - tx) / BX);
          const I64 row_i = row_start + r, col_i = col_start + c;
          float x = 0.0f;
          if (row_i >= 0 && row_i < g.height && col_i >= 0 && col_i < g.width) {
            x = L.n[std::size_t(row_i * g.width + col_i)];
            rec.load_global(t, access, row_i * g.width + col_i, x, kConvInput);
          }
          ns[std::size_t(r * IN_X + c)] = x;
          rec.store_shared(t, access + 1, r * IN_X + c, x);
        }
      rec.work(t);
    }
  rec.end(ns);
  std::vector<float> out(std::size_t(BX * BY * C), 0.0f);
  rec.at(pts::coarse_2d_row);
  rec.begin(TracePhase::Compute, "each input row's K values in registers, added into the 8 outputs they touch");
  for (int ty = 0; ty < BY; ++ty)
    for (int tx = 0; tx < BX; ++tx) {
      const int t = ty * BX + tx;
      float* o = &out[std::size_t(t * C)];
      for (int rr = 0; rr < C + w - 1; ++rr) {
        for (int j = 0; j < w; ++j) {
          const int a = (ty * C + rr) * IN_X + tx + j;
          rec.load_shared(t, rr * w + j, a, ns[std::size_t(a)]);
        }
        for (int k = 0; k < C; ++k) {
          const int i = rr - k;
          if (i < 0 || i >= w) continue;
          for (int j = 0; j < w; ++j)
            o[k] += L.m[std::size_t(i * w + j)] * ns[std::size_t((ty * C + rr) * IN_X + tx + j)];
        }
      }
      rec.work(t);
    }
  rec.end(ns);
  rec.at(pts::coarse_2d_store);
  rec.begin(TracePhase::Store, "row_o < height && col_o < width: P[row_o][col_o] = output[k]");
  for (int ty = 0; ty < BY; ++ty)
    for (int tx = 0; tx < BX; ++tx) {
      const int t = ty * BX + tx;
      const I64 col_o = bx * TX + tx;
      bool wrote = false;
      for (int k = 0; k < C; ++k) {
        const I64 row_o = by * TY + ty * C + k;
        if (row_o >= g.height || col_o >= g.width) continue;
        L.p[std::size_t(row_o * g.width + col_o)] = out[std::size_t(t * C + k)];
        rec.store_global(t, k, row_o * g.width + col_o, out[std::size_t(t * C + k)], kConvOutput);
        wrote = true;
      }
      if (wrote) rec.work(t);
    }
  rec.end();
}

/// conv2d_register_tiled: no shared memory. Thread (tx, ty) owns outputs [x0, x0 + 4) x [y0, y0 + 8)
/// and walks the 8 + w - 1 input rows under them once; each row's values are loaded into registers
/// (width % 4 == 0: the aligned float4 chunks covering columns x0 - r .. x0 + 3 + r, one access per
/// chunk, 0 outside the image; otherwise one access per column) and added into every output row k
/// they touch with mask row i = rr - k, columns j ascending. One "load" and one "compute" step per
/// input row (the sliding window), then "store".
void register_2d(Launch& L, I64 bx, I64 by, Rec& rec) {
  const ConvGeometry& g = L.g;
  const int w = g.mask_width, r = w / 2, BX = g.block_x, BY = g.block_y;
  constexpr int RC = kConvRegCols, RR = kConvRegRows;
  const bool vec = g.width % 4 == 0;
  const int halo_chunks = vec ? (r + RC - 1) / RC : 0;
  const int nv = vec ? RC * (1 + 2 * halo_chunks) : RC + w - 1;
  const int off = vec ? RC * halo_chunks - r : 0;  // v[off + c] holds input column x0 - r + c
  const int threads = BX * BY;
  auto x0_of = [&](int t) { return (bx * BX + t % BX) * RC; };
  auto y0_of = [&](int t) { return (by * BY + t / BX) * RR; };
  auto active = [&](int t) { return x0_of(t) < g.width && y0_of(t) < g.height; };
  std::vector<float> out(std::size_t(threads * RR * RC), 0.0f);
  std::vector<float> v(std::size_t(threads * nv), 0.0f);
  namespace pts = trace_points::stevens_conv;
  for (int rr = 0; rr < RR + w - 1; ++rr) {
    rec.at(vec ? pts::register_2d_load_vec : pts::register_2d_load);
    rec.begin(TracePhase::Load,
              "input row y0 - " + std::to_string(r) + " + " + std::to_string(rr) +
                  (vec ? ": float4 chunks into registers (0 outside)" : ": one value per column (0 outside)"));
    for (int t = 0; t < threads; ++t) {
      if (!active(t)) continue;
      const I64 x0 = x0_of(t), row_i = y0_of(t) - r + rr;
      const bool row_in = row_i >= 0 && row_i < g.height;
      float* vt = &v[std::size_t(t * nv)];
      for (int c = 0; c < nv; ++c) {
        const I64 col = vec ? x0 - RC * halo_chunks + c : x0 - r + c;
        const int access = vec ? rr * (nv / RC) + c / RC : rr * nv + c;
        const bool in = row_in && col >= 0 && col < g.width;
        vt[c] = in ? L.n[std::size_t(row_i * g.width + col)] : 0.0f;
        if (in) rec.load_global(t, access, row_i * g.width + col, vt[c], kConvInput);
      }
      rec.work(t);
    }
    rec.end();
    rec.at(pts::register_2d_fma);
    rec.begin(TracePhase::Compute,
              "row " + std::to_string(rr) + " into outputs k with mask row i = " + std::to_string(rr) + " - k");
    for (int t = 0; t < threads; ++t) {
      if (!active(t)) continue;
      const float* vt = &v[std::size_t(t * nv)];
      const I64 x0 = x0_of(t), row_i = y0_of(t) - r + rr;
      bool any = false;
      for (int k = 0; k < RR; ++k) {
        const int i = rr - k;
        if (i < 0 || i >= w) continue;
        any = true;
        for (int j = 0; j < w; ++j)
          for (int q = 0; q < RC; ++q) {
            float& o = out[std::size_t((t * RR + k) * RC + q)];
            o += L.m[std::size_t(i * w + j)] * vt[off + q + j];
            const I64 col = x0 - r + q + j;
            const bool in = row_i >= 0 && row_i < g.height && col >= 0 && col < g.width;
            rec.add(t, in ? row_i * g.width + col : -1, o);
          }
      }
      if (any) rec.work(t);
    }
    rec.end();
  }
  rec.at(vec ? pts::register_2d_store_vec : pts::register_2d_store);
  rec.begin(TracePhase::Store, vec ? "y0 + k < height: P[y0 + k][x0 .. x0 + 3] = output[k] (one float4)"
                                   : "y0 + k < height, x0 + q < width: P[y0 + k][x0 + q] = output[k][q]");
  for (int t = 0; t < threads; ++t) {
    if (!active(t)) continue;
    const I64 x0 = x0_of(t), y0 = y0_of(t);
    for (int k = 0; k < RR && y0 + k < g.height; ++k)
      for (int q = 0; q < RC && x0 + q < g.width; ++q) {
        const float o = out[std::size_t((t * RR + k) * RC + q)];
        L.p[std::size_t((y0 + k) * g.width + x0 + q)] = o;
        rec.store_global(t, vec ? k : k * RC + q, (y0 + k) * g.width + x0 + q, o, kConvOutput);
      }
    rec.work(t);
  }
  rec.end();
}

// ---- Fast path for blocks away from the edges ------------------------------------------------

/// True when every output of block (bx, by) has its whole mask window inside the array: no ghost cell,
/// no bound check, no output past the edge. Block (bx, by) writes the output tile at (by * tile_y,
/// bx * tile_x) of tile_y x tile_x elements in every kernel of the lesson.
bool interior_block(const ConvGeometry& g, I64 bx, I64 by) {
  const I64 r = g.mask_width / 2;
  const I64 c0 = bx * g.tile_x, c1 = c0 + g.tile_x;  // columns [c0, c1)
  if (c0 - r < 0 || c1 - 1 + r >= g.width) return false;
  if (g.dims == 1) return true;
  const I64 r0 = by * g.tile_y, r1 = r0 + g.tile_y;
  return r0 - r >= 0 && r1 - 1 + r < g.height;
}

/// The outputs of an interior block as every kernel of the lesson computes them: a float accumulator
/// from 0, adding N x M for the mask taps in row-major order (1D: j ascending; 2D: i, then j). The kernels'
/// orders per output are exactly that (conv2d_tiled_coarse and conv2d_register_tiled add a row's taps
/// into several outputs, but each output still sees mask rows i ascending and columns j ascending), so
/// this equals the thread-level model bit for bit (tests: every convolution variant, awkward sizes).
/// Four adjacent outputs at a time in one SSE register (GCC vector extension): lane k does exactly the
/// scalar float multiply and add of output x + k, tap after tap.
void interior_outputs(Launch& L, I64 bx, I64 by) {
  typedef float v4 __attribute__((vector_size(16)));
  typedef double v4d __attribute__((vector_size(32)));
  const auto store = [](double* to, v4 a) {  // four float sums widened to double: exact
    const v4d d = __builtin_convertvector(a, v4d);
    std::memcpy(to, &d, sizeof d);
  };
  const ConvGeometry& g = L.g;
  const int w = g.mask_width, r = w / 2, taps_y = g.dims == 2 ? w : 1;
  const I64 c0 = bx * g.tile_x;
  const int cw = g.tile_x;
  const I64 rows = g.dims == 2 ? g.tile_y : 1;
  for (I64 yy = 0; yy < rows; ++yy) {
    const I64 y = g.dims == 2 ? by * g.tile_y + yy : 0;
    const float* top = L.n.data() + (g.dims == 2 ? (y - r) * g.width : 0) + c0 - r;  // tap (0, 0) of output c0
    double* dst = L.p.data() + y * g.width + c0;
    int x = 0;
    // Sixteen outputs at a time: four independent accumulators keep the adds' latency hidden.
    for (; x + 16 <= cw; x += 16) {
      v4 a0 = {0.0f, 0.0f, 0.0f, 0.0f}, a1 = a0, a2 = a0, a3 = a0;
      for (int i = 0; i < taps_y; ++i) {
        const float* row = top + i * g.width + x;
        const float* m = L.m.data() + i * w;
        for (int j = 0; j < w; ++j) {
          v4 v0, v1, v2, v3;
          std::memcpy(&v0, row + j, sizeof v0);
          std::memcpy(&v1, row + j + 4, sizeof v1);
          std::memcpy(&v2, row + j + 8, sizeof v2);
          std::memcpy(&v3, row + j + 12, sizeof v3);
          const v4 mj = {m[j], m[j], m[j], m[j]};
          a0 += v0 * mj;
          a1 += v1 * mj;
          a2 += v2 * mj;
          a3 += v3 * mj;
        }
      }
      store(dst + x, a0);
      store(dst + x + 4, a1);
      store(dst + x + 8, a2);
      store(dst + x + 12, a3);
    }
    for (; x + 4 <= cw; x += 4) {
      v4 acc = {0.0f, 0.0f, 0.0f, 0.0f};
      for (int i = 0; i < taps_y; ++i) {
        const float* row = top + i * g.width + x;
        const float* m = L.m.data() + i * w;
        for (int j = 0; j < w; ++j) {
          v4 v;
          std::memcpy(&v, row + j, sizeof v);
          const v4 mj = {m[j], m[j], m[j], m[j]};
          acc += v * mj;
        }
      }
      store(dst + x, acc);
    }
    for (; x < cw; ++x) {
      float acc = 0.0f;
      for (int i = 0; i < taps_y; ++i)
        for (int j = 0; j < w; ++j) acc += top[i * g.width + x + j] * L.m[std::size_t(i * w + j)];
      dst[x] = acc;
    }
  }
}

void check(const ConvGeometry& g, ConstSpan<float> input, const std::vector<float>& mask) {
  if (std::int64_t(input.size()) != g.outputs())
    throw std::invalid_argument("simulate_conv: " + std::to_string(input.size()) +
                                " input elements, the geometry has " + std::to_string(g.outputs()));
  const std::size_t taps = std::size_t(g.dims == 2 ? g.mask_width * g.mask_width : g.mask_width);
  if (mask.size() != taps)
    throw std::invalid_argument("simulate_conv: the mask holds " + std::to_string(mask.size()) + " coefficients, not " +
                                std::to_string(taps));
}

}  // namespace

HostVector<double> simulate_conv(const ConvGeometry& g, ConstSpan<float> input, const std::vector<float>& mask,
                                 std::int64_t trace_block, Trace* trace) {
  check(g, input, mask);
  if (trace && (trace_block < 0 || trace_block >= g.blocks()))
    throw std::invalid_argument("simulate_conv: block index " + std::to_string(trace_block) +
                                " is outside the grid of " + std::to_string(g.blocks()) + " blocks");
  // The 1D kernels read N[i] for every thread of the grid: a zero-padded copy then; 2D ones check bounds.
  const std::size_t size = std::size_t(std::max(g.capacity, g.outputs()));
  HostVector<float> padded;
  if (size > input.size()) {
    padded.resize(size);  // zero pages: only the input's part is written, by the host threads
    parallel_chunks(std::int64_t(input.size()), std::int64_t(1) << 16,
                    [&](I64 b, I64 e, I64) { std::copy(input.begin() + b, input.begin() + e, padded.begin() + b); });
  }
  const ConstSpan<float> n = padded.empty() ? input : ConstSpan<float>(padded);
  HostVector<double> p(size);  // zero pages, first written by the blocks' threads
  Launch L{g, n, mask, p};
  Trace unused;
  kit::Recorder recorder(trace ? *trace : unused);
  if (trace) {
    trace->block_index = int(trace_block);
    trace->block_size = g.threads();
  }
  // Blocks are independent (each writes its own output tile, all read N and M): they run on the host
  // threads. The traced block and the blocks at the edges run the thread-level model; the others take
  // the fast path when it is on (fast_paths(), sim.hpp).
  const bool fast = fast_paths();
  parallel_chunks(g.blocks(), 16, [&](I64 first, I64 last, I64) {
    for (I64 b = first; b < last; ++b) {
      const I64 by = b / g.grid_x, bx = b % g.grid_x;
      const bool traced = trace && b == trace_block;
      if (fast && !traced && interior_block(g, bx, by)) {
        interior_outputs(L, bx, by);
        continue;
      }
      Rec rec(traced ? &recorder : nullptr, trace_points::stevens_conv::kFile);
      switch (g.kind) {
        case ConvKind::Basic1D: basic_1d(L, bx, true, rec); break;
        case ConvKind::Const1D: basic_1d(L, bx, false, rec); break;
        case ConvKind::Tiled1D: tiled_1d(L, bx, rec); break;
        case ConvKind::TiledCache1D: tiled_cache_1d(L, bx, rec); break;
        case ConvKind::Basic2D: basic_2d(L, bx, by, rec); break;
        case ConvKind::Tiled2D: tiled_2d(L, bx, by, rec); break;
        case ConvKind::Coarse2D: coarse_2d(L, bx, by, rec); break;
        case ConvKind::Register2D: register_2d(L, bx, by, rec); break;
        case ConvKind::None: break;  // conv_geometry refuses variants without a kernel
      }
    }
  });
  p.resize(std::size_t(g.outputs()));
  return p;
}

std::vector<ConvThreadRole> conv_tile_map(const ConvGeometry& g, std::int64_t bx, std::int64_t by) {
  if (bx < 0 || bx >= g.grid_x || by < 0 || by >= g.grid_y)
    throw std::invalid_argument("conv_tile_map: block (" + std::to_string(bx) + ", " + std::to_string(by) +
                                ") is outside the grid");
  std::vector<ConvThreadRole> roles(std::size_t(g.threads()));
  const int w = g.mask_width, rad = w / 2;
  auto inside = [&](I64 row, I64 col) { return row >= 0 && row < g.height && col >= 0 && col < g.width; };
  for (int ty = 0; ty < g.block_y; ++ty)
    for (int tx = 0; tx < g.block_x; ++tx) {
      ConvThreadRole& r = roles[std::size_t(ty * g.block_x + tx)];
      switch (g.kind) {
        case ConvKind::Basic1D:
        case ConvKind::Const1D: {
          r.computes = true;
          r.writes = bx * g.block_x + tx < g.width;
          break;
        }
        case ConvKind::TiledCache1D: {
          r.load = ConvLoad::Internal;
          r.loads = 1;
          r.computes = true;
          r.writes = bx * g.block_x + tx < g.width;
          break;
        }
        case ConvKind::Tiled1D: {
          const int B = g.block_x, t = tx;
          r.load = ConvLoad::Internal;
          r.loads = 1;
          auto halo = [&](I64 index) {
            const bool in = index >= 0 && index < g.width;
            r.load = in ? ConvLoad::Halo : ConvLoad::Ghost;
            r.loads += in;
          };
          if (t >= B - rad) halo((bx - 1) * B + t);
          if (t < rad) halo((bx + 1) * B + t);
          r.computes = true;
          r.writes = bx * B + t < g.width;
          break;
        }
        case ConvKind::Basic2D: {
          r.computes = r.writes = inside(by * g.block_y + ty, bx * g.block_x + tx);
          break;
        }
        case ConvKind::Tiled2D: {
          const int T = g.tile_x;
          const I64 row_i = by * T + ty - rad, col_i = bx * T + tx - rad;
          const bool own = ty >= rad && ty < T + rad && tx >= rad && tx < T + rad;
          if (!inside(row_i, col_i))
            r.load = ConvLoad::Ghost;
          else
            r.load = own ? ConvLoad::Internal : ConvLoad::Halo;
          r.loads = inside(row_i, col_i);
          r.computes = ty < T && tx < T;
          r.writes = r.computes && inside(by * T + ty, bx * T + tx);
          break;
        }
        case ConvKind::Register2D: {  // no shared memory: loads go to registers
          const I64 x0 = (bx * g.block_x + tx) * kConvRegCols, y0 = (by * g.block_y + ty) * kConvRegRows;
          r.load = ConvLoad::None;
          if (x0 < g.width && y0 < g.height) {
            for (I64 row = y0 - rad; row < y0 + kConvRegRows + rad; ++row)
              for (I64 col = x0 - rad; col < x0 + kConvRegCols + rad; ++col) r.loads += inside(row, col);
            r.computes = r.writes = true;
          }
          break;
        }
        case ConvKind::Coarse2D: {
          const int IN_X = g.tile_x + w - 1, IN_Y = g.tile_y + w - 1;
          const I64 row_start = by * g.tile_y - rad, col_start = bx * g.tile_x - rad;
          bool first = true;
          for (int rr = ty; rr < IN_Y; rr += g.block_y)
            for (int c = tx; c < IN_X; c += g.block_x) {
              const bool in = inside(row_start + rr, col_start + c);
              r.loads += in;
              if (first) {
                const bool own = rr >= rad && rr < g.tile_y + rad && c >= rad && c < g.tile_x + rad;
                r.load = !in ? ConvLoad::Ghost : (own ? ConvLoad::Internal : ConvLoad::Halo);
                first = false;
              }
            }
          r.computes = true;
          for (int k = 0; k < g.coarsen; ++k)
            r.writes = r.writes || inside(by * g.tile_y + ty * g.coarsen + k, bx * g.tile_x + tx);
          break;
        }
        case ConvKind::None: break;  // conv_geometry refuses variants without a kernel
      }
    }
  return roles;
}

}  // namespace ws::sim
