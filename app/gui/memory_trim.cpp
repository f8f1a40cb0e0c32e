#include "memory_trim.hpp"

#include <malloc.h>

#include <chrono>

namespace ws::gui {

void trim_free_memory_now_and_then() {
  using Clock = std::chrono::steady_clock;
  static Clock::time_point last = Clock::now();
  const Clock::time_point now = Clock::now();
  if (now - last < std::chrono::seconds(10)) return;
  last = now;
  malloc_trim(0);
}

}  // namespace ws::gui
