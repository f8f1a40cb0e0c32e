// The names of an enum's values as one table of {value, name} pairs, read both ways: the one place
// an enum's JSON / CLI names live (run_status.cpp, backend_kind.cpp).
#pragma once
#include <cstddef>
#include <string>
#include <utility>

namespace ws {

/// The name of `value` in `table`, "?" when the table lacks it.
template <class E, std::size_t N>
const char* name_in(const std::pair<E, const char*> (&table)[N], E value) {
  for (const auto& [v, name] : table)
    if (v == value) return name;
  return "?";
}

/// Sets `out` to the value named `name` in `table` and returns true; false (out untouched) when no value has that name.
template <class E, std::size_t N>
bool value_in(const std::pair<E, const char*> (&table)[N], const std::string& name, E& out) {
  for (const auto& [v, n] : table)
    if (name == n) {
      out = v;
      return true;
    }
  return false;
}

}  // namespace ws
