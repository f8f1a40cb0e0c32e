// TEST CODE ONLY: a report whose sweep has 40 series (made-up GB/s, NOT measurements), for the plot's
// styles and legend: 38 variants on distinct curves, and cs121.filter_global 1 % under
// cs121.filter_warp_agg at every n (as on the H200, where nvcc aggregates filter_global's atomics
// itself), so the legend must say that they coincide.
#pragma once
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "registry.hpp"
#include "report.hpp"
#include "sweep.hpp"

namespace ws::test {

inline Report many_series_report() {
  DeviceInfo d;
  d.available = true;
  d.name = "synthetic test device (not a GPU)";
  d.theoretical_gbps = 1000;
  d.copy_gbps = 800;
  Report rep = new_report("SYNTHETIC test fixture: 40 made-up series, not measurements", d);
  Sweep sw;
  sw.title = "SYNTHETIC sweep of 40 series (made up, not measurements)";
  sw.spec.from_log2 = 10;
  sw.spec.to_log2 = 20;
  const std::string a = "cs121.filter_global", b = "cs121.filter_warp_agg";
  int others = 0;  // the first 38 other variants in registry order, and the two filters
  for (const auto& v : all_variants()) {
    const bool filter = v.id == a || v.id == b;
    if (!filter && others == 38) continue;
    if (!filter) ++others;
    sw.spec.variants.push_back(v.id);
  }
  for (std::size_t i = 0; i < sw.spec.variants.size(); ++i) {
    const std::string& id = sw.spec.variants[i];
    // Plateaus 9 % apart (2 % of the peak up to 58 %), the two filters at 80 %.
    const double frac = id == a || id == b ? 0.8 : 0.02 * std::pow(1.09, double(i));
    for (int k = sw.spec.from_log2; k <= sw.spec.to_log2; k += 2) {
      RunResult r;
      r.variant = id;
      r.backend = BackendKind::Cuda;
      r.status = RunStatus::Ok;
      r.timed = true;
      r.n = std::int64_t(1) << k;
      r.bytes = double(r.n) * 4;
      r.gbps = d.theoretical_gbps * frac * double(r.n) / double(r.n + (std::int64_t(1) << 14));
      if (id == a) r.gbps *= 0.99;
      r.timing = summarize({r.bytes / (r.gbps * 1e6)});
      sw.runs.push_back(r);
    }
  }
  rep.sweeps.push_back(sw);
  return rep;
}

}  // namespace ws::test
