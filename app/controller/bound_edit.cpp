#include "bound_edit.hpp"

#include <algorithm>

namespace ws::controller {

namespace {

std::size_t count_named(const std::vector<RunResult>& runs, const std::string& label) {
  return std::size_t(std::count_if(runs.begin(), runs.end(), [&](const RunResult& r) { return r.variant == label; }));
}

/// The latest run named `label`.
const RunResult* latest(const std::vector<RunResult>& runs, const std::string& label) {
  for (auto it = runs.rbegin(); it != runs.rend(); ++it)
    if (it->variant == label) return &*it;
  return nullptr;
}

}  // namespace

void BoundEdit::open(const std::string& variant, PatternKind pattern, const std::string& text) {
  const BoundCopies c = make_bound_copies(variant, pattern, text, true);
  variant_ = variant;
  pattern_ = pattern;
  memory = c.memory;
  compute = c.compute;
  hand_written_ = c.hand_written;
  note_ = c.note;
  open_ = true;
  pending_ = false;
  why_not_.clear();
  runs_.clear();
  reading_.reset();
}

std::vector<RunRequest> BoundEdit::requests(const RunRequest& base, const std::string& original) const {
  BoundCopies c;
  c.memory = memory;
  c.compute = compute;
  RunRequest b = base;
  b.n = std::max<std::int64_t>(b.n, kBoundMinN);  // the input must not fit in L2 (see kBoundMinN)
  return bound_requests(b, pattern_, variant_, original, c, variant_);
}

void BoundEdit::queued(const std::vector<RunResult>& runs) {
  before_.clear();
  for (const std::string& label : bound_labels(variant_)) before_.push_back(count_named(runs, label));
  pending_ = true;
  why_not_.clear();
}

bool BoundEdit::take(const std::vector<RunResult>& runs) {
  if (!pending_) return false;
  const std::vector<std::string> labels = bound_labels(variant_);
  for (std::size_t i = 0; i < labels.size(); ++i)
    if (count_named(runs, labels[i]) <= before_[i]) return false;
  runs_.clear();
  for (const std::string& label : labels) runs_.push_back(*latest(runs, label));
  reading_ = read_bound(bound_measure(runs_[0]), bound_measure(runs_[1]), bound_measure(runs_[2]));
  pending_ = false;
  return true;
}

std::string BoundEdit::status() const {
  if (!why_not_.empty()) return why_not_;
  if (pending_) return "running the three on the GPU: original, memory-only, compute-only";
  if (!reading_) return "";
  const char* names[3] = {"original", "memory-only copy", "compute-only copy"};
  for (std::size_t i = 0; i < runs_.size(); ++i)
    if (runs_[i].status == RunStatus::Error || runs_[i].status == RunStatus::Faulted)
      return std::string("the ") + names[i] + " " + (runs_[i].status == RunStatus::Faulted ? "faulted" : "failed") +
             ": " + runs_[i].message.substr(0, runs_[i].message.find('\n'));
  return std::string(to_string(reading_->verdict)) + (reading_->fair() ? "" : " (a copy is not fair: see the checks)");
}

}  // namespace ws::controller
