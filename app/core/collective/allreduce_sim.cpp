#include "collective/allreduce_sim.hpp"

#include <algorithm>
#include <exception>
#include <stdexcept>
#include <string>

namespace ws::collective {

namespace {

/// Milliseconds to move `bytes` at `gbs` GB/s (1e9 bytes/s): bytes / (gbs * 1e6).
double transfer_ms(double bytes, double gbs) { return gbs > 0 ? bytes / (gbs * 1e6) : 0.0; }

int ceil_log2(int n) {
  int levels = 0;
  while ((1 << levels) < n) ++levels;
  return levels;
}

void check_shape(int gpus, std::int64_t length) {
  if (gpus < 1 || gpus > kMaxGpus)
    throw std::invalid_argument("the sim models 1 to " + std::to_string(kMaxGpus) + " GPUs, not " +
                                std::to_string(gpus));
  if (length < 1) throw std::invalid_argument("an all-reduce needs at least one element per GPU");
}

/// Every GPU's first `checked` elements after the schedule, against the int64 sum over GPUs; "" or the
/// first difference.
std::string check_vectors(const Schedule& s, std::int64_t checked) {
  std::vector<std::vector<float>> buffers(s.gpus, std::vector<float>(std::size_t(checked)));
  for (int g = 0; g < s.gpus; ++g)
    for (std::int64_t i = 0; i < checked; ++i) buffers[g][std::size_t(i)] = float(input_value(g, i));
  apply_schedule(s, buffers);
  for (std::int64_t i = 0; i < checked; ++i) {
    std::int64_t ref = 0;
    for (int g = 0; g < s.gpus; ++g) ref += input_value(g, i);
    for (int g = 0; g < s.gpus; ++g)
      if (double(buffers[g][std::size_t(i)]) != double(ref))
        return "GPU " + std::to_string(g) + ", element " + std::to_string(i) + ": " +
               std::to_string(std::int64_t(buffers[g][std::size_t(i)])) + " (reference " + std::to_string(ref) + ")";
  }
  return "";
}

/// The total of the per-GPU partial sums (as HostAdd and PeerToGpu0 add them) against the element-wise
/// sum taken in the other order; "" or the difference.
std::string check_total(int gpus, std::int64_t checked) {
  std::int64_t total = 0, ref = 0;
  for (int g = 0; g < gpus; ++g) {
    std::int64_t partial = 0;
    for (std::int64_t i = 0; i < checked; ++i) partial += input_value(g, i);
    total += partial;
  }
  for (std::int64_t i = 0; i < checked; ++i)
    for (int g = 0; g < gpus; ++g) ref += input_value(g, i);
  return total == ref ? "" : "total " + std::to_string(total) + " (reference " + std::to_string(ref) + ")";
}

}  // namespace

std::int64_t sim_checked_elements(std::int64_t length) { return std::min(length, kSimCheckElements); }

Algorithm schedule_algorithm(Method m) {
  switch (m) {
    case Method::Ring:
    case Method::NcclRing: return Algorithm::Ring;
    case Method::Tree:
    case Method::NcclTree: return Algorithm::Tree;
    default: break;
  }
  throw std::invalid_argument(std::string(to_string(m)) + " reduces to one value: it has no all-reduce schedule");
}

double step_alpha_ms(const LinkModel& link, int gpus, int moves) {
  return (link.step_gpu_us * gpus + link.step_move_us * moves) / 1000.0;
}

std::vector<double> model_step_ms(const Schedule& s, std::int64_t length, const LinkModel& link) {
  if (length < 1) throw std::invalid_argument("an all-reduce needs at least one element per GPU");
  std::vector<double> out;
  out.reserve(s.steps.size());
  for (const Step& st : s.steps) {
    std::int64_t largest = 0;
    bool adds = false;
    for (const ChunkMove& m : st.moves) {
      const Range r = chunk_range(length, s.chunks, m.chunk);
      largest = std::max(largest, r.end - r.begin);
      adds = adds || m.add;
    }
    const double bytes = double(largest) * 4.0;
    double ms = transfer_ms(bytes, link.peer_gbs);
    if (adds) ms += transfer_ms(3.0 * bytes, link.hbm_gbs);
    // The host issues the step's copies and adds asynchronously: its fixed cost and the transfer overlap.
    out.push_back(std::max(step_alpha_ms(link, s.gpus, int(st.moves.size())), ms));
  }
  return out;
}

double model_ms(Method m, int gpus, std::int64_t length, const LinkModel& link) {
  check_shape(gpus, length);
  const double bytes = double(length) * 4.0;
  const double local_reduce_ms = transfer_ms(bytes, link.hbm_gbs);
  switch (m) {
    case Method::HostAdd: return (link.step_alpha_us + link.host_sync_us) / 1000.0 + local_reduce_ms;
    case Method::PeerToGpu0: return 2.0 * link.step_alpha_us / 1000.0 + local_reduce_ms;
    case Method::Ring:
    case Method::Tree: {
      const std::vector<double> steps = model_step_ms(make_schedule(schedule_algorithm(m), gpus), length, link);
      double sum = 0;
      for (double v : steps) sum += v;
      return sum;
    }
    case Method::NcclRing:
    case Method::NcclTree: {
      if (gpus == 1) return 0.0;
      const bool ring = m == Method::NcclRing;
      const int steps = ring ? 2 * (gpus - 1) : 2 * ceil_log2(gpus);
      const double busbw = ring ? link.nccl_ring_busbw_gbs : link.nccl_tree_busbw_gbs;
      return steps * link.nccl_alpha_us / 1000.0 + transfer_ms(bytes * 2.0 * (gpus - 1) / gpus, busbw);
    }
  }
  return 0.0;
}

AllReduceResult simulate_allreduce(const AllReduceRequest& r, const LinkModel& link) {
  AllReduceResult out;
  out.method = r.method;
  out.gpus = r.gpus;
  out.length = r.length;
  out.simulated = true;
  try {
    check_shape(r.gpus, r.length);
    const std::int64_t bytes = r.length * 4;
    const std::int64_t checked = sim_checked_elements(r.length);
    if (r.method == Method::Ring || r.method == Method::Tree) {
      out.step_ms = model_step_ms(make_schedule(schedule_algorithm(r.method), r.gpus), r.length, link);
      for (double v : out.step_ms) out.median_ms += v;
    } else {
      out.median_ms = model_ms(r.method, r.gpus, r.length, link);
    }
    out.detail = is_all_reduce(r.method) ? check_vectors(make_schedule(schedule_algorithm(r.method), r.gpus), checked)
                                         : check_total(r.gpus, checked);
    out.correct = out.detail.empty();
    out.algbw_gbs = r.gpus > 1 ? algorithm_bandwidth_gbs(bytes, out.median_ms) : 0.0;
    out.busbw_gbs = r.gpus > 1 ? bus_bandwidth_gbs(bytes, out.median_ms, r.gpus) : 0.0;
    out.peer_gbs = r.gpus > 1 ? link.peer_gbs : 0.0;
    out.link_gbs = r.gpus > 1 ? link.link_gbs : 0.0;
    out.link = link.name;
    out.ran = true;
  } catch (const std::exception& e) {
    out.ran = false;
    out.error = e.what();
  }
  return out;
}

}  // namespace ws::collective
