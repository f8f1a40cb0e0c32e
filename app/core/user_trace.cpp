#include "user_trace.hpp"

#include "launch_rules.hpp"
#include "registry.hpp"
#include "request.hpp"
#include "sim/sim.hpp"
#include "trace/trace_compare.hpp"

namespace ws {

std::string trace_user_kernel(const RunRequest& req, int block_index, Backend* gpu, Trace& out,
                              std::string& difference) {
  difference.clear();
  if (req.kernel.empty()) return "not a request of a user's kernel";
  if (!gpu || req.backend != BackendKind::Cuda)
    return "a trace of " + req.kernel.file + " is recorded on a GPU: the simulator has no model of your code";
  PreparedRun p;
  if (std::string err = prepare_run(req, p); !err.empty()) return err;
  const VariantInfo& v = *p.variant;
  LaunchConfig launch;
  if (std::string err = resolve_launch(v, p.input.n(), req.type, req.launch, gpu->device().shape(), launch);
      !err.empty())
    return err;
  if (block_index < 0 || block_index >= launch.grid)
    return "block index " + std::to_string(block_index) + " is outside the grid of " + std::to_string(launch.grid) +
           " blocks";
  Trace model;
  const VariantInfo* like = req.kernel.like.empty() ? nullptr : find_variant(req.kernel.like);
  const bool modelled = like && sim::has_model(like->id);
  if (modelled) {
    model = sim::simulate(*like, p.input, launch, req.params, block_index).trace;
  } else {
    model.variant = v.id;
    model.n = p.input.n();
    model.type = p.input.type;
    model.launch = launch;
    model.block_index = block_index;
    model.block_size = launch.block;
  }
  if (std::string err = gpu->record_user_trace(v, req, p.input, launch, block_index, model, out); !err.empty())
    return err;
  if (modelled && !model.steps.empty()) {
    Trace bare = out;  // the user's lines are not the model's: compare the operations
    bare.source_file.clear();
    difference = compare_traces(model, bare);
    out.compared_with_model = true;
    out.model_difference = difference;
  }
  return "";
}

}  // namespace ws
