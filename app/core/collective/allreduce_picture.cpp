#include "collective/allreduce_picture.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>

#include "collective/allreduce_json.hpp"
#include "collective/allreduce_sim.hpp"

namespace ws::collective {

namespace {

int popcount(GpuMask m) {
  int c = 0;
  for (; m; m &= GpuMask(m - 1)) ++c;
  return c;
}

Method method_of(Algorithm a) { return a == Algorithm::Ring ? Method::Ring : Method::Tree; }

/// A usable measured result: ran on the GPUs, correct, with one step time per step when `steps` >= 0.
bool measured_result(const AllReduceResult& r, Method m, int gpus) {
  return r.method == m && r.gpus == gpus && r.ran && !r.simulated && r.correct;
}

std::string model_source(const LinkModel& link) {
  return "simulated: alpha-beta model of " + link.name + " (nothing measured)";
}

}  // namespace

std::string sum_label(GpuMask m, int gpus) {
  if (m == 0) return "-";
  if (m == all_gpus_mask(gpus)) return "all " + std::to_string(gpus);
  std::string out;
  for (int g = 0; g < kMaxGpus; ++g)
    if (m & (1u << g)) out += (out.empty() ? "g" : "+g") + std::to_string(g);
  return out;
}

std::string sum_label_short(GpuMask m, int gpus) {
  const int c = popcount(m);
  if (c <= 1) return sum_label(m, gpus);
  if (m == all_gpus_mask(gpus)) return "all " + std::to_string(gpus);
  return std::to_string(c) + " of " + std::to_string(gpus);
}

std::string sum_label_tiny(GpuMask m, int gpus) {
  const int c = popcount(m);
  if (c <= 1) return sum_label(m, gpus);
  if (m == all_gpus_mask(gpus)) return "all";
  return std::to_string(c) + "/" + std::to_string(gpus);
}

std::string device_phrase(const std::vector<std::string>& names) {
  if (names.empty()) return "GPUs";
  std::vector<std::pair<std::string, int>> counts;
  for (const auto& n : names) {
    auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == n; });
    if (it == counts.end())
      counts.push_back({n.empty() ? "GPU" : n, 1});
    else
      ++it->second;
  }
  std::string out;
  for (const auto& [n, c] : counts) out += (out.empty() ? "" : ", ") + n + (c > 1 ? " x" + std::to_string(c) : "");
  return out;
}

AllReducePicture make_picture(Algorithm algorithm, int gpus, std::int64_t bytes,
                              const std::vector<AllReduceResult>& report, const LinkModel& link,
                              const std::string& origin) {
  if (gpus < 2 || gpus > kMaxGpus) throw std::invalid_argument("the picture needs 2 to 8 GPUs");
  if (bytes < 4 || bytes % 4 != 0) throw std::invalid_argument("bytes must be a positive multiple of 4");
  const Schedule s = make_schedule(algorithm, gpus);
  const std::int64_t length = bytes / 4;
  AllReducePicture p;
  p.algorithm = algorithm;
  p.gpus = gpus;
  p.chunks = s.chunks;
  p.bytes = bytes;
  std::vector<double> ms;
  for (const auto& r : report)
    if (measured_result(r, method_of(algorithm), gpus) && r.length == length && r.step_ms.size() == s.steps.size()) {
      ms = r.step_ms;
      p.measured = true;
      p.devices = device_phrase(r.device_names);
      p.source = "measured on " + p.devices + " (" + origin + ")";
      break;
    }
  if (!p.measured) {
    ms = model_step_ms(s, length, link);
    p.source = model_source(link);
  }
  std::vector<std::vector<GpuMask>> before = contributors_after(s, 0);
  for (std::size_t k = 0; k < s.steps.size(); ++k) {
    PictureStep st;
    st.phase = s.steps[k].phase;
    st.moves = s.steps[k].moves;
    st.before = before;
    st.after = contributors_after(s, int(k) + 1);
    st.ms = ms[k];
    before = st.after;
    p.total_ms += st.ms;
    p.steps.push_back(std::move(st));
  }
  p.algbw_gbs = algorithm_bandwidth_gbs(bytes, p.total_ms);
  p.busbw_gbs = bus_bandwidth_gbs(bytes, p.total_ms, gpus);
  return p;
}

