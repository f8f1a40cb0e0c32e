// The whole grid at once: per warp and step, one small number for every warp of a launch (active
// lanes, n-way bank conflict, sectors per global load request), from the sim model's trace of each
// block, and the background job that computes them. No ImGui, no GL: the Grid view and tests read it.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "trace/trace.hpp"
#include "types.hpp"
#include "variant.hpp"

namespace ws::controller {

/// What a grid cell is coloured by.
enum class GridMetric : int { ActiveLanes = 0, BankWays = 1, Sectors = 2, Count = 3 };
/// "active lanes", "bank-conflict ways", "sectors per request".
const char* grid_metric_name(GridMetric m);
/// One line on what a cell's number is, for the legend's tooltip.
const char* grid_metric_help(GridMetric m);

/// Most warps the Grid view takes (2^16): 2,048 blocks of 1,024 threads, 8,192 of 256.
constexpr std::int64_t kMaxGridWarps = std::int64_t(1) << 16;
/// Steps kept per warp; later steps of a block are not shown (traces fold long loops well below this).
constexpr int kGridStepStride = 64;
/// A cell value meaning "this block has no such step" (ragged tails) or "not computed yet".
constexpr std::uint8_t kGridNoStep = 255;

/// Without threads (the web page): the Grid view's job computes blocks for about this long per frame.
constexpr double kGridSliceMs = 30;

/// Per-warp, per-step values of every block of one launch. Cell (warp, step) of metric m is
/// values[m][warp * kGridStepStride + step]; warp = block * warps_per_block + warp in block.
/// Active lanes: 0..32 (lanes in the step's working threads). Bank ways: the warp's highest n-way
/// conflict over the step's shared accesses, 0 = no shared access (analyses.hpp). Sectors: the most
/// 32-byte sectors one of the warp's global load requests touched in the step, 0 = no global load.
struct GridSummary {
  std::string variant;
  std::int64_t n = 0;
  LaunchConfig launch;
  int warps_per_block = 0;
  int steps = 0;                         ///< most steps of any computed block (<= kGridStepStride)
  bool steps_cut = false;                ///< some block had more than kGridStepStride steps
  std::vector<std::string> step_labels;  ///< block 0's "phase: label" per step
  std::vector<std::uint8_t> values[int(GridMetric::Count)];
  std::vector<std::uint8_t> block_done;  ///< 1 once the block's cells are filled
  std::int64_t blocks_done = 0;
  std::int64_t warps() const { return launch.grid * warps_per_block; }
  /// The cell value, or kGridNoStep outside the grid.
  std::uint8_t at(GridMetric m, std::int64_t warp, int step) const;
};

/// Sizes `g` for `launch` (every cell kGridNoStep, no block done). Throws std::length_error past kMaxGridWarps.
void init_grid_summary(GridSummary& g, const std::string& variant, std::int64_t n, const LaunchConfig& launch);

/// Fills block `block`'s cells of `g` from `t`, the trace of that block (t.block_size threads).
void summarize_block(const Trace& t, std::int64_t block, GridSummary& g);

/// What a grid is computed for (the selection and the parameters; the full n, not the trace's window).
struct GridKey {
  std::string variant;
  std::int64_t n = 0;
  int block = 0;          ///< 0 = the variant's default
  std::int64_t grid = 0;  ///< 0 = the launch rules' default
  DType type = DType::Int32;
  std::string input = "random";  ///< generator name or file path
  std::uint64_t seed = 1;
  bool exclusive = false;
  double keep = 0.5;
  bool operator==(const GridKey& o) const {
    return variant == o.variant && n == o.n && block == o.block && grid == o.grid && type == o.type &&
           input == o.input && seed == o.seed && exclusive == o.exclusive && keep == o.keep;
  }
  bool operator!=(const GridKey& o) const { return !(*this == o); }
};

/// Runs the sim model once per block of the launch `key` asks for, tracing that block, and summarizes
/// each trace into a GridSummary, on a background thread. Every cell is the model's own trace of its
/// block; the cost is one model run per block (blocks x n element steps), so the view fills in as blocks finish.
class GridJob {
 public:
  GridJob();
  GridJob(const GridJob&) = delete;
  GridJob& operator=(const GridJob&) = delete;
  ~GridJob();
  /// Starts computing `key` (stops a job in progress). Refusals (no model, too many warps, launch
  /// rules, convolution) come back at once through error().
  void start(const VariantInfo& v, const GridKey& key);
  /// Asks the thread to stop and waits for it.
  void stop();
  /// The key of the last start(), or nullptr.
  const GridKey* key() const { return started_ ? &key_ : nullptr; }
  /// Copies the summary when it changed since `version` (then returns true and updates `version`).
  bool take(GridSummary& out, std::uint64_t& version) const;
  std::string error() const;
  bool running() const { return running_.load(); }
  /// Blocks done and in all (0 / 0 before the launch is known).
  void progress(std::int64_t& done, std::int64_t& total) const;
  /// Builds without threads (the web page, WS_NO_THREADS): computes the next blocks of the running job for
  /// about `budget_ms` of this thread's time, at least one block, so the page draws between slices and the
  /// view's progress bar moves. Elsewhere the job's thread does the work and this returns at once.
  void pump(double budget_ms);

 private:
  struct Work;  ///< the running job's input and launch, and the next block
  void run(VariantInfo v, GridKey key);
  /// Prepares the input and the launch, and publishes the empty summary. False (error() set) on a refusal.
  bool begin(const VariantInfo& v, const GridKey& key);
  /// Computes and summarizes the next `count` blocks. False when none is left (or it failed: error() set).
  bool advance(std::int64_t count);
  std::unique_ptr<Work> work_;
  GridKey key_;
  bool started_ = false;
  std::thread thread_;
  std::atomic<bool> cancel_{false}, running_{false};
  mutable std::mutex mu_;
  GridSummary summary_;        ///< guarded by mu_
  std::uint64_t version_ = 0;  ///< guarded by mu_; bumped on every change
  std::string error_;          ///< guarded by mu_
};

/// The Grid view's state (in AppState): what cells are coloured by, the warps shown, and the job with
/// its latest summary.
struct GridState {
  GridMetric metric = GridMetric::ActiveLanes;
  double warp0 = 0, warp1 = 0;                  ///< warps shown, top to bottom; warp1 <= warp0: all of them
  double initial_warp0 = 0, initial_warp1 = 0;  ///< warp0 / warp1 of every new grid (--grid-warps; 0, 0 = all)
  std::shared_ptr<GridJob> job = std::make_shared<GridJob>();
  GridSummary data;           ///< the job's latest summary
  std::uint64_t version = 0;  ///< of `data`
  std::string error;          ///< why there is no grid ("" = none)
  double last_take = -1e9;    ///< `now` of the last copy of a running job's summary
  /// Starts the job when `key` (or the variant) changed and copies its latest summary: at once when
  /// it finished, at most every 0.25 s of `now` (seconds) while it runs. Returns whether `data` changed.
  /// Without threads (the web page) it first computes the job's next slice (GridJob::pump, kGridSliceMs).
  bool refresh(const VariantInfo* v, const GridKey& key, double now);
  /// Every block of the launch is in `data`.
  bool complete() const { return data.launch.grid > 0 && data.blocks_done == data.launch.grid; }
};

/// Computes the whole summary on the calling thread (tests, the frame benchmark). Returns "" or why not.
std::string compute_grid(const VariantInfo& v, const GridKey& key, GridSummary& out);

}  // namespace ws::controller
