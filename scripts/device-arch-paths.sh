#!/usr/bin/env bash
# The GPU machine (carry .deps): builds the Hopper preset and the one whose kernels take their
# pre-sm_80 (Turing) paths (device-pre-sm80, WS_FORCE_PRE_SM80=ON), and runs every GPU test with each,
# so the code a Turing GPU runs is checked against the CPU reference on the GPU we have.
#   bash scripts/device-arch-paths.sh build|pre|main      logs under $OUT
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-$PWD/out}"
mkdir -p "$OUT"
step="${1:-all}"
build() {  # preset
  cmake --preset "$1" > "$OUT/configure-$1.log" 2>&1 || { tail -30 "$OUT/configure-$1.log"; return 1; }
  cmake --build --preset "$1" -j "$(nproc)" > "$OUT/build-$1.log" 2>&1 || { grep -E "error" "$OUT/build-$1.log" | head -40; return 1; }
  echo "== built $1"
}
tests() {  # build dir, log name
  "$1/tests/ws_gpu_tests" > "$OUT/$2.log" 2>&1
  local rc=$?
  echo "== $1/tests/ws_gpu_tests: exit $rc"
  grep -E "^\[  PASSED|^\[  FAILED|^\[  SKIPPED|tests ran|ArchPaths|\[ gpu \] (cs121.filter_scan_vec|stevens.conv2d_tiled_coarse)" "$OUT/$2.log" | head -40
}
case "$step" in
  build) nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
         build device-pre-sm80 && build device ;;
  pre)   tests build-device-pre-sm80 gpu-tests-pre-sm80 ;;
  main)  tests build-device gpu-tests ;;
  all)   "$0" build && "$0" pre && "$0" main ;;
esac
