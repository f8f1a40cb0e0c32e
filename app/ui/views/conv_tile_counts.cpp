#include "views/conv_tile_counts.hpp"

#include <map>
#include <stdexcept>
#include <string>

#include "patterns/convolution/conv_sim.hpp"

namespace ws::ui {

ConvTileCounts count_tile_loads(const ConvGeometry& g, const Trace& t, std::int64_t bx, std::int64_t by) {
  if (t.block_index != by * g.grid_x + bx)
    throw std::invalid_argument("count_tile_loads: the trace is of block " + std::to_string(t.block_index) +
                                ", not of block (" + std::to_string(bx) + ", " + std::to_string(by) + ")");
  ConvTileCounts c;
  c.threads.resize(std::size_t(g.threads()));
  const std::int64_t rows = g.dims == 2 ? g.height : 1;
  const std::int64_t x0 = bx * g.tile_x, y0 = by * g.tile_y;
  for (const Step& s : t.steps) {
    const bool staging = s.phase == TracePhase::Load || s.phase == TracePhase::Halo;
    const bool compute = s.phase == TracePhase::Compute;
    std::map<int, int> loads, stores;  // per thread, this step: staging loads of N, shared stores
    std::map<int, int> pending;        // per thread: staged loads not yet stored to shared memory
    for (const ThreadOp& op : s.ops) {
      if (op.thread < 0 || op.thread >= g.threads())
        throw std::invalid_argument("count_tile_loads: thread " + std::to_string(op.thread) + " is outside the block");
      ConvThreadLoads& th = c.threads[std::size_t(op.thread)];
      if (op.kind == OpKind::Load && op.space == Space::Global && op.buffer == sim::kConvInput) {
        if (compute) {
          ++th.direct;
          if (g.dims == 1) ++c.direct_reads[op.address];
        } else if (staging) {
          ++loads[op.thread];
          ++pending[op.thread];
          if (g.dims == 1) c.staged_by.emplace(op.address, op.thread);
          const std::int64_t row = g.dims == 2 ? op.address / g.width : 0,
                             col = g.dims == 2 ? op.address % g.width : op.address;
          if (row >= rows || col >= g.width)
            ++th.padding;
          else if (row >= y0 && row < y0 + g.tile_y && col >= x0 && col < x0 + g.tile_x)
            ++th.internal;
          else
            ++th.halo;
        }
      } else if (staging && op.kind == OpKind::Store && op.space == Space::Shared) {
        ++stores[op.thread];
        if (pending[op.thread] > 0)
          --pending[op.thread];
        else
          c.ghost_slots.emplace(op.address, op.thread);  // a 0 stored without a load
      } else if (op.kind == OpKind::Store && op.space == Space::Global && op.buffer == sim::kConvOutput) {
        const std::int64_t row = g.dims == 2 ? op.address / g.width : 0,
                           col = g.dims == 2 ? op.address % g.width : op.address;
        if (row < rows && col < g.width) th.writes = true;
      }
    }
    for (const auto& [thread, n] : stores) c.threads[std::size_t(thread)].ghost += std::max(0, n - loads[thread]);
    if (compute)
      for (int w : s.working_threads)
        if (w >= 0 && w < g.threads()) c.threads[std::size_t(w)].computes = true;
  }
  for (const ConvThreadLoads& th : c.threads) {
    c.total.internal += th.internal;
    c.total.halo += th.halo;
    c.total.padding += th.padding;
    c.total.ghost += th.ghost;
    c.total.direct += th.direct;
    c.computing += th.computes;
    c.writing += th.writes;
  }
  return c;
}

ConvTileCounts model_tile_counts(const ConvGeometry& g, ConstSpan<float> input, const std::vector<float>& mask,
                                 std::int64_t bx, std::int64_t by) {
  Trace t;
  sim::simulate_conv(g, input, mask, by * g.grid_x + bx, &t);
  return count_tile_loads(g, t, bx, by);
}

}  // namespace ws::ui
