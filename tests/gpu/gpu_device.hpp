// The GPU tests' one CUDA backend (device 0), opened on first use and shared by every test file of
// ws_gpu_tests. Throws std::runtime_error("no CUDA device: ...") where there is none.
#pragma once
#include "backend.hpp"

namespace ws::test {
Backend& gpu();
}  // namespace ws::test
