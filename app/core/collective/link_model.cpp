#include "collective/link_model.hpp"

namespace ws::collective {

LinkModel nvlink4_model() {
  LinkModel m;
  m.name = "NVLink 4 x18";
  m.link_gbs = 450;
  m.peer_gbs = 390;
  m.step_alpha_us = 10;
  m.step_gpu_us = 5;
  m.step_move_us = 6;
  m.nccl_ring_busbw_gbs = 300;
  m.nccl_tree_busbw_gbs = 309;
  m.nccl_alpha_us = 5;
  m.hbm_gbs = 3995;
  m.host_sync_us = 10;
  return m;
}

LinkModel pcie5_model() {
  LinkModel m;
  m.name = "PCIe 5 x16";
  m.link_gbs = 64;
  m.peer_gbs = 50;
  m.step_alpha_us = 15;
  m.step_gpu_us = 5;
  m.step_move_us = 6;
  m.nccl_ring_busbw_gbs = 45;
  m.nccl_tree_busbw_gbs = 45;
  m.nccl_alpha_us = 8;
  m.hbm_gbs = 3995;
  m.host_sync_us = 10;
  return m;
}

bool link_model_by_name(const std::string& name, LinkModel& out) {
  if (name == "nvlink4") {
    out = nvlink4_model();
    return true;
  }
  if (name == "pcie5") {
    out = pcie5_model();
    return true;
  }
  return false;
}

}  // namespace ws::collective
