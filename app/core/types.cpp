#include "types.hpp"

#include <cstdio>

namespace ws {

const char* to_string(DType t) {
  switch (t) {
    case DType::Int32: return "int32";
    case DType::Float32: return "float32";
    case DType::UInt8: return "uint8";
  }
  return "?";
}
const char* to_string(ReduceOp op) { return op == ReduceOp::Sum ? "sum" : "max"; }

bool parse_dtype(const std::string& s, DType& out) {
  if (s == "int32") {
    out = DType::Int32;
    return true;
  }
  if (s == "float32") {
    out = DType::Float32;
    return true;
  }
  if (s == "uint8") {
    out = DType::UInt8;
    return true;
  }
  return false;
}

std::string format_value(DType type, double v) {
  char buf[64];
  if (dtype_is_integer(type))
    std::snprintf(buf, sizeof buf, "%.0f", v);
  else
    std::snprintf(buf, sizeof buf, "%.7g", v);
  return buf;
}

}  // namespace ws
