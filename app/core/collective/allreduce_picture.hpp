// What the All-reduce view draws (issue 30), computed without ImGui so tests can check every number:
// the ring or tree schedule on n GPUs step by step (which chunk moves from which GPU to which, what each
// chunk sums after the step), each step's time (measured in a bundled warpscope-allreduce report when it
// holds the run, else the sim's alpha-beta model), and the message-size sweep of ring against tree with
// the crossover. Sources: collective/schedule.hpp (the schedules), contributors.hpp (the sums),
// allreduce_sim.hpp (the model), allreduce_json.hpp (the reports).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "collective/allreduce_run.hpp"
#include "collective/contributors.hpp"
#include "collective/link_model.hpp"
#include "collective/schedule.hpp"

namespace ws::collective {

/// The sizes the view offers and the sweep covers: 4 KiB (2^12 bytes) to 1 GiB (2^30 bytes) per GPU.
inline constexpr int kPictureMinBytesLog2 = 12;
inline constexpr int kPictureMaxBytesLog2 = 30;

/// A chunk's partial sum as the view labels it: "g0+g1+g2"; "all 8" when it holds every GPU; "-" when empty.
std::string sum_label(GpuMask m, int gpus);
/// The same, short enough for a narrow box: "g3" for one GPU, "3 of 8" for several, "all 8" for every GPU.
std::string sum_label_short(GpuMask m, int gpus);
/// The shortest, for the smallest boxes (8 chunks at 2x text): "g3", "3/8", "all".
std::string sum_label_tiny(GpuMask m, int gpus);

/// One step as drawn: its phase, its moves, what every chunk of every GPU sums after it
/// (after[gpu][chunk], shape gpus x chunks) and before it (before, the same shape), and its time in ms.
struct PictureStep {
  Phase phase = Phase::ReduceScatter;
  std::vector<ChunkMove> moves;
  std::vector<std::vector<GpuMask>> before, after;
  double ms = 0;
};

/// The whole picture of one all-reduce: `algorithm` on `gpus` GPUs, `bytes` per GPU (float32: length =
/// bytes / 4). `measured` is true when the step times come from a report (then `devices` names its GPUs,
/// "NVIDIA H200 x2"), false when they are the sim's. `source` is the one line the view shows above the
/// picture: "simulated: alpha-beta model of NVLink 4 x18 (nothing measured)" or "measured on NVIDIA H200
/// x2 (report)". total_ms is the sum of the steps' ms; algbw/busbw: schedule.hpp's formulas (GB/s).
struct AllReducePicture {
  Algorithm algorithm = Algorithm::Ring;
  int gpus = 0;
  int chunks = 0;
  std::int64_t bytes = 0;
  bool measured = false;
  std::string devices;
  std::string source;
  std::vector<PictureStep> steps;
  double total_ms = 0;
  double algbw_gbs = 0;
  double busbw_gbs = 0;
};

/// The picture of `algorithm` on `gpus` GPUs (2..kMaxGpus) with `bytes` per GPU (a multiple of 4, >= 4).
/// A result of `report` is used when it is of this method (Ring or Tree), GPU count and length, ran, was
/// not simulated, is correct and has one step_ms per step; otherwise the times are model_step_ms over
/// `link`. `origin` names where `report` comes from in `source`: "measured on NVIDIA H200 x2 (bundled report)",
/// "(this session)". Throws std::invalid_argument for gpus outside 2..kMaxGpus or bad bytes.
AllReducePicture make_picture(Algorithm algorithm, int gpus, std::int64_t bytes,
                              const std::vector<AllReduceResult>& report, const LinkModel& link,
                              const std::string& origin = "bundled report");

/// The GPUs of a result as one phrase: "NVIDIA H200 x2", "NVIDIA H100, NVIDIA H200"; "GPUs" when unnamed.
std::string device_phrase(const std::vector<std::string>& names);

/// One size of the sweep: bus bandwidth (GB/s, nccl-tests' definition) of the ring and of the tree.
struct SweepPoint {
  std::int64_t bytes = 0;
  double ring_busbw_gbs = 0;
  double tree_busbw_gbs = 0;
};

/// The message-size sweep of ring against tree on `gpus` GPUs: `points` in doubling sizes, `crossover`
/// the index of the first point where the ring's busbw is above the tree's after a point where it was not
/// (-1 when the ring leads everywhere or nowhere: on two GPUs it leads everywhere). `measured`, `source`
/// as in AllReducePicture.
struct AllReduceSweep {
  int gpus = 0;
  std::vector<SweepPoint> points;
  int crossover = -1;
  bool ring_leads_everywhere = false;
  bool measured = false;
  std::string source;
};

/// The sweep from 2^from_log2 to 2^to_log2 bytes per GPU (kPictureMinBytesLog2 <= from <= to <=
/// kPictureMaxBytesLog2). When `report` holds correct, non-simulated Ring and Tree results of this GPU
/// count at two or more common sizes, those sizes are the points (measured); otherwise every doubling
/// size from the model (model_ms over `link`). Throws std::invalid_argument for out-of-range arguments.
AllReduceSweep make_sweep(int gpus, int from_log2, int to_log2, const std::vector<AllReduceResult>& report,
                          const LinkModel& link);

/// Every warpscope-allreduce file directly in `dir` (*.json whose first 4 KiB name the format), in file
/// name order, their results concatenated into `out`. Other JSON files (single-GPU reports) are skipped
/// without a word; an all-reduce file that does not read adds its one line to `problems`. A missing
/// `dir` gives no results and no problem. Returns the files read (their names, no folder).
std::vector<std::string> load_allreduce_reports(const std::string& dir, std::vector<AllReduceResult>& out,
                                                std::vector<std::string>& problems);

/// Why the lesson's GPU variants cannot run here, in one line short enough for one line of the view, or ""
/// when they can or may (2 or more GPUs, or `gpus` -1: not known yet). `device_available`: a CUDA device was
/// opened; `gpus`: how many are visible (the worker's hello says). "GPU variants cannot run here: no CUDA
/// device; steps and times from the sim or a bundled report", "... only 1 GPU visible, all-reduce needs 2 or
/// more; ...".
std::string gpu_variants_line(bool device_available, int gpus);

/// Bytes as the view prints them: "4 KiB", "256 MiB", "1 GiB" (powers of two), else "<n> B".
std::string bytes_text(std::int64_t bytes);

}  // namespace ws::collective
