// Convolution kernels of Stevens CS 677 Lecture 6 (Mordohai), "CS 677 Lecture 6", Mordohai, in
// teaching order, each followed by its host launcher. float32 throughout, as on the slides.
//
// The 1D kernels are the slides' code: one output per thread, ghost cells 0, P[i] written and the
// internal element N[i] loaded without a bound check. The backend sizes both buffers to the whole
// grid (ConvGeometry::capacity) and zero-pads the input, so the extra threads of the last block read
// zeros (which are also the ghost value) and write outputs nobody reads.
// Changes everywhere: pointers to data a kernel only reads are const; the shared arrays the slides
// size with TILE_SIZE + MAX_MASK_WIDTH - 1 at compile time are dynamic shared memory sized for the
// run's tile and mask; the 2D kernels take the mask width as a template parameter so that their
// mask loops unroll (the slide writes the 5 of KERNEL_SIZE = 5 into the code).
// No instrumented build (no GPU-recorded traces): the WS_AT markers only name the statements whose
// lines the sim models (app/core/patterns/convolution/conv_sim.cpp) put in their traces.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/arch_paths.cuh"
#include "common/check_cuda.hpp"
#include "common/dynamic_shared.cuh"
#include "common/trace_record.cuh"
#include "convolution/conv_launch.hpp"

namespace ws::kernels {
namespace {
WS_T(namespace ws_points = ::ws::trace_points::stevens_conv;)

constexpr int MAX_MASK_WIDTH = 15;  // ws::kMaxMaskWidth

// Slide "How to Use Constant Memory" / "Host Code": the mask lives in constant memory, copied there
// once with cudaMemcpyToSymbol. One array serves both shapes: M[j] in 1D, Mc[i][j] = M[i * w + j] in 2D.
__constant__ float M[MAX_MASK_WIDTH * MAX_MASK_WIDTH];

int as_int(std::int64_t v) { return static_cast<int>(v); }  // sizes <= 2^30: the slides' int indices

// ---------------------------------------------------------------------------------------------------
// stevens.conv1d_basic. Seed 001, slide "Simple 1D Covolution Kernel".
// One thread per output: P[i] is the weighted sum of the Mask_Width inputs centred on i; inputs
// outside [0, Width) are ghost cells and count as 0 (the if skips them). Every input is read from
// global memory Mask_Width times, and the mask M is an ordinary global array.
__global__ void convolution_1D_basic_kernel(const float* N, const float* Mg, float* P, int Mask_Width, int Width) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  float Pvalue = 0;
  int N_start_point = i - (Mask_Width / 2);
  for (int j = 0; j < Mask_Width; j++) {
    if (N_start_point + j >= 0 && N_start_point + j < Width) {
      Pvalue += N[N_start_point + j] * Mg[j];
      WS_T(WS_AT(basic_1d_compute);)
    }
  }
  P[i] = Pvalue;
  WS_T(WS_AT(basic_1d_store);)
}

int run_conv1d_basic(const ConvArgs& a) {
  convolution_1D_basic_kernel<<<unsigned(a.g.grid_x), a.g.block_x, 0, a.stream>>>(
      a.input, a.mask, a.output, a.g.mask_width, as_int(a.g.width));
  WS_LAUNCHED();
  return 1;
}

// ---------------------------------------------------------------------------------------------------
// stevens.conv1d_const. Seed 001, slides "Access Pattern for M" and "How to Use Constant Memory".
// Changed from conv1d_basic: M is never written by the kernel and all threads read M[j] in the same
// order, so it moves to __constant__ memory; a warp's reads of one M[j] become one broadcast from
// the constant cache instead of global loads.
__global__ void convolution_1D_const_kernel(const float* N, float* P, int Mask_Width, int Width) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  float Pvalue = 0;
  int N_start_point = i - (Mask_Width / 2);
  for (int j = 0; j < Mask_Width; j++) {
    if (N_start_point + j >= 0 && N_start_point + j < Width) {
      Pvalue += N[N_start_point + j] * M[j];
      WS_T(WS_AT(const_1d_compute);)
    }
  }
  P[i] = Pvalue;
  WS_T(WS_AT(const_1d_store);)
}

