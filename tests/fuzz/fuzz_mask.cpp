// Mask files (--mask PATH): make_conv_mask in 1-D and 2-D.
#include <cstdint>
#include <vector>

#include "fuzz_file.hpp"
#include "patterns/convolution/conv_inputs.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = ws::fuzz::as_file(data, size, ".mask");
  for (int dims : {1, 2}) {
    int width = 5;
    std::vector<float> mask;
    if (ws::make_conv_mask(path, dims, width, mask).empty() &&
        std::size_t(dims == 2 ? width * width : width) != mask.size())
      __builtin_trap();
  }
  return 0;
}
