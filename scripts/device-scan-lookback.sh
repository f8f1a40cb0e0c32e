#!/usr/bin/env bash
# Tuning run of scan.decoupled_lookback against cub.scan (bar: >= 0.9x at 2^28 int32), after a
# build of warpscope-cli and ws_gpu_tests in build-device (see device-scan.sh for the full lesson run).
# Runs the scan GPU tests, then one report per block size with both variants in the same process,
# inclusive and exclusive, and prints one table row per variant and mode. Results: docs/device/h200-scan-lookback.md.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-$PWD/out}"
mkdir -p "$OUT"
N="${WS_BENCH_N:-2^28}"
REPEAT="${WS_BENCH_REPEAT:-20}"
cli=build-device/app/cli/warpscope-cli
timeout 120 build-device/tests/ws_gpu_tests --gtest_filter='*Scan*' > "$OUT/gpu-scan-tests.log" 2>&1
echo "== scan gpu tests: exit $?"; grep -E "^\[  (PASSED|FAILED) |tests ran" "$OUT/gpu-scan-tests.log" | tail -8

# bench TAG MODES [report options...]: rows "TAG MODE | variant | block x grid | ms | GB/s | % | x CUB | check |"
bench() {
  local tag=$1 modes=$2; shift 2
  for m in $modes; do
    local f=""; [ "$m" = exc ] && f=--exclusive
    timeout 90 $cli report --force --variants scan.decoupled_lookback,cub.scan --n "$N" --repeat "$REPEAT" $f \
      --out "$OUT/$tag-$m.json" "$@" > /dev/null 2> "$OUT/$tag-$m.log" || { echo "$tag $m: report failed"; tail -3 "$OUT/$tag-$m.log"; continue; }
    python3 scripts/bench_table.py "$OUT/$tag-$m.json" cub.scan | grep -E "^\| (scan|cub)" | sed "s/^/$tag $m /"
  done
}
bench b256 "inc exc"
bench b512 "inc exc" --block 512
bench b128 "inc" --block 128
