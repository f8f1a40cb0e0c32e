// What joins two GPUs, for the lesson "Reduction across GPUs" (issue 30): the link's name and its
// theoretical bandwidth (the `nvidia-smi topo -m` question, asked through the CUDA runtime's peer
// attributes and, where the driver's NVML library loads, its NVLink state), and the measured bandwidth of
// a peer copy between them.
#pragma once
#include <cstdint>
#include <string>

namespace ws::cuda::collective {

/// The link from GPU a to GPU b. name: "NVLink x18" (NVML found active NVLinks on GPU a), "PCIe" (peer
/// access, NVML loaded, no active NVLink), "no peer access" or "unknown (...)" saying what could not be
/// read. gbs: theoretical bandwidth in one direction, GB/s (1e9 bytes/s): active links x the per-link rate of
/// the GPU's NVLink generation (25 GB/s per direction for NVLink 2 to 4, Volta to Hopper; 50 for NVLink 5,
/// Blackwell: NVIDIA's data sheets); 0 when unknown (PCIe included: its generation and width are not read).
/// Where the links go to an NVSwitch (HGX boards), every link of GPU a serves any peer, so the count is
/// GPU a's. Never throws.
struct Link {
  std::string name;
  double gbs = 0;
};
Link link_between(int a, int b);

/// Measured bandwidth of cudaMemcpyPeerAsync of `bytes` from GPU `src` to GPU `dst`, GB/s: `warmup`
/// untimed copies, then the median of `repeats` copies timed with events on the source GPU's stream.
/// Throws std::runtime_error on a CUDA error (out of memory included).
double peer_copy_gbs(int src, int dst, std::int64_t bytes, int warmup, int repeats);

}  // namespace ws::cuda::collective
