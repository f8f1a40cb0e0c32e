// Opening the CUDA backend without including CUDA headers (so the CLI and GUI build either way).
#pragma once
#include <memory>
#include <string>

#include "backend.hpp"

namespace ws {

/// True when this build contains the CUDA backend.
bool built_with_cuda();

/// Opens device 0 and measures its copy bandwidth (about 0.2 s). Returns nullptr and sets `error`
/// (one line) when the build has no CUDA backend or no device is usable. Never throws.
std::unique_ptr<Backend> open_cuda_backend(std::string& error);

}  // namespace ws
