#include "paths.hpp"

#include <cstdlib>
#include <filesystem>

#ifndef WS_SOURCE_ASSETS
#define WS_SOURCE_ASSETS "assets"
#endif

namespace ws {

std::string assets_dir() {
  if (const char* env = std::getenv("WARPSCOPE_ASSETS"); env && *env) return env;
  if (std::filesystem::is_directory(WS_SOURCE_ASSETS)) return WS_SOURCE_ASSETS;
  return "assets";
}

}  // namespace ws
