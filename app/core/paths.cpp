#include "paths.hpp"

#include <cstdlib>
#include <filesystem>
#include <system_error>

#ifndef WS_SOURCE_ASSETS
#define WS_SOURCE_ASSETS ""
#endif

namespace ws {

namespace {

/// <prefix>/share/warpscope for a program at <prefix>/bin/NAME ("" if /proc/self/exe cannot be read).
std::filesystem::path installed_data_dir() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec || exe.empty()) return {};
  return exe.parent_path().parent_path() / "share" / "warpscope";
}

bool has_lessons(const std::filesystem::path& dir) {
  std::error_code ec;
  return !dir.empty() && std::filesystem::is_directory(dir / "lessons", ec);
}

}  // namespace

std::string assets_dir() {
  for (const char* var : {"WARPSCOPE_DATA", "WARPSCOPE_ASSETS"})
    if (const char* env = std::getenv(var); env && *env) return env;
  const std::filesystem::path installed = installed_data_dir();
  if (has_lessons(installed)) return installed.string();
  if (has_lessons(WS_SOURCE_ASSETS)) return WS_SOURCE_ASSETS;
  return installed.empty() ? std::string(WS_SOURCE_ASSETS) : installed.string();
}

}  // namespace ws
