// warpscope-cli grade --exercise ID --kernel FILE.cu [--gpu ...] [--json]: a verdict per check (exercises.hpp),
// exit 0 only when all pass, so a course's own autograder (a CI job, a Slurm script) can call it.
#include <cstdio>
#include <memory>

#include "backend_factory.hpp"
#include "commands.hpp"
#include "exercises.hpp"
#include "request.hpp"

namespace ws::cli {

int cmd_grade(const std::string& exercise, const std::string& kernel_file, const RunOptions& o, bool json) {
  std::vector<std::string> problems;
  const std::vector<Exercise> all = load_exercises("", &problems);
  const Exercise* ex = find_exercise(all, exercise);
  if (!ex) {
    std::string ids;
    for (const Exercise& e : all) ids += (ids.empty() ? "" : ", ") + e.id;
    std::fprintf(stderr, "warpscope-cli: unknown exercise '%s' (exercises: %s)\n", exercise.c_str(),
                 ids.empty() ? "none found" : ids.c_str());
    return kBadRequest;
  }
  RunOptions ko = o;
  ko.kernel_file = kernel_file;
  ko.kernel_pattern = to_string(ex->pattern);
  ko.kernel_like = ex->like;
  RunRequest probe;
  if (std::string e = load_kernel_request(ko, probe); !e.empty()) {
    std::fprintf(stderr, "warpscope-cli: %s\n", e.c_str());
    return kBadRequest;
  }
  KernelRunner runner;
  if (int code = open_kernel_runner(o, probe, "grading runs the kernel on a GPU", runner); code >= 0) return code;
  const auto& run = runner.run;
  const GradeReport g = grade_exercise(*ex, probe.kernel.source, probe.kernel.file, run);
  if (json)
    std::printf("%s\n", grade_to_json(g).c_str());
  else
    std::fputs(format_grade(g).c_str(), stdout);
  return g.passed() ? kOk : kFailed;
}

}  // namespace ws::cli
