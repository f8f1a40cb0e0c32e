#include "json_read.hpp"

#include <cmath>
#include <stdexcept>
#include <vector>

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

bool is_valid_utf8(const std::string& s) { return escape_invalid_utf8(s).size() == s.size(); }

std::string escape_invalid_utf8(const std::string& s) {
  static const char* const hex = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  std::size_t i = 0;
  while (i < s.size()) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    // The length of the sequence `c` starts and the range its second byte must lie in (RFC 3629).
    std::size_t len = 0;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c < 0x80)
      len = 1;
    else if (c >= 0xC2 && c <= 0xDF)
      len = 2;
    else if (c == 0xE0)
      len = 3, lo = 0xA0;
    else if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF)
      len = 3;
    else if (c == 0xED)
      len = 3, hi = 0x9F;
    else if (c == 0xF0)
      len = 4, lo = 0x90;
    else if (c >= 0xF1 && c <= 0xF3)
      len = 4;
    else if (c == 0xF4)
      len = 4, hi = 0x8F;
    bool ok = len > 0 && i + len <= s.size();
    for (std::size_t k = 1; ok && k < len; ++k) {
      const unsigned char d = static_cast<unsigned char>(s[i + k]);
      ok = k == 1 ? d >= lo && d <= hi : d >= 0x80 && d <= 0xBF;
    }
    if (ok) {
      out.append(s, i, len);
      i += len;
    } else {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
      ++i;
    }
  }
  return out;
}

std::string bytes_to_hex(const std::string& s) {
  static const char* const hex = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) out += hex[c >> 4], out += hex[c & 15];
  return out;
}

bool hex_to_bytes(const std::string& hex, std::string& out) {
  out.clear();
  if (hex.size() % 2) return false;
  const auto digit = [](char c) {
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
  };
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    const int a = digit(hex[i]), b = digit(hex[i + 1]);
    if (a < 0 || b < 0) return false;
    out += char(a * 16 + b);
  }
  return true;
}

namespace {

void escape_strings(nlohmann::json& j) {
  if (j.is_string()) {
    j = escape_invalid_utf8(j.get_ref<const std::string&>());
  } else if (j.is_array()) {
    for (auto& e : j) escape_strings(e);
  } else if (j.is_object()) {
    nlohmann::json fixed = nlohmann::json::object();
    for (auto& [k, v] : j.items()) {
      escape_strings(v);
      fixed[escape_invalid_utf8(k)] = std::move(v);
    }
    j = std::move(fixed);
  }
}

}  // namespace

