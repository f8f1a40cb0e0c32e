// The sim models' recording kit (models_*.cpp, conv_sim.cpp): element policies, a padded view of the
// input, a step recorder for the traced block, the per-block loop, the tree step and the trace header.
// Header-only, internal to app/core/sim.
#pragma once
#include <algorithm>
#include <climits>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "inputs.hpp"
#include "sim/sim.hpp"
#include "trace/trace.hpp"
#include "trace_points.hpp"
#include "variant.hpp"

namespace ws::sim::kit {

/// int32 sum as the GPU does it: 32-bit adds that wrap modulo 2^32 (kept in uint32 to avoid UB).
struct SumI32 {
  using T = std::uint32_t;
  using Src = std::int32_t;
  static constexpr OpKind kOp = OpKind::Add;
  static T identity() { return 0; }
  static T combine(T a, T b) { return a + b; }
  static T from(Src x) { return T(x); }
  static double to_double(T v) { return double(std::int32_t(v)); }
  static const Src* data(const Input& in) { return in.i32.data(); }
};

/// float32 sum in float, in the order the modelled code adds (no double accumulation).
struct SumF32 {
  using T = float;
  using Src = float;
  static constexpr OpKind kOp = OpKind::Add;
  static T identity() { return 0.0f; }
  static T combine(T a, T b) { return a + b; }
  static T from(Src x) { return x; }
  static double to_double(T v) { return double(v); }
  static const Src* data(const Input& in) { return in.f32.data(); }
};

/// int32 max (atomicMax on int); identity INT_MIN, which is also the padding of max inputs.
struct MaxI32 {
  using T = std::int32_t;
  using Src = std::int32_t;
  static constexpr OpKind kOp = OpKind::Max;
  static T identity() { return INT_MIN; }
  static T combine(T a, T b) { return a > b ? a : b; }
  static T from(Src x) { return x; }
  static double to_double(T v) { return double(v); }
  static const Src* data(const Input& in) { return in.i32.data(); }
};

/// Exact integers in int64 (the atomics lesson's bins, counts, offsets and int32 values): adds that
/// never wrap at the sizes modelled (n <= kMaxN = 2^30), recorded as the doubles they equal.
struct CountI64 {
  using T = std::int64_t;
  using Src = std::int32_t;
  static constexpr OpKind kOp = OpKind::Add;
  static T identity() { return 0; }
  static T combine(T a, T b) { return a + b; }
  static T from(Src x) { return T(x); }
  static double to_double(T v) { return double(v); }
  static const Src* data(const Input& in) { return in.i32.data(); }
};

/// The device input as the kernels see it: n elements, then the op's identity for any index >= n
/// (the CUDA backend pads to the last block's window with 0 for sums, INT_MIN for max).
template <class P>
struct GlobalView {
  const typename P::Src* data = nullptr;
  std::int64_t n = 0;
  typename P::T at(std::int64_t i) const { return i >= 0 && i < n ? P::from(data[i]) : P::identity(); }
};

template <class P>
GlobalView<P> view(const Input& in) {
  return GlobalView<P>{P::data(in), in.n()};
}

/// Global buffers named in ThreadOp::buffer.
constexpr int kInput = 0, kPartials = 1, kAccumulator = 2;

/// Cascading (grid-stride) loops record one step per iteration up to this many steps; the iterations
/// after the first kMaxLoopSteps - 1 are folded into one step whose ops are not recorded.
constexpr int kMaxLoopSteps = 32;

/// Builds the steps of the traced block. Every call is cheap; models keep a Recorder* that is null
/// for blocks that are not traced, so the traced block runs exactly the code of the others.
class Recorder {
 public:
  explicit Recorder(Trace& t) : t_(t) {}

