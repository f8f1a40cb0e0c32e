#include "backend_kind.hpp"

#include <ostream>
#include <utility>

namespace ws {
namespace {

constexpr std::pair<BackendKind, const char*> kBackendNames[] = {
    {BackendKind::Cuda, "cuda"}, {BackendKind::Sim, "sim"}, {BackendKind::Cpu, "cpu"}};

}  // namespace

const char* to_string(BackendKind b) {
  for (const auto& [value, name] : kBackendNames)
    if (value == b) return name;
  return "?";
}

bool parse_backend(const std::string& s, BackendKind& out) {
  for (const auto& [value, name] : kBackendNames)
    if (s == name) {
      out = value;
      return true;
    }
  return false;
}

std::string unknown_backend_message(const std::string& s) { return "unknown backend '" + s + "' (use cuda or sim)"; }

std::ostream& operator<<(std::ostream& o, BackendKind b) { return o << to_string(b); }

}  // namespace ws
