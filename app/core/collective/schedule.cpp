#include "collective/schedule.hpp"

#include <algorithm>
#include <stdexcept>

namespace ws::collective {

const char* to_string(Algorithm a) { return a == Algorithm::Ring ? "ring" : "tree"; }

const char* to_string(Phase p) {
  switch (p) {
    case Phase::ReduceScatter: return "reduce-scatter";
    case Phase::AllGather: return "all-gather";
    case Phase::Reduce: return "reduce";
    case Phase::Broadcast: return "broadcast";
  }
  return "?";
}

namespace {

void check_gpus(int gpus) {
  if (gpus < 1 || gpus > kMaxGpus)
    throw std::invalid_argument("an all-reduce needs 1 to " + std::to_string(kMaxGpus) + " GPUs, not " +
                                std::to_string(gpus));
}

}  // namespace

Schedule ring_schedule(int gpus) {
  check_gpus(gpus);
  Schedule s;
  s.algorithm = Algorithm::Ring;
  s.gpus = gpus;
  s.chunks = gpus;
  const int n = gpus;
  for (int phase = 0; phase < 2; ++phase)
    for (int step = 0; step < n - 1; ++step) {
      Step st;
      st.phase = phase == 0 ? Phase::ReduceScatter : Phase::AllGather;
      for (int i = 0; i < n; ++i) {
        const int chunk = phase == 0 ? (i - step + n) % n : (i + 1 - step + n) % n;
        st.moves.push_back({i, (i + 1) % n, chunk, phase == 0});
      }
      s.steps.push_back(std::move(st));
    }
  return s;
}

Schedule tree_schedule(int gpus) {
  check_gpus(gpus);
  Schedule s;
  s.algorithm = Algorithm::Tree;
  s.gpus = gpus;
  s.chunks = 1;
  std::vector<Step> reduce;
  for (int stride = 1; stride < gpus; stride *= 2) {
    Step st;
    st.phase = Phase::Reduce;
    for (int i = stride; i < gpus; i += 2 * stride) st.moves.push_back({i, i - stride, 0, true});
    reduce.push_back(std::move(st));
  }
  s.steps = reduce;
  for (auto it = reduce.rbegin(); it != reduce.rend(); ++it) {
    Step st;
    st.phase = Phase::Broadcast;
    for (const ChunkMove& m : it->moves) st.moves.push_back({m.dst_gpu, m.src_gpu, 0, false});
    s.steps.push_back(std::move(st));
  }
  return s;
}

Schedule make_schedule(Algorithm a, int gpus) {
  return a == Algorithm::Ring ? ring_schedule(gpus) : tree_schedule(gpus);
}

Range chunk_range(std::int64_t length, int chunks, int c) {
  if (chunks < 1 || c < 0 || c >= chunks)
    throw std::invalid_argument("chunk " + std::to_string(c) + " of " + std::to_string(chunks) + " does not exist");
  const std::int64_t base = length / chunks, extra = length % chunks;
  Range r;
  r.begin = c * base + std::min<std::int64_t>(c, extra);
  r.end = r.begin + base + (c < extra ? 1 : 0);
  return r;
}

void apply_schedule(const Schedule& s, std::vector<std::vector<float>>& buffers, int steps) {
  if (int(buffers.size()) != s.gpus)
    throw std::invalid_argument("the schedule is for " + std::to_string(s.gpus) + " GPUs, " +
                                std::to_string(buffers.size()) + " buffers given");
  for (const auto& b : buffers)
    if (b.size() != buffers[0].size()) throw std::invalid_argument("every GPU's vector must have one length");
  const std::int64_t length = std::int64_t(buffers.empty() ? 0 : buffers[0].size());
  const int last = steps < 0 ? int(s.steps.size()) : std::min(steps, int(s.steps.size()));
  for (int k = 0; k < last; ++k) {
    const Step& st = s.steps[k];
    // Every sender's chunk as it was before the step: the moves of one step run at the same time.
    std::vector<std::vector<float>> sent;
    sent.reserve(st.moves.size());
    for (const ChunkMove& m : st.moves) {
      const Range r = chunk_range(length, s.chunks, m.chunk);
      sent.emplace_back(buffers[m.src_gpu].begin() + r.begin, buffers[m.src_gpu].begin() + r.end);
    }
    for (std::size_t j = 0; j < st.moves.size(); ++j) {
      const ChunkMove& m = st.moves[j];
      const Range r = chunk_range(length, s.chunks, m.chunk);
      float* dst = buffers[m.dst_gpu].data() + r.begin;
      for (std::int64_t e = 0; e < r.end - r.begin; ++e) dst[e] = m.add ? dst[e] + sent[j][e] : sent[j][e];
    }
  }
}

std::int64_t elements_sent(const Schedule& s, std::int64_t length, int gpu) {
  std::int64_t total = 0;
  for (const Step& st : s.steps)
    for (const ChunkMove& m : st.moves)
      if (m.src_gpu == gpu) {
        const Range r = chunk_range(length, s.chunks, m.chunk);
        total += r.end - r.begin;
      }
  return total;
}

double algorithm_bandwidth_gbs(std::int64_t bytes, double ms) { return ms > 0 ? double(bytes) / (ms * 1e6) : 0.0; }

double bus_bandwidth_gbs(std::int64_t bytes, double ms, int gpus) {
  return gpus < 1 ? 0.0 : algorithm_bandwidth_gbs(bytes, ms) * 2.0 * (gpus - 1) / gpus;
}

}  // namespace ws::collective