std::string dump_json_text(const nlohmann::json& j, int indent) {
  try {
    return j.dump(indent);
  } catch (const nlohmann::json::type_error&) {  // 316: a string that is not UTF-8
    nlohmann::json copy = j;
    escape_strings(copy);
    return copy.dump(indent);
  }
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

namespace {

/// Builds the DOM of a bounded parse from nlohmann's SAX events (json::parse with a callback would do
/// it too, but scans the parent for discarded values after every object: quadratic in an array's length).
class BoundedDom {
 public:
  using json = nlohmann::json;
  using number_integer_t = json::number_integer_t;
  using number_unsigned_t = json::number_unsigned_t;
  using number_float_t = json::number_float_t;
  using string_t = json::string_t;
  using binary_t = json::binary_t;
  BoundedDom(const JsonBounds& b, const std::string& what) : b_(b), what_(what) {}
  json root;

  bool null() { return put(json(nullptr)); }
  bool boolean(bool v) { return put(json(v)); }
  bool number_integer(number_integer_t v) { return put(json(v)); }
  bool number_unsigned(number_unsigned_t v) { return put(json(v)); }
  bool number_float(number_float_t v, const string_t&) { return put(json(v)); }
  bool string(string_t& v) { return put(json(std::move(v))); }
  bool binary(binary_t& v) { return put(json::binary(std::vector<std::uint8_t>(v.begin(), v.end()))); }
  bool start_object(std::size_t) { return open(json::object()); }
  bool start_array(std::size_t) { return open(json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool key(string_t& k) {
    Frame& f = frames_.back();
    f.key = k;
    if (!f.node) return true;
    if (f.node->contains(k))
      throw std::runtime_error(what_ + ": duplicate key '" + k + "' in " + where() +
                               " (JSON leaves it undefined which one counts)");
    const auto known = b_.known_keys.find(f.shape);
    f.key_dropped = known != b_.known_keys.end() && known->second.count(k) == 0;
    return true;
  }
  template <class Exception>
  bool parse_error(std::size_t, const std::string&, const Exception& e) {
    throw e;  // a json::parse_error or out_of_range (a number beyond a double); the caller words it
  }

 private:
  /// One open array or object; node is null inside an unknown field's value (nothing of it is built).
  struct Frame {
    json* node = nullptr;
    bool object = false;
    std::string shape;  ///< ".runs[]": keys and [] (the known_keys lookup)
    std::string name;   ///< ".runs" or "[3]" (messages)
    std::string key;    ///< objects: the key whose value comes next
    bool key_dropped = false;
  };

  std::string where() const {
    std::string s;
    for (const Frame& f : frames_) s += f.name;
    if (!s.empty() && s[0] == '.') s.erase(0, 1);
    if (s.size() > 80) s = s.substr(0, 77) + "...";
    return s.empty() ? std::string("the top level") : s;
  }

  void count() {
    if (++values_ > b_.max_values)
      throw std::runtime_error(what_ + ": more than " + std::to_string(b_.max_values) +
                               " values (numbers, strings, arrays, objects), more than this reader keeps");
  }

  /// Stores `v` where the next value goes; returns it there, or nullptr when it is dropped.
  json* place(json&& v) {
    if (frames_.empty()) {
      count();
      root = std::move(v);
      return &root;
    }
    Frame& f = frames_.back();
    if (!f.node || (f.object && f.key_dropped)) return nullptr;
    count();
    if (!f.object) {
      f.node->push_back(std::move(v));
      return &f.node->back();
    }
    json& slot = (*f.node)[f.key];
    slot = std::move(v);
    return &slot;
  }

  bool put(json&& v) {
    place(std::move(v));
    return true;
  }

  bool open(json&& v) {
    if (int(frames_.size()) >= b_.max_depth)
      throw std::runtime_error(what_ + ": nested deeper than " + std::to_string(b_.max_depth) + " at " + where());
    Frame f;
    if (!frames_.empty()) {
      const Frame& parent = frames_.back();
      const bool in_object = parent.object;
      f.name =
          in_object ? "." + parent.key : "[" + std::to_string(parent.node ? parent.node->size() : std::size_t(0)) + "]";
      f.shape = parent.shape + (in_object ? "." + parent.key : "[]");
    }
    f.object = v.is_object();
    f.node = place(std::move(v));
    frames_.push_back(std::move(f));
    return true;
  }

  bool close() {
    frames_.pop_back();
    return true;
  }

  const JsonBounds& b_;
  const std::string& what_;
  std::vector<Frame> frames_;
  std::size_t values_ = 0;
};

}  // namespace

nlohmann::json parse_json_bounded(const std::string& text, const std::string& what, const JsonBounds& bounds) {
  BoundedDom dom(bounds, what);
  try {
    nlohmann::json::sax_parse(text, &dom);
  } catch (const nlohmann::json::parse_error& e) {
    throw std::runtime_error(what + " is not valid JSON: " + json_parse_error(text, e));
  } catch (const nlohmann::json::exception& e) {  // out_of_range.406: a number that overflows a double
    std::string m = e.what();
    if (const auto close = m.find("] "); close != std::string::npos) m = m.substr(close + 2);
    throw std::runtime_error(what + " is not valid JSON: " + m);
  }
  return std::move(dom.root);
}

nlohmann::json parse_json_text(const std::string& text, const std::string& what) {
  return parse_json_bounded(text, what, JsonBounds{});
}

}  // namespace ws
