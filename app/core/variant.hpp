// A variant: one kernel (or host algorithm) of a lesson, with its metadata and launch rules.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "pattern_kind.hpp"
#include "types.hpp"

namespace ws {

struct Input;

/// Smallest block the app offers to kernels with no warp-level code (block-wide trees, guarded
/// one-thread-per-element kernels): the slides draw their trees on 8 and 16 elements (seed 000,
/// "Efficient Reduction Trees"; seed 001, "A Kogge-Stone Parallel Scan Algorithm"). Such kernels would
/// run with fewer threads too, but a tree of fewer than 8 leaves shows nothing one of 8 does not.
constexpr int kSmallestTeachingBlock = 8;

/// What launches a variant accepts. Checked by check_launch() before any device is touched.
struct LaunchRules {
  int default_block = 256;    ///< threads per block when the request gives none
  int min_block = 32;         ///< smallest block the kernel is correct for
  int max_block = 1024;       ///< largest block (hardware limit 1024)
  bool pow2_block = false;    ///< tree loops halve the stride: block must be a power of two
  bool warp_multiple = true;  ///< block must be a multiple of 32 (warp-level code)
  int fixed_block = 0;        ///< non-zero: the only block size the slide's code works with (reduce8: 32)
  int items_per_thread = 1;   ///< input elements per thread per block window (grid = ceil(n / (block * items)))
  bool grid_stride = false;   ///< kernel loops over the input with a grid-size stride, so any grid works
  int max_grid = 0;           ///< non-zero: largest grid the algorithm accepts (e.g. second pass of one block)
  bool int_only = false;      ///< only int32; `int_only_reason` says why for this variant
  std::string
      int_only_reason;         ///< int_only variants: why float32 is refused, e.g. "CUDA's atomicMax has no float form"
  bool bytes_input = false;    ///< reads bytes (DType::UInt8, histograms): an int32 request becomes uint8
  std::int64_t default_n = 0;  ///< non-zero: n when the request gives none (the race demo's 1000 x 1000)
  std::int64_t max_n = 0;  ///< non-zero: largest n (e.g. O(n^2) work, or one block's section); also caps the default n
  std::string note;        ///< one sentence for students: why these rules
};

/// Which kernel of the convolution lesson a variant runs (seed 001); conv_geometry() derives its tile
/// geometry (block, grid, output tile, shared bytes) from it. None: not a convolution.
enum class ConvKind { None, Basic1D, Const1D, Tiled1D, TiledCache1D, Basic2D, Tiled2D, Coarse2D, Register2D };

/// True for the kinds that convolve a 2D image.
constexpr bool conv_kind_is_2d(ConvKind k) {
  return k == ConvKind::Basic2D || k == ConvKind::Tiled2D || k == ConvKind::Coarse2D || k == ConvKind::Register2D;
}

/// The three families of the atomics lesson (seed 003). Counter: every thread adds 1 to one int
/// (cs121.race, cs121.atomic_counter); Histogram: bytes into 256 bins; Filter: copy the positive int32
/// values. None: not an atomics variant.
enum class AtomicsKind { None, Counter, Histogram, Filter };

/// Everything the app knows about a variant apart from its kernel.
/// Source of each: the seed file (`seed`) and slide (`slide`) it comes from.
struct VariantInfo {
  std::string id;      ///< lesson-qualified id, e.g. "epita.reduce3"
  std::string lesson;  ///< lesson id, e.g. "epita"
  /// Its pattern family: reduction, scan, ... (pattern_kind.hpp); its PatternSpec is pattern_of(v).
  PatternKind pattern = PatternKind::Reduction;
  std::string title;        ///< short title shown in lists
  std::string seed;         ///< seed file name, e.g. "000_27438c05e47b0926.txt"
  std::string slide;        ///< slide title (or post section) the code follows
  std::string description;  ///< two or three sentences: what the variant does
  ReduceOp op = ReduceOp::Sum;
  LaunchRules rules;
  bool racy = false;           ///< deliberately racy: wrong answers are the lesson, not an app failure
  bool baseline = false;       ///< a library baseline (CUB) that others are compared against
  bool beyond_slides = false;  ///< warpscope's own variant after a lesson: no seed or slide to cite
  bool cpu_only = false;       ///< runs on the CPU (sequential reference variants)
  bool writes_input = false;   ///< kernel overwrites its input: the backend restores it before every launch
  bool cautionary = false;     ///< reproduces a bug of the slide on purpose; `caution` explains it
  std::string caution;         ///< explanation shown next to a cautionary or lock-step-dependent variant
  /// Why a copy of this variant's kernel ("Edit a copy") cannot do what the variant does ("" = it can): a
  /// launcher a one-kernel contract cannot reproduce.
  std::string not_editable;
  /// The dynamic shared memory a copy of this variant's kernel needs, as the kernel header's `shared=` value
  /// (bytes: a number, block*K, items*block*K or a sum; docs/your-kernel.md), where the contract's default
  /// (block x items x element bytes) is not it; "" = the default.
  std::string copy_shared;
  /// Input the GUI starts this variant with ("" = random): the racy ones use "ones", so that the
  /// expected sum is n and every lost addition shows (seed 000, slide "Data Race").
  std::string default_input;
  ConvKind conv = ConvKind::None;           ///< convolution variants: the kernel, hence the tile geometry
  AtomicsKind atomics = AtomicsKind::None;  ///< atomics variants: counter, histogram or filter
  /// Filters whose output slots come from atomics: any order is right, so outputs are compared as multisets.
  bool any_order = false;
  /// Reports store the sim trace of block 0 and the GPU records it from the kernels' trace build (the
  /// reductions and scans: the Tree, Warps and Banks views step through them).
  bool traceable = false;
  /// The launch that traces record: the first that reads the input (cs121's max variants: 1, after
  /// init_max only sets the accumulators).
  int traced_launch = 0;
  /// Why the GPU cannot record this variant's steps although its kernels could be instrumented ("" when
  /// it can or when the reason is the general one: host code, a library call, no trace build).
  std::string no_gpu_trace;
  /// Cautionary variants only: what the slide's code really computes for this input and launch
  /// (e.g. reduce8's overlapping windows), so the GPU can be checked to reproduce the bug exactly.
  double (*slide_model)(const Input& in, const LaunchConfig& launch) = nullptr;
};

}  // namespace ws
