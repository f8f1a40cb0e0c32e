#include "trace/trace.hpp"

namespace ws {

const char* to_string(OpKind k) {
  switch (k) {
    case OpKind::Load: return "load";
    case OpKind::Store: return "store";
    case OpKind::Add: return "add";
    case OpKind::Max: return "max";
    case OpKind::Shuffle: return "shuffle";
    case OpKind::Atomic: return "atomic";
  }
  return "?";
}

const char* to_string(Space s) {
  switch (s) {
    case Space::Register: return "register";
    case Space::Shared: return "shared";
    case Space::Global: return "global";
  }
  return "?";
}

}  // namespace ws