  /// The statement the next ops come from: a trace point of trace_points.hpp (the kernel's line),
  /// e.g. at(trace_points::epita::kFile, trace_points::epita::reduce2_tree). Kept until the next at().
  /// The trace names the file with its first noted line, as a GPU recording names it with its first
  /// event: a traced block that does nothing (harris.naive's last block at n = 4097, block 1024) has
  /// neither lines nor a file, on the GPU and in the model alike.
  void at(int file, int line) {
    file_ = file;
    line_ = line;
  }
  /// Starts a step. keep_ops = false records working threads and shared values but no ops
  /// (used for folded loop iterations, whose ops could be millions).
  void begin(TracePhase phase, const std::string& label, bool keep_ops = true) {
    Step s;
    s.index = int(t_.steps.size());
    s.phase = phase;
    s.label = label;
    t_.steps.push_back(std::move(s));
    keep_ops_ = keep_ops;
  }
  /// Ends the current step: ops sorted by thread (program order kept), working threads sorted, unique.
  void end() {
    Step& s = cur();
    std::stable_sort(s.ops.begin(), s.ops.end(),
                     [](const ThreadOp& a, const ThreadOp& b) { return a.thread < b.thread; });
    std::sort(s.working_threads.begin(), s.working_threads.end());
    s.working_threads.erase(std::unique(s.working_threads.begin(), s.working_threads.end()), s.working_threads.end());
    std::sort(s.lines.begin(), s.lines.end());
    s.lines.erase(std::unique(s.lines.begin(), s.lines.end()), s.lines.end());
  }
  void mem(int thread, OpKind kind, Space space, int access, std::int64_t address, double value, int buffer = 0) {
    note_line();
    if (!keep_ops_) return;
    ThreadOp o;
    o.thread = thread;
    o.kind = kind;
    o.space = space;
    o.access = access;
    o.address = address;
    o.value = value;
    o.buffer = space == Space::Register ? 0 : buffer;
    o.line = line_;
    cur().ops.push_back(o);
  }
  void load(int thread, Space space, int access, std::int64_t address, double value, int buffer = 0) {
    mem(thread, OpKind::Load, space, access, address, value, buffer);
  }
  void store(int thread, Space space, int access, std::int64_t address, double value, int buffer = 0) {
    mem(thread, OpKind::Store, space, access, address, value, buffer);
  }
  /// value: the operand the thread contributes (see ThreadOp::value).
  void atomic(int thread, Space space, int access, std::int64_t address, double value, int buffer = 0) {
    mem(thread, OpKind::Atomic, space, access, address, value, buffer);
  }
  /// A register add/max: operand = the other operand's address (or -1), value = the result.
  void reg(int thread, OpKind kind, std::int64_t operand, double value) {
    note_line();
    if (!keep_ops_) return;
    ThreadOp o;
    o.thread = thread;
    o.kind = kind;
    o.space = Space::Register;
    o.access = -1;
    o.operand = operand;
    o.value = value;
    o.line = line_;
    cur().ops.push_back(o);
  }
  /// A warp shuffle: src_lane = the lane read from, value = the value received.
  void shuffle(int thread, int src_lane, double value) { reg(thread, OpKind::Shuffle, src_lane, value); }
  void work(int thread) {
    note_line();
    cur().working_threads.push_back(thread);
  }
  /// The kernel has no __syncthreads between the last begun step and the next one (see
  /// Step::barrier_after). Callable after end().
  void no_barrier_after() { cur().barrier_after = false; }
  /// The kernel has a __syncthreads inside the current step, before its ops with access >= `access`.
  void barrier_before_access(int access) { cur().barrier_before_access = access; }
  /// The block's shared array after the step.
  template <class P>
  void shared(const std::vector<typename P::T>& s) {
    Step& st = cur();
    st.has_shared = true;
    st.shared_after.resize(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) st.shared_after[i] = P::to_double(s[i]);
  }
  template <class P>
  void shared(typename P::T single) {
    shared<P>(std::vector<typename P::T>{single});
  }