AllReduceSweep make_sweep(int gpus, int from_log2, int to_log2, const std::vector<AllReduceResult>& report,
                          const LinkModel& link) {
  if (gpus < 2 || gpus > kMaxGpus) throw std::invalid_argument("the sweep needs 2 to 8 GPUs");
  if (from_log2 < kPictureMinBytesLog2 || to_log2 > kPictureMaxBytesLog2 || from_log2 > to_log2)
    throw std::invalid_argument("the sweep covers 2^12 to 2^30 bytes");
  AllReduceSweep w;
  w.gpus = gpus;
  // Measured: sizes where the report has both a ring and a tree result (the first of each size).
  std::map<std::int64_t, double> ring, tree;
  std::vector<std::string> names;
  for (const auto& r : report) {
    const std::int64_t b = r.length * 4;
    if (b < (std::int64_t(1) << from_log2) || b > (std::int64_t(1) << to_log2)) continue;
    if (measured_result(r, Method::Ring, gpus)) ring.emplace(b, r.busbw_gbs), names = r.device_names;
    if (measured_result(r, Method::Tree, gpus)) tree.emplace(b, r.busbw_gbs);
  }
  for (const auto& [b, bw] : ring)
    if (auto it = tree.find(b); it != tree.end()) w.points.push_back({b, bw, it->second});
  if (w.points.size() >= 2) {
    w.measured = true;
    w.source = "measured on " + device_phrase(names) + " (bundled report)";
  } else {
    w.points.clear();
    for (int e = from_log2; e <= to_log2; ++e) {
      const std::int64_t b = std::int64_t(1) << e;
      w.points.push_back({b, bus_bandwidth_gbs(b, model_ms(Method::Ring, gpus, b / 4, link), gpus),
                          bus_bandwidth_gbs(b, model_ms(Method::Tree, gpus, b / 4, link), gpus)});
    }
    w.source = model_source(link);
  }
  bool all = true;
  for (std::size_t i = 0; i < w.points.size(); ++i) {
    const bool leads = w.points[i].ring_busbw_gbs > w.points[i].tree_busbw_gbs;
    all = all && leads;
    if (leads && i > 0 && w.crossover < 0 && !(w.points[i - 1].ring_busbw_gbs > w.points[i - 1].tree_busbw_gbs))
      w.crossover = int(i);
  }
  w.ring_leads_everywhere = all && !w.points.empty();
  return w;
}

std::vector<std::string> load_allreduce_reports(const std::string& dir, std::vector<AllReduceResult>& out,
                                                std::vector<std::string>& problems) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return {};
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".json" && e.is_regular_file(ec)) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::vector<std::string> read;
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    std::string head(4096, '\0');
    in.read(head.data(), std::streamsize(head.size()));
    head.resize(std::size_t(in.gcount()));
    if (head.find(kAllReduceFormat) == std::string::npos) continue;
    std::vector<AllReduceResult> results;
    if (std::string err = read_allreduce_file(f.string(), results); !err.empty()) {
      problems.push_back(err);
      continue;
    }
    out.insert(out.end(), results.begin(), results.end());
    read.push_back(f.filename().string());
  }
  return read;
}

std::string gpu_variants_line(bool device_available, int gpus) {
  const std::string head = "GPU variants cannot run here: ",
                    tail = "; steps and times from the sim or a bundled report";
  if (!device_available) return head + "no CUDA device" + tail;
  if (gpus >= 0 && gpus < 2)
    return head + "only " + std::to_string(gpus) + " GPU visible, all-reduce needs 2 or more" + tail;
  return "";  // two or more, or not known yet (the run's answer will say)
}

std::string bytes_text(std::int64_t bytes) {
  static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB"};
  for (int u = 3; u >= 0; --u) {
    const std::int64_t unit = std::int64_t(1) << (10 * u);
    if (bytes >= unit && bytes % unit == 0) return std::to_string(bytes / unit) + " " + kUnits[u];
  }
  return std::to_string(bytes) + " B";
}

}  // namespace ws::collective
