// Host side of kernels/common/arch_paths.cuh: which path a kernel with per-architecture code takes on
// a given GPU, so a run can say so ("warp shuffles (pre-sm_80 path)").
#pragma once

namespace ws::kernels {

/// True when kernels running on a GPU of compute capability `cc` (major * 10 + minor, e.g. 75, 90)
/// take their sm_80 paths in this build: cc >= 80, unless the build defines WS_FORCE_PRE_SM80. Matches
/// WS_SM80_PATH of the SASS or PTX the driver picks for that GPU.
inline constexpr bool sm80_path(int cc) {
#ifdef WS_FORCE_PRE_SM80
  return cc < 0;  // never
#else
  return cc >= 80;
#endif
}

/// The two paths of a kernel that uses sm_80 instructions, as one line each for the user
/// (both nullptr: the kernel has one path for every architecture).
struct ArchPaths {
  const char* sm80 = nullptr;      ///< e.g. "cp.async copies into shared memory (sm_80 path)"
  const char* pre_sm80 = nullptr;  ///< e.g. "plain loads and stores (pre-sm_80 path)"
};

/// The line of `paths` that runs on a GPU of compute capability `cc`, or "" when there is one path.
inline const char* arch_path_taken(const ArchPaths& paths, int cc) {
  const char* taken = sm80_path(cc) ? paths.sm80 : paths.pre_sm80;
  return taken ? taken : "";
}

}  // namespace ws::kernels
