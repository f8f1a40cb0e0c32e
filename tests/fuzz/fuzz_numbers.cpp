// Number files (--input PATH): read_input_file as int32, float32 and uint8, and the 2-D text grid.
#include <cstdint>
#include <vector>

#include "fuzz_file.hpp"
#include "inputs.hpp"
#include "patterns/convolution/conv_inputs.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = ws::fuzz::as_file(data, size, ".txt");
  for (ws::DType t : {ws::DType::Int32, ws::DType::Float32, ws::DType::UInt8}) {
    ws::Input in;
    (void)ws::read_input_file(path, 0, t, in);
  }
  ws::HostVector<float> grid;
  std::int64_t rows = 0, cols = 0;
  (void)ws::read_text_grid(path, grid, rows, cols);
  if (rows * cols != std::int64_t(grid.size()) && !grid.empty()) __builtin_trap();
  return 0;
}