int run_conv1d_const(const ConvArgs& a) {
  convolution_1D_const_kernel<<<unsigned(a.g.grid_x), a.g.block_x, 0, a.stream>>>(
      a.input, a.output, a.g.mask_width, as_int(a.g.width));
  WS_LAUNCHED();
  return 1;
}

// ---------------------------------------------------------------------------------------------------
// stevens.conv1d_tiled. Seed 001, slides "Loading Left Halo", "Loading Internal Elements",
// "Loading Right Halo" and the full convolution_1D_tiled_kernel.
// Changed from conv1d_const: the block first copies its input tile into shared memory N_ds: the
// last n = Mask_Width/2 threads load the left halo (the previous tile's last n elements), every
// thread loads its internal element, the first n threads load the right halo; halo cells outside
// the array are set to 0. After the barrier each thread reads its Mask_Width inputs from N_ds, so
// each input element comes from global memory about once per block instead of Mask_Width times.
// (blockIdx.x - 1) is unsigned arithmetic that wraps for block 0; converted to int it gives the
// negative index the slide tests with halo_index_left < 0.
__global__ void convolution_1D_tiled_kernel(const float* N, float* P, int Mask_Width, int Width) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float* N_ds = dynamic_shared<float>();  // TILE_SIZE + Mask_Width - 1 elements, TILE_SIZE = blockDim.x

  int n = Mask_Width / 2;

  int halo_index_left = (blockIdx.x - 1) * blockDim.x + threadIdx.x;
  if (threadIdx.x >= blockDim.x - n) {
    WS_T(WS_AT_NEXT(tiled_1d_left);)
    N_ds[threadIdx.x - (blockDim.x - n)] =
        (halo_index_left < 0) ? 0 : N[halo_index_left];
  }

  N_ds[n + threadIdx.x] = N[blockIdx.x * blockDim.x + threadIdx.x];
  WS_T(WS_AT(tiled_1d_internal);)

  int halo_index_right = (blockIdx.x + 1) * blockDim.x + threadIdx.x;
  if (threadIdx.x < n) {
    WS_T(WS_AT_NEXT(tiled_1d_right);)
    N_ds[n + blockDim.x + threadIdx.x] =
        (halo_index_right >= Width) ? 0 : N[halo_index_right];
  }

  __syncthreads();

  float Pvalue = 0;
  for (int j = 0; j < Mask_Width; j++) {
    Pvalue += N_ds[threadIdx.x + j] * M[j];
    WS_T(WS_AT(tiled_1d_compute);)
  }
  P[i] = Pvalue;
  WS_T(WS_AT(tiled_1d_store);)
}

int run_conv1d_tiled(const ConvArgs& a) {
  convolution_1D_tiled_kernel<<<unsigned(a.g.grid_x), a.g.block_x, std::size_t(a.g.shared_bytes), a.stream>>>(
      a.input, a.output, a.g.mask_width, as_int(a.g.width));
  WS_LAUNCHED();
  return 1;
}

// ---------------------------------------------------------------------------------------------------
// stevens.conv1d_tiled_cache. Seed 001, slides "Ghost Cells" and convolution_1D_tiled_cache_kernel.
// Changed from conv1d_tiled: shared memory holds only the block's own TILE_SIZE elements. The halo
// is read straight from N in global memory, betting that the neighbouring blocks have just pulled
// those elements into the L1/L2 caches; simpler loading code, no halo threads.
__global__ void convolution_1D_tiled_cache_kernel(const float* N, float* P, int Mask_Width, int Width) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float* N_ds = dynamic_shared<float>();  // TILE_SIZE = blockDim.x elements

  N_ds[threadIdx.x] = N[i];
  WS_T(WS_AT(tiled_cache_1d_load);)

  __syncthreads();

  int This_tile_start_point = blockIdx.x * blockDim.x;
  int Next_tile_start_point = (blockIdx.x + 1) * blockDim.x;
  int N_start_point = i - (Mask_Width / 2);
  float Pvalue = 0;
  for (int j = 0; j < Mask_Width; j++) {
    int N_index = N_start_point + j;
    if (N_index >= 0 && N_index < Width) {
      if ((N_index >= This_tile_start_point) && (N_index < Next_tile_start_point)) {
        Pvalue += N_ds[threadIdx.x + j - (Mask_Width / 2)] * M[j];
        WS_T(WS_AT(tiled_cache_1d_shared);)
      } else {
        Pvalue += N[N_index] * M[j];
        WS_T(WS_AT(tiled_cache_1d_global);)
      }
    }
  }
  P[i] = Pvalue;
  WS_T(WS_AT(tiled_cache_1d_store);)
}

