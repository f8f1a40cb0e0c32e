// The pattern family of a variant (VariantInfo::pattern, PatternSpec::kind): an enum inside warpscope, its
// name in the CLI's --variants, lesson JSON ("pattern") and `warpscope-cli list`. The values and their
// names sit side by side here: a new pattern adds one line to each, in this file.
#pragma once
#include <ostream>
#include <string>
#include <utility>

#include "name_table.hpp"

namespace ws {

/// A pattern family, in teaching order (all_patterns() lists the specs in this order).
/// Fixture: kept for a pattern family that a test registers (register_pattern); no built-in one uses it.
enum class PatternKind { Reduction, Scan, Convolution, Atomics, Fixture };  // Fixture last: tests walk up to it

/// Every value and its name.
inline constexpr std::pair<PatternKind, const char*> kPatternNames[] = {
    {PatternKind::Reduction, "reduction"}, {PatternKind::Scan, "scan"},       {PatternKind::Convolution, "convolution"},
    {PatternKind::Atomics, "atomics"},     {PatternKind::Fixture, "fixture"},
};

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
