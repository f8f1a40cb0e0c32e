#!/usr/bin/env bash
# One-step set-up on a fresh Debian 12 machine: install the packages warpscope needs (apt, by name),
# then configure and build with a CMake preset (default: "default"; CI uses "ci": one CUDA architecture).
# The CUDA toolkit (nvcc, CUB, CUPTI) is optional: found on PATH or at /usr/local/cuda, the kernels
# build too (sm_75 to sm_90 plus PTX); without it the same preset builds core, CLI and GUI, which run
# the lessons in simulation and replay recorded reports.
set -euo pipefail
preset="${1:-default}"
cd "$(dirname "$0")/.."
# `setup.sh web`: the browser build into build-web/ (Emscripten; scripts/setup-web.sh).
if [ "$preset" = web ]; then exec bash scripts/setup-web.sh; fi

packages=(cmake ninja-build g++ pkg-config git
          nlohmann-json3-dev libcli11-dev libgtest-dev
          libglfw3-dev libimgui-dev libstb-dev libgif-dev libegl-dev libgl-dev libegl-mesa0 libgl1-mesa-dri
          xvfb xauth fonts-dejavu-core
          dpkg-dev file)  # cpack -G DEB: dpkg-shlibdeps finds the Debian packages of the linked libraries
# CI also fuzzes (scripts/fuzz.sh): libFuzzer comes with Debian's clang; clang-format for scripts/format.sh.
if [ "$preset" = ci ]; then packages+=(clang libclang-rt-14-dev clang-format); fi
# The scripts' own tests (ctest scripts_sanitizer_parse) and scripts/*.py; python3-jsonschema checks every
# JSON output kind against docs/warpscope.schema.json (ctest cli_json_schema); help2man makes the man pages.
packages+=(python3 python3-jsonschema help2man)
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

arch=()
if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "setup: no CUDA toolkit (nvcc) found: building without the CUDA backend (lessons run in simulation and replay recorded GPU reports)"
elif [ "$preset" = default ]; then
  # The toolkit but no GPU (a laptop, a CI machine): the kernels cannot run here, so they are compiled once,
  # to PTX for sm_90, not five times (a third of the time on two cores). Where a GPU is visible, the
  # default list again (a build/ made without a GPU forgets its PTX-only setting).
  if ! nvidia-smi -L >/dev/null 2>&1; then
    echo "setup: no NVIDIA GPU visible: the kernels are compiled to PTX only (they cannot run here; the lessons run in simulation); on a machine with a GPU, run setup.sh again"
    arch=(-DCMAKE_CUDA_ARCHITECTURES=90-virtual)
  elif grep -qx 'CMAKE_CUDA_ARCHITECTURES:STRING=90-virtual' build/CMakeCache.txt 2>/dev/null; then
    arch=(-UCMAKE_CUDA_ARCHITECTURES)
  fi
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! cmake --preset "$preset" "${arch[@]}" >"$log" 2>&1; then
  cat "$log"
  echo "setup: configuring preset '$preset' failed (output above)" >&2
  exit 1
fi
grep -E '^-- warpscope:' "$log" | sed 's/^-- /setup: /' || true
cmake --build --preset "$preset" -j "$(nproc)"
echo "setup: built preset '$preset'"
