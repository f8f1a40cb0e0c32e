// Where the step-through views get their Trace: the sim model of the selected variant run on a small
// grid (1 to 8 blocks) of the parameters' input, traced at one block, plus the pure layout maths the views draw from
// (tree nodes, lanes to banks). No ImGui here, so tests/gui can check it without a window.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "trace/trace.hpp"
#include "types.hpp"
#include "variant.hpp"

namespace ws::controller {

/// Most blocks a step-through trace covers: enough for the lessons' points across blocks (cascade
/// passes, multi-pass sums, privatized histograms) while every block stays a click away.
constexpr int kMaxTraceBlocks = 8;

/// What a trace is computed for; a change of any field recomputes it.
struct TraceKey {
  std::string variant;
  std::int64_t n = 0;   ///< the parameters' n (the trace uses min(n, one block window)); 0 = all of a file
  int block = 0;        ///< 0 = the variant's default
  int block_index = 0;  ///< the traced block (0 .. blocks - 1)
  int blocks = 1;       ///< the grid the trace covers: 1 = one block's window, up to kMaxTraceBlocks
  DType type = DType::Int32;
  std::string input;  ///< "random", "ones", "sequence", or the path of a file of numbers (or image)
  std::uint64_t seed = 1;
  bool use_recorded = true;    ///< prefer a GPU recording stored in the open report
  std::string report_created;  ///< the open report's stamp ("" = none): a new report re-picks the trace
  bool exclusive = false;      ///< scans: inclusive or exclusive (the pattern parameter that changes the trace)
  double keep = 0.5;           ///< filters: fraction of the random values kept (--keep)
  std::string input_label;     ///< how messages name the input ("typed 3 1 7 0", "file x.txt"); "" = `input`
  /// Trace block_index of the launch over all n elements (a block opened from the Grid view), not of
  /// a window of `blocks` blocks; `grid` is then the requested grid (0 = the launch rules').
  bool whole_launch = false;
  std::int64_t grid = 0;
  /// 0, or while the editor holds an edit of the variant (KernelEdit::steps_are_the_edits) 1 + its step trace's
  /// generation: the views show the edit's steps or why there are none.
  int edit_trace = 0;
  bool operator==(const TraceKey& o) const {
    return variant == o.variant && n == o.n && block == o.block && block_index == o.block_index && blocks == o.blocks &&
           edit_trace == o.edit_trace && whole_launch == o.whole_launch && grid == o.grid && type == o.type &&
           input == o.input && seed == o.seed && use_recorded == o.use_recorded && report_created == o.report_created &&
           exclusive == o.exclusive && keep == o.keep;
  }
  bool operator!=(const TraceKey& o) const { return !(*this == o); }
};

/// The trace the views draw, the step shown and the player. Lives in AppState.
struct TraceState {
  std::optional<TraceKey> key;  ///< what `trace` / `why_none` were computed for
  std::optional<Trace> trace;   ///< empty when there is none (then why_none says why)
  std::string why_none;
  int step = 0;  ///< index into trace->steps
  bool playing = false;
  float speed = 2.f;          ///< steps per second while playing
  double clock = 0;           ///< seconds accumulated towards the next step
  int bank_warp = 0;          ///< the warp the banks view shows
  int blocks = 1;             ///< blocks the trace covers (1 .. kMaxTraceBlocks): TraceKey::blocks
  int block_index = 0;        ///< the block the views show: TraceKey::block_index
  bool whole_launch = false;  ///< block_index is of the whole launch (TraceKey::whole_launch), set by the Grid view
  bool show_future_values = false;  ///< the tree shows the numbers of steps not reached yet
  bool use_recorded = true;         ///< show the open report's GPU recording of the variant when it has one
  bool recorded_available = false;  ///< the open report holds a recording of the selected variant
  std::string origin;               ///< "sim" (computed now) or "report" (stored in the open report)
  /// One line: which trace is shown and why ("sim: the recording is for n = 1,024, block 256; you asked block 16").
  std::string origin_note;
  int pending_step = -1;  ///< a step asked for (--step, a scene) before the trace was computed; -1 none

