#!/usr/bin/env bash
# Stall reasons per source line (CUPTI PC Sampling API) on the GPU machine, in one `device` call. Carry
# .deps as for scripts/device-check.sh. Builds the GPU tests and the CLI, runs the GpuPcSampling tests
# (one process each), prints `run --metrics pcsampling` for the lesson variants whose stalls the
# lessons talk about, and records them into a report for the GUI. Logs and the report go under $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-$PWD/out}"
mkdir -p "$OUT"
N="${WS_PCSAMP_N:-2^24}"
nvidia-smi --query-gpu=name,driver_version --format=csv | tee "$OUT/gpu.txt"

cmake --preset device -DCMAKE_CUDA_ARCHITECTURES=90 > "$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
cmake --build --preset device -j16 --target ws_gpu_tests warpscope-cli > "$OUT/build.log" 2>&1 ||
  { grep -E "error|Error" "$OUT/build.log" | head -40; exit 1; }
echo "== build ok"
cli=build-device/app/cli/warpscope-cli

(cd build-device && ctest -R GpuPcSampling -V --timeout 300) > "$OUT/pcsampling-tests.log" 2>&1
echo "== GpuPcSampling tests: exit $?"
grep -E "tests passed|tests failed|\(Failed\)|Failure|Expected|Which is|actual|\[ gpu|\[ warning|Passed|error" \
  "$OUT/pcsampling-tests.log" | sed 's/^[0-9]*: //' | head -120

echo "== CLI: run --variant harris.impl1 --n $N --metrics pcsampling --json"
$cli run --variant harris.impl1 --n "$N" --metrics pcsampling --json > "$OUT/cli-harris.impl1.json" 2> "$OUT/cli-harris.impl1.err"
echo "exit $?"; head -c 600 "$OUT/cli-harris.impl1.err"
python3 - "$OUT/cli-harris.impl1.json" <<'PY'
import json, sys
try:
    j = json.load(open(sys.argv[1]))
except Exception as e:
    sys.exit(f"not JSON: {e}")
run = j[0] if isinstance(j, list) else j.get("runs", [j])[0] if "runs" in j else j
m = run.get("metrics", {})
print("status", run.get("status"), "| error:", m.get("error"), "| warnings:", m.get("warnings"))
p = m.get("pc_sampling")
if not p:
    sys.exit("no pc_sampling in the JSON")
print("period 2^%d, CUPTI total %.0f, dropped %.0f" % (p["period_log2"], p["hardware_samples"], p["dropped_samples"]))
for k in p["kernels"]:
    print(f"kernel {k['kernel']}: {k['samples']:.0f} samples, {k['unmapped_samples']:.0f} without a line")
    print("  reasons:", ", ".join(f"{r['reason']} {100*r['samples']/k['samples']:.1f}%" for r in k["reasons"][:8]))
PY

for v in harris.impl1 epita.reduce2 epita.reduce0 epita.reduce6 harris.impl3 stevens.conv1d_tiled; do
  echo "== CLI: run --variant $v --n $N --metrics pcsampling"
  $cli run --variant "$v" --n "$N" --metrics pcsampling > "$OUT/cli-$v.txt" 2>&1
  echo "exit $?"; sed -n '/stalls (PC sampling/,$p' "$OUT/cli-$v.txt" | head -30
done

echo "== CLI: run --variant harris.impl2 --n $N --metrics default,pcsampling (all three passes)"
$cli run --variant harris.impl2 --n "$N" --metrics default,pcsampling > "$OUT/cli-default-pcsampling.txt" 2>&1
echo "exit $?"; grep -E "pass|pcsampling|stalls|kernel|warning|note" "$OUT/cli-default-pcsampling.txt" | head -20

echo "== report: every reduction with --metrics pcsampling at n = $N"
timeout 300 $cli report --force --variants reduction --n "$N" --repeat 3 --metrics pcsampling \
  --title "Stall reasons per line (PC sampling), n = $N int32" --out "$OUT/pcsampling-report.json" > "$OUT/report.log" 2>&1
echo "exit $? -> $OUT/pcsampling-report.json"; tail -3 "$OUT/report.log"