 private:
  Step& cur() { return t_.steps.back(); }
  void note_line() {
    if (line_ <= 0) return;
    if (t_.source_file.empty() && file_ >= 0 && file_ < trace_points::kFileCount)
      t_.source_file = trace_points::kFiles[file_];
    if (cur().lines.empty() || cur().lines.back() != line_) cur().lines.push_back(line_);
  }
  Trace& t_;
  bool keep_ops_ = true;
  int line_ = 0;
  int file_ = -1;
};

/// The per-block loop of a model: body(b, rec) for b = first .. last - 1, in order, where `rec` is
/// `recorder` for block `trace_block` and null for every other block, so the traced block runs exactly
/// the code of the others. A body that is done with its block returns.
template <class Body>
void for_blocks(std::int64_t first, std::int64_t last, std::int64_t trace_block, Recorder& recorder, Body&& body) {
  for (std::int64_t b = first; b < last; ++b) body(b, b == trace_block ? &recorder : nullptr);
}

/// A SimOutput with the trace header filled in (variant, n, type, launch, block). Throws
/// std::runtime_error when the launch is unresolved or trace_block is outside the grid.
inline SimOutput start(const VariantInfo& v, const Input& in, const LaunchConfig& launch, int trace_block) {
  if (launch.block <= 0 || launch.grid <= 0)
    throw std::runtime_error(v.id + ": the sim model needs a resolved launch (block and grid > 0)");
  if (trace_block >= launch.grid)
    throw std::runtime_error(v.id + ": block index " + std::to_string(trace_block) + " is outside the grid of " +
                             std::to_string(launch.grid) + " blocks");
  SimOutput out;
  out.trace.variant = v.id;
  out.trace.source = "sim";
  out.trace.n = in.n();
  out.trace.type = in.type;
  out.trace.launch = launch;
  out.trace.block_index = trace_block < 0 ? 0 : trace_block;
  out.trace.block_size = launch.block;
  out.trace.racy_model = v.racy;
  return out;
}

/// The steps of a cascading (grid-stride) loop in the traced block: one step per iteration, except
/// that iterations from kMaxLoopSteps - 1 on share one folded step when there are more than
/// kMaxLoopSteps (its ops are not recorded; working threads and shared values are).
/// Use: before(k) ... record ... after(k), for k = 0 .. iterations - 1. A null recorder does nothing.
class LoopSteps {
 public:
  LoopSteps(Recorder* rec, TracePhase phase, const char* what, std::int64_t iterations)
      : rec_(rec), phase_(phase), what_(what), iterations_(iterations) {}
  void before(std::int64_t k) {
    if (!rec_) return;
    if (own_step(k))
      rec_->begin(phase_, what_ + " " + std::to_string(k));
    else if (k == kMaxLoopSteps - 1)
      rec_->begin(
          phase_,
          what_ + " " + std::to_string(k) + ".." + std::to_string(iterations_ - 1) + " (folded, ops not recorded)",
          false);
  }
  void after(std::int64_t k) {
    if (rec_ && (own_step(k) || k == iterations_ - 1)) rec_->end();
  }

