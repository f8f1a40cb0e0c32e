#include "views/race_timeline.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "format.hpp"
#include "trace_source.hpp"

namespace ws::ui {

using controller::format_value;

namespace {

using Location = std::tuple<int, int, std::int64_t>;  // space, buffer, address

Location location_of(const ThreadOp& o) { return {int(o.space), o.buffer, o.address}; }

bool is_memory(const ThreadOp& o) {
  return o.space != Space::Register && (o.kind == OpKind::Load || o.kind == OpKind::Store);
}

/// The word several threads both load and store (the first such in address order), if any.
bool racing_location(const Trace& t, Location& out) {
  std::map<Location, std::pair<std::set<int>, std::set<int>>> seen;  // loaders, storers
  for (const Step& s : t.steps)
    for (const ThreadOp& o : s.ops) {
      if (!is_memory(o)) continue;
      auto& e = seen[location_of(o)];
      (o.kind == OpKind::Load ? e.first : e.second).insert(o.thread);
    }
  for (const auto& [loc, who] : seen) {
    if (who.second.size() < 2) continue;
    std::size_t both = 0;
    for (int th : who.second) both += who.first.count(th);
    if (both >= 2) {
      out = loc;
      return true;
    }
  }
  return false;
}

std::string describe_location(const Location& loc) {
  const auto [space, buffer, address] = loc;
  if (space == int(Space::Shared)) return "shared word " + std::to_string(address);
  return buffer == 2 ? std::string("total")
                     : "global word " + std::to_string(address) + " of buffer " + std::to_string(buffer);
}

}  // namespace

RaceTimeline race_timeline(const Trace& t, int max_threads) {
  RaceTimeline r;
  if (!t.racy_model) {
    r.note =
        t.variant +
        " is not racy: its threads never overwrite each other's updates (the Tree, Warps and Atomics tabs show it)";
    return r;
  }
  Location loc;
  if (!racing_location(t, loc)) {
    r.note =
        "no word of this trace is both read and written by several threads: there is no read-add-write race to draw";
    return r;
  }
  r.location = describe_location(loc);

  // Per step, each thread's ops in program order (the Recorder keeps threads in increasing order).
  const int warps = std::max(1, t.warps());
  std::vector<RaceEvent> all;
  std::vector<int> col_step;
  std::vector<RaceEvent::Kind> col_kind;
  std::map<int, int> last_read;  // thread -> event index of its latest read of the location
  std::map<int, double> read_value;
  std::set<int> racers;
  int prev_write = -1;
  bool have_value = false;
  double current = 0;
  auto new_column = [&](int step, RaceEvent::Kind k) {
    col_step.push_back(step);
    col_kind.push_back(k);
    return int(col_step.size()) - 1;
  };
  for (int w = 0; w < warps; ++w) {
    for (const Step& s : t.steps) {
      std::map<int, std::vector<const ThreadOp*>> by_lane;
      for (const ThreadOp& o : s.ops)
        if (o.thread / 32 == w) by_lane[o.thread].push_back(&o);
      std::size_t longest = 0;
      for (const auto& [th, ops] : by_lane) longest = std::max(longest, ops.size());
      for (std::size_t k = 0; k < longest; ++k) {
        // One lock-step instruction of the warp: every lane's k-th op, lanes in order.
        int shared_col = -1;
        for (const auto& [th, ops] : by_lane) {
          if (k >= ops.size()) continue;
          const ThreadOp& o = *ops[k];
          RaceEvent e;
          e.thread = th;
          e.step = s.index;
          e.value = o.value;
          const bool on_loc = is_memory(o) && location_of(o) == loc;
          if (on_loc && o.kind == OpKind::Load)
            e.kind = RaceEvent::Read;
          else if (on_loc && o.kind == OpKind::Store)
            e.kind = RaceEvent::Write;
          else if (o.kind == OpKind::Load && o.space == Space::Global)
            e.kind = RaceEvent::Input;
          else if (o.space == Space::Register && (o.kind == OpKind::Add || o.kind == OpKind::Max))
            e.kind = RaceEvent::Add;
          else
            continue;
          if (e.kind == RaceEvent::Write) {
            e.column = new_column(s.index, e.kind);  // the lanes' writes land one after another
          } else {
            if (shared_col < 0 || col_kind[std::size_t(shared_col)] != e.kind) shared_col = new_column(s.index, e.kind);
            e.column = shared_col;
          }
          const int idx = int(all.size());
          if (e.kind == RaceEvent::Read) {
            if (have_value && o.value != current) {
              r = RaceTimeline{};
              r.note =
                  "the values in this trace do not follow the stated order (warps one after another, lanes in "
                  "lock-step): thread " +
                  std::to_string(th) + " read " + format_value(o.value, t.type) + " where the latest write left " +
                  format_value(current, t.type) + "; no timeline is drawn";
              return r;
            }
            if (!have_value) r.first_value = o.value;
            have_value = true;
            current = o.value;
            last_read[th] = idx;
            read_value[th] = o.value;
            racers.insert(th);
          } else if (e.kind == RaceEvent::Write) {
            const auto rv = read_value.find(th);
            e.increment = rv == read_value.end() ? o.value : o.value - rv->second;
            if (prev_write >= 0) {
              const auto lr = last_read.find(th);
              if (lr == last_read.end() || lr->second < prev_write) {
                all[std::size_t(prev_write)].lost = true;
                all[std::size_t(prev_write)].overwritten_by = idx;
              }
            }
            if (!have_value) r.first_value = 0;
            have_value = true;
            current = o.value;
            prev_write = idx;
            racers.insert(th);
          }
          all.push_back(e);
        }
      }
    }
  }
  if (prev_write < 0) {
    r.note = "the traced block writes nothing to " + r.location + ": no update to lose";
    return r;
  }
  r.final_value = current;
  r.block_threads = int(racers.size());
  for (const RaceEvent& e : all) {
    if (e.kind != RaceEvent::Write) continue;
    ++r.writes;
    r.added += e.increment;
    if (e.lost) ++r.lost_updates, r.lost += e.increment;
  }
  // Keep the shown threads' events; number their columns again without gaps.
  r.threads = std::min(max_threads, racers.empty() ? 0 : *racers.rbegin() + 1);
  std::vector<int> new_index(all.size(), -1), col_map(col_step.size(), -1);
  for (std::size_t i = 0; i < all.size(); ++i) {
    const RaceEvent& e = all[i];
    if (e.thread >= r.threads) continue;
    if (col_map[std::size_t(e.column)] < 0) {
      col_map[std::size_t(e.column)] = r.columns++;
      r.column_step.push_back(col_step[std::size_t(e.column)]);
      r.column_kind.push_back(col_kind[std::size_t(e.column)]);
    }
    new_index[i] = int(r.events.size());
    r.events.push_back(e);
    r.events.back().column = col_map[std::size_t(e.column)];
  }
  for (RaceEvent& e : r.events)
    if (e.overwritten_by >= 0) e.overwritten_by = new_index[std::size_t(e.overwritten_by)];
  return r;
}

}  // namespace ws::ui
