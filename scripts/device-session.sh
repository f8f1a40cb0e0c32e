#!/usr/bin/env bash
# Everything a session's changes need on the GPU machine, in two back-to-back `device` calls (carry
# .deps; the second call must find the first one's build, so make it within the machine's warm time):
#   bash scripts/device-session.sh tests   build (preset device: CLI, GPU tests, metrics bench) and every
#                                          GPU test (ws_gpu_tests, the binary behind ctest -L gpu)
#   bash scripts/device-session.sh bench   metrics cost and report, the kept-fraction and size sweeps,
#                                          a scan trace from the CLI, the scan benchmark tables
# Each phase packs its logs, reports and tables into $OUT/<phase>.tgz and prints a summary.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-$PWD/out}"; mkdir -p "$OUT"
phase="${1:-tests}"
W=$(mktemp -d)
cli=build-device/app/cli/warpscope-cli
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
if [ "$phase" = tests ]; then
  t0=$SECONDS
  cmake --preset device -DCMAKE_CUDA_ARCHITECTURES=90 > "$W/configure.log" 2>&1 || { tail -30 "$W/configure.log"; exit 1; }
  cmake --build --preset device -j "$(nproc)" --target warpscope-cli ws_gpu_tests ws_metrics_bench > "$W/build.log" 2>&1 \
    || { grep -E "error|Error" "$W/build.log" | head -40; exit 1; }
  echo "== build ok ($((SECONDS - t0)) s)"
  t0=$SECONDS
  timeout 420 build-device/tests/ws_gpu_tests > "$W/gpu-tests.log" 2>&1
  echo "== ws_gpu_tests: exit $? ($((SECONDS - t0)) s)"
  grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[ (gpu|warning)" "$W/gpu-tests.log" | cut -c1-220 | tail -90
  grep -B2 -A6 "Failure" "$W/gpu-tests.log" | cut -c1-220 | head -40
else
  OUT="$W/cost" WS_SKIP_BUILD=1 timeout 150 bash scripts/device-metrics-cost.sh > "$W/cost.log" 2>&1
  echo "== metrics cost: exit $?"; grep -E '"(in_process_default_median_later_ms|ncu_added_same_median_ms|ratio[a-z_]*)"' "$W/cost.log"
  mkdir -p "$W/metrics" && cp "$W/cost/metrics-cost.json" "$W/metrics/" 2>/dev/null
  OUT="$W/metrics" WS_SKIP_BUILD=1 WS_SKIP_TESTS=1 WS_SKIP_NCU=1 timeout 150 bash scripts/device-metrics.sh > "$W/metrics.log" 2>&1
  echo "== metrics report: exit $?"; tail -14 "$W/metrics.log" | cut -c1-220
  $cli trace --backend cuda --variant stevens.kogge_stone --n 1000 --exclusive --json 2>&1 | grep -oE '"(matches_model|difference)": *[^,]*' | head -2
  $cli trace --backend cuda --variant stevens.brent_kung --n 4097 --json 2>&1 | grep -oE '"(matches_model|difference)": *[^,]*' | head -2
  mkdir -p "$W/sweeps"
  OUT="$W/sweeps" WS_SWEEPS=keep timeout 150 bash scripts/device-sweeps.sh > "$W/sweep-keep.log" 2>&1; echo "== keep sweep: exit $?"; grep "==" "$W/sweep-keep.log"
  cat "$W/sweeps/sweep-keep.txt" 2>/dev/null | head -70
  OUT="$W/sweeps" WS_SWEEPS="scan atomics" WS_SWEEP_TO="${WS_SWEEP_TO:-26}" timeout 200 bash scripts/device-sweeps.sh > "$W/sweep-sizes.log" 2>&1
  echo "== size sweeps: exit $?"; grep -E "==|ok runs" "$W/sweep-sizes.log"
  OUT="$W/scan" WS_SKIP_BUILD=1 WS_SKIP_TESTS=1 timeout 150 bash scripts/device-scan.sh > "$W/scan.log" 2>&1; echo "== scan bench: exit $?"; tail -12 "$W/scan.log"
fi
tar czf "$OUT/$phase.tgz" -C "$W" --exclude='*.o' .
ls -la "$OUT"
