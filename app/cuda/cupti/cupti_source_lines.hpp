// SASS program counter -> source line, with cuptiGetSassToSourceCorrelation on the cubins the tracker
// copied at module load (kernels are built with -lineinfo). Shared by the SASS Metrics pass and the
// PC Sampling pass, which both report (cubin CRC, function, PC offset).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "cupti_tracker.hpp"

namespace ws::cuda {

/// Finds the file:line of instructions, remembering which module answered for each (CRC, function).
class SourceLineMapper {
 public:
  /// Takes the cubins loaded so far (loaded_cubins()).
  SourceLineMapper();
  /// file (basename) and 1-based line of `pc` in `function`, trying the module whose CRC matches
  /// first (compared on its low 32 bits: the SASS API reports 32), then every module. False when no
  /// module has the function or the instruction has no line (no -lineinfo).
  bool find(std::uint64_t crc, const std::string& function, std::uint64_t pc, std::string& file, int& line);

 private:
  std::vector<const LoadedCubin*> cubins_;
  std::map<std::pair<std::uint32_t, std::string>, const LoadedCubin*> found_;
};

}  // namespace ws::cuda
