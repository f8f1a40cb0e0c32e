#include "run_types.hpp"

#include <algorithm>

#include "reference.hpp"

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

void classify(RunResult& r, bool results_equal, bool model_equal, double model_value) {
  r.correct = results_equal;
  const std::string got = format_value(r.type, r.result), want = format_value(r.type, r.expected);
  if (results_equal) {
    r.status = "ok";
    r.message = r.racy ? "race did not show this time: the racy code happened to give the right sum" : "";
    if (r.cautionary) r.message = "the slide's bug did not change the result for this input";
  } else if (r.racy) {
    r.status = "race";
    r.message = "race: expected " + want + ", got " + got;
  } else if (r.cautionary && model_equal) {
    r.status = "slide-bug";
    r.message = "slide bug reproduced: expected " + want + ", got " + got + " = what the slide's code computes (" +
                format_value(r.type, model_value) + ")";
  } else {
    r.status = "wrong";
    r.message = "wrong result: expected " + want + ", got " + got;
  }
}

}  // namespace ws
