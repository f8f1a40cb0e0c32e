// warpscope-cli trace: the step-by-step trace of one block of a variant, with --values the tree as text.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "launch_rules.hpp"
#include "patterns.hpp"
#include "reference.hpp"
#include "request.hpp"
#include "backend_factory.hpp"
#include "sim/analyses.hpp"
#include "sim/trace_compare.hpp"
#include "sim/sim.hpp"
#include "sim/trace_json.hpp"

namespace ws::cli {

namespace {

int fail(int code, const std::string& msg) {
  std::fprintf(stderr, "warpscope-cli: %s\n", msg.c_str());
  return code;
}

/// The compact human table: one row per step.
void print_table(const Trace& t, const sim::SimOutput& o, double expected) {
  std::printf("%s  n=%lld %s  block=%d grid=%lld  traced block %d  [%s]\n", t.variant.c_str(), (long long)t.n,
              to_string(t.type), t.launch.block, (long long)t.launch.grid, t.block_index, t.source.c_str());
  if (!t.interleaving.empty())
    std::printf("  %s: %s\n", t.racy_model ? "racy model, interleaving" : "model", t.interleaving.c_str());
  std::printf("  result %s (reference %s), %d launch%s, traced block contributes %s\n",
              format_value(t.type, o.result).c_str(), format_value(t.type, expected).c_str(), o.launches,
              o.launches == 1 ? "" : "es", format_value(t.type, t.block_result).c_str());
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
    std::printf("%5d  %-8s %-52s %3d/%-3d %9d %8s\n", s.index, s.phase.c_str(), label.c_str(), sum.activity.active_warps,
                t.warps(), sum.activity.divergent_warps, conflict.c_str());
  }
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
    std::printf("step %d  %s  %s\n", s.index, s.phase.c_str(), s.label.c_str());
    for (int row = 0; row < slots; row += kPerRow) {
      const int end = std::min(slots, row + kPerRow);
      std::printf("  s[%d..%d]%*s", row, end - 1, int(10 - std::to_string(row).size() - std::to_string(end - 1).size()), "");
      for (int i = row; i < end; ++i) {
        const std::string v = format_value(t.type, s.shared_after[std::size_t(i)]);
        const std::string cell = written[std::size_t(i)] ? "[" + v + "]" : " " + v + " ";
        std::printf(" %*s", int(width + 2), cell.c_str());
      }
      std::printf("\n");
    }
  }
}

}  // namespace

int cmd_trace(const std::string& variant, const RunOptions& o, long long block_index, bool json, bool ops, bool values) {
  RunRequest req;
  std::string err = pattern_option_refusal(o, {variant});
  if (err.empty()) err = to_request(o, variant, req);
  PreparedRun p;
  if (err.empty()) err = prepare_run(req, p);  // variant, backend, type, n, input, launch rules
  if (!err.empty()) return fail(kBadRequest, err);
  const VariantInfo& v = *p.variant;
  if (v.cpu_only) return fail(kBadRequest, v.id + " runs on the host CPU: it has no GPU threads to trace");
  // cuda: the device's shape decides default grids, and the model runs the same launch.
  std::unique_ptr<Backend> gpu;
  if (req.backend == "cuda") {
    std::string why;
    gpu = open_cuda_backend(why);
    if (!gpu) return fail(kNoDevice, no_device_hint(why));
  }
  LaunchConfig launch;
  err = resolve_launch(v, p.input.n(), req.type, req.launch, gpu ? gpu->device().shape() : DeviceShape{}, launch);
  if (!err.empty()) return fail(kBadRequest, err);
  if (block_index < 0 || block_index >= launch.grid)
    return fail(kBadRequest, "--block-index " + std::to_string(block_index) + " is outside the grid of " +
                                 std::to_string(launch.grid) + " blocks (0.." + std::to_string(launch.grid - 1) + ")");
  if (!sim::has_model(v.id)) return fail(kFailed, v.id + " has no sim model in this build");
  sim::SimOutput out;
  try {
    out = sim::simulate(v, p.input, launch, req.params, int(block_index));
  } catch (const std::exception& e) {
    return fail(kFailed, e.what());
  }
  std::string difference;  // cuda: how the recorded trace differs from the model's ("" = equal)
  if (gpu) {
    Trace recorded;
    err = gpu->record_trace(v, p.input, launch, int(block_index), out.trace, recorded, req.params);
    if (!err.empty())  // a lost context is a fault of its own kind (exit 4), as for run
      return fail(err.rfind("the CUDA context was lost", 0) == 0 ? kFaulted : kFailed, err);
    difference = compare_traces(out.trace, recorded);
    out.trace = std::move(recorded);
  }
  // Array patterns: result/expected are the summary values (PatternHooks::summary; a scan's total).
  double expected = 0;
  if (const PatternHooks* h = v.pattern == "reduction" ? nullptr : find_pattern_hooks(v.pattern)) {
    ArrayOutput want = h->reference(v, req.params, p.input), got;
    got.values = out.output;
    auto last = [](const ArrayOutput& a) { return a.values.empty() ? 0.0 : a.values.back(); };
    out.result = h->summary ? h->summary(got) : last(got);
    expected = h->summary ? h->summary(want) : last(want);
    if (h->variant_summary) {
      out.result = h->variant_summary(v, got);
      expected = h->variant_summary(v, want);
    }
  } else {
    expected = cpu_reference(v.op, p.input);
  }
  if (json) {
    nlohmann::json j = trace_to_json(out.trace, ops);
    j["result"] = dtype_is_integer(out.trace.type) ? nlohmann::json(std::int64_t(out.result)) : nlohmann::json(out.result);
    j["expected"] = dtype_is_integer(out.trace.type) ? nlohmann::json(std::int64_t(expected)) : nlohmann::json(expected);
    j["launches"] = out.launches;
    if (out.additions >= 0) j["additions"] = out.additions;
    if (gpu) {
      j["matches_model"] = difference.empty();
      if (!difference.empty()) j["difference"] = difference;
    }
    std::printf("%s\n", j.dump(2).c_str());
  } else {
    print_table(out.trace, out, expected);
    if (values) print_values(out.trace);
    if (gpu)
      std::printf("  %s\n", difference.empty() ? "recorded on the GPU: equals the sim model's trace, step by step"
                                                : ("recorded on the GPU: differs from the sim model: " + difference).c_str());
  }
  return kOk;
}

}  // namespace ws::cli
