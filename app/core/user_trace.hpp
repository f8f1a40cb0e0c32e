// The step trace of a user's kernel (docs/your-kernel.md, "Step views of an edited copy"): one entry point for the
// worker's trace request and the GUI's in-process runs. The kernel is a traced edit (trace/user_trace_build.hpp).
#pragma once
#include <string>

#include "backend.hpp"
#include "run_types.hpp"

namespace ws {

/// Records block `block_index` of `req` (req.kernel: a traced edit; n, input, launch as for its run) on `gpu`
/// (Backend::record_user_trace) against the sim trace of the variant it is like (req.kernel.like) on the same
/// input and launch, and compares the two without lines: `difference` says where the edit made the kernel do
/// something else ("" = the same steps and operations, or no model to compare with). Returns "" or one line why
/// there is no trace (a bad request, no GPU: the simulator has no model of the user's code, a compile error).
std::string trace_user_kernel(const RunRequest& req, int block_index, Backend* gpu, Trace& out,
                              std::string& difference);

}  // namespace ws
