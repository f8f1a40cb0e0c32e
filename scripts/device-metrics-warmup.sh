#!/usr/bin/env bash
# The worker's metrics warm-up (issue 31) on the GPU machine, in one device call: the first metrics
# request of a process cold (WS_NO_METRICS_WARMUP=1) against the first one after the warm-up, measured
# (1) in-process with ws_metrics_bench (profile_ms: request to values) and (2) as the user sees it,
# through `warpscope-cli worker`: a run request sent once the worker is idle, its metrics.profile_ms and
# host_ms.total; then the GPU test that values after a warm-up equal values without it. Writes
# $OUT/metrics-warmup.json and the logs ($OUT/warmup-logs.tgz). WS_SKIP_BUILD=1 uses build-device/ as it is.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-$PWD/out}"; mkdir -p "$OUT"
L=$(mktemp -d)
if [ "${WS_SKIP_BUILD:-0}" != 1 ]; then
  cmake --preset device > "$L/build.log" 2>&1 && cmake --build --preset device -j "$(nproc)" --target ws_metrics_bench warpscope-cli ws_gpu_tests >> "$L/build.log" 2>&1 \
    || { grep -E "error|Error" "$L/build.log" | head -40; exit 1; }
fi
B=build-device/tests/ws_metrics_bench; CLI=$PWD/build-device/app/cli/warpscope-cli
export WARPSCOPE_CLI=$CLI  # PC sampling after a profiling pass runs in a fresh worker: this one
# (1) In-process, one process per line (CUPTI's set-up is once per process).
for v in epita.reduce1 harris.impl2; do
  for mode in cold warm; do
    for set in default default,pcsampling; do
      flag=""; [ $mode = warm ] && flag=--warm-up
      WS_METRICS_TIMING=1 $B $v 2^24 $set 3 $flag > "$L/bench-$v-$set-$mode.json" 2> "$L/bench-$v-$set-$mode.err"
      echo "bench $v $set $mode: exit $?"
    done
  done
done
# (2) Through the worker: the request is sent 8 s after start (the warm-up is done by then), as a user's
# first click would come; the second request is a later one.
for mode in cold warm; do
  for set in default default,pcsampling; do
    env=""; [ $mode = cold ] && env="WS_NO_METRICS_WARMUP=1"
    req='{"variant":"harris.impl2","n":16777216,"repeat":1,"warmup":0,"metrics":"'$set'"}'
    (sleep 8; echo '{"id":1,"type":"run","request":'"$req"'}'; sleep 4; echo '{"id":2,"type":"run","request":'"$req"'}'; sleep 4
     echo '{"id":3,"type":"shutdown"}') | env $env $CLI worker > "$L/worker-$set-$mode.jsonl" 2> "$L/worker-$set-$mode.err"
    echo "worker $set $mode: exit $?"; cat "$L/worker-$set-$mode.err"
  done
done
build-device/tests/ws_gpu_tests --gtest_filter='GpuMetrics.ValuesAfterTheWorkerWarmUpEqualValuesWithoutIt:GpuMetrics.KeptSession*' \
  > "$L/gpu-tests.log" 2>&1; echo "gpu tests: exit $?"; grep -E "^\[ (gpu|  FAILED|  PASSED|       OK)" "$L/gpu-tests.log"
python3 - "$L" "$OUT/metrics-warmup.json" <<'PY'
import glob, json, os, sys
L, out = sys.argv[1], sys.argv[2]
res = {"bench": {}, "worker": {}}
for f in sorted(glob.glob(f"{L}/bench-*.json")):
    try:
        d = json.load(open(f))
    except Exception as e:
        res["bench"][os.path.basename(f)] = f"unreadable: {e}"; continue
    res["bench"][os.path.basename(f)[6:-5]] = {k: d.get(k) for k in ("profile_ms", "warm_up", "warm_up_ms")} | {
        "warnings": d.get("last", {}).get("warnings")}
for f in sorted(glob.glob(f"{L}/worker-*.jsonl")):
    rows = []
    for line in open(f):
        j = json.loads(line)
        if j.get("type") == "result":
            m = j["run"].get("metrics", {})
            rows.append({"id": j.get("id"), "profile_ms": m.get("profile_ms"),
                         "host_total_ms": j["run"].get("host_ms", {}).get("total"), "error": m.get("error")})
    res["worker"][os.path.basename(f)[7:-6]] = rows
json.dump(res, open(out, "w"), indent=1)
print(json.dumps(res, indent=1))
PY
tar czf "$OUT/warmup-logs.tgz" -C "$L" .
