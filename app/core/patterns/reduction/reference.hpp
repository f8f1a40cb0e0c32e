// CPU references: what every run is checked against.
#pragma once
#include <string>

#include "inputs.hpp"
#include "variant.hpp"

namespace ws {

/// Reference of `op` over the input on the CPU. int32 sum: exact, wrapping modulo 2^32 like the
/// GPU's 32-bit adds (so any summation order gives the same bits); float32 sum: accumulated in double,
/// in chunks of kHostChunk (2^16) elements whose sums are added in order (the same bits for any thread
/// count; parallel.hpp); max: exact. Returned as double (every int32 is exact in a double).
double cpu_reference(ReduceOp op, const Input& in);

/// Sum of |x| over the input (float32 tolerance scale; chunked like the float32 sum), 0 for int32.
double abs_sum(const Input& in);

/// Does a device result match the reference? int32: bit-exact. float32: |got - ref| <=
/// max(1e-5, 2 sqrt(n) 2^-24) * sum|x| + 1e-6: float32 rounding in any summation order whose errors
/// behave randomly stays below it; one float accumulator that stagnates (2^26 atomicAdds) does not.
bool results_match(DType type, double got, double expected, const Input& in);

}  // namespace ws
