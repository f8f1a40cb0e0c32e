#include "json_read.hpp"

#include <cmath>
#include <stdexcept>

namespace ws {

namespace {

/// The offending value as the message shows it: short, one line.
std::string shown(const nlohmann::json& v) {
  std::string s = v.dump();
  if (s.size() > 40) s = s.substr(0, 37) + "...";
  return s;
}

std::string number_text(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

}  // namespace

std::int64_t json_int(const nlohmann::json& v, std::int64_t lo, std::int64_t hi, const std::string& where) {
  const auto refuse = [&] {
    throw std::runtime_error(where + " must be an integer in " + std::to_string(lo) + ".." + std::to_string(hi) +
                             " (got " + shown(v) + ")");
  };
  if (v.is_number_unsigned()) {
    const std::uint64_t u = v.get<std::uint64_t>();
    if (u > std::uint64_t(INT64_MAX) || std::int64_t(u) > hi || std::int64_t(u) < lo) refuse();
    return std::int64_t(u);
  }
  if (!v.is_number_integer()) refuse();
  const std::int64_t x = v.get<std::int64_t>();
  if (x < lo || x > hi) refuse();
  return x;
}

double json_number(const nlohmann::json& v, double lo, double hi, const std::string& where) {
  if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < lo || v.get<double>() > hi)
    throw std::runtime_error(where + " must be a number in " + number_text(lo) + ".." + number_text(hi) + " (got " +
                             shown(v) + ")");
  return v.get<double>();
}

std::string json_string(const nlohmann::json& v, const std::string& where) {
  if (!v.is_string()) throw std::runtime_error(where + " must be a string (got " + shown(v) + ")");
  return v.get<std::string>();
}

bool json_bool(const nlohmann::json& v, const std::string& where) {
  if (!v.is_boolean()) throw std::runtime_error(where + " must be true or false (got " + shown(v) + ")");
  return v.get<bool>();
}

std::string json_line_column(const std::string& text, std::size_t byte) {
  const std::size_t end = std::min(byte > 0 ? byte - 1 : 0, text.size());
  std::size_t line = 1, col = 1;
  for (std::size_t i = 0; i < end; ++i) {
    if (text[i] == '\n')
      ++line, col = 1;
    else
      ++col;
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(col);
}

std::string json_parse_error(const std::string& text, const nlohmann::json::parse_error& e) {
  // nlohmann's what() is "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error
  // while parsing value - invalid literal; last read: 'x'": keep what follows the place.
  std::string what = e.what();
  if (const auto colon = what.find(": ", what.find("parse error")); colon != std::string::npos)
    what = what.substr(colon + 2);
  return json_line_column(text, e.byte) + ": " + what;
}

nlohmann::json parse_json_text(const std::string& text, const std::string& what) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw std::runtime_error(what + " is not valid JSON: " + json_parse_error(text, e));
  } catch (const nlohmann::json::exception& e) {  // out_of_range.406: a number that overflows a double
    std::string m = e.what();
    if (const auto close = m.find("] "); close != std::string::npos) m = m.substr(close + 2);
    throw std::runtime_error(what + " is not valid JSON: " + m);
  }
}

}  // namespace ws
