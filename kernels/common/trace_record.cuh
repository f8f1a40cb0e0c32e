// Trace recording for the instrumented build of the kernels.
//
// Every kernel file is compiled twice: the timed build, where WS_T(...) expands to nothing, and the
// trace build (-DWS_TRACE_BUILD, library ws_kernels_traced), where WS_T(...) expands to its
// arguments. Inside WS_T a kernel declares a Cursor and records, next to each statement of the
// slide's code, what the sim model records for it (app/core/patterns/<pattern>/models_*.cpp): the same steps, ops,
// access numbers and working threads. The statements themselves are untouched, so both builds run
// the slide's code; the trace build merely re-reads the values it records. The Source view hides
// WS_T lines (they are not the lecture's code).
//
// Only block `sink.block` of the traced launch records (see TraceSink); all other blocks and
// launches run the plain code plus one test per WS_T statement.
//
// NVRTC compiles the same recorder into the traced build of an edited copy (app/cuda/user_kernel_trace.cpp):
// there (__CUDACC_RTC__) the host side below is left out, and the sink is the extern "C" symbol
// `ws_trace_sink`, which the host fills with cuModuleGetGlobal before the one launch that records.
#pragma once

#ifdef WS_TRACE_BUILD

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>

#include "common/check_cuda.hpp"
#endif
#include "common/trace_event.hpp"
#include "trace_points.hpp"

#define WS_T(...) __VA_ARGS__
/// Names the statement the cursor `c`'s next events come from: trace point `name` of the file's
/// ws_points namespace (generated from the WS_AT markers, app/core/trace/trace_points_scan.hpp).
#define WS_AT(name) c.at(ws_points::kFile, ws_points::name)
#define WS_AT_NEXT(name) c.at(ws_points::kFile, ws_points::name)
/// Files compiled for the trace build put their launchers in namespace ws::kernels::traced.
#define WS_TRACE_NS_BEGIN namespace traced {
#define WS_TRACE_NS_END }

