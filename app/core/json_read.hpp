// Strict readers for JSON that comes from files a user hands us (reports, stored traces, lessons):
// a value of the wrong type, out of range, or a fraction where an integer belongs is refused with a
// message that names the field, instead of being truncated or wrapped by a silent conversion.
#pragma once
#include <cstdint>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace ws {

/// An integer in [lo, hi]. Refuses 1.5, 1e30, true and "7". Throws std::runtime_error
/// "`where` must be an integer in lo..hi (got X)".
std::int64_t json_int(const nlohmann::json& v, std::int64_t lo, std::int64_t hi, const std::string& where);
/// A finite number in [lo, hi]. Throws std::runtime_error "`where` must be a number in lo..hi (got X)".
double json_number(const nlohmann::json& v, double lo, double hi, const std::string& where);
/// A string. Throws std::runtime_error "`where` must be a string (got X)".
std::string json_string(const nlohmann::json& v, const std::string& where);
/// A boolean. Throws std::runtime_error "`where` must be true or false (got X)".
bool json_bool(const nlohmann::json& v, const std::string& where);

/// `v` as T. Integers are range-checked against T first (json_int: 1.5 and 4e86 refused; nlohmann
/// would convert a double out of int's range without a check, which is undefined behaviour); other
/// types as nlohmann converts them. Throws std::runtime_error naming `where`.
template <typename T>
T json_as(const nlohmann::json& v, const std::string& where) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    if constexpr (std::is_unsigned_v<T> && sizeof(T) == sizeof(std::uint64_t)) {
      if (v.is_number_unsigned()) return v.get<T>();
      return T(json_int(v, 0, std::numeric_limits<std::int64_t>::max(), where));
    } else {
      return T(
          json_int(v, std::int64_t(std::numeric_limits<T>::min()), std::int64_t(std::numeric_limits<T>::max()), where));
    }
  } else {
    try {
      return v.get<T>();
    } catch (const std::exception&) {
      throw std::runtime_error(where + " has the wrong type (got " + std::string(v.type_name()) + ")");
    }
  }
}

/// Whether `s` is well-formed UTF-8 (what JSON text must be; nlohmann's dump throws type_error 316 otherwise).
bool is_valid_utf8(const std::string& s);
/// `s` with every byte that is not part of well-formed UTF-8 written as the four characters "\xFF":
/// a Latin-1 file name or title becomes readable text instead of an exception.
std::string escape_invalid_utf8(const std::string& s);
/// Lowercase hex of `s`'s bytes, and back ("" and false for text that is not even-length hex).
std::string bytes_to_hex(const std::string& s);
bool hex_to_bytes(const std::string& hex, std::string& out);
/// `j` as JSON text (indent as nlohmann's dump). Strings that are not UTF-8 are written through
/// escape_invalid_utf8 instead of throwing, so finished work is never lost to a name's encoding.
std::string dump_json_text(const nlohmann::json& j, int indent = -1);

/// "line L, column C" (both from 1) of the byte at 1-based offset `byte` of `text`, as nlohmann's
/// parse_error::byte counts it; offsets past the end name the end of the text.
std::string json_line_column(const std::string& text, std::size_t byte);
/// The message for text that does not parse as JSON: "line L, column C: <what nlohmann says>".
std::string json_parse_error(const std::string& text, const nlohmann::json::parse_error& e);
/// What a parse of untrusted JSON may keep. Memory stays a small multiple of what is kept: unknown
/// fields of the objects `known_keys` describes are dropped while parsing (never built), nesting and
/// the count of kept values are bounded, and a key twice in one object is refused (JSON leaves it
/// undefined; nlohmann would keep the last, so a trailing "runs": [] would empty a report).
struct JsonBounds {
  int max_depth = 64;                             ///< nested arrays and objects
  std::size_t max_values = std::size_t(1) << 23;  ///< kept values of any kind (8 M; a 10 MB report holds 2 M)
  /// Objects, by their shape ("" the root, ".runs[]" each run, ".sweeps[].runs[]"), mapped to the keys
  /// they keep; the other keys of those objects are skipped. Objects not named keep every key.
  std::map<std::string, std::set<std::string>> known_keys;
};

/// Parses `text` within `bounds`. Throws std::runtime_error "`what` is not valid JSON: ..." on a syntax
/// error, "`what`: duplicate key 'type' in runs[3]" on a repeated key, and "`what`: more than N values" or
/// "`what`: nested deeper than N" past a bound.
nlohmann::json parse_json_bounded(const std::string& text, const std::string& what, const JsonBounds& bounds);

/// Parses `text` within the default JsonBounds (duplicate keys refused); on any failure (syntax, a number
/// too large for a double) throws std::runtime_error "`what` is not valid JSON: line L, column C: ..." (no
/// place for a number overflow: nlohmann gives none), or the bounds' messages.
nlohmann::json parse_json_text(const std::string& text, const std::string& what);

}  // namespace ws