int run_conv1d_tiled_cache(const ConvArgs& a) {
  convolution_1D_tiled_cache_kernel<<<unsigned(a.g.grid_x), a.g.block_x, std::size_t(a.g.shared_bytes), a.stream>>>(
      a.input, a.output, a.g.mask_width, as_int(a.g.width));
  WS_LAUNCHED();
  return 1;
}

// ---------------------------------------------------------------------------------------------------
// stevens.conv2d_basic. Seed 001, slides "2D Convolution - Inside Cells", "Boundary Condition" and
// "Ghost Cells" (no code on the slides: the 1D basic kernel written for rows and columns).
// One thread per output pixel of a 2D grid of 2D blocks; ghost cells outside the image count as 0;
// the mask is a global array read Mask_Width^2 times per pixel.
__global__ void convolution_2D_basic_kernel(const float* N, const float* Mg, float* P, int Mask_Width, int Width,
                                            int Height) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < Height && col < Width) {
    float Pvalue = 0;
    int N_start_row = row - (Mask_Width / 2);
    int N_start_col = col - (Mask_Width / 2);
    for (int i = 0; i < Mask_Width; i++) {
      for (int j = 0; j < Mask_Width; j++) {
        int r = N_start_row + i, c = N_start_col + j;
        if (r >= 0 && r < Height && c >= 0 && c < Width) {
          Pvalue += N[r * Width + c] * Mg[i * Mask_Width + j];
          WS_T(WS_AT(basic_2d_compute);)
        }
      }
    }
    P[row * Width + col] = Pvalue;
    WS_T(WS_AT(basic_2d_store);)
  }
}

int run_conv2d_basic(const ConvArgs& a) {
  const dim3 grid(unsigned(a.g.grid_x), unsigned(a.g.grid_y)), block(unsigned(a.g.block_x), unsigned(a.g.block_y));
  convolution_2D_basic_kernel<<<grid, block, 0, a.stream>>>(a.input, a.mask, a.output, a.g.mask_width,
                                                            as_int(a.g.width), as_int(a.g.height));
  WS_LAUNCHED();
  return 1;
}

// ---------------------------------------------------------------------------------------------------
// stevens.conv2d_tiled. Seed 001, slides "Tiling P", "Input tiles need to be larger than output
// tiles", "Dealing with Mismatch", "Shifting from output coordinates to input coordinates",
// "Taking Care of Boundaries", "Some threads do not participate in calculating output", "Some
// threads do not write output" and "Setting Block Size".
// Changed from conv2d_basic: the block matches the INPUT tile, BLOCK_SIZE = TILE_SIZE +
// KERNEL_SIZE - 1 per side, and every thread loads one element (0 for ghost cells) into Ns. After
// the barrier only the TILE_SIZE x TILE_SIZE threads with ty, tx < TILE_SIZE compute an output from
// Ns and the constant-memory mask Mc; the others only loaded (control divergence, as the slides say).
// The slides' snippets leave out the __syncthreads() between loading and computing; the kernel needs
// it. The output write sits inside the computing threads' if (as the closing brace on "Some threads
// do not write output" shows): a non-computing thread would otherwise overwrite the next tile's pixel.
// row_i = row_o - 2 of the slide is row_o - KERNEL_SIZE/2 for any mask width.
template <int KERNEL_SIZE>
__global__ void convolution_2D_tiled_kernel(const float* N, float* P, int Width, int Height, int TILE_SIZE) {
  float* Ns = dynamic_shared<float>();  // Ns[BLOCK_SIZE][BLOCK_SIZE], BLOCK_SIZE = blockDim.x = blockDim.y
  const int BLOCK_SIZE = blockDim.x;
  int tx = threadIdx.x;
  int ty = threadIdx.y;
  int row_o = blockIdx.y * TILE_SIZE + ty;
  int col_o = blockIdx.x * TILE_SIZE + tx;

  int row_i = row_o - KERNEL_SIZE / 2;
  int col_i = col_o - KERNEL_SIZE / 2;

  float output = 0.0f;

  if ((row_i >= 0) && (row_i < Height) &&
      (col_i >= 0) && (col_i < Width)) {
    Ns[ty * BLOCK_SIZE + tx] = N[row_i * Width + col_i];
    WS_T(WS_AT(tiled_2d_load);)
  } else {
    Ns[ty * BLOCK_SIZE + tx] = 0.0f;
    WS_T(WS_AT(tiled_2d_ghost);)
  }

  __syncthreads();

  if (ty < TILE_SIZE && tx < TILE_SIZE) {
#pragma unroll
    for (int i = 0; i < KERNEL_SIZE; i++) {
#pragma unroll
      for (int j = 0; j < KERNEL_SIZE; j++) {
        output += M[i * KERNEL_SIZE + j] * Ns[(i + ty) * BLOCK_SIZE + j + tx];  // Mc[i][j] * Ns[i+ty][j+tx]
        WS_T(WS_AT(tiled_2d_compute);)
      }
    }
    if (row_o < Height && col_o < Width)
      P[row_o * Width + col_o] = output;
    WS_T(WS_AT(tiled_2d_store);)
  }
}

