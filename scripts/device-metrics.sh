#!/usr/bin/env bash
# The CUPTI metrics on the GPU machine, in one device call: build, the CUPTI metrics GPU tests, one CLI run
# with the default set, the ncu comparison and cost (scripts/metrics_vs_ncu.py), and a report of the
# lesson's kernels with metrics (assets/reports/<gpu>-metrics.json). Logs under $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-$PWD/out}"
mkdir -p "$OUT"
if [ "${WS_SKIP_BUILD:-0}" != 1 ]; then
  cmake --preset device > "$OUT/build.log" 2>&1 && cmake --build --preset device -j "$(nproc)" >> "$OUT/build.log" 2>&1 \
    || { grep -E "error|Error" "$OUT/build.log" | head -40; exit 1; }
  echo "== build ok"
fi
cli=build-device/app/cli/warpscope-cli
[ "${WS_SKIP_TESTS:-0}" = 1 ] || (cd build-device && timeout 400 ctest -L gpu ${WS_GPU_TESTS:+-R "$WS_GPU_TESTS"} --output-on-failure -j 1 --timeout 200) > "$OUT/gpu-tests.log" 2>&1
echo "== gpu tests: exit $?"
grep -E "tests passed|tests failed|\(Failed\)|\[ gpu|\[ warning|Failure|Expected|Which is|actual" "$OUT/gpu-tests.log" | head -80
timeout 120 $cli run --variant harris.impl2 --n 2^24 --block 256 --metrics default --json > "$OUT/impl2-default.json" 2>&1
echo "== cli default set: exit $?"
python3 - "$OUT/impl2-default.json" <<'PY'
import json, sys
try:
    j = json.load(open(sys.argv[1])); m = j["metrics"]
    print({k: m[k] for k in ("collected", "error", "passes", "profile_ms", "kernel", "occupancy_limiter", "warnings")})
    print(len(m["values"]), "values;", len(m["lines"]), "lines")
    for l in sorted(m["lines"], key=lambda l: -l["warp_instructions"])[:8]: print(l)
except Exception as e:
    print("bad json:", e, open(sys.argv[1]).read()[-800:])
PY
if [ "${WS_SKIP_NCU:-0}" != 1 ]; then
  timeout 300 python3 scripts/metrics_vs_ncu.py "$OUT" > "$OUT/ncu.log" 2>&1
  echo "== ncu comparison: exit $?"; tail -60 "$OUT/ncu.log"
fi
gpu_name=$($cli device --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["name"].replace("NVIDIA ","").replace(" ","-").lower())')
timeout 200 $cli report --force --variants harris.impl1,harris.impl2,harris.impl3,epita.reduce0,epita.reduce1,harris.impl7,cs121.hist_global,cs121.hist_shared,cs121.filter_global,cs121.filter_warp_agg,scan.decoupled_lookback,cub.scan --n 2^24 --block 256 \
  --repeat 10 --metrics default --title "CUPTI metrics, n = 2^24 int32, 256 threads, $gpu_name" --out "$OUT/nvidia-${gpu_name}-metrics.json" > /dev/null 2> "$OUT/report.log"
echo "== report: exit $?"; tail -8 "$OUT/report.log"
# The cost figures (ncu's added wall time against in-process request-to-values) go into the report too.
python3 - "$OUT/nvidia-${gpu_name}-metrics.json" "$OUT/metrics-cost.json" <<'PY'
import json, sys
rep = json.load(open(sys.argv[1]))
try:
    rep["metrics_benchmark"] = json.load(open(sys.argv[2]))["cost"]
except Exception as e:
    rep["metrics_benchmark"] = {"error": str(e)}
json.dump(rep, open(sys.argv[1], "w"), indent=1)
for r in rep["runs"]:
    m = r.get("metrics", {})
    print(r["variant"], "passes", m.get("passes"), "ms", round(m.get("profile_ms", 0)), "values", len(m.get("values", {})),
          "lines", len(m.get("lines", [])), "kernel", m.get("kernel"), "limiter", m.get("occupancy_limiter"), "err", m.get("error"), m.get("warnings"))
PY
