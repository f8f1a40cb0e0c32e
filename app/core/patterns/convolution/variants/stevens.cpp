// Convolution variants of Stevens CS 677 Lecture 6 (Mordohai): "CS 677 Lecture 6", Mordohai, in
// teaching order. Kernels: kernels/convolution/stevens_conv.cu; launch shapes: conv_geometry.cpp.
#include "registry.hpp"

namespace ws {

namespace {

VariantInfo make(const char* id, const char* title, const char* slide, const char* description, const char* note) {
  VariantInfo v;
  v.id = id;
  v.lesson = "stevens";
  v.pattern = PatternKind::Convolution;
  v.title = title;
  v.seed = "001_9970031c1e4143ff.txt";
  v.slide = slide;
  v.description = description;
  v.rules.default_block = 256;
  v.rules.min_block = 1;
  v.rules.warp_multiple = false;
  v.rules.note = note;
  return v;
}

const char* k1DNote =
    "One output per thread; --tile sets the block (default 256) and the grid covers the signal. float32 only, "
    "odd mask widths 1 to 15.";

}  // namespace

/// The lesson's convolution variants in teaching order, and their place among the tables (registry.hpp):
/// seed 001, whose lecture teaches convolution first.
LessonVariants stevens_convolution_variants() {
  std::vector<VariantInfo> t;
  t.push_back(make("stevens.conv1d_basic", "1D basic (ghost cells 0)", "Simple 1D Covolution Kernel",
                   "One thread per output computes the weighted sum of the Mask_Width inputs centred on it; inputs "
                   "outside the signal are ghost cells and count as 0. Every input is read from global memory "
                   "Mask_Width times, and so is the mask.",
                   k1DNote));
  t.back().conv = ConvKind::Basic1D;
  t.push_back(make("stevens.conv1d_const", "1D, mask in constant memory", "How to Use Constant Memory",
                   "The same kernel with the mask in __constant__ memory: no thread writes it and every thread reads "
                   "M[j] in the same order, so a warp's reads of M[j] are one broadcast from the constant cache.",
                   k1DNote));
  t.back().conv = ConvKind::Const1D;
  t.push_back(
      make("stevens.conv1d_tiled", "1D tiled, halo in shared memory", "Tiled 1D Convolution Basic Idea",
           "Each block copies its tile and the halo on both sides into shared memory (the last Mask_Width/2 "
           "threads load the left halo, the first ones the right halo, ghost cells are 0), waits at a barrier "
           "and then convolves from shared memory: each input comes from global memory about once per block.",
           "One output per thread and the tile is the block (default 256); the halo needs at least Mask_Width/2 "
           "threads. float32, odd mask widths 1 to 15."));
  t.back().conv = ConvKind::Tiled1D;
  t.push_back(make("stevens.conv1d_tiled_cache", "1D tiled, halo through the caches", "Ghost Cells",
                   "Shared memory holds only the block's own tile; halo elements are read from global memory, where "
                   "the neighbouring blocks have just brought them into the L1/L2 caches. Simpler loading, a branch "
                   "per mask element.",
                   "One output per thread and the tile is the block (default 256). float32, odd mask widths 1 to 15."));
  t.back().conv = ConvKind::TiledCache1D;
  t.push_back(
      make("stevens.conv2d_basic", "2D basic (ghost cells 0)", "2D Convolution - Ghost Cells",
           "One thread per pixel, in 2D blocks of tile x tile threads, sums Mask_Width^2 products of "
           "neighbours and mask coefficients, both read from global memory; pixels outside the image are 0.",
           "--tile T gives T x T threads per block (default 16, at most 32). float32, odd mask widths 1 to 15."));
  t.back().conv = ConvKind::Basic2D;
  t.push_back(
      make("stevens.conv2d_tiled", "2D tiled, block = tile + mask - 1", "Setting Block Size",
           "The block matches the input tile (TILE_SIZE + KERNEL_SIZE - 1 threads per side): every thread loads "
           "one pixel (0 outside the image) into shared memory, then only the TILE_SIZE x TILE_SIZE threads "
           "compute, from shared memory and the constant-memory mask; the others only loaded.",
           "--tile T with T + mask width - 1 <= 32 (1024 threads); the default makes the block 32 wide, one warp "
           "per row. float32, odd mask widths 1 to 15."));
  t.back().conv = ConvKind::Tiled2D;
  t.push_back(
      make("stevens.conv2d_tiled_coarse", "2D tiled, 8 outputs per thread", "More on Sizes",
           "Thread coarsening, which the slides mention as the way to bigger tiles: a 32 x 8 block loads a "
           "(32 + K - 1) x (64 + K - 1) input tile and each thread computes a column of 8 outputs, keeping each "
           "input row's K values in registers. Shared loads per output drop from K^2 to (8 + K - 1) K / 8. The "
           "tile is copied with cp.async from sm_80, with plain loads and stores on Turing (sm_75); a run says which.",
           "Fixed 32 x 8 blocks and a 32 x 64 output tile. float32, odd mask widths 1 to 15."));
  t.back().conv = ConvKind::Coarse2D;
  t.push_back(
      make("stevens.conv2d_register_tiled", "2D register-tiled, 4 x 8 outputs per thread (tuned)", "More on Sizes",
           "Tuned beyond the slides, for the device-copy bar: no shared memory. Each thread of a 32 x 4 block "
           "owns 4 adjacent columns by 8 rows of outputs and slides down the 8 + K - 1 input rows under them "
           "once, loading each row straight into registers (float4 chunks when the width is a multiple of 4, "
           "the halo from the neighbours' chunks through L1/L2) and adding it into every output row it touches "
           "with the constant-memory mask, in the slides' order. Zero shared-memory loads per output instead of "
           "K^2; each output row leaves as one float4 store.",
           "Fixed 32 x 4 blocks and a 128 x 32 output tile. float32, odd mask widths 1 to 15; widths that are "
           "not a multiple of 4 take scalar loads and stores."));
  t.back().conv = ConvKind::Register2D;
  for (auto& v : t) v.rules.max_block = 1024;
  return {TeachingPlace{1, 0}, t};
}

}  // namespace ws
