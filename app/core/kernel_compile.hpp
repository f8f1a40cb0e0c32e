// Compiling a user's kernel (user_kernel.hpp) with NVRTC, without including CUDA headers: builds with the
// CUDA toolkit link app/cuda/nvrtc_compile.cpp, builds without it kernel_compile_none.cpp, which says why
// there is no compiler. NVRTC needs no GPU: it compiles for a named architecture.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "user_kernel.hpp"

namespace ws {

/// What became of a compile; messages are for people, the status is for code.
enum class CompileStatus {
  Ok,            ///< `image` holds the module (cubin)
  Refused,       ///< the source broke a limit before compiling (size, includes, header): `error` says which
  Failed,        ///< the compiler reported errors: `diagnostics`, `error` = the first as `FILE:LINE: error: ...`
  TimedOut,      ///< the compile ran past the time limit and was killed
  NoCompiler,    ///< this build or machine has no NVRTC
  EntryMissing,  ///< compiled, but the entry kernel is not in the module
};

/// How to compile: the target architecture and the names the run uses.
struct CompileOptions {
  int cc_major = 9, cc_minor = 0;  ///< the GPU's compute capability (sm_90 = 9.0)
  std::string file = "kernel.cu";  ///< program name: what messages and the line table name
  std::string entry = "kernel";    ///< an extern "C" name, or a template instantiation ("reduce3<int>")
  double timeout_s = kMaxKernelCompileSeconds;
  /// Directory of the on-disk module cache ("" = $XDG_CACHE_HOME/warpscope/kernels or ~/.cache/...;
  /// "-" = no disk cache). Modules are also kept in memory for the life of the process.
  std::string cache_dir;
  std::vector<std::string> include_dirs;  ///< "" = warpscope's kernels/ (kernel_include_dir()); CUDA's always
  std::vector<std::string> defines;       ///< macros defined on the command line (-D): "WS_TRACE_BUILD"
  std::vector<std::string> pre_includes;  ///< headers included before the source (--pre-include)
  /// Headers given by text, (include name, text): NVRTC finds them before its include path. A traced build's
  /// trace_points.hpp (trace/user_trace_build.hpp).
  std::vector<std::pair<std::string, std::string>> headers;
};

/// A compiled module and what the compiler said.
struct CompileResult {
  CompileStatus status = CompileStatus::NoCompiler;
  std::string error;                          ///< one line ("" when Ok)
  std::vector<KernelDiagnostic> diagnostics;  ///< errors and warnings, on the user's lines
  std::string log;                            ///< the compiler's log as it wrote it
  std::vector<unsigned char> image;           ///< the cubin (Ok)
  std::string lowered_entry;                  ///< the symbol to look up in the module (mangled for templates)
  std::string key;                            ///< kernel_cache_key of the compile
  bool cached = false;                        ///< came from the memory or disk cache: no compiler ran
  double ms = 0;                              ///< wall time of this call
  bool ok() const { return status == CompileStatus::Ok; }
};

/// True when this build can compile kernels (NVRTC linked).
bool built_with_nvrtc();

/// NVRTC's version ("13.0"), or "" without NVRTC.
std::string nvrtc_version();

/// Checks the source (check_kernel_source), then compiles it with -lineinfo for sm_<cc> in a child process
/// killed after `timeout_s` (NVRTC cannot be interrupted), caching modules by kernel_cache_key. Include
/// path: `include_dirs` and CUDA's headers only. Never throws.
CompileResult compile_user_kernel(const std::string& source, const CompileOptions& o);

}  // namespace ws