 private:
  bool own_step(std::int64_t k) const { return iterations_ <= kMaxLoopSteps || k < kMaxLoopSteps - 1; }
  Recorder* rec_;
  TracePhase phase_;
  std::string what_;
  std::int64_t iterations_;
};

/// A reduction model as written: reductions read no pattern parameters, so their models leave them out
/// and by_type / int_only / without_params adapt them to SimModel.
using ReduceModel = SimOutput (*)(const VariantInfo& v, const Input& in, const LaunchConfig& launch, int trace_block);

/// Picks the int32 or float32 instantiation of a sum model by the input's type.
template <ReduceModel ForInt, ReduceModel ForFloat>
SimOutput by_type(const VariantInfo& v, const Input& in, const LaunchConfig& launch, const PatternParams&,
                  int trace_block) {
  return in.type == DType::Int32 ? ForInt(v, in, launch, trace_block) : ForFloat(v, in, launch, trace_block);
}

/// Max models take int32 only (atomicMax has no float form); the launch rules reject float earlier.
template <ReduceModel ForInt>
SimOutput int_only(const VariantInfo& v, const Input& in, const LaunchConfig& launch, const PatternParams&,
                   int trace_block) {
  if (in.type != DType::Int32) throw std::runtime_error(v.id + " takes int32 only (atomicMax on int)");
  return ForInt(v, in, launch, trace_block);
}

/// A model that handles both types itself, as a SimModel.
template <ReduceModel M>
SimOutput without_params(const VariantInfo& v, const Input& in, const LaunchConfig& launch, const PatternParams&,
                         int trace_block) {
  return M(v, in, launch, trace_block);
}

/// ceil(a / b) for positive counts.
inline std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }
/// Smallest multiple of b that is >= a.
inline std::int64_t round_up_to(std::int64_t a, std::int64_t b) { return ceil_div(a, b) * b; }

/// The input in the policy's element type, zero-padded to `size` elements (the backend pads sums with 0).
template <class P>
std::vector<typename P::T> padded_input(const Input& in, std::int64_t size) {
  std::vector<typename P::T> v(std::size_t(std::max(size, in.n())), P::identity());
  const auto* src = P::data(in);
  for (std::int64_t i = 0; i < in.n(); ++i) v[std::size_t(i)] = P::from(src[i]);
  return v;
}

/// A typed, null-safe front of kit::Recorder: every call does nothing for blocks that are not
/// traced, so the traced block runs exactly the code of the others.
template <class P>
class Rec {
 public:
  using T = typename P::T;
  explicit Rec(kit::Recorder* r = nullptr) : r_(r) {}
  /// `file`: the trace_points.hpp file (e.g. trace_points::epita::kFile) whose lines at(line) names.
  Rec(kit::Recorder* r, int file) : r_(r), file_(file) {}
  bool on() const { return r_ != nullptr; }
  /// See Recorder::at.
  void at(int file, int line) {
    if (r_) r_->at(file, line);
  }
  /// A line of the file given at construction (see Recorder::at).
  void at(int line) {
    if (r_) r_->at(file_, line);
  }
  void begin(TracePhase phase, const std::string& label) {
    if (r_) r_->begin(phase, label);
  }
  /// A step labelled "`word` `number`" (e.g. "stride 128"); the label is built only when recording.
  void begin(TracePhase phase, const char* word, std::int64_t number) {
    if (r_) r_->begin(phase, std::string(word) + " " + std::to_string(number));
  }
  /// `buffer`: which __shared__ array (ThreadOp::buffer; double-buffered kernels only).
  void load_shared(int t, int access, std::int64_t addr, T v, int buffer = 0) {
    if (r_) r_->load(t, Space::Shared, access, addr, P::to_double(v), buffer);
  }
  void store_shared(int t, int access, std::int64_t addr, T v, int buffer = 0) {
    if (r_) r_->store(t, Space::Shared, access, addr, P::to_double(v), buffer);
  }
  void load_global(int t, int access, std::int64_t addr, T v, int buffer) {
    if (r_) r_->load(t, Space::Global, access, addr, P::to_double(v), buffer);
  }
  void store_global(int t, int access, std::int64_t addr, T v, int buffer) {
    if (r_) r_->store(t, Space::Global, access, addr, P::to_double(v), buffer);
  }
  /// `buffer`: the global buffer (kInput, kPartials, kAccumulator, or a pattern's own).
  void atomic_global(int t, int access, std::int64_t addr, T v, int buffer) {
    if (r_) r_->atomic(t, Space::Global, access, addr, P::to_double(v), buffer);
  }
  /// An atomic on shared memory; `v` = the operand the thread contributes.
  void atomic_shared(int t, int access, std::int64_t addr, T v, int buffer = 0) {
    if (r_) r_->atomic(t, Space::Shared, access, addr, P::to_double(v), buffer);
  }
  /// Register add; `operand` = the address (or source lane) of the value added in; `v` = the result.
  void add(int t, std::int64_t operand, T v) {
    if (r_) r_->reg(t, OpKind::Add, operand, P::to_double(v));
  }
  /// Register combine of the policy (P::kOp: add for sums, max for MaxI32); as add() otherwise.
  void combine(int t, std::int64_t operand, T v) {
    if (r_) r_->reg(t, P::kOp, operand, P::to_double(v));
  }
  void shuffle(int t, int src_lane, T v) {
    if (r_) r_->shuffle(t, src_lane, P::to_double(v));
  }
  void work(int t) {
    if (r_) r_->work(t);
  }
  /// See Recorder::no_barrier_after and Recorder::barrier_before_access.
  void no_barrier_after() {
    if (r_) r_->no_barrier_after();
  }
  void barrier_before_access(int access) {
    if (r_) r_->barrier_before_access(access);
  }
  /// Ends a step that touches no shared memory.
  void end() {
    if (r_) r_->end();
  }
  /// Ends a step that touches shared memory, keeping the block's array after it.
  void end(const std::vector<T>& sv) {
    if (!r_) return;
    r_->template shared<P>(sv);
    r_->end();
  }
  /// Ends a step whose block keeps a single shared value (e.g. a __shared__ local_sum), keeping it.
  void end(T single) {
    if (!r_) return;
    r_->template shared<P>(single);
    r_->end();
  }
  /// Keeps the block's shared array (or its single shared value) after the current step without ending it.
  void shared(const std::vector<T>& sv) {
    if (r_) r_->template shared<P>(sv);
  }
  void shared(T single) {
    if (r_) r_->template shared<P>(single);
  }
  kit::Recorder* raw() const { return r_; }

