// run --kernel FILE.cu: a user's kernel read into the request (docs/your-kernel.md), and what the CLI says
// when no GPU can run it.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "commands.hpp"
#include "kernel_compile.hpp"
#include "registry.hpp"
#include "user_kernel.hpp"

namespace ws::cli {

std::string load_kernel_request(const RunOptions& o, RunRequest& req) {
  const std::string& path = o.kernel_file;
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) return "--kernel " + path + ": " + ec.message();
  if (size > kMaxKernelSourceBytes)
    return path + " is " + std::to_string(size) + " bytes: kernel sources are limited to 1 MiB (" +
           std::to_string(kMaxKernelSourceBytes) + " bytes)";
  std::ifstream in(path, std::ios::binary);
  if (!in) return "--kernel " + path + ": cannot be read";
  std::ostringstream text;
  text << in.rdbuf();
  UserKernel k;
  k.source = text.str();
  k.file = path;
  k.entry = o.kernel_entry;
  k.like = o.kernel_like;
  KernelHeader h;
  if (std::string e = parse_kernel_header(k.source, k.file, h); !e.empty()) return e;
  std::string pattern = o.kernel_pattern;
  if (pattern.empty()) pattern = h.pattern;
  if (pattern.empty() && !k.like.empty())
    if (const VariantInfo* v = find_variant(k.like)) pattern = to_string(v->pattern);
  if (pattern.empty()) pattern = "reduction";
  if (!parse_pattern(pattern, k.pattern) || !kernel_contract(k.pattern)) {
    std::string names;
    for (PatternKind p : kernel_contract_patterns()) names += (names.empty() ? "" : ", ") + std::string(to_string(p));
    return "--pattern " + pattern + ": kernels may follow the contract of " + names;
  }
  req.kernel = std::move(k);
  req.variant.clear();
  return "";
}

int kernel_without_gpu(const RunRequest& req, const std::string& why) {
  const std::string& file = req.kernel.file;
  const std::string how =
      "run it where there is one: on this machine's GPU, over ssh (--gpu ssh:HOST) or "
      "through Slurm (--gpu 'slurm:ARGS')";
  if (!built_with_nvrtc()) {
    std::fprintf(stderr,
                 "warpscope-cli: %s needs an NVIDIA GPU to run, and this build cannot compile it either "
                 "(no NVRTC); %s\n",
                 file.c_str(), how.c_str());
    return kNoDevice;
  }
  KernelHeader h;
  (void)parse_kernel_header(req.kernel.source, file, h);  // prepare_run already accepted it
  CompileOptions co;  // sm_90: the architecture of the GPU machines this course uses
  co.file = file;
  co.entry = !req.kernel.entry.empty() ? req.kernel.entry : !h.entry.empty() ? h.entry : "kernel";
  const CompileResult c = compile_user_kernel(req.kernel.source, co);
  if (!c.ok()) {
    const std::string all = format_diagnostics(c.diagnostics, file);
    std::fprintf(stderr, "%s\n",
                 c.status == CompileStatus::Failed && !all.empty() ? all.substr(0, all.size() - 1).c_str()
                                                                   : ("warpscope-cli: " + c.error).c_str());
    return kFailed;
  }
  const std::string warnings = format_diagnostics(c.diagnostics, file);
  if (!warnings.empty()) std::fputs(warnings.c_str(), stderr);
  std::fprintf(stderr, "warpscope-cli: %s compiles (NVRTC %s, sm_90), but running it needs an NVIDIA GPU (%s); %s\n",
               file.c_str(), nvrtc_version().c_str(), why.c_str(), how.c_str());
  return kNoDevice;
}

}  // namespace ws::cli
