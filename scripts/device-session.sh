#!/usr/bin/env bash
# Everything a session's changes need on the GPU machine, in two `device` calls (carry .deps):
#   bash scripts/device-session.sh tests   build (preset device), every GPU test (ctest -L gpu), the
#                                          metrics cost and the metrics report
#   bash scripts/device-session.sh bench   scan, convolution and sweep benchmarks (build already there)
# Each phase packs its logs, reports and tables into $OUT/<phase>.tgz and prints a summary.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-$PWD/out}"; mkdir -p "$OUT"
phase="${1:-tests}"
W=$(mktemp -d); export OUT_REAL="$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
if [ "$phase" = tests ]; then
  cmake --preset device -DCMAKE_CUDA_ARCHITECTURES=90 > "$W/configure.log" 2>&1 || { tail -30 "$W/configure.log"; exit 1; }
  cmake --build --preset device -j "$(nproc)" > "$W/build.log" 2>&1 || { grep -E "error|Error" "$W/build.log" | head -40; exit 1; }
  echo "== build ok"
  (cd build-device && timeout 330 ctest -L gpu --output-on-failure -j 1 --timeout 300) > "$W/gpu-tests.log" 2>&1
  echo "== ctest -L gpu: exit $?"
  grep -E "tests passed|tests failed|\(Failed\)|\[ gpu|\[  FAILED" "$W/gpu-tests.log" | tail -70
  OUT="$W/cost" WS_SKIP_BUILD=1 bash scripts/device-metrics-cost.sh > "$W/cost.log" 2>&1
  echo "== metrics cost: exit $?"; grep -E '"(in_process_default_median_later_ms|ncu_added_same_median_ms|ratio[a-z_]*)"' "$W/cost.log"
  mkdir -p "$W/metrics" && cp "$W/cost/metrics-cost.json" "$W/metrics/" 2>/dev/null
  OUT="$W/metrics" WS_SKIP_BUILD=1 WS_SKIP_TESTS=1 WS_SKIP_NCU=1 bash scripts/device-metrics.sh > "$W/metrics.log" 2>&1
  echo "== metrics report: exit $?"; tail -14 "$W/metrics.log"
else
  OUT="$W/scan" WS_SKIP_TESTS=1 bash scripts/device-scan.sh > "$W/scan.log" 2>&1; echo "== scan bench: exit $?"; tail -12 "$W/scan.log"
  OUT="$W/conv" WS_SKIP_BUILD=1 bash scripts/device-conv.sh > "$W/conv.log" 2>&1; echo "== conv bench: exit $?"; tail -24 "$W/conv.log"
  if [ -f scripts/device-sweeps.sh ]; then
    OUT="$W/sweeps" WS_SKIP_BUILD=1 bash scripts/device-sweeps.sh > "$W/sweeps.log" 2>&1; echo "== sweeps: exit $?"; tail -30 "$W/sweeps.log"
  fi
fi
tar czf "$OUT/$phase.tgz" -C "$W" --exclude='*.o' .
ls -la "$OUT"
