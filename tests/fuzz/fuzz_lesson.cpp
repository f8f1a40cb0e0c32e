// Lesson files: parse_lesson on arbitrary text.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "lessons.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    (void)ws::parse_lesson(std::string(reinterpret_cast<const char*>(data), size), "fuzz.json");
  } catch (const std::runtime_error&) {}
  return 0;
}
