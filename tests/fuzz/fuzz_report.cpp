// Reports as the GUI and CLI open them: JSON text -> parse_report_text (bounded: unknown fields skipped,
// nesting, value counts and duplicate keys checked) -> report_from_json (validation, caps, derived numbers).
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "report.hpp"
#include "report_text.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const ws::Report r = ws::report_from_json(ws::parse_report_text(text, "report"));
    // Derived numbers stay physical: a time below a clock's resolution drew 10^309 GB/s.
    for (const ws::RunResult& run : r.runs)
      if (!std::isfinite(run.gbps) || run.gbps > 1e15) __builtin_trap();
    (void)ws::report_to_json(r);  // what loaded must write back
  } catch (const std::runtime_error&) {}
  return 0;
}
