// The editable copy of a variant's kernel ("Edit a copy" in the Source view): the embedded source of the
// variant (kernel_sources.hpp, trace instrumentation removed) turned into a file NVRTC compiles under the
// pattern's kernel contract (docs/your-kernel.md), and the per-line marks the editor's margin draws
// against the original. No ImGui here, so tests/gui checks it.
#pragma once
#include <string>
#include <vector>

#include "kernel_sources.hpp"
#include "variant.hpp"

namespace ws::controller {

/// A copy of a variant's kernel to edit.
struct KernelCopy {
  std::string text;  ///< the whole file: header, includes, the slide's kernel, the contract's entry
  /// "" or one line: why the entry could not pass the contract's arguments to the slide's kernel (the entry
  /// then says what to write, and does not compile until it is written).
  std::string note;
  int kernel_line = 0;  ///< 1-based line of the slide's kernel (its `__device__` line) in `text`
};

/// One parameter of a kernel's signature, as written ("const T* buffer").
struct KernelParam {
  std::string type, name;
  bool pointer = false, is_const = false;
};

/// Whether "Edit a copy" is offered for `v`: "" or why not (a CPU or library variant has no kernel of
/// its own; the kernel contracts cover reductions, scans, 1-D convolutions and 256-bin histograms).
std::string why_not_editable(const VariantInfo& v);

/// The parameters of the first `name(...)` list in `signature` (whole lines of code, comments removed).
std::vector<KernelParam> parse_kernel_params(const std::string& signature);

/// The copy of `v`'s kernel from its section `sec` (find_section(v.id)): the section up to the end of its
/// last `__global__` function (the host launcher after it is dropped: warpscope launches the copy with the
/// variant's launch geometry, `--like v.id`), that kernel made a `__device__` function (its slide lines
/// unchanged otherwise), template parameters given the contract's element type and the variant's default
/// block, and the contract's `extern "C" __global__ void kernel(...)` that calls it with the arguments it
/// takes, matched by kind in order (read-only pointers, writable pointers, sizes). A section without a
/// kernel, or with more than one, gets a `note`.
KernelCopy make_kernel_copy(const VariantInfo& v, const SourceSection& sec);

/// Margin marks of `edited` against `original`, one per line of `edited`: 0 unchanged, 1 added or changed
/// (the line diff of diff_lines). Lines of `original` that `edited` lacks mark the line after them with 2
/// (deleted above) when it is otherwise unchanged.
std::vector<int> changed_line_marks(const std::string& original, const std::string& edited);

/// One row of a code diff to show: a line (kept as context, added or removed) or a gap of unchanged lines.
struct CodeDiffRow {
  enum Kind { Context, Added, Removed, Gap } kind = Context;
  int old_line = 0;  ///< 1-based line in the original (Context, Removed), else 0
  int new_line = 0;  ///< 1-based line in the edited text (Context, Added), else 0
  std::string text;  ///< the line; for a Gap, empty (`skipped` says how many lines it stands for)
  int skipped = 0;
};

/// The changed lines of `edited` against `original` (the same line diff as changed_line_marks), each run of
/// changes with up to `context` unchanged lines around it, and a Gap row for the unchanged lines between.
/// Empty when the texts have the same lines.
std::vector<CodeDiffRow> code_diff_rows(const std::string& original, const std::string& edited, int context = 1);

}  // namespace ws::controller
