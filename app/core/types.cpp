#include "types.hpp"

namespace ws {

const char* to_string(DType t) { return t == DType::Int32 ? "int32" : "float32"; }
const char* to_string(ReduceOp op) { return op == ReduceOp::Sum ? "sum" : "max"; }

bool parse_dtype(const std::string& s, DType& out) {
  if (s == "int32") { out = DType::Int32; return true; }
  if (s == "float32") { out = DType::Float32; return true; }
  return false;
}

}  // namespace ws
