// Reports as the GUI and CLI open them: JSON text -> report_from_json (validation, caps, derived numbers).
#include <cstdint>
#include <stdexcept>
#include <string>

#include "report.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded()) return 0;
  try {
    const ws::Report r = ws::report_from_json(j);
    (void)ws::report_to_json(r);  // what loaded must write back
  } catch (const std::runtime_error&) {}
  return 0;
}
