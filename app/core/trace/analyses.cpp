#include "trace/analyses.hpp"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

namespace ws {

std::uint32_t existing_lanes(int block_size, int w) {
  const int lanes = std::clamp(block_size - w * kWarpSize, 0, kWarpSize);
  return lanes == kWarpSize ? 0xffffffffu : (std::uint32_t(1) << lanes) - 1;
}

std::vector<std::uint32_t> active_masks(const Trace& t, const Step& step) {
  std::vector<std::uint32_t> masks(std::size_t(std::max(0, t.warps())), 0);
  for (int th : step.working_threads) {
    if (th < 0 || th >= t.block_size) continue;
    masks[std::size_t(th / kWarpSize)] |= std::uint32_t(1) << (th % kWarpSize);
  }
  return masks;
}

bool is_divergent(std::uint32_t mask, int block_size, int w) {
  return mask != 0 && mask != existing_lanes(block_size, w);
}

WarpActivity warp_activity(const Trace& t, const std::vector<std::uint32_t>& masks) {
  WarpActivity a;
  for (std::size_t w = 0; w < masks.size(); ++w) {
    const std::uint32_t m = masks[w];
    if (m == 0) {
      ++a.idle_warps;
      continue;
    }
    ++a.active_warps;
    a.active_lanes += __builtin_popcount(m);
    if (is_divergent(m, t.block_size, int(w))) ++a.divergent_warps;
  }
  return a;
}

int bank_conflict_ways(const std::vector<std::int64_t>& words) {
  if (words.empty()) return 0;
  std::vector<std::int64_t> distinct(words);
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  int per_bank[kBanks] = {};
  int ways = 0;
  for (std::int64_t w : distinct) {
    const int bank = int(((w % kBanks) + kBanks) % kBanks);
    ways = std::max(ways, ++per_bank[bank]);
  }
  return ways;
}

namespace {
bool shared_access(const ThreadOp& o) {
  return o.space == Space::Shared && (o.kind == OpKind::Load || o.kind == OpKind::Store || o.kind == OpKind::Atomic);
}
}  // namespace

std::vector<int> step_bank_conflicts(const Trace& t, const Step& step) {
  const int warps = std::max(0, t.warps());
  std::vector<int> ways(std::size_t(warps), 0);
  std::map<std::pair<int, int>, std::vector<std::int64_t>> groups;  // (warp, access) -> words
  for (const ThreadOp& o : step.ops) {
    if (!shared_access(o) || o.thread < 0 || o.thread >= t.block_size) continue;
    groups[{o.thread / kWarpSize, o.access}].push_back(o.address);
  }
  for (const auto& [key, words] : groups)
    ways[std::size_t(key.first)] = std::max(ways[std::size_t(key.first)], bank_conflict_ways(words));
  return ways;
}

std::vector<SectorRequest> global_load_sectors(const Trace& t, const Step& step) {
  std::map<std::tuple<int, int, int>, std::vector<std::int64_t>> groups;  // (warp, access, buffer) -> words
  for (const ThreadOp& o : step.ops) {
    if (o.space != Space::Global || o.kind != OpKind::Load || o.thread < 0 || o.thread >= t.block_size) continue;
    groups[{o.thread / kWarpSize, o.access, o.buffer}].push_back(o.address);
  }
  std::vector<SectorRequest> out;
  for (auto& [key, words] : groups) {
    SectorRequest r;
    std::tie(r.warp, r.access, r.buffer) = key;
    r.lanes = int(words.size());
    std::sort(words.begin(), words.end());
    words.erase(std::unique(words.begin(), words.end()), words.end());
    std::vector<std::int64_t> sectors;
    for (std::int64_t w : words) sectors.push_back(w * kWordBytes / kSectorBytes);
    sectors.erase(std::unique(sectors.begin(), sectors.end()), sectors.end());  // words are sorted
    r.sectors = int(sectors.size());
    r.min_sectors = int((std::int64_t(words.size()) * kWordBytes + kSectorBytes - 1) / kSectorBytes);
    out.push_back(r);
  }
  return out;
}

namespace {
void add_atomics(const Step& step, std::map<std::tuple<int, int, std::int64_t>, int>& counts, int& ops) {
  for (const ThreadOp& o : step.ops) {
    if (o.kind != OpKind::Atomic) continue;
    ++ops;
    ++counts[{int(o.space), o.space == Space::Global ? o.buffer : 0, o.address}];
  }
}
AtomicStats to_stats(const std::map<std::tuple<int, int, std::int64_t>, int>& counts, int ops) {
  AtomicStats s;
  s.ops = ops;
  for (const auto& [key, c] : counts) {
    AtomicAddress a;
    a.space = Space(std::get<0>(key));
    a.buffer = std::get<1>(key);
    a.address = std::get<2>(key);
    a.ops = c;
    s.longest_chain = std::max(s.longest_chain, c);
    s.addresses.push_back(a);
  }
  return s;
}
}  // namespace

AtomicStats atomic_stats(const Step& step) {
  std::map<std::tuple<int, int, std::int64_t>, int> counts;
  int ops = 0;
  add_atomics(step, counts, ops);
  return to_stats(counts, ops);
}

AtomicStats atomic_stats(const Trace& t) {
  std::map<std::tuple<int, int, std::int64_t>, int> counts;
  int ops = 0;
  for (const Step& s : t.steps) add_atomics(s, counts, ops);
  return to_stats(counts, ops);
}

StepSummary summarize_step(const Trace& t, const Step& step) {
  StepSummary s;
  s.masks = active_masks(t, step);
  s.conflict_ways = step_bank_conflicts(t, step);
  s.activity = warp_activity(t, s.masks);
  for (const SectorRequest& r : global_load_sectors(t, step)) {
    ++s.load_requests;
    s.sectors += r.sectors;
    s.min_sectors += r.min_sectors;
  }
  s.atomics = atomic_stats(step);
  return s;
}

}  // namespace ws
