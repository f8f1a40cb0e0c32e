// The environment of the remote tests: the far side runs this build's CLI, and srun finds the local
// cluster's slurm.conf (scripts/local-cluster.sh keeps it in its state folder).
#pragma once
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace ws {

/// Sets $WARPSCOPE_REMOTE_CLI (to `cli`) and $SLURM_CONF (to $WS_CLUSTER_DIR or
/// /tmp/warpscope-cluster-UID, where it holds a slurm.conf) unless they are set already.
inline void set_remote_test_env(const char* cli) {
  ::setenv("WARPSCOPE_REMOTE_CLI", cli, 0);
  if (std::getenv("SLURM_CONF")) return;
  const char* dir_env = std::getenv("WS_CLUSTER_DIR");
  const std::string dir = dir_env && *dir_env ? dir_env : "/tmp/warpscope-cluster-" + std::to_string(::getuid());
  if (std::filesystem::exists(dir + "/slurm.conf")) ::setenv("SLURM_CONF", (dir + "/slurm.conf").c_str(), 1);
}

}  // namespace ws
