// The record an instrumented kernel writes for one operation of one thread of the traced block.
// Plain data shared by the device recorder (kernels/common/trace_record.cuh) and the host, which turns
// a buffer of them into a Trace (app/core/trace/trace_compare.hpp). No CUDA and no app header here:
// the kernels include it, and app/core/trace/trace.hpp builds the trace model on it.
#pragma once
#include <cstdint>

namespace ws {

/// What one thread does in one operation.
enum class OpKind : std::uint8_t { Load, Store, Add, Max, Shuffle, Atomic };
/// Where the operation's address lives. Register: no memory address (address = -1).
enum class Space : std::uint8_t { Register, Shared, Global };

/// One recorded operation, 48 bytes. kind/space hold OpKind/Space values, or kTraceWork in kind for
/// "this thread does the step's work" (Step::working_threads). Events of one thread appear in the
/// buffer in program order (each thread takes its slots with atomicAdd on one counter).
struct TraceEvent {
  std::int32_t step;     ///< the thread's step counter: -1 before its first step
  std::int32_t thread;   ///< threadIdx.x
  std::int8_t kind;      ///< OpKind, or kTraceWork
  std::int8_t space;     ///< Space
  std::int16_t access;   ///< ThreadOp::access
  std::int32_t buffer;   ///< ThreadOp::buffer
  std::int64_t address;  ///< ThreadOp::address
  std::int64_t operand;  ///< ThreadOp::operand
  double value;          ///< ThreadOp::value
  std::int32_t line;     ///< ThreadOp::line: the statement's line (trace_points.hpp), 0 = none
  std::int32_t file;     ///< index of Trace::source_file in trace_points::kFiles, -1 = none
};

/// TraceEvent::kind of a "working thread" mark.
constexpr std::int8_t kTraceWork = 100;

/// Where the device recorder writes, set by the host before the traced launches. All pointers are
/// device memory. Only block `block` of launch number `traced_launch` (0-based, in the order the
/// variant's host launcher enqueues kernels) records; `enabled` is switched on and off between
/// launches on the stream.
struct TraceSink {
  TraceEvent* events = nullptr;
  unsigned long long* count = nullptr;  ///< events written (may exceed capacity: overflow)
  unsigned long long capacity = 0;
  long long block = 0;
  int* enabled = nullptr;
};

}  // namespace ws