// ---------------------------------------------------------------------------------------------------
// stevens.conv2d_tiled_coarse. Seed 001, slide "More on Sizes": "Input tile sizes could be
// N * TILE_SIZE + (KERNEL_SIZE - 1) by having each thread calculate N input points (thread
// coarsening)".
// Changed from conv2d_tiled: every thread of a 32 x 8 block computes a column of COARSEN = 8 output
// pixels, so the block's output tile is 32 x 64 and its input tile (32 + K - 1) x (64 + K - 1),
// loaded cooperatively row by row. A thread walks the COARSEN + K - 1 input rows under its column
// once, keeping each row's K values in registers and adding them into every output they touch, so
// shared-memory loads per output fall from K^2 to (COARSEN + K - 1) K / COARSEN (25 -> 7.5 for K = 5)
// and no thread only loads. A warp is one row of 32 threads: conflict-free shared accesses and
// 128-byte output rows.
// Loads (tuned beyond the slide, same elements to the same threads as the sim model): from sm_80 the
// block's input tile is copied with cp.async, global memory straight into Ns without a register round
// trip, with src-size 0 for ghost cells, which the copy fills with zeros; Turing (sm_75) has no
// cp.async and takes a plain load and store (kernels/common/arch_paths.cuh). The loops run on
// compile-time bounds (the launcher fixes the 32 x 8 block) and unroll, so every copy of a thread is
// in flight before the first wait: about 10 KB per block instead of one load per thread at a time
// (docs/device/h200-conv-bench.md has the measured difference).
template <int KERNEL_SIZE>
__global__ void __launch_bounds__(256)
    convolution_2D_tiled_coarse_kernel(const float* __restrict__ N, float* __restrict__ P, int Width, int Height) {
  constexpr int COARSEN = kConvCoarsen;
  constexpr int BLOCK_X = 32, BLOCK_Y = 8;
  constexpr int TILE_X = BLOCK_X, TILE_Y = BLOCK_Y * COARSEN;
  constexpr int IN_X = TILE_X + KERNEL_SIZE - 1, IN_Y = TILE_Y + KERNEL_SIZE - 1;
  __shared__ float Ns[IN_Y][IN_X];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row_start = blockIdx.y * TILE_Y - KERNEL_SIZE / 2;
  const int col_start = blockIdx.x * TILE_X - KERNEL_SIZE / 2;

#pragma unroll
  for (int r0 = 0; r0 < IN_Y; r0 += BLOCK_Y) {
    const int r = r0 + ty;
    if (r < IN_Y) {
      const int row_i = row_start + r;
      const bool row_in = row_i >= 0 && row_i < Height;
#pragma unroll
      for (int c0 = 0; c0 < IN_X; c0 += BLOCK_X) {
        const int c = c0 + tx;
        if (c < IN_X) {
          const int col_i = col_start + c;
          const bool in = row_in && col_i >= 0 && col_i < Width;
          copy_or_zero_async(&Ns[r][c], in ? N + (row_i * Width + col_i) : N, in);
          WS_T(WS_AT(coarse_2d_load);)
        }
      }
    }
  }
  copy_async_wait_all();

  __syncthreads();

  float output[COARSEN];
#pragma unroll
  for (int k = 0; k < COARSEN; k++) output[k] = 0.0f;
#pragma unroll
  for (int rr = 0; rr < COARSEN + KERNEL_SIZE - 1; rr++) {
    float v[KERNEL_SIZE];
#pragma unroll
    for (int j = 0; j < KERNEL_SIZE; j++) v[j] = Ns[ty * COARSEN + rr][tx + j];
    WS_T(WS_AT(coarse_2d_row);)
#pragma unroll
    for (int k = 0; k < COARSEN; k++) {
      const int i = rr - k;  // the mask row that input row rr meets for output k
      if (i >= 0 && i < KERNEL_SIZE) {
#pragma unroll
        for (int j = 0; j < KERNEL_SIZE; j++) output[k] += M[i * KERNEL_SIZE + j] * v[j];
      }
    }
  }

  const int col_o = blockIdx.x * TILE_X + tx;
#pragma unroll
  for (int k = 0; k < COARSEN; k++) {
    const int row_o = blockIdx.y * TILE_Y + ty * COARSEN + k;
    if (row_o < Height && col_o < Width) P[row_o * Width + col_o] = output[k];
    WS_T(WS_AT(coarse_2d_store);)
  }
}

