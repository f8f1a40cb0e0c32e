// The all-reduce's message-size sweep (issue 30), drawn by the All-reduce tab and, in the lesson "Reduction
// across GPUs", by Plots: the bus bandwidth of the ring and the tree from 4 KiB to 1 GiB per GPU, latency-bound
// to bandwidth-bound, with the crossover marked (collective::make_sweep computes it: a bundled report's
// measurement when it holds both at two sizes or more, else the sim's alpha-beta model, said in the title).
#pragma once
#include <imgui.h>

#include <string>
#include <vector>

#include "collective/allreduce_run.hpp"

namespace ws::ui {

/// The warpscope-allreduce reports bundled in assets/allreduce, read on first use and again when the data
/// folder changes (files in name order; `problems`: one line per file that could not be read).
struct BundledAllReduce {
  std::vector<collective::AllReduceResult> results;
  std::vector<std::string> files, problems;
};
const BundledAllReduce& bundled_allreduce();

class AllReduceSweepPlot {
 public:
  /// Draws the sweep on `gpus` GPUs (2..8) in `size` pixels. Below about 220 px of height (large text) it
  /// writes the plot's numbers as text instead: the crossover, and both bandwidths at 2^`here_log2` bytes.
  void draw(int gpus, int here_log2, ImVec2 size);

 private:
  std::vector<double> x_, ring_y_, tree_y_, cross_x_, cross_y_;  ///< the plot's buffers (it keeps pointers)
};

}  // namespace ws::ui
