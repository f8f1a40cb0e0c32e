// The library baseline: CUB's device-wide sum from the CUDA Toolkit (kernels/reduction/cub_reduce.cu).
// Every lesson ends with it so students can compare their kernels with a tuned library.
#include "registry.hpp"

namespace ws {

/// The lesson's reduction variants in teaching order, and their place among the tables (registry.hpp):
/// the library baseline, after every seed.
LessonVariants cub_reduction_variants() {
  VariantInfo v;
  v.id = "cub.reduce";
  v.lesson = "cub";
  v.pattern = PatternKind::Reduction;
  v.title = "CUB DeviceReduce::Sum";
  v.seed = "CUDA Toolkit (CUB)";
  v.slide = "cub::DeviceReduce::Sum";
  v.description =
      "The CUDA Toolkit's tuned device-wide sum: CUB picks tile size, items per thread and grid for the GPU, "
      "reduces tiles into per-block partials and folds them in a second kernel (one kernel for small inputs). "
      "It is the baseline the lessons' kernels are measured against.";
  v.op = ReduceOp::Sum;
  v.baseline = true;
  v.rules.default_block = 256;
  v.rules.grid_stride = true;
  v.rules.note = "CUB chooses its own launch shape, so the requested block and grid are ignored";
  return {TeachingPlace{100, 0}, {v}};
}

}  // namespace ws
