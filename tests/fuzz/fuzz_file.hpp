// The loaders of number, mask and image files read paths: each fuzz input is written to one file per
// process (in /dev/shm when it exists, memory-backed) and the loader reads it back.
#pragma once
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>

namespace ws::fuzz {

/// Writes `data` to this process's scratch file (suffix `ext`) and returns its path.
inline std::string as_file(const std::uint8_t* data, std::size_t size, const char* ext) {
  static const std::string dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
  const std::string path = dir + "/warpscope-fuzz-" + std::to_string(getpid()) + ext;
  if (std::FILE* f = std::fopen(path.c_str(), "wb")) {
    std::fwrite(data, 1, size, f);
    std::fclose(f);
  }
  return path;
}

}  // namespace ws::fuzz
