#!/usr/bin/env bash
# One-step set-up on a fresh Debian 12 machine: install the packages warpscope needs (apt, by name),
# then configure and build with a CMake preset (default: "default"; CI uses "ci": one CUDA architecture).
# The CUDA toolkit (nvcc, CUB, CUPTI) is optional: found at /usr/local/cuda, the kernels build too.
set -euo pipefail
preset="${1:-default}"
cd "$(dirname "$0")/.."

packages=(cmake ninja-build g++ pkg-config git
          nlohmann-json3-dev libcli11-dev libgtest-dev
          libglfw3-dev libimgui-dev libstb-dev libegl-dev libgl-dev libegl-mesa0 libgl1-mesa-dri
          xvfb xauth fonts-dejavu-core)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j "$(nproc)"
echo "setup: built preset '$preset'"
