#!/usr/bin/env bash
# Sweeps of every 1-D lesson on the GPU machine, in one `device` call. Carry .deps (see
# README). Builds warpscope-cli (preset device), then `warpscope-cli sweep` on the cuda backend, each run
# checked against the CPU reference and timed, GB/s from each pattern's bytes:
#   scans (the stevens lesson, scan.decoupled_lookback, cub.scan) at n = 2^10 .. 2^28 int32;
#   histograms and filters (cs121, cub.histogram, cub.select) at 2^10 .. 2^28 (filters keep half);
#   1-D convolutions at 2^10 .. 2^28 float32 (mask 5; the 2-D ones are left out, with a note);
#   the filters against the fraction kept 0, 0.1, .., 1 at n = 2^24 (the slide's "Performance" plot).
# Everything goes to $OUT: sweep-<name>.txt (tables), sweep-<name>.json (reports, openable in the GUI's
# Plots tab) and sweeps.log. WS_SWEEP_FROM / WS_SWEEP_TO (exponents), WS_KEEP_N, WS_SWEEP_REPEAT;
# WS_SWEEPS="scan atomics conv keep" picks which to run (to split the work over several calls).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-$PWD/out}"
mkdir -p "$OUT"
FROM="${WS_SWEEP_FROM:-10}"
TO="${WS_SWEEP_TO:-28}"
KEEP_N="${WS_KEEP_N:-2^24}"
REPEAT="${WS_SWEEP_REPEAT:-10}"
SWEEPS="${WS_SWEEPS:-scan atomics conv keep}"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee "$OUT/gpu.txt"

cmake --preset device -DCMAKE_CUDA_ARCHITECTURES=90 > "$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
cmake --build --preset device -j "$(nproc)" --target warpscope-cli > "$OUT/build.log" 2>&1 || { grep -E "error|Error" "$OUT/build.log" | head -40; exit 1; }
echo "== build ok"
cli=build-device/app/cli/warpscope-cli
$cli device | tee "$OUT/device.txt"

status=0
sweep() {  # name, then warpscope-cli sweep arguments
  local name=$1
  shift
  local t0=$SECONDS
  $cli sweep "$@" --repeat "$REPEAT" --out "$OUT/sweep-$name.json" --force > "$OUT/sweep-$name.txt" 2>> "$OUT/sweeps.log"
  local rc=$?
  [ $rc = 0 ] || status=1
  echo "== sweep $name: exit $rc, $((SECONDS - t0)) s -> $OUT/sweep-$name.txt"
  grep -cE " ok$" "$OUT/sweep-$name.txt" | sed 's/^/   ok runs: /'
  grep -vE " ok$| skipped|^variant|^n = |takes n <=" "$OUT/sweep-$name.txt" | head -20
}
for s in $SWEEPS; do
  case $s in
    scan) sweep scan --variants scan --from "$FROM" --to "$TO" --title "Scans, n = 2^$FROM..2^$TO int32" ;;
    atomics) sweep atomics --variants atomics --from "$FROM" --to "$TO" --title "Histograms and filters (half kept), n = 2^$FROM..2^$TO" ;;
    conv) sweep conv --variants convolution --from "$FROM" --to "$TO" --title "1-D convolutions, mask 5, n = 2^$FROM..2^$TO float32" ;;
    keep) sweep keep --variants all --keep-fraction 0:1:0.1 --n "$KEEP_N" --title "Filters against the fraction kept, n = $KEEP_N int32" ;;
    *) echo "unknown sweep '$s' (scan, atomics, conv, keep)"; status=1 ;;
  esac
done
exit $status
