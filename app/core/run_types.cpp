#include "run_types.hpp"

#include <algorithm>
#include <cstdio>

#include "user_kernel.hpp"

namespace ws {

Timing summarize(std::vector<double> samples_ms) {
  Timing t;
  t.samples_ms = samples_ms;
  std::sort(samples_ms.begin(), samples_ms.end());
  const std::size_t k = samples_ms.size();
  t.min_ms = samples_ms.front();
  t.max_ms = samples_ms.back();
  t.median_ms = k % 2 ? samples_ms[k / 2] : 0.5 * (samples_ms[k / 2 - 1] + samples_ms[k / 2]);
  return t;
}

std::vector<std::pair<const char*, double>> HostTimes::phases() const {
  std::vector<std::pair<const char*, double>> p = {{"input", input}, {"upload", upload},     {"launches", launches},
                                                   {"model", model}, {"download", download}, {"reference", reference},
                                                   {"check", check}, {"metrics", metrics}};
  double sum = 0;
  for (const auto& e : p) sum += e.second;
  p.push_back({"other", std::max(0.0, total - sum)});
  p.push_back({"total", total});
  return p;
}

namespace {
std::string ms_text(double ms) {
  char buf[32];
  if (ms >= 1000)
    std::snprintf(buf, sizeof buf, "%.2f s", ms / 1000);
  else if (ms >= 10)
    std::snprintf(buf, sizeof buf, "%.0f ms", ms);
  else
    std::snprintf(buf, sizeof buf, "%.1f ms", ms);
  return buf;
}
}  // namespace

std::string format_host_times(const HostTimes& h) {
  if (!h.recorded()) return "";
  std::string line;
  for (const auto& [name, ms] : h.phases()) {
    if (std::string(name) == "total") break;
    if (ms < 0.05) continue;
    line += (line.empty() ? "" : ", ") + std::string(name) + " " + ms_text(ms);
  }
  return line + (line.empty() ? "" : "; ") + "total " + ms_text(h.total);
}

RunResult unrun_result(const RunRequest& req, RunStatus status, const std::string& message) {
  RunResult r;
  // A user's kernel is never shown under the slide's variant it was launched like (a fault or an error of the
  // edited copy is its own row, where the editor looks for it).
  r.variant = req.kernel.empty() ? req.variant : user_kernel_label(req.kernel);
  r.backend = req.backend;
  r.n = req.n;
  r.type = req.type;
  r.input = req.input;
  r.seed = req.seed;
  r.launch = req.launch;
  r.params = req.params;
  r.status = status;
  r.message = message;
  return r;
}

void classify(RunResult& r, const std::string& mismatch, bool scalar, bool slide_bug, double slide_value) {
  r.correct = mismatch.empty();
  if (r.correct) {
    r.status = RunStatus::Ok;
    if (r.racy)
      r.message = std::string("race did not show this time: the racy code happened to give the right ") +
                  (scalar ? "sum" : "output");
    else
      r.message = "";
    if (r.cautionary) r.message = "the slide's bug did not change the result for this input";
  } else if (r.racy) {
    r.status = RunStatus::Race;
    r.message = "race: " + mismatch;
  } else if (r.cautionary && slide_bug) {
    r.status = RunStatus::SlideBug;
    r.message = "slide bug reproduced: " + mismatch + " = what the slide's code computes (" +
                format_value(r.type, slide_value) + ")";
  } else {
    r.status = RunStatus::Wrong;
    r.message = (scalar ? "wrong result: " : "wrong output: ") + mismatch;
  }
}

}  // namespace ws
