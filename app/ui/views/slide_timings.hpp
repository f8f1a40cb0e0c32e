// Timings the lecture slides print for their own GPUs (GTX 1060 in seed 000, GTX 280 in seed 002),
// read from assets/slides/timings.json, so that Compare can show them beside this GPU's numbers,
// marked as the slide's. Data, not measurements of warpscope's.
#pragma once
#include <string>
#include <vector>

namespace ws::ui {

/// One number of a slide's table.
struct SlideTiming {
  std::string variant;            ///< the variant it belongs to ("epita.reduce3")
  std::string row;                ///< the slide's own row label
  double value = 0;               ///< in `unit`
  std::string unit;               ///< "ms" or "GB/s"
  std::string device;             ///< the slide's GPU ("GTX 1060")
  std::string workload;           ///< what was timed ("sum of 132 M integers")
  std::string seed, slide, note;  ///< where it is printed, and what to know about it
};

/// Reads a timings file (format "warpscope-slide-timings", version 1: tables of seed, slide, device,
/// workload, unit "ms" or "GB/s", optional note, rows of variant, row, value > 0). Returns "" or one
/// line naming the file and the field; `out` is then empty. Unknown variant ids are refused.
std::string load_slide_timings(const std::string& path, std::vector<SlideTiming>& out);

/// assets_dir()/slides/timings.json, read once; `error` (may be null) gets its problem ("" = none).
const std::vector<SlideTiming>& slide_timings(std::string* error = nullptr);

/// The slide's number for `variant` in `timings`, or nullptr.
const SlideTiming* find_slide_timing(const std::vector<SlideTiming>& timings, const std::string& variant);

/// "7.02 ms" / "77.21 GB/s": the value as Compare's cell shows it, two decimals as the slides print
/// them (the GPU is in the caption and the tooltip).
std::string slide_timing_text(const SlideTiming& t);

/// "GTX 1060, sum of 132 M integers: 7.02 ms (slide "Performance summary", seed
/// "Reduction Pattern", Carlinet and Chazalon, Fall 2023; row "Global atomicAdd")" and the note: the cell's tooltip.
std::string slide_timing_source(const SlideTiming& t);

}  // namespace ws::ui
