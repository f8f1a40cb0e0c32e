// Parameters of the array patterns (scan, convolution, atomics): one struct that every layer passes
// along inside RunRequest (docs/patterns.md). Reductions ignore it.
#pragma once
#include <cstdint>
#include <string>

namespace ws {

/// Options of the non-reduction patterns, as given on the CLI (`run --exclusive --mask-width 5 ...`)
/// or in the GUI. Each pattern validates the fields it uses (PatternSpec::validate).
struct PatternParams {
  bool exclusive = false;              ///< scan: exclusive (out[0] = 0) instead of inclusive
  int mask_width = 5;                  ///< convolution: mask width (odd), 2D masks are mask_width^2
  int tile = 0;                        ///< convolution: output tile width (0 = the variant's default)
  std::int64_t width = 0, height = 0;  ///< convolution 2D: image size (0 = from n / the input file)
  std::string mask = "box";            ///< convolution: "box", "gauss" or the path of a text file
  double keep_fraction = 0.5;          ///< filters: fraction of the values kept (0..1)
  std::string output_path;             ///< write the whole output array as text here ("" = do not)
};

}  // namespace ws
