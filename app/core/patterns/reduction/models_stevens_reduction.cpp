// Sim models of the reduction trees of Stevens CS 677 Lecture 6 ("CS 677 Lecture 6", Mordohai,
// "Reduction Trees"), one per kernel of kernels/reduction/stevens.cu, at thread granularity.
//
// Both kernels load two elements per thread into partialSum[2 * blockDim.x] and run their tree; the
// launcher relaunches them on the block sums (zero-padded to a whole window, as its memset leaves
// them) until one value is left. int32 runs in uint32 (wrapping adds), float32 in float, in the
// kernel's order of additions. Only block `trace_block` of the first launch is recorded.
// Trace: tree steps record access 0 = load partialSum[a], 1 = load partialSum[a + stride],
// 2 = store partialSum[a]; global buffers kit::kInput and kit::kPartials.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/model_kit.hpp"
#include "sim/sim.hpp"

namespace ws::sim {

namespace {

using I64 = std::int64_t;
using kit::ceil_div;
using kit::kInput;
using kit::kPartials;
using kit::Rec;
using kit::round_up_to;
using kit::tree_add;
namespace pts = trace_points::stevens;

/// The kernel lines of one stevens.cu kernel: its two loads, its tree statement and its final store.
struct Lines {
  int load_low, load_high, tree, commit;
};
constexpr Lines kDivergent{pts::divergent_load_low, pts::divergent_load_high, pts::divergent_tree,
                           pts::divergent_commit};
constexpr Lines kCompact{pts::compact_load_low, pts::compact_load_high, pts::compact_tree, pts::compact_commit};

/// partialSum[t] = input[start + t]; partialSum[blockDim.x + t] = input[start + blockDim.x + t].
template <class P>
void load_pair(const std::vector<typename P::T>& v, I64 b, std::vector<typename P::T>& ps, Rec<P>& rec,
               const Lines& lines) {
  const int B = int(ps.size() / 2);
  rec.begin(TracePhase::Load,
            "partialSum[t], partialSum[blockDim.x + t] = input[start + t], input[start + blockDim.x + t]");
  const I64 start = 2 * b * B;
  for (int t = 0; t < B; ++t) {
    ps[std::size_t(t)] = v[std::size_t(start + t)];
    ps[std::size_t(B + t)] = v[std::size_t(start + B + t)];
    rec.at(pts::kFile, lines.load_low);
    rec.load_global(t, 0, start + t, ps[std::size_t(t)], kInput);
    rec.store_shared(t, 1, t, ps[std::size_t(t)]);
    rec.at(pts::kFile, lines.load_high);
    rec.load_global(t, 2, start + B + t, ps[std::size_t(B + t)], kInput);
    rec.store_shared(t, 3, B + t, ps[std::size_t(B + t)]);
    rec.work(t);
  }
  rec.end(ps);
}

template <class P>
typename P::T store_block_sum(const std::vector<typename P::T>& ps, I64 b, Rec<P>& rec, const Lines& lines) {
  rec.at(pts::kFile, lines.commit);
  rec.begin(TracePhase::Combine, "if (t == 0) output[blockIdx.x] = partialSum[0]");
  rec.load_shared(0, 0, 0, ps[0]);
  rec.store_global(0, 1, b, ps[0], kPartials);
  rec.work(0);
  rec.end(ps);
  return ps[0];
}

/// stevens.reduce_divergent: for stride = 1; stride <= blockDim.x; stride *= 2: if (t % stride == 0)
/// partialSum[2t] += partialSum[2t + stride].
template <class P>
typename P::T divergent_block(const std::vector<typename P::T>& v, int B, I64 b, Rec<P>& rec) {
  std::vector<typename P::T> ps(std::size_t(2 * B), P::identity());
  load_pair(v, b, ps, rec, kDivergent);
  rec.at(pts::kFile, kDivergent.tree);
  for (I64 stride = 1; stride <= B; stride *= 2) {
    rec.begin(TracePhase::Tree, "stride", stride);
    for (int t = 0; t < B; t += int(stride)) tree_add(ps, t, 2 * I64(t), stride, rec);
    rec.end(ps);
  }
  return store_block_sum(ps, b, rec, kDivergent);
}

/// stevens.reduce_compact: for stride = blockDim.x; stride >= 1; stride >>= 1: if (t < stride)
/// partialSum[t] += partialSum[t + stride].
template <class P>
typename P::T compact_block(const std::vector<typename P::T>& v, int B, I64 b, Rec<P>& rec) {
  std::vector<typename P::T> ps(std::size_t(2 * B), P::identity());
  load_pair(v, b, ps, rec, kCompact);
  rec.at(pts::kFile, kCompact.tree);
  for (I64 stride = B; stride >= 1; stride >>= 1) {
    rec.begin(TracePhase::Tree, "stride", stride);
    for (int t = 0; t < stride; ++t) tree_add(ps, t, t, stride, rec);
    rec.end(ps);
  }
  return store_block_sum(ps, b, rec, kCompact);
}

template <class P>
using BlockKernel = typename P::T (*)(const std::vector<typename P::T>& v, int B, I64 b, Rec<P>& rec);

/// stevens.cu run_tree_passes: windows of 2 * block, relaunched on the block sums until one is left.
template <class P, BlockKernel<P> Kernel>
SimOutput passes(const VariantInfo& v, const Input& in, const LaunchConfig& l, int trace_block) {
  using T = typename P::T;
  const I64 B = l.block, window = 2 * B, n = in.n();
  if (B < 1 || B > 1024 || (B & (B - 1)) != 0)
    throw std::runtime_error(v.id + ": block size " + std::to_string(B) + " is not a power of two up to 1024");
  if (l.grid != ceil_div(n, window))
    throw std::runtime_error(v.id + ": grid " + std::to_string(l.grid) + " does not match ceil(n / " +
                             std::to_string(window) + ")");
  SimOutput out = kit::start(v, in, l, trace_block);
  kit::Recorder recorder(out.trace);
  std::vector<T> src = kit::padded_input<P>(in, l.grid * window);
  I64 grid = l.grid;
  for (;;) {
    std::vector<T> dst(std::size_t(round_up_to(grid, window)), P::identity());
    const int traced_block = out.launches == 0 ? trace_block : -1;  // pass 1 only
    kit::for_blocks(0, grid, traced_block, recorder, [&](std::int64_t b, kit::Recorder* traced) {
      Rec<P> rec(traced);
      dst[std::size_t(b)] = Kernel(src, int(B), b, rec);
      if (traced) out.trace.block_result = P::to_double(dst[std::size_t(b)]);
    });
    ++out.launches;
    src = std::move(dst);
    if (grid == 1) break;
    grid = ceil_div(grid, window);
  }
  out.result = P::to_double(src[0]);
  return out;
}

}  // namespace

/// The sim models of stevens.reduce_divergent and stevens.reduce_compact.
std::vector<ModelEntry> stevens_reduction_models() {
  return {
      {"stevens.reduce_divergent", kit::by_type<passes<kit::SumI32, divergent_block<kit::SumI32>>,
                                                passes<kit::SumF32, divergent_block<kit::SumF32>>>},
      {"stevens.reduce_compact",
       kit::by_type<passes<kit::SumI32, compact_block<kit::SumI32>>, passes<kit::SumF32, compact_block<kit::SumF32>>>},
  };
}

}  // namespace ws::sim
