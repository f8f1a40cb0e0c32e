// GPU-recorded traces: building a Trace from the events an instrumented kernel
// wrote, and comparing a recorded trace with the sim model's trace of the same run.
#pragma once
#include <string>
#include <vector>

#include "common/trace_event.hpp"
#include "trace/trace.hpp"

namespace ws {

/// Builds the trace of one block from its recorded events (in buffer order). `model` is the sim
/// trace of the same run: it gives the header (variant, n, type, launch, block) and each step's phase
/// and label when the step counts agree (otherwise labels read "step k"). Everything else comes from
/// the events: the source file and lines (TraceEvent::file, line), ops per step (threads in increasing order, each
/// thread's ops in program order),
/// working threads, and the shared array after each step, replayed from the recorded shared stores
/// (words never stored read 0; shared atomics add their value; the array is as long as the model's, or
/// the largest address + 1).
/// `source` names where the trace came from (the GPU's name). Events with step < 0 are dropped.
/// `pad_to_model`: a built-in variant's recording is padded to the model's step count (a step in which no thread
/// of the block recorded leaves no event); a user's kernel is not (false): its edit may end the kernel earlier
/// than the model of the variant it is like, and empty steps after its end would hide that.
Trace trace_from_events(const std::vector<TraceEvent>& events, const Trace& model, const std::string& source,
                        bool pad_to_model = true);

/// Compares a recorded trace with the model's: the number of steps, the source file, and per step
/// the working threads, the source lines, and every thread's operations as a multiset of (kind, space,
/// access, address, operand, value, buffer, line); a recording without source_file (stored before
/// traces carried lines) compares without lines -- program order within a thread is not compared, so a kernel may
/// record a
/// statement's loads in either order. Folded model steps (label containing "folded", ops not
/// recorded) compare working threads only; steps whose label says they depend on the order of
/// atomics ("depends on the order", e.g. cs121.local_max's "if (old_max < val)") are not compared. Returns "" when
/// equal, else one line naming the first
/// difference, e.g. "step 3 (stride 64): thread 5: model has load shared[69] = 12 (access 1), GPU
/// has none". rel_tol > 0 (float32 traces) lets values differ by rel_tol * max(1, |model value|):
/// float atomics land in any order on the GPU, so their sums differ in the last bits.
std::string compare_traces(const Trace& model, const Trace& recorded, double rel_tol = 0.0);

}  // namespace ws
