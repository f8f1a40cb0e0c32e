// Basic vocabulary shared by every layer of warpscope (no CUDA, no GUI).
#pragma once
#include <cstdint>
#include <string>

#include "common/shared_types.hpp"  // DType, kMaxN

namespace ws {

/// The reduction operator a variant computes.
enum class ReduceOp { Sum, Max };

const char* to_string(DType t);
const char* to_string(ReduceOp op);
/// Parses "int32" / "float32" / "uint8"; returns false on anything else.
bool parse_dtype(const std::string& s, DType& out);
/// Size of one element in bytes: 4 for int32 and float32, 1 for uint8.
inline std::size_t dtype_size(DType t) { return t == DType::UInt8 ? 1 : 4; }
/// True for the integer types (int32, uint8): results compare exactly and print without decimals.
inline bool dtype_is_integer(DType t) { return t != DType::Float32; }
/// Formats a value of type `type` for people: integers without decimals, floats with 7 significant digits.
std::string format_value(DType type, double v);

/// Launch configuration of a kernel: threads per block and blocks per grid.
/// 0 means "let the variant choose" (its default block, and a grid derived from n or the device).
struct LaunchConfig {
  int block = 0;
  std::int64_t grid = 0;
};

}  // namespace ws
