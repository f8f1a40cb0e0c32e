// The editor's "Find the bound" (docs/your-kernel.md): the bottleneck search of "Code Optimizations" (J.
// Filipovic, Fall 2020, slides "Code Modifications") on the edited text. Pressing Find the bound makes the
// memory-only and compute-only copies (bound_search.hpp make_bound_copies: the hand-written pair where the
// variant has one, else the text twice with the slides' steps as TODOs) for the person to adjust; Run the three
// sends the original, memory-only and compute-only requests (bound_requests, with kBoundMetrics) through the
// GUI's run queue, the same path as the editor's Ctrl+Enter and `warpscope-cli bound`; their results come back
// as rows of the session and are read here with read_bound. No ImGui: app/ui/editor/bound_panel draws it.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "bound_search.hpp"
#include "pattern_kind.hpp"
#include "run_types.hpp"

namespace ws::controller {

/// The bound search of the kernel open in the editor.
class BoundEdit {
 public:
  /// Makes the copies of `text` (the editor's text of `variant`, of `pattern`) and opens the panel. Forgets
  /// an earlier search's results.
  void open(const std::string& variant, PatternKind pattern, const std::string& text);
  /// Closes the panel (the copies are kept until the next open()).
  void close() { open_ = false; }
  bool is_open() const { return open_; }
  const std::string& variant() const { return variant_; }
  /// True when the copies are the hand-written files of kernels/<pattern>/bound/.
  bool hand_written() const { return hand_written_; }
  /// One line about the copies: what to adjust, or that they follow the slides.
  const std::string& note() const { return note_; }

  /// The copies as the person edited them: whole .cu files under the pattern's contract.
  std::string memory, compute;

  // Intents for the editor's next frame (the command line's --edit-bound).
  bool request_open = false;  ///< press Find the bound
  bool request_run = false;   ///< press Run the three

  /// The three requests, in the order original, memory-only, compute-only: `original` (the editor's text) and
  /// the two copies, run like the variant with `base` (the parameters' request: n, input, repeat) and
  /// kBoundMetrics, labelled as bound_labels(variant) says.
  /// Their n is at least kBoundMinN (base.n where larger).
  std::vector<RunRequest> requests(const RunRequest& base, const std::string& original) const;

  /// The smallest n the panel's search runs at: 2^24 int32 = 67 MB, beyond the H200's 60 MB L2. With an input
  /// the L2 holds (the GUI's default 2^20 = 4 MB), the copies after the original read it from L2 and the memory-only
  /// copy showed 0.0 MB of DRAM reads against the original's 4.2 MB on the H200: no fairness check could pass.
  static constexpr std::int64_t kBoundMinN = std::int64_t(1) << 24;
  /// Notes that the three were queued while the session held `runs`; take() waits for their results.
  void queued(const std::vector<RunResult>& runs);
  /// True while the three's results have not all come back.
  bool running() const { return pending_; }
  /// Takes the three results once the session's `runs` hold a new run under each label, and reads them
  /// (read_bound of bound_measure). True when it did.
  bool take(const std::vector<RunResult>& runs);
  /// The three runs of the latest search (original, memory-only, compute-only); empty before any.
  const std::vector<RunResult>& runs() const { return runs_; }
  /// The slides' reading of them; nullptr before any.
  const BoundReading* reading() const { return reading_ ? &*reading_ : nullptr; }
  /// One line: "running the three on the GPU", "memory bound (fair)", "a run failed: ..."; "" before any run.
  std::string status() const;
  /// Says why the three cannot run here (no GPU); status() shows it.
  void cannot_run(const std::string& why) { why_not_ = why; }

 private:
  bool open_ = false, hand_written_ = false, pending_ = false;
  std::string variant_, note_, why_not_;
  PatternKind pattern_ = PatternKind::Reduction;
  std::vector<std::size_t> before_;  ///< per label, the session's runs under it when the three were queued
  std::vector<RunResult> runs_;
  std::optional<BoundReading> reading_;
};

}  // namespace ws::controller