namespace ws::kernels::traced {

/// Global buffers (ThreadOp::buffer), as the sim models name them (sim/model_kit.hpp).
constexpr int kInput = 0, kPartials = 1, kAccumulator = 2;

#ifdef __CUDACC_RTC__
extern "C" {
__device__ TraceSink ws_trace_sink;  // NVRTC's module: one kernel file, found by name
}
#else
// One sink per translation unit (no relocatable device code): set by arm() below.
static __device__ TraceSink ws_trace_sink;
#endif

/// A thread's recorder: a step counter and the appends. Mirrors sim::kit::Recorder.
struct Cursor {
  int step = -1;
  int line = 0;   ///< the statement the next events come from (WS_AT), 0 = none
  int file = -1;  ///< its file's index in trace_points::kFiles
  __device__ bool on() const { return blockIdx.x == ws_trace_sink.block && *ws_trace_sink.enabled != 0; }
  /// Starts the next step (call it where the model calls Recorder::begin, in every thread that goes on).
  __device__ void next() { ++step; }
  /// Sets the statement of the next events (the WS_AT macro's expansion).
  __device__ void at(int f, int l) {
    file = f;
    line = l;
  }
  __device__ void put(std::int8_t kind, Space space, int access, long long address, long long operand, double value,
                      int buffer) const {
    if (!on()) return;
    const unsigned long long k = atomicAdd(ws_trace_sink.count, 1ull);
    if (k >= ws_trace_sink.capacity) return;  // overflow: the host sees count > capacity
    TraceEvent e;
    e.step = step;
    e.thread = int(threadIdx.x);
    e.kind = kind;
    e.space = std::int8_t(space);
    e.access = std::int16_t(access);
    e.buffer = space == Space::Register ? 0 : buffer;
    e.address = address;
    e.operand = operand;
    e.value = value;
    e.line = line;
    e.file = file;
    ws_trace_sink.events[k] = e;
  }
  __device__ void load(Space s, int access, long long address, double value, int buffer = 0) const {
    put(std::int8_t(OpKind::Load), s, access, address, -1, value, buffer);
  }
  __device__ void store(Space s, int access, long long address, double value, int buffer = 0) const {
    put(std::int8_t(OpKind::Store), s, access, address, -1, value, buffer);
  }
  /// value: the operand the thread contributes (ThreadOp::value of an Atomic).
  __device__ void atomic(Space s, int access, long long address, double value, int buffer = 0) const {
    put(std::int8_t(OpKind::Atomic), s, access, address, -1, value, buffer);
  }
  /// A register add/max: operand = the other operand's address (or -1), value = the result.
  __device__ void reg(OpKind kind, long long operand, double value) const {
    put(std::int8_t(kind), Space::Register, -1, -1, operand, value, 0);
  }
  __device__ void shuffle(int src_lane, double value) const { reg(OpKind::Shuffle, src_lane, value); }
  __device__ void work() const { put(kTraceWork, Space::Register, -1, -1, -1, 0, 0); }
  /// Sets the step counter: threads that left a loop after different numbers of iterations all go on
  /// from the block's step `s` (the last step of the loop in the thread that iterated most).
  __device__ void set(int s) { step = s; }
  /// Passes of the grid-stride loop `for (x = blockIdx.x * blockDim.x + t; x < size; x += gridSize)` in
  /// this block: the most any of its threads makes (thread 0's), as the models count them.
  __device__ int passes(long long size, long long gridSize) const {
    const long long first = (long long)blockIdx.x * blockDim.x;
    return first < size ? int((size - first + gridSize - 1) / gridSize) : 0;
  }
  /// The cascading statement `s[t] += buffer[x]` as the models record it: load buffer[x] (access 0),
  /// load s[t] (1), the add, store s[t] (2), the working mark.
  __device__ void cascade_add(long long x, double v, long long t, double before, double r) const {
    load(Space::Global, 0, x, v, kInput);
    load(Space::Shared, 1, t, before);
    reg(OpKind::Add, x, r);
    store(Space::Shared, 2, t, r);
    work();
  }
  /// The sequential-tree statement `s[d] op= s[o]` of the models' tree_add: loads s[d] (access 0) and
  /// s[o] (access 1), the register op, the store (access 2), and the working mark.
  __device__ void tree_add(OpKind kind, long long d, long long o, double a, double b, double r) const {
    load(Space::Shared, 0, d, a);
    load(Space::Shared, 1, o, b);
    reg(kind, o, r);
    store(Space::Shared, 2, d, r);
    work();
  }
  /// The operands of a tree statement `s[d] op= s[o]`, read just before it by a working thread.
  struct Shadow {
    bool working;
    long long d, o;
    double a, b;
  };
  template <class T>
  __device__ Shadow before(bool working, const volatile T* s, long long d, long long o) const {
    Shadow sh{working && on(), d, o, 0.0, 0.0};
    if (sh.working) {
      sh.a = double(s[d]);
      sh.b = double(s[o]);
    }
    return sh;
  }
  /// Records the tree statement read by before(); r = s[d] after it.
  __device__ void after(const Shadow& sh, double r, OpKind kind = OpKind::Add) const {
    if (sh.working) tree_add(kind, sh.d, sh.o, sh.a, sh.b, r);
  }
  /// `if (tid == 0) atomicAdd(sum, s[0])` as the models' commit: load s[0] (access 0), the global
  /// atomic (access 1, the accumulator), the working mark.
  __device__ void commit(double v) const {
    load(Space::Shared, 0, 0, v);
    atomic(Space::Global, 1, 0, v, kAccumulator);
    work();
  }
};

#ifndef __CUDACC_RTC__
// Host side of this translation unit: which launch records, switched on the stream. Everything here is
// static: each file has its own sink and state (an inline function with external linkage would be
// merged across files by the linker in unoptimized builds).
static int ws_trace_launches = 0;        // kernels enqueued since arm()
static int ws_trace_target = 0;          // the launch that records
static int* ws_trace_enabled = nullptr;  // device flag
static cudaStream_t ws_trace_stream = nullptr;

static inline void ws_trace_set_enabled(bool on) {
  check_cuda(cudaMemsetAsync(ws_trace_enabled, on ? 1 : 0, sizeof(int), ws_trace_stream), "cudaMemsetAsync(trace flag)",
             __FILE__, __LINE__);
}

/// After every launch of a traced run: record only during launch number ws_trace_target.
static inline void ws_trace_after_launch() {
  ++ws_trace_launches;
  ws_trace_set_enabled(ws_trace_launches == ws_trace_target);
}

/// Points this file's kernels at `sink` and arms launch `traced_launch` of the next launcher call.
static inline void ws_trace_arm(const TraceSink& sink, int traced_launch, cudaStream_t stream) {
  check_cuda(cudaMemcpyToSymbol(ws_trace_sink, &sink, sizeof sink), "cudaMemcpyToSymbol(trace sink)", __FILE__,
             __LINE__);
  ws_trace_launches = 0;
  ws_trace_target = traced_launch;
  ws_trace_enabled = sink.enabled;
  ws_trace_stream = stream;
  ws_trace_set_enabled(traced_launch == 0);
}
#endif  // __CUDACC_RTC__

}  // namespace ws::kernels::traced

#ifndef __CUDACC_RTC__
#undef WS_LAUNCHED
#define WS_LAUNCHED()                                                                  \
  (::ws::kernels::check_cuda(cudaGetLastError(), "kernel launch", __FILE__, __LINE__), \
   ::ws::kernels::traced::ws_trace_after_launch())

/// The file's arm function, named e.g. epita_arm (declared in its pattern's launch header).
#define WS_TRACE_ARM_FUNCTION(name)                                                \
  void name(const ::ws::TraceSink& sink, int traced_launch, cudaStream_t stream) { \
    ws_trace_arm(sink, traced_launch, stream);                                     \
  }
#endif

#else  // the timed build: no trace code at all

#define WS_T(...)
#define WS_TRACE_NS_BEGIN
#define WS_TRACE_NS_END
#define WS_TRACE_ARM_FUNCTION(name)

#endif
