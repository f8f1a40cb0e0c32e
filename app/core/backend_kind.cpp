#include "backend_kind.hpp"

#include <ostream>
#include <utility>

#include "name_table.hpp"

namespace ws {
namespace {

constexpr std::pair<BackendKind, const char*> kBackendNames[] = {
    {BackendKind::Cuda, "cuda"}, {BackendKind::Sim, "sim"}, {BackendKind::Cpu, "cpu"}};

}  // namespace

const char* to_string(BackendKind b) { return name_in(kBackendNames, b); }

bool parse_backend(const std::string& s, BackendKind& out) { return value_in(kBackendNames, s, out); }

std::string unknown_backend_message(const std::string& s) { return "unknown backend '" + s + "' (use cuda or sim)"; }

std::ostream& operator<<(std::ostream& o, BackendKind b) { return o << to_string(b); }

}  // namespace ws
