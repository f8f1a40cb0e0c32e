#include "run_status.hpp"

#include <ostream>
#include <utility>

namespace ws {
namespace {

constexpr std::pair<RunStatus, const char*> kStatusNames[] = {
    {RunStatus::Unchecked, ""},   {RunStatus::Ran, "done"},         {RunStatus::Ok, "ok"},
    {RunStatus::Wrong, "wrong"},  {RunStatus::Race, "race"},        {RunStatus::SlideBug, "slide-bug"},
    {RunStatus::Error, "error"},  {RunStatus::Faulted, "faulted"},  {RunStatus::Skipped, "skipped"},
};

}  // namespace

const char* to_string(RunStatus s) {
  for (const auto& [value, name] : kStatusNames)
    if (value == s) return name;
  return "?";
}

bool parse_run_status(const std::string& s, RunStatus& out) {
  for (const auto& [value, name] : kStatusNames)
    if (s == name) {
      out = value;
      return true;
    }
  return false;
}

std::ostream& operator<<(std::ostream& o, RunStatus s) { return o << to_string(s); }

}  // namespace ws
