// warpscope-cli bound --variant ID: the bottleneck search of "Code Optimizations" (Jiri Filipovic, Fall 2020,
// the two "Code Modifications" slides): the variant (or the user's --kernel, run like it), its memory-only and
// its compute-only copy run in one worker session with DRAM bytes and occupancy collected, and the slides'
// reading of the three times (bound_search.hpp).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>

#include "backend_factory.hpp"
#include "bound_search.hpp"
#include "commands.hpp"
#include "json_read.hpp"
#include "registry.hpp"
#include "request.hpp"
#include "table.hpp"

namespace ws::cli {

namespace {

/// The variants of `pattern` with hand-written copies, comma-separated (their *.original.cu files).
std::string variants_with_copies(PatternKind pattern) {
  std::vector<std::string> ids;
  std::error_code ec;
  const std::string suffix = ".original.cu";
  for (const auto& e : std::filesystem::directory_iterator(bound_copies_dir(pattern), ec)) {
    const std::string name = e.path().filename().string();
    if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      ids.push_back(name.substr(0, name.size() - suffix.size()));
  }
  std::sort(ids.begin(), ids.end());
  std::string out;
  for (const std::string& id : ids) out += (out.empty() ? "" : ", ") + id;
  return out.empty() ? "none found" : out;
}

/// The first line of `s`.
std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

/// `path` without its directory and its ".cu".
std::string file_stem(const std::string& path) {
  const std::filesystem::path p(path);
  return p.extension() == ".cu" ? p.stem().string() : p.filename().string();
}

}  // namespace

int cmd_bound(const std::string& variant, const RunOptions& o, BoundCopySource source, bool json) {
  const VariantInfo* v = find_variant(variant);
  if (!v) {
    std::fprintf(stderr, "warpscope-cli: unknown variant '%s' (bound knows: %s; any variant with --kernel FILE.cu)\n",
                 variant.c_str(), variants_with_copies(PatternKind::Reduction).c_str());
    return kBadRequest;
  }
  const PatternKind pattern = v->pattern;
  std::string original, stem = variant;
  RunRequest probe;  // the user's kernel, read and checked as run --kernel reads it
  if (!o.kernel_file.empty()) {
    RunOptions ko = o;
    ko.kernel_like = variant;
    if (std::string e = load_kernel_request(ko, probe); !e.empty()) {
      std::fprintf(stderr, "warpscope-cli: %s\n", first_line(e).c_str());
      return kBadRequest;
    }
    if (probe.kernel.pattern != pattern) {
      std::fprintf(stderr, "warpscope-cli: %s follows the %s contract, but %s is a %s variant\n", o.kernel_file.c_str(),
                   to_string(probe.kernel.pattern), variant.c_str(), to_string(pattern));
      return kBadRequest;
    }
    original = probe.kernel.source;
    stem = file_stem(o.kernel_file);
  } else if (!read_bound_file(pattern, variant, "original", original)) {
    std::fprintf(stderr,
                 "warpscope-cli: %s has no hand-written memory-only and compute-only copies (bound knows: %s); "
                 "give your kernel with --kernel FILE.cu to start from copies of it\n",
                 variant.c_str(), variants_with_copies(pattern).c_str());
    return kBadRequest;
  }
  // The hand-written pair by default for the variant itself, starting points (TODOs) for a user's kernel.
  const bool hand_written =
      source == BoundCopySource::HandWritten || (source == BoundCopySource::Default && o.kernel_file.empty());
  const BoundCopies copies = make_bound_copies(variant, pattern, original, hand_written);
  if (hand_written && !copies.hand_written) {
    std::fprintf(stderr, "warpscope-cli: --hand-written: %s has no hand-written copies (bound knows: %s)\n",
                 variant.c_str(), variants_with_copies(pattern).c_str());
    return kBadRequest;
  }
  if (o.backend != BackendKind::Cuda) {
    std::fprintf(stderr, "warpscope-cli: bound compares kernel times on a GPU: --backend sim has none\n");
    return kBadRequest;
  }
  RunRequest base;
  std::string err = to_request(o, variant, base);
  std::vector<RunRequest> reqs;
  if (err.empty()) reqs = bound_requests(base, pattern, variant, original, copies, stem);
  for (const RunRequest& r : reqs) {
    PreparedRun prepared;
    if (err.empty()) err = prepare_run(r, prepared);  // validated before any device is touched
  }
  if (!err.empty()) {
    std::fprintf(stderr, "warpscope-cli: %s\n", first_line(err).c_str());
    return kBadRequest;
  }
  KernelRunner runner;
  if (int code = open_kernel_runner(o, reqs[0], "bound times kernels on a GPU", runner); code >= 0) return code;
  const auto& run = runner.run;
  const char* names[3] = {"original", "memory-only copy", "compute-only copy"};
  std::vector<RunResult> runs;
  for (std::size_t i = 0; i < reqs.size(); ++i) {
    runs.push_back(run(reqs[i]));
    const RunResult& r = runs.back();
    if (r.status == RunStatus::Error || r.status == RunStatus::Faulted) {
      std::fprintf(stderr, "warpscope-cli: the %s of %s (%s) %s: %s\n", names[i], variant.c_str(),
                   reqs[i].kernel.file.c_str(), r.status == RunStatus::Faulted ? "faulted" : "failed",
                   first_line(r.message).c_str());
      return r.status == RunStatus::Faulted ? kFaulted : kFailed;
    }
  }
  const BoundReading reading = read_bound(bound_measure(runs[0]), bound_measure(runs[1]), bound_measure(runs[2]));
  if (json) {
    nlohmann::json j = parse_json_text(bound_to_json(runs, reading), "bound_to_json");
    j["variant"] = variant;
    j["copies"] = copies.hand_written ? "hand-written" : "from the text";
    std::printf("%s\n", dump_json_text(with_format(j, "bound"), 2).c_str());
  } else {
    std::printf("%s: %s\n", variant.c_str(), copies.note.c_str());
    std::fputs(format_bound(runs, reading).c_str(), stdout);
  }
  // The original is checked against the CPU; the copies' answers are wrong by design.
  return exit_code(runs[0]);
}

}  // namespace ws::cli