template <int K>
void launch_conv2d_tiled(const ConvArgs& a) {
  const dim3 grid(unsigned(a.g.grid_x), unsigned(a.g.grid_y)), block(unsigned(a.g.block_x), unsigned(a.g.block_y));
  convolution_2D_tiled_kernel<K><<<grid, block, std::size_t(a.g.shared_bytes), a.stream>>>(
      a.input, a.output, as_int(a.g.width), as_int(a.g.height), a.g.tile_x);
}

template <int K>
void launch_conv2d_coarse(const ConvArgs& a) {
  const dim3 grid(unsigned(a.g.grid_x), unsigned(a.g.grid_y)), block(32, 8);
  convolution_2D_tiled_coarse_kernel<K><<<grid, block, 0, a.stream>>>(a.input, a.output, as_int(a.g.width),
                                                                      as_int(a.g.height));
}

/// Calls Launch<K> for the run's mask width (odd, 1..15).
template <template <int> class Launch>
void by_mask_width(const ConvArgs& a, const char* id) {
  switch (a.g.mask_width) {
    case 1: Launch<1>::run(a); break;
    case 3: Launch<3>::run(a); break;
    case 5: Launch<5>::run(a); break;
    case 7: Launch<7>::run(a); break;
    case 9: Launch<9>::run(a); break;
    case 11: Launch<11>::run(a); break;
    case 13: Launch<13>::run(a); break;
    case 15: Launch<15>::run(a); break;
    default:
      throw std::runtime_error(std::string(id) + ": no kernel for mask width " + std::to_string(a.g.mask_width));
  }
  WS_LAUNCHED();
}

template <int K>
struct Tiled2D {
  static void run(const ConvArgs& a) { launch_conv2d_tiled<K>(a); }
};
template <int K>
struct Coarse2D {
  static void run(const ConvArgs& a) { launch_conv2d_coarse<K>(a); }
};

int run_conv2d_tiled(const ConvArgs& a) {
  by_mask_width<Tiled2D>(a, "stevens.conv2d_tiled");
  return 1;
}

int run_conv2d_tiled_coarse(const ConvArgs& a) {
  if (a.g.block_x != 32 || a.g.block_y != 8)
    throw std::runtime_error("stevens.conv2d_tiled_coarse runs 32 x 8 blocks only");
  by_mask_width<Coarse2D>(a, "stevens.conv2d_tiled_coarse");
  return 1;
}

