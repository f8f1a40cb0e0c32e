#include "trace_source.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <map>
#include <set>
#include <tuple>

#include "format.hpp"
#include "inputs.hpp"
#include "launch_rules.hpp"
#include "limits.hpp"
#include "patterns.hpp"
#include "patterns/atomics/reference.hpp"
#include "sim/sim.hpp"
#include "trace/analyses.hpp"
#include "trace_request.hpp"

namespace ws::controller {

void TraceState::move(int delta) {
  pending_step = -1;
  const int last = std::max(0, steps() - 1);
  step = std::clamp(step + delta, 0, last);
  if (step == last) playing = false;
  clock = 0;
}

void TraceState::tick(double seconds) {
  if (!playing || steps() == 0) return;
  pending_step = -1;
  clock += seconds * double(speed);
  const int last = steps() - 1;
  while (playing && clock >= 1.0) {
    clock -= 1.0;
    step = std::min(step + 1, last);
    if (step == last) playing = false;
  }
}

bool TraceState::switch_block(int delta, std::int64_t asked_n) {
  if (whole_launch) {
    const int last = trace ? int(trace->launch.grid) - 1 : block_index;
    const int to = std::clamp(block_index + delta, 0, std::max(0, last));
    if (to == block_index) return false;
    block_index = to;
    return true;
  }
  const int grid = trace ? int(std::min<std::int64_t>(trace->launch.grid, kMaxTraceBlocks)) : blocks;
  int next = block_index + delta;
  if (next >= grid) {
    const bool more = trace && blocks < kMaxTraceBlocks && (asked_n <= 0 || trace->n < asked_n);
    if (!more) return false;
    blocks = std::max(blocks, grid) + 1;
    next = grid;
  }
  next = std::max(0, next);
  if (next == block_index) return false;
  block_index = next;
  blocks = std::max(blocks, next + 1);  // a recording's grid may be wider than the blocks asked so far
  return true;
}

namespace {

/// Convolution variants: block 0 of the variant on its own input (patterns.hpp make_input): a 1D signal
/// of min(n, 4096) samples or a 64 x 64 image, mask 5 (box), the default tile.
std::optional<Trace> compute_conv_trace(const VariantInfo& v, const TraceKey& key, std::string& why) {
  const PatternSpec& spec = pattern_of(v);  // convolution: builds the signal or image
  RunRequest req;
  req.variant = v.id;
  req.type = DType::Float32;
  req.input = key.input;
  req.seed = key.seed;
  const bool image = conv_kind_is_2d(v.conv);
  req.launch.block = image ? 0 : key.block;
  if (image)
    req.params.width = req.params.height = 64;
  else
    req.n = std::max<std::int64_t>(1, std::min<std::int64_t>(key.n, 4096));
  Input in;
  PreparedTrace prepared;
  std::string err = spec.build_input ? spec.build_input(v, req, in) : v.id + " does not build its own input";
  const bool ready = err.empty() && prepare_trace(v, in.n(), in.type, TraceAsk{req.launch, 0, 1}, DeviceShape{},
                                                  prepared, err) == TraceStatus::Ok;
  if (!ready) {
    why = "cannot trace " + v.id + ": " + err;
    return std::nullopt;
  }
  try {
    return std::move(execute_trace(prepared, in, req.params, nullptr).outs[0].trace);
  } catch (const std::exception& e) {  // std::bad_alloc in words: what the model's run needs, what is free
    why =
        "the trace model of " + v.id + " failed: " + describe_exception(e, estimate_run_host_bytes(v, in.n(), in.type));
    return std::nullopt;
  }
}

}  // namespace

void adopt_model_lines(Trace& recorded, const Trace& model) {
  recorded.source_file = model.source_file;
  for (std::size_t i = 0; i < recorded.steps.size() && i < model.steps.size(); ++i) {
    Step& r = recorded.steps[i];
    const Step& m = model.steps[i];
    r.lines = m.lines;
    std::map<std::tuple<int, int, int, int, std::int64_t, std::int64_t, int>, int> line_of;
    for (const ThreadOp& o : m.ops)
      line_of[{o.thread, int(o.kind), int(o.space), o.access, o.address, o.operand, o.buffer}] = o.line;
    for (ThreadOp& o : r.ops) {
      auto it = line_of.find({o.thread, int(o.kind), int(o.space), o.access, o.address, o.operand, o.buffer});
      o.line = it == line_of.end() ? 0 : it->second;
    }
  }
}

LaunchConfig trace_launch_request(const VariantInfo& v, const TraceKey& key, std::int64_t asked, std::int64_t& n) {
  if (key.whole_launch) {
    n = std::max<std::int64_t>(1, asked);
    return LaunchConfig{key.block, key.grid};
  }
  const int block = key.block > 0 ? key.block : (v.rules.fixed_block > 0 ? v.rules.fixed_block : v.rules.default_block);
  const int blocks = std::clamp(key.blocks, 1, kMaxTraceBlocks);
  std::int64_t cap = window_elems(v, block) * blocks;
  LaunchConfig req{key.block, 0};
  if (blocks > 1 && v.rules.grid_stride) {
    cap *= kTracePassesShown;
    req.grid = blocks;
  }
  n = std::max<std::int64_t>(1, std::min(asked, cap));
  return req;
}

std::optional<Trace> compute_trace(const VariantInfo& v, const TraceKey& key, std::string& why) {
  if (v.cpu_only) {
    why = v.id + " runs on the CPU: it has no threads, warps or banks to step through";
    return std::nullopt;
  }
  if (!sim::has_model(v.id)) {
    why = "no trace model for " + v.id + " yet (the sim backend does not model it in this build)";
    return std::nullopt;
  }
  if (v.conv != ConvKind::None) return compute_conv_trace(v, key, why);
  const DType type = v.rules.bytes_input ? DType::UInt8 : key.type;  // histograms read bytes
  // A file (or typed numbers) is read with the CLI's loader; the trace takes its first windows.
  Input file_in;
  const bool from_file = !is_generated_kind(key.input);
  if (from_file) {
    if (std::string err = read_input_file(key.input, 0, type, file_in); !err.empty()) {
      why = "cannot trace " + v.id + ": " + err;
      return std::nullopt;
    }
  }
  const std::int64_t asked = from_file ? file_in.n() : key.n;
  std::int64_t n = 0;
  const LaunchConfig wanted = trace_launch_request(v, key, asked, n);
  PreparedTrace prepared;
  std::string refused;
  switch (prepare_trace(v, n, type, TraceAsk{wanted, key.block_index, 1}, DeviceShape{}, prepared, refused)) {
    case TraceStatus::Ok: break;
    case TraceStatus::OutsideGrid:
      why = "cannot trace block " + std::to_string(key.block_index) + " of " + v.id +
            ": the grid of n = " + format_grouped(n) + " has " + std::to_string(prepared.launch.grid) +
            (prepared.launch.grid == 1 ? " block" : " blocks");
      return std::nullopt;
    default: why = "cannot trace " + v.id + ": " + refused; return std::nullopt;
  }
  const LaunchConfig& launch = prepared.launch;
  Input in;
  const bool filter_keep = v.atomics == AtomicsKind::Filter && key.input == "random";  // --keep shapes it
  std::string input_err;
  if (from_file) {
    in = std::move(file_in);
    in.i32.resize(std::min<std::size_t>(in.i32.size(), std::size_t(n)));
    in.f32.resize(std::min<std::size_t>(in.f32.size(), std::size_t(n)));
    in.u8.resize(std::min<std::size_t>(in.u8.size(), std::size_t(n)));
  } else {
    input_err =
        filter_keep ? make_filter_input(n, key.keep, key.seed, in) : make_input(key.input, n, type, key.seed, in);
  }
  if (std::string err = input_err; !err.empty()) {
    why = "cannot trace " + v.id + ": " + err;
    return std::nullopt;
  }
  try {
    PatternParams params;
    params.exclusive = key.exclusive;
    sim::SimOutput out = std::move(execute_trace(prepared, in, params, nullptr).outs[0]);
    if (out.trace.steps.empty()) {
      why = v.id + ": the model computes the result only, its trace has no steps" +
            (out.trace.interleaving.empty() ? std::string() : " (" + out.trace.interleaving + ")");
      return std::nullopt;
    }
    if (out.trace.block_size == 0) out.trace.block_size = launch.block;
    return std::move(out.trace);
  } catch (const std::exception& e) {  // std::bad_alloc in words: what the model's run needs, what is free
    why =
        "the trace model of " + v.id + " failed: " + describe_exception(e, estimate_run_host_bytes(v, in.n(), in.type));
    return std::nullopt;
  }
}

std::string describe_trace_config(const Trace& t) {
  std::string input = t.input;
  if (!is_generated_kind(input))
    input = "file " + input;
  else if (input == "random")
    input += " seed " + std::to_string(t.seed);
  return "n = " + format_grouped(t.n) + ", block " + std::to_string(t.block_size) +
         (t.block_index ? ", block index " + std::to_string(t.block_index) : std::string()) + ", " + to_string(t.type) +
         ", " + input;
}

namespace {

/// Whether every input element the recording loaded before any store to it equals what today's
/// generator makes for (rec.input, seed): a report recorded with another generator configuration
/// matches in n, seed and block yet shows other numbers.
bool recorded_inputs_match(const Trace& rec, DType type, std::uint64_t seed) {
  std::int64_t top = -1;
  for (const Step& st : rec.steps)
    for (const ThreadOp& o : st.ops)
      if (o.space == Space::Global && o.buffer == 0 && o.kind == OpKind::Load && o.address < rec.n)
        top = std::max(top, o.address);
  if (top < 0) return true;
  Input in;
  if (!make_input(rec.input, top + 1, type, seed, in).empty()) return true;  // nothing to compare with
  auto value = [&](std::int64_t i) {
    return type == DType::Int32   ? double(in.i32[std::size_t(i)])
           : type == DType::UInt8 ? double(in.u8[std::size_t(i)])
                                  : double(in.f32[std::size_t(i)]);
  };
  std::set<std::int64_t> stored;  // in-place variants load what they wrote: only first reads count
  for (const Step& st : rec.steps)
    for (const ThreadOp& o : st.ops) {
      if (o.space != Space::Global || o.buffer != 0 || o.address < 0 || o.address > top) continue;
      if (o.kind == OpKind::Store)
        stored.insert(o.address);
      else if (o.kind == OpKind::Load && !stored.count(o.address) && o.value != value(o.address))
        return false;
    }
  return true;
}

}  // namespace

std::string recording_mismatch(const VariantInfo& v, const Trace& rec, const TraceKey& key) {
  std::vector<std::string> diffs;
  if (rec.variant != key.variant) diffs.push_back("variant " + key.variant);
  const int block = key.block > 0 ? key.block : (v.rules.fixed_block > 0 ? v.rules.fixed_block : v.rules.default_block);
  if (rec.block_size != block) diffs.push_back("block " + std::to_string(block));
  if (rec.block_index != key.block_index) diffs.push_back("block index " + std::to_string(key.block_index));
  const DType type = v.rules.bytes_input ? DType::UInt8 : key.type;
  if (rec.type != type) diffs.push_back(std::string("type ") + to_string(type));
  if (rec.input != key.input)
    diffs.push_back("input " + (!key.input_label.empty()       ? key.input_label
                                : is_generated_kind(key.input) ? key.input
                                                               : "file " + key.input));
  else if (key.input == "random" && rec.seed != key.seed)
    diffs.push_back("seed " + std::to_string(key.seed));
  if (diffs.empty() && key.whole_launch) {
    if (rec.n != key.n || (key.grid > 0 && rec.launch.grid != key.grid))
      diffs.push_back("block " + std::to_string(key.block_index) +
                      " of the whole launch (n = " + format_grouped(key.n) + ")");
  } else if (diffs.empty() && key.blocks > 1) {
    // A trace over several blocks: the recording must be of the same n and grid as the model's would be.
    std::int64_t n = 0;
    const LaunchConfig want = trace_launch_request(v, key, key.n > 0 ? key.n : rec.n, n);
    if (key.n <= 0 || rec.n != n || (want.grid > 0 && rec.launch.grid != want.grid))
      diffs.push_back(std::to_string(key.blocks) + " blocks (n = " + format_grouped(n) + ")");
  } else if (diffs.empty()) {
    // Block 0 must read the same elements. One window per block: the first min(n, window) elements of
    // the same generator (its prefix does not depend on n). Grid-stride: only a single pass qualifies.
    const std::int64_t window = window_elems(v, block);
    const bool single_pass = !v.rules.grid_stride || rec.launch.grid * std::int64_t(rec.block_size) >= rec.n;
    const std::int64_t rec_window = std::min(rec.n, window);
    const std::int64_t asked_window = key.n > 0 ? std::min(key.n, window) : -1;
    if (!single_pass || rec_window != asked_window) diffs.push_back("n = " + format_grouped(key.n));
  }
  if (diffs.empty() && is_generated_kind(key.input) && !recorded_inputs_match(rec, type, key.seed))
    diffs.push_back("input values of today's " + key.input + " generator (the recording read other ones)");
  std::string out;
  for (const auto& d : diffs) out += (out.empty() ? "you asked " : ", ") + d;
  return out;
}

int TreeLayout::row_of_step(int step) const {
  for (std::size_t r = 0; r < row_step.size(); ++r)
    if (row_step[r] == step) return int(r);
  return -1;
}

int TreeLayout::last_row_reached(int step) const {
  int reached = 0;
  for (std::size_t r = 0; r < row_step.size(); ++r)
    if (row_step[r] <= step) reached = int(r);
  return reached;
}

TreeLayout tree_layout(const Trace& t) {
  TreeLayout L;
  // Leaves: the shared array after the first step that has one (the load).
  int leaf_step = -1;
  for (const Step& s : t.steps)
    if (s.has_shared && !s.shared_after.empty()) {
      leaf_step = s.index;
      break;
    }
  if (leaf_step < 0) {
    L.note = "this variant keeps no shared array, so there is no tree to draw (see the warps view)";
    return L;
  }
  const Step& first = t.steps[std::size_t(leaf_step)];
  L.slots = int(first.shared_after.size());
  L.row_step.push_back(leaf_step);
  std::vector<int> last(std::size_t(L.slots), -1);
  for (int i = 0; i < L.slots; ++i) {
    TreeNode n;
    n.slot = i;
    n.value = first.shared_after[std::size_t(i)];
    last[std::size_t(i)] = int(L.nodes.size());
    L.nodes.push_back(n);
  }
  for (std::size_t si = std::size_t(leaf_step) + 1; si < t.steps.size(); ++si) {
    const Step& s = t.steps[si];
    std::vector<TreeNode> row;
    // Per thread: a register add/max with a shared operand, then the shared store of its result.
    for (std::size_t i = 0; i < s.ops.size(); ++i) {
      const ThreadOp& op = s.ops[i];
      if (op.space != Space::Register || (op.kind != OpKind::Add && op.kind != OpKind::Max) || op.operand < 0 ||
          op.operand >= L.slots)
        continue;
      for (std::size_t j = i + 1; j < s.ops.size() && s.ops[j].thread == op.thread; ++j) {
        const ThreadOp& st = s.ops[j];
        if (st.kind != OpKind::Store || st.space != Space::Shared) continue;
        if (st.address < 0 || st.address >= L.slots) break;
        TreeNode n;
        n.row = int(L.row_step.size());
        n.slot = int(st.address);
        n.thread = op.thread;
        n.value = op.value;
        n.operand = op.operand;
        n.kind = op.kind;
        n.from_self = last[std::size_t(st.address)];
        n.from_other = last[std::size_t(op.operand)];
        row.push_back(n);
        break;
      }
    }
    if (row.empty()) continue;
    L.row_step.push_back(s.index);
    for (TreeNode& n : row) {  // after the barrier: later rows read this step's results
      last[std::size_t(n.slot)] = int(L.nodes.size());
      L.nodes.push_back(n);
    }
  }
  // Models may size the shared array beyond the block (e.g. 64 words for a 32-thread block, so the
  // unrolled last warp can read s[tid + 32]); draw only the slots the load filled or the tree used.
  int used = 0;
  for (const ThreadOp& op : first.ops)
    if (op.space == Space::Shared && op.kind == OpKind::Store) used = std::max(used, int(op.address) + 1);
  for (const TreeNode& n : L.nodes)
    if (n.thread >= 0) used = std::max({used, n.slot + 1, int(n.operand) + 1});
  if (used > 0 && used < L.slots) {
    L.slots = used;
    std::vector<TreeNode> kept;
    std::vector<int> remap(L.nodes.size(), -1);
    for (std::size_t i = 0; i < L.nodes.size(); ++i)
      if (L.nodes[i].slot < used) {
        remap[i] = int(kept.size());
        kept.push_back(L.nodes[i]);
      }
    for (TreeNode& n : kept) {
      if (n.from_self >= 0) n.from_self = remap[std::size_t(n.from_self)];
      if (n.from_other >= 0) n.from_other = remap[std::size_t(n.from_other)];
    }
    L.nodes = std::move(kept);
  }
  if (L.row_step.size() == 1)
    L.note = "no step combines two shared words (the work is in registers, shuffles or atomics: see the warps view)";
  return L;
}

std::string format_value(double v, DType type) {
  char buf[48];
  if (type == DType::Int32 || (std::abs(v) < 1e15 && v == std::floor(v)))
    std::snprintf(buf, sizeof buf, "%.0f", v);
  else
    std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

std::string tree_node_text(const TreeLayout& L, const TreeNode& n, int step, bool show_future, DType type) {
  if (!show_future && n.row > L.last_row_reached(step)) return "";
  return format_value(n.value, type);
}

std::string describe_node(const TreeNode& n, DType type) {
  const std::string d = "s[" + std::to_string(n.slot) + "]";
  if (n.thread < 0) return d + " = " + format_value(n.value, type) + " (loaded)";
  const std::string o = "s[" + std::to_string(n.operand) + "]";
  const std::string what = n.kind == OpKind::Max ? d + " = max(" + d + ", " + o + ")" : d + " += " + o;
  return "thread " + std::to_string(n.thread) + " (warp " + std::to_string(n.thread / kWarpSize) + ", lane " +
         std::to_string(n.thread % kWarpSize) + "): " + what + " -> " + format_value(n.value, type);
}

std::vector<WarpAccess> warp_shared_accesses(const Step& step, int w) {
  std::map<int, WarpAccess> by_access;
  for (const ThreadOp& op : step.ops) {
    if (op.space != Space::Shared || op.thread / kWarpSize != w || op.address < 0) continue;
    if (op.kind != OpKind::Load && op.kind != OpKind::Store && op.kind != OpKind::Atomic) continue;
    WarpAccess& a = by_access[op.access];
    if (a.lane_word.empty()) {
      a.access = op.access;
      a.kind = op.kind;
      a.lane_word.assign(kWarpSize, -1);
    }
    a.lane_word[std::size_t(op.thread % kWarpSize)] = op.address;
  }
  std::vector<WarpAccess> out;
  for (auto& [k, a] : by_access) {
    std::vector<std::int64_t> words;
    std::vector<std::set<std::int64_t>> per_bank(kBanks);
    for (std::int64_t word : a.lane_word)
      if (word >= 0) {
        words.push_back(word);
        per_bank[std::size_t(word % kBanks)].insert(word);
      }
    a.ways = bank_conflict_ways(words);
    a.bank_words.resize(kBanks);
    for (int b = 0; b < kBanks; ++b) a.bank_words[std::size_t(b)] = int(per_bank[std::size_t(b)].size());
    out.push_back(std::move(a));
  }
  return out;
}

}  // namespace ws::controller
