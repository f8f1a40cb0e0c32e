// Images (--input photo.png): the project's loader (format sniffing, header checks, stb_image decode).
#include <cstdint>

#include "fuzz_file.hpp"
#include "patterns/convolution/conv_inputs.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = ws::fuzz::as_file(data, size, ".img");
  ws::ConvInput c;
  if (ws::load_conv_input(path, 2, 0, 0, 1, c).empty() && std::int64_t(c.data.size()) != c.rows * c.cols)
    __builtin_trap();
  return 0;
}