  int steps() const { return trace ? int(trace->steps.size()) : 0; }
  const Step* current() const {
    return trace && step >= 0 && step < steps() ? &trace->steps[std::size_t(step)] : nullptr;
  }
  /// Moves by `delta` steps, clamped; stops the player at the last step.
  void move(int delta);
  /// Advances the player by `seconds` of wall time.
  void tick(double seconds);
  /// `[` / `]` and the header's block arrows: the previous / next block of the trace's grid. Past the
  /// last block, while the trace covers fewer than `asked_n` elements, the trace grows by one block
  /// (up to kMaxTraceBlocks). Returns whether the block changed (the trace is then recomputed).
  bool switch_block(int delta, std::int64_t asked_n);
};

/// The configuration a trace is of, as the header and the recording check name it:
/// "n = 1,024, block 256, int32, random seed 1" (", block index K" when K > 0).
std::string describe_trace_config(const Trace& t);

/// Whether a trace stored in a report (recorded on the GPU) shows what `key` asks for: the same variant,
/// block size, block index, type and input (seed too for random), and block 0 reading the same elements
/// (both cover one whole window of the block, or the same n; a grid-stride recording only when its block
/// made a single pass). Returns "" when it does, else what differs in the asker's words
/// ("you asked block 16, input sequence").
std::string recording_mismatch(const VariantInfo& v, const Trace& recorded, const TraceKey& key);

/// Grid-stride passes a multi-block trace of a grid-stride kernel covers at most (n = blocks x
/// window x this), so each thread's cascade of several elements shows.
constexpr int kTracePassesShown = 4;

/// The n and requested grid a trace of `key` runs: key.whole_launch: all `asked` elements with
/// key.block and key.grid. Otherwise one block (key.blocks = 1): n = min(key.n, one
/// window), the launch rules' grid. key.blocks = K > 1: n = min(key.n, K windows) with the rules'
/// grid, except grid-stride kernels, which launch K blocks on n = min(key.n, K windows x
/// kTracePassesShown). `asked` is key.n, or the file's length for a file input.
LaunchConfig trace_launch_request(const VariantInfo& v, const TraceKey& key, std::int64_t asked, std::int64_t& n);

/// Gives `recorded` (a trace stored without source lines) the source file, step lines and op lines
/// of `model`, its sim trace of the same run. Only for traces compare_traces() found equal: each
/// recorded op takes the line of the model op with the same thread, kind, space, access, address,
/// operand and buffer.
void adopt_model_lines(Trace& recorded, const Trace& model);

/// Runs the sim model of `v` on the elements trace_launch_request() picks from the key's input and
/// traces block key.block_index. Returns the trace, or nullopt with a one-line reason in `why` (no
/// model for the variant yet, CPU-only variant, launch rules, a block index outside the grid, the
/// model threw). Never throws.
std::optional<Trace> compute_trace(const VariantInfo& v, const TraceKey& key, std::string& why);

// ---- Tree layout ---------------------------------------------------------------------------------

/// One node of the reduction tree: a leaf (the loaded shared slot, row 0) or the result of one
/// thread's add/max into a shared slot at one step.
struct TreeNode {
  int row = 0;      ///< 0 = leaves, then one row per tree step
  int slot = 0;     ///< shared word the node lives in (its column)
  int thread = -1;  ///< who computed it (-1 for leaves)
  double value = 0;
  int from_self = -1;   ///< node holding s[slot] before this step (-1 for leaves)
  int from_other = -1;  ///< node holding the other operand s[operand]
  std::int64_t operand = -1;
  OpKind kind = OpKind::Add;
};

/// The tree of a trace: columns = shared slots, rows = the load step then each step whose threads
/// combine two shared words (s[d] = s[d] op s[o]). Steps without such ops (combine, shuffles,
/// folded loops) have no row.
struct TreeLayout {
  int slots = 0;
  std::vector<int> row_step;    ///< trace step index of each row (row 0: the step that filled the leaves)
  std::vector<TreeNode> nodes;  ///< leaves first (slot order), then rows in order
  std::string note;             ///< non-empty when there is no tree to draw, says why
  int row_of_step(int step) const;
  /// The last row whose step is at or before `step` (rows below it are not reached yet); 0 before any.
  int last_row_reached(int step) const;
};
TreeLayout tree_layout(const Trace& t);

/// "thread 5 (warp 0, lane 5): s[4] += s[5] -> 12" (leaves: "s[4] = 7 (loaded)").
std::string describe_node(const TreeNode& n, DType type);

/// A value as the views print it: integers without decimals, floats with up to 4 significant digits.
std::string format_value(double v, DType type);

/// The number a tree node shows at `step`: its value once its row is reached, "" before (the shape
/// shows, the number not) unless `show_future` asks for every value.
std::string tree_node_text(const TreeLayout& L, const TreeNode& n, int step, bool show_future, DType type);

// ---- Banks ---------------------------------------------------------------------------------------

/// One warp-wide shared access of one warp in a step: which word each lane touched.
struct WarpAccess {
  int access = 0;
  OpKind kind = OpKind::Load;
  std::vector<std::int64_t> lane_word;  ///< 32 entries, -1 where the lane takes no part
  int ways = 0;                         ///< bank_conflict_ways of the words (1 = conflict-free)
  /// Distinct words per bank (32 entries); a bank with more than one is where the conflict is.
  std::vector<int> bank_words;
};
/// The shared accesses of warp `w` in `step`, by access index.
std::vector<WarpAccess> warp_shared_accesses(const Step& step, int w);

}  // namespace ws::controller
