#include "run_status.hpp"

#include <ostream>
#include <utility>

#include "name_table.hpp"

namespace ws {
namespace {

constexpr std::pair<RunStatus, const char*> kStatusNames[] = {
    {RunStatus::Unchecked, ""},  {RunStatus::Ran, "done"},        {RunStatus::Ok, "ok"},
    {RunStatus::Wrong, "wrong"}, {RunStatus::Race, "race"},       {RunStatus::SlideBug, "slide-bug"},
    {RunStatus::Error, "error"}, {RunStatus::Faulted, "faulted"}, {RunStatus::Skipped, "skipped"},
};

}  // namespace

const char* to_string(RunStatus s) { return name_in(kStatusNames, s); }

bool parse_run_status(const std::string& s, RunStatus& out) { return value_in(kStatusNames, s, out); }

std::ostream& operator<<(std::ostream& o, RunStatus s) { return o << to_string(s); }

}  // namespace ws
