// The pattern family of a variant (VariantInfo::pattern, PatternSpec::kind): an enum inside warpscope, its
// name in the CLI's --variants, lesson JSON ("pattern") and `warpscope-cli list`. No file lists the
// built-in patterns by hand: app/core/CMakeLists.txt generates WS_PATTERN_KINDS (pattern_kinds.hpp, in the
// build's generated/ folder) from the spec files, app/core/patterns/<name>/pattern_<name>.cpp, each of which
// gives its place in teaching order on a line "// WS_PATTERN_ORDER <number>". The value is the folder's
// name in CamelCase (scan: PatternKind::Scan), the name the folder's (docs/architecture.md, "Add a pattern").
#pragma once
#include <ostream>
#include <string>
#include <utility>

#include "name_table.hpp"
#include "pattern_kinds.hpp"  // generated: WS_PATTERN_KINDS(X), X(Value, "name") per built-in pattern

namespace ws {

// clang-format off
#define WS_PATTERN_KIND_VALUE(value, name) value,
/// A pattern family, in teaching order (all_patterns() lists the specs in this order): the built-in ones
/// of WS_PATTERN_KINDS, then Fixture, kept for a pattern family that a test registers (register_pattern);
/// no built-in one uses it.
enum class PatternKind { WS_PATTERN_KINDS(WS_PATTERN_KIND_VALUE) Fixture };  // Fixture last: tests walk up to it
#undef WS_PATTERN_KIND_VALUE

/// Every value and its name.
#define WS_PATTERN_KIND_NAME(value, name) {PatternKind::value, name},
inline constexpr std::pair<PatternKind, const char*> kPatternNames[] = {
    WS_PATTERN_KINDS(WS_PATTERN_KIND_NAME) {PatternKind::Fixture, "fixture"}};
#undef WS_PATTERN_KIND_NAME
// clang-format on

/// "reduction", "scan", "convolution", "atomics", "fixture".
inline const char* to_string(PatternKind p) { return name_in(kPatternNames, p); }

/// Parses a name written by to_string (every value); false (out untouched) on anything else.
inline bool parse_pattern(const std::string& s, PatternKind& out) { return value_in(kPatternNames, s, out); }

/// The built-in patterns' names for messages and help: "reduction, scan, convolution, atomics".
inline std::string pattern_names() {
  std::string s;
  for (const auto& [p, name] : kPatternNames)
    if (p != PatternKind::Fixture) s += (s.empty() ? "" : ", ") + std::string(name);
  return s;
}

/// "unknown pattern 'S' (use reduction, scan, convolution, atomics)": the one-line error for a name
/// that parse_pattern refuses.
inline std::string unknown_pattern_message(const std::string& s) {
  return "unknown pattern '" + s + "' (use " + pattern_names() + ")";
}

/// Writes to_string(p) (test messages).
inline std::ostream& operator<<(std::ostream& o, PatternKind p) { return o << to_string(p); }

}  // namespace ws