// ---------------------------------------------------------------------------------------------------
// stevens.conv2d_register_tiled. Tuned beyond the slides: no kernel of the slides reaches the device
// copy bandwidth, because conv2d_tiled spends K^2 shared-memory loads per output
// (docs/device/h200-conv2d-bound.md).
// Changed from conv2d_tiled_coarse: no shared memory at all. Thread (tx, ty) of a 32 x 4 block owns a
// 4 x 8 block of outputs: REG_COLS = 4 adjacent columns x0 = (bx * 32 + tx) * 4 and REG_ROWS = 8 rows
// y0 = (by * 4 + ty) * 8, so a block's output tile is 128 x 32. The thread walks the REG_ROWS +
// KERNEL_SIZE - 1 input rows under its columns once, top to bottom (a sliding window along y: each
// input row is loaded once per thread column), and adds each row into every output row it touches:
// output row k meets input row rr with mask row i = rr - k, columns j ascending, so every output sums
// Mc[i][j] * N[...] in the slides' order i, j. The row's REG_COLS + KERNEL_SIZE - 1 values come
// straight from global memory into registers: VEC (width a multiple of 4) loads the aligned float4
// chunks that cover them (the thread's own chunk and ceil(r / 4) on each side, r = KERNEL_SIZE / 2;
// chunks outside the image are 0), so a warp reads 512 contiguous bytes per row and the halo chunks
// are its neighbours' (L1/L2 hits); otherwise one guarded scalar load per value. The loops unroll,
// so the loads of many rows are in flight at once, the mask stays in constant memory (FFMA with a
// constant operand) and each output row leaves as one float4 store (VEC) or guarded scalars.
// Measured against the device copy: docs/device/h200-conv-bench.md.
template <int KERNEL_SIZE, bool VEC>
__global__ void __launch_bounds__(32 * 4) convolution_2D_register_tiled_kernel(const float* __restrict__ N,
                                                                               float* __restrict__ P, int Width,
                                                                               int Height) {
  constexpr int REG_COLS = kConvRegCols, REG_ROWS = kConvRegRows, BLOCK_Y = 4;
  constexpr int r = KERNEL_SIZE / 2;
  constexpr int HALO_CHUNKS = VEC ? (r + REG_COLS - 1) / REG_COLS : 0;  // float4 chunks per side
  constexpr int NV = VEC ? REG_COLS * (1 + 2 * HALO_CHUNKS) : REG_COLS + KERNEL_SIZE - 1;
  constexpr int OFF = VEC ? REG_COLS * HALO_CHUNKS - r : 0;  // v[OFF + c] holds input column x0 - r + c
  static_assert(REG_COLS == 4, "the vector path loads float4 chunks");
  const int x0 = (blockIdx.x * 32 + threadIdx.x) * REG_COLS;
  const int y0 = (blockIdx.y * BLOCK_Y + threadIdx.y) * REG_ROWS;
  if (x0 >= Width || y0 >= Height) return;  // no barrier below: threads past the edge just leave

  float output[REG_ROWS][REG_COLS];
#pragma unroll
  for (int k = 0; k < REG_ROWS; k++)
#pragma unroll
    for (int q = 0; q < REG_COLS; q++) output[k][q] = 0.0f;

#pragma unroll
  for (int rr = 0; rr < REG_ROWS + KERNEL_SIZE - 1; rr++) {
    const int row_i = y0 - r + rr;
    const bool row_in = row_i >= 0 && row_i < Height;
    const float* row = N + std::size_t(row_in ? row_i : 0) * Width;
    float v[NV];
    if (VEC) {
#pragma unroll
      for (int c = 0; c < NV / 4; c++) {
        const int col = x0 + 4 * (c - HALO_CHUNKS);
        WS_T(WS_AT_NEXT(register_2d_load_vec);)
        const float4 q = (row_in && col >= 0 && col < Width) ? __ldg(reinterpret_cast<const float4*>(row + col))
                                                             : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        v[4 * c] = q.x;
        v[4 * c + 1] = q.y;
        v[4 * c + 2] = q.z;
        v[4 * c + 3] = q.w;
      }
    } else {
#pragma unroll
      for (int c = 0; c < NV; c++) {
        const int col = x0 - r + c;
        v[c] = (row_in && col >= 0 && col < Width) ? __ldg(row + col) : 0.0f;
        WS_T(WS_AT(register_2d_load);)
      }
    }
#pragma unroll
    for (int k = 0; k < REG_ROWS; k++) {
      const int i = rr - k;  // the mask row that input row rr meets for output row k
      if (i >= 0 && i < KERNEL_SIZE) {
#pragma unroll
        for (int j = 0; j < KERNEL_SIZE; j++)
#pragma unroll
          for (int q = 0; q < REG_COLS; q++) output[k][q] += M[i * KERNEL_SIZE + j] * v[OFF + q + j];
        WS_T(WS_AT(register_2d_fma);)
      }
    }
  }

#pragma unroll
  for (int k = 0; k < REG_ROWS; k++) {
    if (y0 + k >= Height) break;
    float* out = P + std::size_t(y0 + k) * Width + x0;
    if (VEC) {
      *reinterpret_cast<float4*>(out) = make_float4(output[k][0], output[k][1], output[k][2], output[k][3]);
      WS_T(WS_AT(register_2d_store_vec);)
    } else {
#pragma unroll
      for (int q = 0; q < REG_COLS; q++)
        if (x0 + q < Width) out[q] = output[k][q];
      WS_T(WS_AT(register_2d_store);)
    }
  }
}

