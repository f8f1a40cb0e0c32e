// Your own kernel (docs/your-kernel.md): a .cu file of device code written against a pattern's kernel
// contract, compiled at run time with NVRTC in the process that owns the GPU (the worker), launched
// through the driver API, checked against the pattern's CPU reference and timed like any variant.
// This file holds what needs no compiler and no GPU: the contracts, the file's comment header, the
// source limits, the mapping of compiler messages to `file:line: message`, and the cache key.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "pattern_kind.hpp"
#include "user_kernel_request.hpp"
#include "variant.hpp"

namespace ws {

/// Largest kernel source accepted, in bytes (1 MiB).
constexpr std::size_t kMaxKernelSourceBytes = std::size_t(1) << 20;
/// Longest compile accepted, in seconds; a compile still running then is killed and refused.
constexpr double kMaxKernelCompileSeconds = 30;

/// What a pattern passes to a user's kernel (docs/your-kernel.md has one worked example each).
struct KernelContract {
  PatternKind pattern;
  const char* signature;     ///< e.g. `extern "C" __global__ void kernel(const int* in, int* out, unsigned n)`
  const char* output;        ///< what the kernel must leave in its output, in one or two sentences
  const char* base_variant;  ///< the variant whose CPU reference, bytes and check the run uses
  int default_block;         ///< threads per block when neither the header nor --like nor --block give one
};

/// The contract of `pattern`, or nullptr when user kernels cannot follow it yet.
const KernelContract* kernel_contract(PatternKind pattern);

/// The patterns user kernels may follow, in teaching order.
std::vector<PatternKind> kernel_contract_patterns();

/// The comment header of a kernel file: lines `// warpscope: key=value key=value ...` anywhere in the
/// file (usually at the top). Keys: block (threads), items (input elements per thread: grid = ceil(n /
/// (block * items))), grid (fixed blocks: grid-stride kernels), shared (dynamic shared bytes: a number,
/// or `block*K` / `K*block`, or `items*block*K`, or a sum of them: `block*4+56`), entry (kernel name),
/// pattern (reduction, scan, ...), mask_symbol (convolution: a file-scope `__constant__ float NAME[...]`
/// the worker fills with the run's mask before the launch, as the slides' host code does with
/// cudaMemcpyToSymbol). 0 / "" = not given.
struct KernelHeader {
  int block = 0;
  int items = 0;
  std::int64_t grid = 0;
  std::string shared;  ///< as written; shared_bytes() evaluates it
  std::string entry;
  std::string pattern;
  std::string mask_symbol;  ///< the __constant__ float array that gets the mask ("" = none)
  int line = 0;             ///< 1-based line of the first header line (0: no header)
};

/// Parses the header; returns "" or one line `FILE:LINE: warpscope header: ...` naming the bad key or value.
std::string parse_kernel_header(const std::string& source, const std::string& file, KernelHeader& out);

/// Dynamic shared bytes for a `shared` expression (see KernelHeader) at `block` threads and `items` per
/// thread; -1 when the expression is not one of the forms above. "" gives 0.
std::int64_t shared_bytes(const std::string& expr, int block, int items);

/// Checks what the tool refuses before compiling: size over kMaxKernelSourceBytes, an empty file, a NUL
/// byte, an #include of an absolute path or one that climbs out with "..". Returns "" or one line
/// (`FILE:LINE: ...` for an include).
std::string check_kernel_source(const std::string& source, const std::string& file);

/// One compiler message on a line of the user's file.
struct KernelDiagnostic {
  int line = 0;          ///< 1-based; 0 when the compiler named no line
  std::string severity;  ///< "error", "warning", "remark" or "note"
  std::string message;
  std::string file;  ///< the file the compiler named (the user's, or a header it includes)
};

/// Reads NVRTC's log (`NAME(LINE): error: MESSAGE`; messages without a line; the echoed source lines,
/// carets and the closing "N errors detected in the compilation of ..." dropped) into diagnostics;
/// `program` is the name the source was compiled under. Lines of a file other than `program` keep their
/// file name.
std::vector<KernelDiagnostic> parse_compile_log(const std::string& log, const std::string& program);

/// Diagnostics as `FILE:LINE: severity: message` lines (compilers' usual form; `FILE: ...` without a
/// line), `file` standing for the program's own name.
std::string format_diagnostics(const std::vector<KernelDiagnostic>& d, const std::string& file);

/// The key a compiled module is cached under: 16 hex digits of a 64-bit FNV-1a hash of the source,
/// entry, compute capability, compiler options and the compiler's version.
std::string kernel_cache_key(const std::string& source, const std::string& entry, int cc_major, int cc_minor,
                             const std::vector<std::string>& options, const std::string& compiler_version);

/// The variant a user's kernel runs as: the contract's base variant (or `k.like`) for the pattern's
/// reference, check and bytes, with id user_kernel_label(k), the launch rules of the header (block,
/// items, grid) over those of `like`, any block 1..1024, and none of the base's flags (racy,
/// cautionary, cpu_only, traceable). Returns "" or one line (bad header, unknown --like, a --like of
/// another pattern, a pattern without a contract).
std::string user_kernel_variant(const UserKernel& k, VariantInfo& out);

/// The include directory that holds warpscope's kernel headers ("common/dynamic_shared.cuh", ...):
/// $WARPSCOPE_KERNELS, share/warpscope/kernels beside an installed program, or the source tree's kernels/.
std::string kernel_include_dir();

/// The name a user's kernel run carries in results and Compare: `k.label` when given, else
/// "epita.reduce3 (edited)" with `like`, else "FILE (your kernel)" with the file's base name.
std::string user_kernel_label(const UserKernel& k);

}  // namespace ws