 private:
  kit::Recorder* r_;
  int file_ = -1;
};

/// One thread's step of a shared-memory tree, tile[a] = combine(tile[a], tile[a + s]) (epita's and stevens's
/// partialSum, harris's sv, amp's tile_data): access 0 loads tile[a], 1 loads tile[a + s], 2 stores tile[a];
/// the register operation is the policy's combine (an add for sums, a max for MaxI32); thread `tid` works.
template <class P>
void tree_add(std::vector<typename P::T>& tile, int tid, std::int64_t a, std::int64_t s, Rec<P>& rec) {
  const auto x = tile[std::size_t(a)], y = tile[std::size_t(a + s)];
  tile[std::size_t(a)] = P::combine(x, y);
  rec.load_shared(tid, 0, a, x);
  rec.load_shared(tid, 1, a + s, y);
  rec.combine(tid, a + s, tile[std::size_t(a)]);
  rec.store_shared(tid, 2, a, tile[std::size_t(a)]);
  rec.work(tid);
}

/// tile[tid] = src[blockIdx.x * blockDim.x + tid] for every thread of block `b`: the unguarded one-element
/// load that starts several lessons' tree kernels (harris Implementations 1-3, amp reduction_tiled_1..3).
/// `slide_line` labels the step with the slide's own names, e.g. "sv[tid] = v[i]".
template <class P>
void load_one(const std::vector<typename P::T>& src, std::int64_t b, std::vector<typename P::T>& tile, Rec<P>& rec,
              const char* slide_line) {
  const int B = int(tile.size());
  rec.begin(TracePhase::Load, slide_line);
  for (int tid = 0; tid < B; ++tid) {
    const std::int64_t i = b * B + tid;
    tile[std::size_t(tid)] = src[std::size_t(i)];
    rec.load_global(tid, 0, i, tile[std::size_t(tid)], kInput);
    rec.store_shared(tid, 1, tid, tile[std::size_t(tid)]);
    rec.work(tid);
  }
  rec.end(tile);
}

}  // namespace ws::sim::kit
