// Linked instead of app/cuda/nvrtc_compile.cpp when the build has no CUDA toolkit: no NVRTC to compile with.
#include "kernel_compile.hpp"

namespace ws {

bool built_with_nvrtc() { return false; }

std::string nvrtc_version() { return ""; }

CompileResult compile_user_kernel(const std::string& source, const CompileOptions& o) {
  CompileResult r;
  if (std::string why = check_kernel_source(source, o.file); !why.empty()) {
    r.status = CompileStatus::Refused;
    r.error = why;
    return r;
  }
  r.status = CompileStatus::NoCompiler;
  r.error = "this build has no NVRTC to compile " + o.file +
            " (it was configured without the CUDA toolkit); a worker built with it compiles on its machine "
            "(--gpu ssh:HOST or --gpu 'slurm:ARGS')";
  return r;
}

}  // namespace ws
