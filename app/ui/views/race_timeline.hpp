// The race view's model (no ImGui): a racy trace as an interleaving timeline, one row per thread and
// one column per moment, with each thread's read of the shared location, its add and its write, and the
// lost updates: which write overwrote which (the "Data Race" slide of "Reduction Pattern", Carlinet and
// Chazalon, Fall 2023:
// read tmp <- *sum, compute tmp + buffer[x], write tmp -> *sum).
//
// The order of events is the one racy models state (Trace::interleaving): warps one after another, each
// through all its steps; inside a warp, lanes in lock-step, one instruction after another, and the lanes'
// writes to one address applied in lane order. The builder checks that order against what the model
// recorded: every read must return the value of the latest write before it; a trace whose values do not
// follow that order gets a note, never a wrong picture.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "trace/trace.hpp"

namespace ws::ui {

/// One event of one thread at one moment.
struct RaceEvent {
  enum Kind { Input, Read, Add, Write };
  Kind kind = Read;
  int thread = 0;
  int column = 0;           ///< the moment (left to right)
  int step = 0;             ///< the trace step the op belongs to
  double value = 0;         ///< Input: the thread's own value; Read: what it read; Add / Write: the sum
  double increment = 0;     ///< Write: what the write adds to the value its thread read
  bool lost = false;        ///< Write: a later write replaced it before any thread read it
  int overwritten_by = -1;  ///< Write: index (in events) of the write that replaced it, -1 if none
};

/// The timeline of one traced block.
struct RaceTimeline {
  std::vector<RaceEvent> events;  ///< in time order (columns ascending); only the shown threads
  int columns = 0;
  int threads = 0;               ///< rows shown: threads 0 .. threads-1
  int block_threads = 0;         ///< threads that touch the location in the traced block
  std::vector<int> column_step;  ///< trace step of each column
  std::vector<RaceEvent::Kind> column_kind;
  std::string location;           ///< "total" (*sum, *d_a: the models' buffer 2), "shared word 0", ...
  std::int64_t writes = 0;        ///< all writes to the location (every thread, not just the shown ones)
  std::int64_t lost_updates = 0;  ///< writes replaced before anyone read them
  double added = 0;               ///< sum of every write's increment: what the block should have added
  double lost = 0;                ///< sum of the lost writes' increments: what the race cost the block
  double first_value = 0;         ///< the location before the block's first read
  double final_value = 0;         ///< after the block's last write
  std::string note;               ///< non-empty when there is nothing to draw, says why
};

/// Builds the timeline of `t` (a racy trace: Trace::racy_model). The racing location is the global or
/// shared word that several threads both load and store. Counts cover every thread of the traced block;
/// events are kept for threads below `max_threads` only (rows the view can draw).
RaceTimeline race_timeline(const Trace& t, int max_threads = 64);

}  // namespace ws::ui
