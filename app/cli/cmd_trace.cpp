// warpscope-cli trace: the step-by-step trace of one block of a variant, with --values the tree as text.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "backend_factory.hpp"
#include "commands.hpp"
#include "json_read.hpp"
#include "launch_rules.hpp"
#include "limits.hpp"
#include "patterns.hpp"
#include "patterns/reduction/reference.hpp"
#include "request.hpp"
#include "sim/sim.hpp"
#include "table.hpp"
#include "trace/analyses.hpp"
#include "trace/hazards.hpp"
#include "trace/trace_json.hpp"
#include "trace_request.hpp"

namespace ws::cli {

namespace {

int fail(int code, const std::string& msg) {
  std::fprintf(stderr, "warpscope-cli: %s\n", msg.c_str());
  return code;
}

/// The shared-memory hazards under the table (sim/hazards.hpp): "none" when the block touches shared
/// memory without one, nothing when it never touches it; at most 8 lines, then how many more.
void print_hazards(const Trace& t) {
  bool shared = false;
  for (const Step& s : t.steps)
    for (const ThreadOp& o : s.ops) shared |= o.space == Space::Shared;
  if (!shared) return;
  const std::vector<Hazard> hs = shared_hazards(t);
  if (hs.empty()) {
    std::printf("  shared-memory hazards: none (every word two warps touch, one writing, has a barrier between)\n");
    return;
  }
  std::printf("  shared-memory hazards: %zu word%s touched by two warps, one writing, with no barrier between\n",
              hs.size(), hs.size() == 1 ? "" : "s");
  constexpr std::size_t kShown = 8;
  for (std::size_t i = 0; i < hs.size() && i < kShown; ++i)
    std::printf("    hazard: %s\n", describe_hazard(hs[i]).c_str());
  if (hs.size() > kShown) std::printf("    ... and %zu more (--json lists them all)\n", hs.size() - kShown);
}

/// The compact human table: one row per step, under the result and `check` (the check's message, if any).
void print_table(const Trace& t, const sim::SimOutput& o, double expected, const std::string& check) {
  std::printf("%s  n=%lld %s  block=%d grid=%lld  traced block %d  [%s]\n", t.variant.c_str(), (long long)t.n,
              to_string(t.type), t.launch.block, (long long)t.launch.grid, t.block_index, t.source.c_str());
  if (!t.interleaving.empty())
    std::printf("  %s: %s\n", t.racy_model ? "racy model, interleaving" : "model", t.interleaving.c_str());
  std::printf("  result %s (reference %s), %d launch%s, traced block contributes %s\n",
              format_value(t.type, o.result).c_str(), format_value(t.type, expected).c_str(), o.launches,
              o.launches == 1 ? "" : "es", format_value(t.type, t.block_result).c_str());
  if (!check.empty()) std::printf("  %s\n", check.c_str());
  if (o.additions >= 0)  // scans: the work count against the sequential scan (001, "Work Efficiency Analysis")
    std::printf("  additions: %lld in the whole run (the sequential scan does n - 1 = %lld)\n", (long long)o.additions,
                (long long)(t.n > 0 ? t.n - 1 : 0));
  if (t.steps.empty()) {
    std::printf("  no steps: this variant's sim model gives its result only\n");
    return;
  }
  std::printf("%5s  %-8s %-52s %7s %9s %8s\n", "step", "phase", "label", "active", "divergent", "conflict");
  for (const Step& s : t.steps) {
    const StepSummary sum = summarize_step(t, s);
    int worst = 0;
    for (int w : sum.conflict_ways) worst = w > worst ? w : worst;
    std::string label = s.label.size() > 52 ? s.label.substr(0, 49) + "..." : s.label;
    std::string conflict = worst == 0 ? "-" : std::to_string(worst) + "-way";
    std::printf("%5d  %-8s %-52s %3d/%-3d %9d %8s\n", s.index, to_string(s.phase), label.c_str(),
                sum.activity.active_warps, t.warps(), sum.activity.divergent_warps, conflict.c_str());
  }
  print_hazards(t);
}

/// The tree as text: the block's shared array after every step that has one, 16 slots a row, the
/// slots the step wrote in brackets. Slots past the last one any step stores to are left out (models
/// may size the array beyond the block, e.g. 64 words for a 32-thread block's unrolled last warp).
void print_values(const Trace& t) {
  int used = 0;
  for (const Step& s : t.steps)
    for (const ThreadOp& op : s.ops)
      if (op.space == Space::Shared && op.kind == OpKind::Store) used = std::max(used, int(op.address) + 1);
  std::size_t width = 1;
  bool any = false;
  for (const Step& s : t.steps) {
    if (!s.has_shared || s.shared_after.empty()) continue;
    any = true;
    for (double v : s.shared_after) width = std::max(width, format_value(t.type, v).size());
  }
  if (!any) {
    std::printf("\nvalues: %s keeps no shared array in its trace (its work is in registers, shuffles or atomics)\n",
                t.variant.c_str());
    return;
  }
  std::printf("\nvalues: the shared array after each step, [x] = written in that step\n");
  constexpr int kPerRow = 16;
  for (const Step& s : t.steps) {
    if (!s.has_shared || s.shared_after.empty()) continue;
    const int slots = used > 0 ? std::min(used, int(s.shared_after.size())) : int(s.shared_after.size());
    std::vector<bool> written(std::size_t(slots), false);
    for (const ThreadOp& op : s.ops)
      if (op.space == Space::Shared && op.kind == OpKind::Store && op.address >= 0 && op.address < slots)
        written[std::size_t(op.address)] = true;
    std::printf("step %d  %s  %s\n", s.index, to_string(s.phase), s.label.c_str());
    for (int row = 0; row < slots; row += kPerRow) {
      const int end = std::min(slots, row + kPerRow);
      std::printf("  s[%d..%d]%*s", row, end - 1, int(10 - std::to_string(row).size() - std::to_string(end - 1).size()),
                  "");
      for (int i = row; i < end; ++i) {
        const std::string v = format_value(t.type, s.shared_after[std::size_t(i)]);
        const std::string cell = written[std::size_t(i)] ? "[" + v + "]" : " " + v + " ";
        std::printf(" %*s", int(width + 2), cell.c_str());
      }
      std::printf("\n");
    }
  }
}

/// Why `blocks` blocks from `block_index` are not all inside a grid of `grid` blocks, in the CLI's options.
std::string outside_grid(std::int64_t grid, long long block_index, int blocks) {
  if (block_index < 0 || block_index >= grid)
    return "--block-index " + std::to_string(block_index) + " is outside the grid of " + std::to_string(grid) +
           " blocks (0.." + std::to_string(grid - 1) + ")";
  return "--blocks " + std::to_string(blocks) + " from block " + std::to_string(block_index) +
         " runs past the grid of " + std::to_string(grid) + " blocks (use a larger --n or --grid)";
}

}  // namespace

int cmd_trace(const std::string& variant, const RunOptions& o, long long block_index, bool json, bool ops, bool values,
              int blocks, bool csv) {
  RunRequest req;
  std::string err = pattern_option_refusal(o, {variant});
  if (err.empty()) err = to_request(o, variant, req);
  PreparedRun p;
  try {
    if (err.empty()) err = prepare_run(req, p);  // variant, backend, type, n, input, launch rules
  } catch (const std::exception& e) {            // generating the input can still run out of memory
    return fail(kFailed, describe_exception(e, estimate_request_host_bytes(req)));
  }
  if (!err.empty()) return fail(kBadRequest, err);
  const VariantInfo& v = *p.variant;
  // What the model's run of the whole input needs, for the "needs about X" of an out-of-memory line.
  const std::int64_t need = estimate_run_host_bytes(v, p.input.n(), p.input.type);
  if (check_traceable(v, err) != TraceStatus::Ok) return fail(kBadRequest, err);
  if (blocks < 1 || blocks > 8) return fail(kBadRequest, "--blocks " + std::to_string(blocks) + " is outside 1..8");
  // cuda: the device's shape decides default grids, and the model runs the same launch.
  std::unique_ptr<Backend> gpu;
  if (req.backend == BackendKind::Cuda) {
    std::string why;
    gpu = open_cuda_backend(why);
    if (!gpu) return fail(kNoDevice, no_device_hint(why));
  }
  PreparedTrace prepared;
  const TraceAsk ask{req.launch, block_index, blocks};
  switch (prepare_trace(v, p.input.n(), req.type, ask, gpu ? gpu->device().shape() : DeviceShape{}, prepared, err)) {
    case TraceStatus::Ok: break;
    case TraceStatus::OutsideGrid: return fail(kBadRequest, outside_grid(prepared.launch.grid, block_index, blocks));
    case TraceStatus::NoModel: return fail(kFailed, err);
    default: return fail(kBadRequest, err);
  }
  TraceOutcome traced;
  try {
    traced = execute_trace(prepared, p.input, req.params, gpu.get());
  } catch (const std::exception& e) { return fail(kFailed, describe_exception(e, need)); }
  // A lost context is a fault of its own kind (exit 4), as for run.
  if (traced.status != TraceStatus::Ok)
    return fail(traced.status == TraceStatus::Faulted ? kFaulted : kFailed, traced.message);
  const LaunchConfig& launch = prepared.launch;
  std::vector<sim::SimOutput>& outs = traced.outs;
  const std::vector<std::string>& differences = traced.differences;
  sim::SimOutput& out = outs[0];
  // The model's whole output is checked against the reference as a run is (check_run: the pattern's
  // compare, its summary of a 2-D output taken with its rows and columns), so a wrong trace is as loud
  // as a wrong run: its message, and exit status 1.
  const PatternSpec& spec = pattern_of(v);
  const ArrayOutput want = spec.reference(v, req.params, p.input);
  RunResult checked;
  checked.variant = v.id;
  checked.type = out.trace.type;
  checked.launch = launch;
  checked.racy = v.racy;
  checked.cautionary = v.cautionary;
  if (spec.scalar_result) {
    checked.result = out.result;
  } else {
    checked.output = out.output;
    checked.output_rows = out.output_rows;
    checked.output_cols = out.output_cols;
  }
  try {
    check_run(spec, v, req.params, p.input, want, nullptr, checked);
  } catch (const std::exception& e) { return fail(kFailed, describe_exception(e, need)); }
  out.result = checked.result;
  const double expected = checked.expected;
  if (csv) {
    std::vector<nlohmann::json> rows;
    for (int k = 0; k < blocks; ++k) {
      const nlohmann::json jb = trace_to_json(outs[std::size_t(k)].trace, false);
      for (const auto& step : jb.value("steps", nlohmann::json::array())) {
        nlohmann::json row = step;
        row["variant"] = variant;
        row["block"] = block_index + k;
        rows.push_back(std::move(row));
      }
    }
    std::fputs(csv_table(rows, {"variant", "block", "index", "phase", "label"}).c_str(), stdout);
  } else if (json) {
    nlohmann::json j = trace_to_json(out.trace, ops);
    std::string first_difference;  // the first block that differs, named when several were traced
    for (int k = 0; k < blocks && first_difference.empty(); ++k)
      if (!differences[std::size_t(k)].empty())
        first_difference = (blocks > 1 ? "block " + std::to_string(block_index + k) + ": " : std::string()) +
                           differences[std::size_t(k)];
    j["result"] =
        dtype_is_integer(out.trace.type) ? nlohmann::json(std::int64_t(out.result)) : nlohmann::json(out.result);
    j["expected"] =
        dtype_is_integer(out.trace.type) ? nlohmann::json(std::int64_t(expected)) : nlohmann::json(expected);
    j["launches"] = out.launches;
    j["correct"] = checked.correct;
    j["status"] = to_string(checked.status);
    if (!checked.message.empty()) j["message"] = checked.message;
    if (out.additions >= 0) j["additions"] = out.additions;
    if (gpu) {
      j["matches_model"] = first_difference.empty();
      if (!first_difference.empty()) j["difference"] = first_difference;
    }
    if (blocks > 1) {
      nlohmann::json all = nlohmann::json::array();
      for (int k = 0; k < blocks; ++k) {
        nlohmann::json jb = trace_to_json(outs[std::size_t(k)].trace, ops);
        if (gpu) {
          jb["matches_model"] = differences[std::size_t(k)].empty();
          if (!differences[std::size_t(k)].empty()) jb["difference"] = differences[std::size_t(k)];
        }
        all.push_back(std::move(jb));
      }
      j["blocks"] = std::move(all);
    }
    std::printf("%s\n", dump_json_text(with_format(j, "trace"), 2).c_str());
  } else {
    for (int k = 0; k < blocks; ++k) {
      if (k > 0) std::printf("\n");
      print_table(outs[std::size_t(k)].trace, out, expected, checked.message);
      if (values) print_values(outs[std::size_t(k)].trace);
      const std::string& d = differences[std::size_t(k)];
      if (gpu)
        std::printf("  %s\n", d.empty() ? "recorded on the GPU: equals the sim model's trace, step by step"
                                        : ("recorded on the GPU: differs from the sim model: " + d).c_str());
    }
  }
  if (checked.status == RunStatus::Wrong) std::fprintf(stderr, "warpscope-cli: %s\n", checked.message.c_str());
  return ran_as_taught(checked.status) ? kOk : kFailed;
}

}  // namespace ws::cli
