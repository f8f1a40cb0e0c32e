// Stored traces (the part of a report the step-through views index): trace_from_store_json.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "trace/trace_store.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const nlohmann::json j =
      nlohmann::json::parse(std::string(reinterpret_cast<const char*>(data), size), nullptr, false);
  if (j.is_discarded()) return 0;
  try {
    const ws::Trace t = ws::trace_from_store_json(j);
    // What the views rely on once a trace loaded.
    if (t.steps.empty() || t.block_size < 1 || t.block_size > 1024) __builtin_trap();
    for (const ws::Step& s : t.steps)
      for (const ws::ThreadOp& o : s.ops)
        if (o.thread < 0 || o.thread >= t.block_size) __builtin_trap();
  } catch (const std::runtime_error&) {}
  return 0;
}
