#!/usr/bin/env bash
# The scan lesson on the GPU machine, in one `device` call (see device-check.sh for the machine and the
# .deps to carry). Builds preset device, runs the scan GPU tests (ctest --preset gpu -R scan), then
# benchmarks the scans that take n = 2^28 int32 with cub.scan in the same run, inclusive and exclusive,
# and writes logs, the reports and Markdown tables under $OUT.
# Bar: best scan >= 0.9x cub.scan at 2^28 int32.
# WS_SKIP_TESTS=1: benchmark only; WS_SKIP_BENCH=1: tests only; WS_BENCH_N, WS_BENCH_REPEAT as device-check.sh.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-$PWD/out}"
mkdir -p "$OUT"
N="${WS_BENCH_N:-2^28}"
REPEAT="${WS_BENCH_REPEAT:-20}"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee "$OUT/gpu.txt"

if [ "${WS_SKIP_BUILD:-0}" != 1 ]; then  # WS_SKIP_BUILD=1: use build-device/ as it is
  cmake --preset device -DCMAKE_CUDA_ARCHITECTURES=90 > "$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
  cmake --build --preset device -j "$(nproc)" > "$OUT/build.log" 2>&1 || { grep -E "error|Error" "$OUT/build.log" | head -40; exit 1; }
  echo "== build ok"
fi
cli=build-device/app/cli/warpscope-cli
$cli device | tee "$OUT/device.txt"

if [ "${WS_SKIP_TESTS:-0}" != 1 ]; then
  ctest --preset gpu -R "[Ss]can" --timeout 600 > "$OUT/gpu-scan-tests.log" 2>&1
  echo "== scan gpu tests: exit $?"
  grep -E "tests passed|tests failed|\(Failed\)|\[ gpu" "$OUT/gpu-scan-tests.log" | tail -40
  (cd build-device && ctest -L unit -R "[Ss]can" --output-on-failure -j 8) > "$OUT/unit-scan-tests.log" 2>&1
  echo "== scan unit tests on the device: exit $?"; tail -3 "$OUT/unit-scan-tests.log"
fi

[ "${WS_SKIP_BENCH:-0}" = 1 ] && exit 0  # tests only (a second call can run the benchmark with WS_SKIP_TESTS=1)
gpu_name=$($cli device --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["name"].replace("NVIDIA ","").replace(" ","-").lower())')
ids="stevens.scan_hierarchical,scan.decoupled_lookback,cub.scan"
for mode in inclusive exclusive; do
  flag=""; [ "$mode" = exclusive ] && flag="--exclusive"
  report="$OUT/${gpu_name}-scan-${mode}.json"
  $cli report --force --variants "$ids" --n "$N" --repeat "$REPEAT" $flag \
    --title "Scans ($mode), n = $N int32, $gpu_name" --out "$report" 2> "$OUT/bench-scan-${mode}.log"
  echo "== scan benchmark ($mode): exit $? -> $report"
  python3 scripts/bench_table.py "$report" cub.scan | tee "$OUT/bench-scan-${mode}.md"
done
# The decoupled look-back at its other block sizes (tile = block x 16), against the same cub.scan.
for b in 128 512; do
  $cli run --variant scan.decoupled_lookback --n "$N" --repeat "$REPEAT" --block "$b" | tee -a "$OUT/bench-scan-blocks.txt"
done
