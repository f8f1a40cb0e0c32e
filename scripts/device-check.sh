#!/usr/bin/env bash
# The device workflow, in one `device` call (the GPU machine: Ubuntu 24.04, nvcc, cmake, ninja; no
# package registry). Carry .deps (Debian's nlohmann-json3-dev, libcli11-dev, libgtest-dev extracted with
# dpkg -x, see README). Builds core, CLI and kernels, runs the GPU tests, benchmarks every reduction at
# n = 2^28 int32 with cub.reduce in the same run, records the step trace of block 0 of every traceable
# variant on the GPU (compared with the sim model), and writes logs and the report under $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-$PWD/out}"
mkdir -p "$OUT"
N="${WS_BENCH_N:-2^28}"
REPEAT="${WS_BENCH_REPEAT:-20}"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee "$OUT/gpu.txt"

cmake --preset device -DCMAKE_CUDA_ARCHITECTURES=90 > "$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
cmake --build --preset device -j "$(nproc)" > "$OUT/build.log" 2>&1 || { grep -E "error|Error" "$OUT/build.log" | head -40; exit 1; }
echo "== build ok"

cli=build-device/app/cli/warpscope-cli
$cli device | tee "$OUT/device.txt"

if [ "${WS_SKIP_TESTS:-0}" != 1 ]; then
  (cd build-device && ctest -L gpu --output-on-failure -j 1 --timeout 300) > "$OUT/gpu-tests.log" 2>&1
  echo "== gpu tests: exit $?"
  grep -E "tests passed|tests failed|\(Failed\)|\[ gpu" "$OUT/gpu-tests.log" | tail -60
  (cd build-device && ctest -L unit --output-on-failure -j 8) > "$OUT/unit-tests.log" 2>&1
  echo "== unit tests on the device: exit $?"; tail -3 "$OUT/unit-tests.log"
fi

gpu_name=$($cli device --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["name"].replace("NVIDIA ","").replace(" ","-").lower())')
report="$OUT/${gpu_name}.json"
$cli report --force --variants reduction --n "$N" --repeat "$REPEAT" --traces 1024 --title "All reductions, n = $N int32, $gpu_name (with GPU-recorded step traces, block 0 of n = 1024)" --out "$report" 2> "$OUT/bench.log"
echo "== benchmark: exit $? -> $report"
python3 scripts/bench_table.py "$report" | tee "$OUT/bench-table.md"
