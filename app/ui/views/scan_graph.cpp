#include "views/scan_graph.hpp"

#include <algorithm>
#include <cstdio>

namespace ws::ui {

namespace {

/// A kernel without a shared array ("A Naive Inclusive Parallel Scan": thread i adds x[0..i] from global
/// memory into a register): rows become the input x and the threads' running sums, an edge per global
/// load of x[j] that a thread adds in (or starts its sum with). Folded loop steps record no ops: their
/// sums are the values the threads store at the end.
void register_sums(const Trace& t, ScanGraph& g) {
  const std::size_t n = std::size_t(g.elements);
  if (n == 0) return;
  std::vector<double> x(n, 0), sum(n, 0), stored(n, 0);
  bool any_load = false, any_store = false;
  for (const Step& s : t.steps)
    for (const ThreadOp& op : s.ops)
      if (op.space == Space::Global && op.address >= 0 && std::size_t(op.address) < n) {
        if (op.kind == OpKind::Load && op.buffer == 0) x[std::size_t(op.address)] = op.value, any_load = true;
        if (op.kind == OpKind::Store && op.thread >= 0 && std::size_t(op.thread) < n)
          stored[std::size_t(op.thread)] = op.value, any_store = true;
      }
  if (!any_load) return;
  g.registers = true;
  g.top = "x";
  g.bottom = "sums";
  g.slots = int(n);
  for (std::size_t k = 0; k < g.steps.size(); ++k) {
    ScanStepView& v = g.steps[k];
    const Step& s = t.steps[k];
    v.before = x;
    v.edges.clear();
    for (std::size_t i = 0; i < s.ops.size(); ++i) {
      const ThreadOp& op = s.ops[i];
      if (op.space != Space::Global || op.kind != OpKind::Load || op.buffer != 0) continue;
      if (op.thread < 0 || std::size_t(op.thread) >= n) continue;
      // The thread's next op: an add of the loaded value (sum += x[j]), or none (sum = x[0]).
      const bool adds = i + 1 < s.ops.size() && s.ops[i + 1].thread == op.thread && s.ops[i + 1].kind == OpKind::Add &&
                        s.ops[i + 1].space == Space::Register;
      double& r = sum[std::size_t(op.thread)];
      r = adds ? s.ops[i + 1].value : op.value;
      v.edges.push_back(ScanEdge{op.thread, op.address, op.thread, r});
    }
    if (s.ops.empty() && !s.working_threads.empty() && any_store) sum = stored;  // a folded loop: its end
    if (s.phase == TracePhase::Store && any_store) sum = stored;
    v.after = sum;
  }
}

}  // namespace

ScanGraph scan_graph(const Trace& t, std::int64_t elements) {
  ScanGraph g;
  g.elements = std::max<std::int64_t>(0, elements);
  g.sequential = std::max<std::int64_t>(0, g.elements - 1);
  if (t.steps.empty()) {
    g.note = "this variant's model computes its output only: there are no steps to draw";
    return g;
  }
  const int warps = std::max(1, t.warps());
  std::vector<double> shared;  // the array as it stands before each step
  for (const Step& s : t.steps) {
    ScanStepView v;
    v.step = s.index;
    v.phase = s.phase;
    v.label = s.label;
    v.before = shared;
    v.active_lanes.assign(std::size_t(warps), 0);
    for (int th : s.working_threads)
      if (th >= 0 && th / 32 < warps) ++v.active_lanes[std::size_t(th / 32)];
    std::int64_t adds = 0;
    for (std::size_t i = 0; i < s.ops.size(); ++i) {
      const ThreadOp& op = s.ops[i];
      if (op.space != Space::Register || op.kind != OpKind::Add) continue;
      ++adds;
      // A shared operand and the thread's next shared store make an edge from -> to.
      if (op.operand < 0) continue;
      for (std::size_t j = i + 1; j < s.ops.size() && s.ops[j].thread == op.thread; ++j) {
        const ThreadOp& st = s.ops[j];
        if (st.kind == OpKind::Store && st.space == Space::Shared) {
          v.edges.push_back(ScanEdge{op.thread, op.operand, st.address, op.value});
          break;
        }
      }
    }
    // Folded loop steps keep no ops: one add per working thread.
    v.additions = s.ops.empty() ? std::int64_t(s.working_threads.size()) : adds;
    if (s.has_shared) {
      v.after = s.shared_after;
      shared = s.shared_after;
      g.slots = std::max(g.slots, int(s.shared_after.size()));
    } else {
      v.after = shared;
    }
    g.additions += v.additions;
    v.additions_so_far = g.additions;
    g.steps.push_back(std::move(v));
  }
  if (g.slots == 0) register_sums(t, g);
  return g;
}

std::vector<LadderRow> scan_ladder(const ScanGraph& g, int max_slots) {
  std::vector<LadderRow> rows;
  const std::size_t slots = std::size_t(std::max<std::int64_t>(0, std::min<std::int64_t>(max_slots, g.elements)));
  auto cut = [&](const std::vector<double>& v) {
    return std::vector<double>(v.begin(), v.begin() + std::ptrdiff_t(std::min(slots, v.size())));
  };
  for (const ScanStepView& st : g.steps) {
    if (st.edges.empty()) continue;
    if (rows.empty()) {
      LadderRow in;
      in.label = "input";
      in.values = cut(st.before);
      rows.push_back(std::move(in));
    }
    LadderRow r;
    r.step = st.step;
    r.phase = st.phase;
    r.label = st.label;
    r.values = cut(st.after);
    for (const ScanEdge& e : st.edges)
      if (e.from >= 0 && e.to >= 0 && std::size_t(e.from) < slots && std::size_t(e.to) < slots) r.edges.push_back(e);
    rows.push_back(std::move(r));
  }
  return rows;
}

std::string work_summary(const ScanGraph& g) {
  char buf[160];
  if (g.sequential > 0)
    std::snprintf(buf, sizeof buf, "%lld additions (sequential: %lld) = %.2fx the work", (long long)g.additions,
                  (long long)g.sequential, double(g.additions) / double(g.sequential));
  else
    std::snprintf(buf, sizeof buf, "%lld additions (sequential: 0)", (long long)g.additions);
  return buf;
}

}  // namespace ws::ui
