// Strict readers for JSON that comes from files a user hands us (reports, stored traces, lessons):
// a value of the wrong type, out of range, or a fraction where an integer belongs is refused with a
// message that names the field, instead of being truncated or wrapped by a silent conversion.
#pragma once
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
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

/// "line L, column C" (both from 1) of the byte at 1-based offset `byte` of `text`, as nlohmann's
/// parse_error::byte counts it; offsets past the end name the end of the text.
std::string json_line_column(const std::string& text, std::size_t byte);
/// The message for text that does not parse as JSON: "line L, column C: <what nlohmann says>".
std::string json_parse_error(const std::string& text, const nlohmann::json::parse_error& e);
/// Parses `text`; on any failure (syntax, a number too large for a double) throws std::runtime_error
/// "`what` is not valid JSON: line L, column C: ..." (no place for a number overflow: nlohmann gives none).
nlohmann::json parse_json_text(const std::string& text, const std::string& what);

}  // namespace ws
