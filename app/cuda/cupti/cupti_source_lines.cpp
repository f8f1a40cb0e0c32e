#include "cupti_source_lines.hpp"

#include <cupti_pcsampling.h>

#include <cstdlib>

namespace ws::cuda {

namespace {

std::string basename_of(const std::string& p) {
  auto s = p.find_last_of('/');
  return s == std::string::npos ? p : p.substr(s + 1);
}

}  // namespace

SourceLineMapper::SourceLineMapper() : cubins_(loaded_cubins()) {}

bool SourceLineMapper::find(std::uint64_t crc, const std::string& function, std::uint64_t pc, std::string& file,
                            int& line) {
  // -1: the module does not have this function; 0: it does, but no line; 1: file and line set.
  auto try_one = [&](const LoadedCubin* c) {
    CUpti_GetSassToSourceCorrelationParams p{};
    p.size = CUpti_GetSassToSourceCorrelationParamsSize;
    p.cubin = c->image.data();
    p.cubinSize = c->image.size();
    p.functionName = function.c_str();
    p.pcOffset = pc;
    if (cuptiGetSassToSourceCorrelation(&p) != CUPTI_SUCCESS) return -1;
    file = p.fileName ? basename_of(p.fileName) : "";
    line = int(p.lineNumber);
    std::free(p.fileName);
    std::free(p.dirName);
    return line > 0 ? 1 : 0;
  };
  const std::uint32_t crc32 = std::uint32_t(crc);
  auto key = std::make_pair(crc32, function);
  auto it = found_.find(key);
  if (it != found_.end()) return it->second && try_one(it->second) == 1;
  for (int round = 0; round < 2; ++round)
    for (const LoadedCubin* c : cubins_) {
      if ((std::uint32_t(c->crc) == crc32) != (round == 0)) continue;
      int got = try_one(c);
      if (got >= 0) {
        found_[key] = c;
        return got == 1;
      }
    }
  found_[key] = nullptr;
  return false;
}

}  // namespace ws::cuda
