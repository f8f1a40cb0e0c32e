#include "user_trace.hpp"

#include "registry.hpp"
#include "request.hpp"
#include "sim/sim.hpp"
#include "trace/trace_compare.hpp"
#include "trace_request.hpp"

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
  PreparedTrace prepared;
  const TraceAsk ask{req.launch, block_index, 1};
  if (std::string err;
      resolve_trace_launch(v, p.input.n(), req.type, ask, gpu->device().shape(), prepared, err) != TraceStatus::Ok)
    return err;
  const LaunchConfig& launch = prepared.launch;
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
