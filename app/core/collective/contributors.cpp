#include "collective/contributors.hpp"

#include <stdexcept>

namespace ws::collective {

std::vector<std::vector<GpuMask>> contributors_after(const Schedule& s, int k) {
  if (k < 0 || k > int(s.steps.size()))
    throw std::invalid_argument("step " + std::to_string(k) + " is outside 0.." + std::to_string(s.steps.size()));
  std::vector<std::vector<GpuMask>> held(s.gpus, std::vector<GpuMask>(s.chunks));
  for (int g = 0; g < s.gpus; ++g)
    for (int c = 0; c < s.chunks; ++c) held[g][c] = GpuMask(1u << g);
  for (int step = 0; step < k; ++step) {
    const Step& st = s.steps[step];
    std::vector<GpuMask> sent;
    sent.reserve(st.moves.size());
    for (const ChunkMove& m : st.moves) sent.push_back(held[m.src_gpu][m.chunk]);
    for (std::size_t j = 0; j < st.moves.size(); ++j) {
      const ChunkMove& m = st.moves[j];
      GpuMask& dst = held[m.dst_gpu][m.chunk];
      dst = m.add ? GpuMask(dst | sent[j]) : sent[j];
    }
  }
  return held;
}

GpuMask all_gpus_mask(int gpus) { return GpuMask((1u << gpus) - 1u); }

std::string mask_text(GpuMask m, int gpus) {
  if (m == 0) return "-";
  if (gpus >= 1 && gpus <= kMaxGpus && m == all_gpus_mask(gpus)) return "all";
  std::string out;
  for (int g = 0; g < kMaxGpus; ++g)
    if (m & (1u << g)) out += (out.empty() ? "" : "+") + std::to_string(g);
  return out;
}

}  // namespace ws::collective
