#include "trace/hazards.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "trace/analyses.hpp"

namespace ws {

namespace {

bool is_folded(const Step& s) { return s.label.find("folded") != std::string::npos; }

struct Access {
  HazardAccess a;
  int warp = 0;
};

bool reads(OpKind k) { return k == OpKind::Load; }
bool writes(OpKind k) { return k == OpKind::Store || k == OpKind::Atomic; }

/// Whether a and b (of different warps) conflict: one writes, and they are not two atomics.
bool conflict(const Access& a, const Access& b) {
  if (a.warp == b.warp) return false;
  if (!writes(a.a.kind) && !writes(b.a.kind)) return false;
  return !(a.a.kind == OpKind::Atomic && b.a.kind == OpKind::Atomic);
}

/// Pairs of entries from different warps: (total^2 - sum per warp^2) / 2.
std::int64_t cross(const std::map<int, std::int64_t>& per_warp) {
  std::int64_t total = 0, same = 0;
  for (const auto& [w, c] : per_warp) {
    total += c;
    same += c * c;
  }
  return (total * total - same) / 2;
}

const char* verb(OpKind k) {
  switch (k) {
    case OpKind::Load: return "reads";
    case OpKind::Store: return "writes";
    default: return "atomically updates";
  }
}

}  // namespace

std::vector<Hazard> shared_hazards(const Trace& t) {
  using Key = std::tuple<int, int, std::int64_t>;  // interval, buffer, word
  std::map<Key, std::vector<Access>> words;
  std::vector<std::pair<int, int>> interval_steps;  // first and last step of each interval
  int iv = 0;
  auto touch = [&](int interval, int step) {
    if (int(interval_steps.size()) <= interval) interval_steps.resize(std::size_t(interval) + 1, {step, step});
    interval_steps[std::size_t(interval)].second = step;
  };
  for (const Step& s : t.steps) {
    touch(iv, s.index);
    if (s.barrier_before_access >= 0) touch(iv + 1, s.index);
    if (!is_folded(s)) {
      for (const ThreadOp& o : s.ops) {
        if (o.space != Space::Shared || !(reads(o.kind) || writes(o.kind))) continue;
        const int interval = iv + (s.barrier_before_access >= 0 && o.access >= s.barrier_before_access ? 1 : 0);
        words[Key{interval, o.buffer, o.address}].push_back(
            Access{{s.index, o.thread, o.kind, o.line}, o.thread / kWarpSize});
      }
    }
    iv += (s.barrier_before_access >= 0 ? 1 : 0) + (s.barrier_after ? 1 : 0);
  }

  std::vector<Hazard> out;
  for (const auto& [key, acc] : words) {
    std::map<int, std::int64_t> all, rd, at, wr;
    for (const Access& a : acc) {
      ++all[a.warp];
      if (reads(a.a.kind)) ++rd[a.warp];
      if (a.a.kind == OpKind::Atomic) ++at[a.warp];
      if (writes(a.a.kind)) ++wr[a.warp];
    }
    const std::int64_t pairs = cross(all) - cross(rd) - cross(at);
    if (pairs <= 0) continue;
    // Read-against-write pairs across warps: R x W over all warps minus those within a warp.
    std::int64_t rtot = 0, wtot = 0, rw_same = 0;
    for (const auto& [w, c] : rd) {
      rtot += c;
      const auto it = wr.find(w);
      if (it != wr.end()) rw_same += c * it->second;
    }
    for (const auto& [w, c] : wr) wtot += c;
    const bool read_write = rtot * wtot - rw_same > 0;
    Hazard h;
    h.interval = std::get<0>(key);
    h.buffer = std::get<1>(key);
    h.word = std::get<2>(key);
    h.first_step = interval_steps[std::size_t(h.interval)].first;
    h.last_step = interval_steps[std::size_t(h.interval)].second;
    h.pairs = pairs;
    h.read_write = read_write;
    bool found = false;
    for (std::size_t i = 0; i < acc.size() && !found; ++i)
      for (std::size_t j = i + 1; j < acc.size() && !found; ++j) {
        if (!conflict(acc[i], acc[j])) continue;
        if (read_write && !reads(acc[i].a.kind) && !reads(acc[j].a.kind)) continue;
        h.first = acc[i].a;
        h.second = acc[j].a;
        found = true;
      }
    if (found) out.push_back(h);
  }
  return out;
}

std::string describe_hazard(const Hazard& h) {
  // Say it from the reader's side when there is one: "thread 3 reads s[4] while thread 7 writes it".
  const bool second_reads = h.second.kind == OpKind::Load;
  const HazardAccess& a = second_reads ? h.second : h.first;
  const HazardAccess& b = second_reads ? h.first : h.second;
  const std::string word = h.buffer == 0
                               ? "shared[" + std::to_string(h.word) + "]"
                               : "shared buffer " + std::to_string(h.buffer) + "[" + std::to_string(h.word) + "]";
  std::string s = "thread " + std::to_string(a.thread) + " " + verb(a.kind) + " " + word + " while thread " +
                  std::to_string(b.thread) + " " + verb(b.kind) + " it, no barrier between (";
  s += a.step == b.step
           ? "step " + std::to_string(a.step)
           : "steps " + std::to_string(std::min(a.step, b.step)) + " and " + std::to_string(std::max(a.step, b.step));
  if (a.line > 0 && b.line > 0)
    s += a.line == b.line ? ", line " + std::to_string(a.line)
                          : ", lines " + std::to_string(a.line) + " and " + std::to_string(b.line);
  if (h.pairs > 1) s += "; " + std::to_string(h.pairs - 1) + " more pair" + (h.pairs > 2 ? "s" : "") + " on this word";
  return s + ")";
}

std::vector<const Hazard*> hazards_at_step(const std::vector<Hazard>& all, int step) {
  std::vector<const Hazard*> out;
  for (const Hazard& h : all)
    if (h.first.step == step || h.second.step == step) out.push_back(&h);
  return out;
}

}  // namespace ws
