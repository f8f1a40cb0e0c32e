// The user's kernel a RunRequest may carry (RunRequest::kernel): plain data, so that run_types.hpp needs
// nothing else of user_kernel.hpp (contracts, header, limits, compiler messages).
#pragma once
#include <string>

#include "pattern_kind.hpp"

namespace ws {

/// A user's kernel attached to a RunRequest (RunRequest::kernel). Empty `source`: the request runs a
/// built-in variant as usual.
struct UserKernel {
  std::string source;              ///< the .cu text (device code only; <= kMaxKernelSourceBytes)
  std::string file = "kernel.cu";  ///< the name compiler messages and per-line metrics use
  std::string entry;               ///< kernel to launch ("" = the header's, else "kernel"); may name a template
                                   ///< instantiation ("reduce3<int>")
  PatternKind pattern = PatternKind::Reduction;  ///< whose contract the kernel follows
  std::string like;                              ///< "" or a variant id whose launch geometry and name the run takes
  std::string label;  ///< "" or the name the run carries in results instead of user_kernel_label()'s default
  bool empty() const { return source.empty(); }
};

}  // namespace ws
