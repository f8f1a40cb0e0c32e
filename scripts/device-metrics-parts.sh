#!/usr/bin/env bash
# Where one metrics request's time goes inside CUPTI, in one device call (issue 31):
#  1. the kept range-profiler session's Start and Stop, three processes of ws_metrics_bench epita.reduce1
#     2^24, default set, 12 requests each (the first one opens the session: the median is of the rest).
#     At 8a7cee6 the kept session's counter data image could be sized for 1 range instead of 64
#     (WS_KEPT_SESSION_RANGES=1, since removed): Start took the same (17.4-17.8 ms against 17.3-17.6, H100);
#  2. the SASS pass split into enable, patched run, flush and disable (WS_METRICS_TIMING);
#  3. the first default,pcsampling request through a warmed `warpscope-cli worker` (harris.impl2 2^24,
#     repeat 1, warmup 0: its single launch is cold), twice.
# Writes logs under $OUT. WS_SKIP_BUILD=1 uses build/ as it is.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-$PWD/out}"; mkdir -p "$OUT"
export LD_LIBRARY_PATH="$PWD/.deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
if [ "${WS_SKIP_BUILD:-0}" != 1 ]; then
  t0=$SECONDS
  { cmake --preset default -DCMAKE_CUDA_ARCHITECTURES=90 && cmake --build build -j "$(nproc)" --target warpscope-cli \
      ws_metrics_bench ${WS_GPU_TESTS:+ws_gpu_tests}; } > "$OUT/build.log" 2>&1 || { grep -E "error|Error" "$OUT/build.log" | head -40; exit 1; }
  echo "== build ok ($((SECONDS - t0)) s)"
fi
B=build/tests/ws_metrics_bench; cli=build/app/cli/warpscope-cli
for round in 1 2 3; do
  for ranges in 64; do
    f="$OUT/bench-ranges$ranges-$round"
    WS_METRICS_TIMING=1 $B epita.reduce1 2^24 default 12 > "$f.json" 2> "$f.err"
    python3 - "$f" "$ranges" "$round" <<'PY'
import json, re, statistics, sys
f, ranges, rnd = sys.argv[1:]
d = json.load(open(f + ".json")); err = open(f + ".err").read()
later = d["profile_ms"][1:]
starts = [float(x) for x in re.findall(r"kept session request (?:[2-9]|1\d): start ([\d.]+)", err)]
stops = [float(x) for x in re.findall(r"kept session request (?:[2-9]|1\d): start [\d.]+, push \+ run \+ pop [\d.]+, stop ([\d.]+)", err)]
print(f"ranges {ranges:>2} round {rnd}: request median {statistics.median(later):.2f} ms (min {min(later):.2f}); "
      f"kept-session start median {statistics.median(starts):.2f}, stop {statistics.median(stops):.2f} ms")
PY
  done
done
grep "sass pass: configs" "$OUT/bench-ranges64-3.err" | tail -3
req='{"variant":"harris.impl2","n":16777216,"repeat":1,"warmup":0,"metrics":"default,pcsampling"}'
(sleep 8; echo '{"id":1,"type":"run","request":'"$req"'}'; sleep 4; echo '{"id":2,"type":"run","request":'"$req"'}'; sleep 3
 echo '{"id":3,"type":"shutdown"}') | WS_METRICS_TIMING=1 WARPSCOPE_CLI=$PWD/$cli $cli worker > "$OUT/worker-pcs.jsonl" 2> "$OUT/worker-pcs.err"
echo "worker default,pcsampling: exit $?"; grep -E "pc sampling" "$OUT/worker-pcs.err" | cut -c1-220
python3 -c 'import json,sys
for l in open(sys.argv[1]):
    j = json.loads(l)
    if j.get("type") == "result":
        r = j["run"]; m = r.get("metrics", {})
        print("  request", j["id"], "host total", round(r["host_ms"]["total"], 1), "ms, metrics", round(r["host_ms"]["metrics"], 1),
              "ms, samples", m.get("values", {}).get("ws__pc_samples"), [w for w in m.get("warnings", []) if "sampled again" in w or "dropped" in w])' "$OUT/worker-pcs.jsonl"
if [ -n "${WS_GPU_TESTS:-}" ]; then
  build/tests/ws_gpu_tests --gtest_filter="$WS_GPU_TESTS" > "$OUT/gpu-tests.log" 2>&1; echo "== gpu tests: exit $?"
  grep -E "^\[  (PASSED|FAILED) |^\[==========\]" "$OUT/gpu-tests.log"
fi
