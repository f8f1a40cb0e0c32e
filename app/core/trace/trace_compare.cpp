#include "trace/trace_compare.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <tuple>

#include "trace_points.hpp"

namespace ws {

namespace {

bool is_folded(const Step& s) { return s.label.find("folded") != std::string::npos; }
bool depends_on_order(const Step& s) { return s.label.find("depends on the order") != std::string::npos; }

/// Index of the model's folded step, or -1.
int folded_step(const Trace& model) {
  for (std::size_t i = 0; i < model.steps.size(); ++i)
    if (is_folded(model.steps[i])) return int(i);
  return -1;
}

using OpKey = std::tuple<int, int, int, std::int64_t, std::int64_t, int, int, double>;

OpKey key_of(const ThreadOp& o) {
  return {int(o.kind), int(o.space), o.access, o.address, o.operand, o.buffer, o.line, o.value};
}

/// Equal keys, values within rel_tol * max(1, |a|); lines compared only when `lines`.
bool same_op(const ThreadOp& a, const ThreadOp& b, double rel_tol, bool lines) {
  ThreadOp x = a, y = b;
  if (!lines) x.line = y.line = 0;
  if (rel_tol <= 0) return key_of(x) == key_of(y);
  x.value = y.value = 0;
  return key_of(x) == key_of(y) && std::abs(a.value - b.value) <= rel_tol * std::max(1.0, std::abs(a.value));
}

std::string describe(const ThreadOp& o) {
  char buf[160];
  if (o.space == Space::Register)
    std::snprintf(buf, sizeof buf, "%s (operand %lld) -> %.9g", to_string(o.kind), (long long)o.operand, o.value);
  else
    std::snprintf(buf, sizeof buf, "%s %s[%lld]%s = %.9g (access %d)", to_string(o.kind), to_string(o.space),
                  (long long)o.address, o.space == Space::Global ? (" buffer " + std::to_string(o.buffer)).c_str() : "",
                  o.value, o.access);
  return o.line > 0 ? buf + std::string(" at line ") + std::to_string(o.line) : std::string(buf);
}

/// Each thread's ops of a step, sorted canonically.
std::map<int, std::vector<ThreadOp>> by_thread(const Step& s, bool lines) {
  std::map<int, std::vector<ThreadOp>> m;
  for (const ThreadOp& o : s.ops) {
    m[o.thread].push_back(o);
    if (!lines) m[o.thread].back().line = 0;
  }
  for (auto& [t, ops] : m)
    std::sort(ops.begin(), ops.end(), [](const ThreadOp& a, const ThreadOp& b) { return key_of(a) < key_of(b); });
  return m;
}

std::string step_name(const Step& s) { return "step " + std::to_string(s.index) + " (" + s.label + ")"; }

}  // namespace

Trace trace_from_events(const std::vector<TraceEvent>& events, const Trace& model, const std::string& source,
                        bool pad_to_model) {
  Trace t;
  t.variant = model.variant;
  t.source = source;
  t.n = model.n;
  t.type = model.type;
  t.launch = model.launch;
  t.block_index = model.block_index;
  t.block_size = model.block_size;
  t.input = model.input;
  t.seed = model.seed;
  t.racy_model = false;
  t.interleaving.clear();

  int gpu_steps = 0;
  for (const TraceEvent& e : events) gpu_steps = std::max(gpu_steps, e.step + 1);
  const int model_steps = int(model.steps.size());
  // A model that folds the tail of a long loop into one step: fold the GPU's iterations the same way.
  const int fold = folded_step(model);
  const int extra = fold >= 0 ? gpu_steps - model_steps : 0;
  auto map_step = [&](int s) { return extra > 0 && s > fold ? (s <= fold + extra ? fold : s - extra) : s; };
  // A step in which no thread of the block recorded anything (e.g. harris.naive's last launches,
  // whose pairs all lie before the traced block) leaves no event: pad to the model's count, so such
  // steps compare as empty (a step the GPU missed while the model has work there is still reported).
  const int recorded_steps = extra > 0 ? gpu_steps - extra : gpu_steps;
  const int steps = pad_to_model ? std::max(recorded_steps, model_steps) : recorded_steps;
  const bool labels = steps == model_steps;

  t.steps.resize(std::size_t(steps));
  std::size_t shared_words = 0;
  for (const Step& s : model.steps) shared_words = std::max(shared_words, s.shared_after.size());
  for (int i = 0; i < steps; ++i) {
    Step& s = t.steps[std::size_t(i)];
    s.index = i;
    s.phase = labels ? model.steps[std::size_t(i)].phase : TracePhase::Step;
    s.label = labels ? model.steps[std::size_t(i)].label : "step " + std::to_string(i);
    // Barriers are the kernel's structure, which the model of the same source states; a recording
    // with another step count keeps the defaults (a barrier after every step).
    if (labels) {
      s.barrier_after = model.steps[std::size_t(i)].barrier_after;
      s.barrier_before_access = model.steps[std::size_t(i)].barrier_before_access;
    }
  }
  for (const TraceEvent& e : events) {
    if (e.step < 0) continue;
    const int si = map_step(e.step);
    Step& s = t.steps[std::size_t(si)];
    if (e.line > 0) {
      s.lines.push_back(e.line);
      if (t.source_file.empty() && e.file >= 0 && e.file < trace_points::kFileCount)
        t.source_file = trace_points::kFiles[e.file];
    }
    if (e.kind == kTraceWork) {
      s.working_threads.push_back(e.thread);
      continue;
    }
    if (labels && is_folded(model.steps[std::size_t(si)])) {
      // Folded steps keep no ops (as in the model); their shared stores still update the replay below.
      if (e.space == std::int8_t(Space::Shared) && e.kind == std::int8_t(OpKind::Store)) {
        ThreadOp o;
        o.thread = -1;  // marker: replay only
        o.kind = OpKind::Store;
        o.space = Space::Shared;
        o.address = e.address;
        o.value = e.value;
        s.ops.push_back(o);
        if (o.address >= 0) shared_words = std::max(shared_words, std::size_t(o.address + 1));
      }
      continue;
    }
    ThreadOp o;
    o.thread = e.thread;
    o.kind = OpKind(e.kind);
    o.space = Space(e.space);
    o.access = e.access;
    o.address = e.address;
    o.operand = e.operand;
    o.value = e.value;
    o.buffer = e.buffer;
    o.line = e.line;
    s.ops.push_back(o);
    if (o.space == Space::Shared && o.address >= 0) shared_words = std::max(shared_words, std::size_t(o.address + 1));
  }
  // Threads in increasing order, program order kept; working threads sorted, unique; shared replay.
  std::vector<double> shared(shared_words, 0.0);
  bool any_shared = false;
  for (Step& s : t.steps) {
    std::stable_sort(s.ops.begin(), s.ops.end(),
                     [](const ThreadOp& a, const ThreadOp& b) { return a.thread < b.thread; });
    std::sort(s.working_threads.begin(), s.working_threads.end());
    s.working_threads.erase(std::unique(s.working_threads.begin(), s.working_threads.end()), s.working_threads.end());
    std::sort(s.lines.begin(), s.lines.end());
    s.lines.erase(std::unique(s.lines.begin(), s.lines.end()), s.lines.end());
    bool stored = false;
    for (const ThreadOp& o : s.ops)
      if (o.space == Space::Shared && (o.kind == OpKind::Store || o.kind == OpKind::Atomic) && o.address >= 0 &&
          std::size_t(o.address) < shared.size()) {
        stored = true;
        // Stores set the word; shared atomics (the lessons' atomicAdd on a shared sum) add to it.
        if (o.kind == OpKind::Store)
          shared[std::size_t(o.address)] = o.value;
        else
          shared[std::size_t(o.address)] += o.value;
      }
    s.ops.erase(std::remove_if(s.ops.begin(), s.ops.end(), [](const ThreadOp& o) { return o.thread < 0; }),
                s.ops.end());
    any_shared = any_shared || stored;
    if (any_shared && !shared.empty()) {
      s.has_shared = true;
      s.shared_after = shared;
    }
  }
  // What the block contributed: its global atomics into the accumulator, or its stores of partials
  // (combined with max when the kernel combines with max, else summed).
  bool is_max = false, any = false;
  double contribution = 0;
  for (const Step& s : t.steps)
    for (const ThreadOp& o : s.ops) is_max = is_max || o.kind == OpKind::Max;
  for (const Step& s : t.steps)
    for (const ThreadOp& o : s.ops) {
      const bool counts = o.space == Space::Global &&
                          ((o.kind == OpKind::Atomic && o.buffer == 2) || (o.kind == OpKind::Store && o.buffer == 1));
      if (!counts) continue;
      contribution = !any ? o.value : is_max ? std::max(contribution, o.value) : contribution + o.value;
      any = true;
    }
  t.block_result = contribution;
  return t;
}

std::string compare_traces(const Trace& model, const Trace& recorded, double rel_tol) {
  if (model.steps.size() != recorded.steps.size())
    return "the model has " + std::to_string(model.steps.size()) + " steps, the GPU recorded " +
           std::to_string(recorded.steps.size());
  // A recording stored before traces carried lines has no source_file: its ops compare without lines.
  const bool lines = !recorded.source_file.empty();
  if (lines && model.source_file != recorded.source_file)
    return "the model's lines are in " + (model.source_file.empty() ? std::string("no file") : model.source_file) +
           ", the GPU's in " + (recorded.source_file.empty() ? std::string("no file") : recorded.source_file);
  for (std::size_t i = 0; i < model.steps.size(); ++i) {
    const Step& m = model.steps[i];
    const Step& g = recorded.steps[i];
    if (m.working_threads != g.working_threads && !depends_on_order(m)) {
      std::size_t k = 0;
      while (k < m.working_threads.size() && k < g.working_threads.size() &&
             m.working_threads[k] == g.working_threads[k])
        ++k;
      const std::string mt = k < m.working_threads.size() ? "thread " + std::to_string(m.working_threads[k]) : "none";
      const std::string gt = k < g.working_threads.size() ? "thread " + std::to_string(g.working_threads[k]) : "none";
      return step_name(m) + ": working threads differ (" + std::to_string(m.working_threads.size()) +
             " in the model, " + std::to_string(g.working_threads.size()) + " on the GPU; first difference: model " +
             mt + ", GPU " + gt + ")";
    }
    if (is_folded(m) || depends_on_order(m)) continue;
    if (lines && m.lines != g.lines) {
      auto list = [](const std::vector<int>& v) {
        std::string out;
        for (int l : v) out += (out.empty() ? "" : ", ") + std::to_string(l);
        return out.empty() ? std::string("none") : out;
      };
      return step_name(m) + ": source lines differ (model " + list(m.lines) + ", GPU " + list(g.lines) + ")";
    }
    const auto mo = by_thread(m, lines), go = by_thread(g, lines);
    auto mi = mo.begin();
    auto gi = go.begin();
    while (mi != mo.end() || gi != go.end()) {
      if (gi == go.end() || (mi != mo.end() && mi->first < gi->first))
        return step_name(m) + ": thread " + std::to_string(mi->first) + ": model has " + describe(mi->second.front()) +
               ", GPU recorded nothing";
      if (mi == mo.end() || gi->first < mi->first)
        return step_name(m) + ": thread " + std::to_string(gi->first) + ": GPU recorded " +
               describe(gi->second.front()) + ", the model has nothing";
      const auto& a = mi->second;
      const auto& b = gi->second;
      for (std::size_t k = 0; k < std::max(a.size(), b.size()); ++k) {
        if (k < a.size() && k < b.size() && same_op(a[k], b[k], rel_tol, lines)) continue;
        const std::string ma = k < a.size() ? describe(a[k]) : "nothing more";
        const std::string gb = k < b.size() ? describe(b[k]) : "nothing more";
        return step_name(m) + ": thread " + std::to_string(mi->first) + ": model has " + ma + ", GPU has " + gb;
      }
      ++mi;
      ++gi;
    }
  }
  return "";
}

}  // namespace ws