template <int K>
void launch_conv2d_register(const ConvArgs& a) {
  const dim3 grid(unsigned(a.g.grid_x), unsigned(a.g.grid_y)), block(32, 4);
  // The vector path needs 16-byte aligned rows: a width that is a multiple of 4 and aligned buffers
  // (cudaMalloc gives 256 bytes); the sim model picks its path by the width alone.
  const bool vec = a.g.width % 4 == 0;
  if (vec && ((reinterpret_cast<std::uintptr_t>(a.input) | reinterpret_cast<std::uintptr_t>(a.output)) % 16))
    throw std::runtime_error("stevens.conv2d_register_tiled: buffers must be 16-byte aligned");
  if (vec)
    convolution_2D_register_tiled_kernel<K, true><<<grid, block, 0, a.stream>>>(a.input, a.output, as_int(a.g.width),
                                                                                as_int(a.g.height));
  else
    convolution_2D_register_tiled_kernel<K, false><<<grid, block, 0, a.stream>>>(a.input, a.output, as_int(a.g.width),
                                                                                 as_int(a.g.height));
}

template <int K>
struct Register2D {
  static void run(const ConvArgs& a) { launch_conv2d_register<K>(a); }
};

int run_conv2d_register_tiled(const ConvArgs& a) {
  if (a.g.block_x != 32 || a.g.block_y != 4)
    throw std::runtime_error("stevens.conv2d_register_tiled runs 32 x 4 blocks only");
  by_mask_width<Register2D>(a, "stevens.conv2d_register_tiled");
  return 1;
}

}  // namespace

void upload_conv_mask(const float* host_mask, int count, cudaStream_t stream) {
  if (count < 1 || count > MAX_MASK_WIDTH * MAX_MASK_WIDTH)
    throw std::runtime_error("upload_conv_mask: " + std::to_string(count) +
                             " coefficients do not fit the constant mask");
  WS_CUDA(cudaMemcpyToSymbolAsync(M, host_mask, std::size_t(count) * sizeof(float), 0, cudaMemcpyHostToDevice, stream));
}

std::vector<ConvLauncherEntry> stevens_conv_launchers() {
  return {
      {"stevens.conv1d_basic", run_conv1d_basic, {}},
      {"stevens.conv1d_const", run_conv1d_const, {}},
      {"stevens.conv1d_tiled", run_conv1d_tiled, {}},
      {"stevens.conv1d_tiled_cache", run_conv1d_tiled_cache, {}},
      {"stevens.conv2d_basic", run_conv2d_basic, {}},
      {"stevens.conv2d_tiled", run_conv2d_tiled, {}},
      {"stevens.conv2d_tiled_coarse",
       run_conv2d_tiled_coarse,
       {"input tile copied with cp.async (sm_80 path)",
        "input tile copied with plain loads and stores (pre-sm_80 path)"}},
      {"stevens.conv2d_register_tiled", run_conv2d_register_tiled, {}},
  };
}

}  // namespace ws::kernels
