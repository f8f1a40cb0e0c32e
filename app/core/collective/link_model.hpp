// The machine the all-reduce sim models (issue 30): an alpha-beta cost model of the links between GPUs,
// their memory and NCCL's achieved bandwidth. collective/allreduce_sim.hpp turns it into times.
//
// Alpha-beta (Hockney, "The communication challenge for MPP: Intel Paragon and Meiko CS-2", Parallel
// Computing 1994; used for all-reduce by Thakur, Rabenseifner and Gropp, "Optimization of collective
// communication operations in MPICH", IJHPCA 2005): sending m bytes over one link costs alpha + m / beta.
// Here alpha is one step's fixed cost (launches, waits) and beta the bandwidth one peer copy reaches.
#pragma once
#include <string>

namespace ws::collective {

/// Every number the sim needs. Units: microseconds (us) and GB/s (1e9 bytes per second, as
/// schedule.hpp's bandwidths). Each default says where it comes from: "measured" numbers are the issue's
/// (2 x H200, NV18, NCCL 2.28.9, 2026-11-27) or a bundled report's; "datasheet" numbers are NVIDIA's;
/// "estimate" numbers are ours and wait for the GPU run to replace them (docs/collective.md).
struct LinkModel {
  std::string name;          ///< the link as the table shows it: "NVLink 4 x18", "PCIe 5 x16"
  double link_gbs = 0;       ///< theoretical bandwidth of one GPU's link, one direction
  double peer_gbs = 0;       ///< beta of the hand-written steps: what one cudaMemcpyPeerAsync reaches
  double step_alpha_us = 0;  ///< alpha of host_add / peer_to_gpu0: a launch and a wait
  /// Alpha of a hand-written ring or tree step = step_gpu_us x GPUs + step_move_us x the step's chunk moves:
  /// the host issues every GPU's copies, adds and cross-stream waits of a step in turn.
  double step_gpu_us = 0;
  double step_move_us = 0;
  double nccl_ring_busbw_gbs = 0;  ///< NCCL ring's bus bandwidth on large messages
  double nccl_tree_busbw_gbs = 0;  ///< NCCL tree's bus bandwidth on large messages
  double nccl_alpha_us = 0;        ///< NCCL's fixed cost per algorithm step (its kernels fuse copy and add)
  double hbm_gbs = 0;              ///< what a streaming kernel (the add, the local reduction) reaches in HBM
  double host_sync_us = 0;         ///< a device-to-host copy of one value and the wait for it (HostAdd)
};

/// NVLink 4 on an H100/H200 node (NVSwitch: every GPU has its own 18 links, so pairs in one step do not
/// share bandwidth).
///   link_gbs 450: datasheet, 18 links x 25 GB/s per direction (NVIDIA H100/H200 "NVLink 900 GB/s", both
///     directions).
///   peer_gbs 390: measured, cudaMemcpyPeerAsync of 256 MiB in 0.688 ms (issue 30).
///   nccl_ring_busbw_gbs 300, nccl_tree_busbw_gbs 309: measured, ncclAllReduce of 64 Mi floats on two GPUs,
///     NCCL_ALGO=Ring and Tree (issue 30; with two GPUs busbw = algbw). More GPUs: the same figures, an
///     extrapolation the 4-GPU run will check.
///   hbm_gbs 3995: measured, the device-to-device copy of assets/reports/nvidia-h200.json (device.copy_gbps;
///     datasheet 4.8 TB/s).
///   step_gpu_us 5, step_move_us 6: measured, fitted (least squares) to the hand-written steps of the bundled
///     sweeps at 4 KiB..1 MiB per GPU, where alpha is all of a step (assets/allreduce/nvidia-h200x{2,4}-sweep.json:
///     mean step 18.0 us ring / 12.5 us tree on 2 GPUs, 47.2 / 31.0 us on 4; the fit gives 22 / 16 and 44 / 29).
///   step_alpha_us 10, nccl_alpha_us 5, host_sync_us 10: estimates (a CUDA launch or a small copy costs a few
///     microseconds).
LinkModel nvlink4_model();

/// PCIe 5 x16 between GPUs without NVLink (peer copies through the PCIe switch or root complex).
///   link_gbs 64: PCIe 5.0, 32 GT/s x 16 lanes with 128b/130b encoding = 63 GB/s per direction, rounded.
///   peer_gbs 50, nccl busbw 45 (ring and tree): estimates, about 80 % and 70 % of the link.
///   step_alpha_us 15, nccl_alpha_us 8, host_sync_us 10: estimates. step_gpu_us, step_move_us and hbm_gbs as
///     nvlink4_model's (host-side costs).
LinkModel pcie5_model();

/// The model named "nvlink4" or "pcie5"; false (out untouched) for any other name.
bool link_model_by_name(const std::string& name, LinkModel& out);

}  // namespace ws::collective
