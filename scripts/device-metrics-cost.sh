#!/usr/bin/env bash
# The metrics' cost bar on the GPU machine, in one device call: in-process request-to-values time
# of the default metric set (ws_metrics_bench: context up, kernel warm; WS_METRICS_TIMING prints
# where each request's time goes inside CUPTI) against the wall time `ncu` adds to the same program
# for the same kernel and metrics (epita.reduce1, one kernel, 2^24 int32). Also SASS-only
# collections several times in one process. Writes $OUT/metrics-cost.json and the logs
# ($OUT/cost-logs.tgz). WS_SKIP_BUILD=1 uses build-device/ as it is.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-$PWD/out}"; mkdir -p "$OUT"
L=$(mktemp -d)
if [ "${WS_SKIP_BUILD:-0}" != 1 ]; then
  cmake --preset device > "$L/build.log" 2>&1 && cmake --build --preset device -j "$(nproc)" --target ws_metrics_bench warpscope-cli >> "$L/build.log" 2>&1 \
    || { grep -E "error|Error" "$L/build.log" | head -40; exit 1; }
fi
B=build-device/tests/ws_metrics_bench; CLI=build-device/app/cli/warpscope-cli
# The default set as ncu names it: the range-profiler counters, and the SASS counters summed (.sum).
RANGE=$($CLI metrics --json | python3 -c 'import json,sys; print(",".join(m["name"] for m in json.load(sys.stdin)["metrics"] if m["default"] and m["source"]=="range profiler"))')
SASS=$($CLI metrics --json | python3 -c 'import json,sys; print(",".join(m["name"]+".sum" for m in json.load(sys.stdin)["metrics"] if m["source"] in ("sass counters","sass per line")))')
echo "range: $RANGE"; echo "sass: $SASS"
WS_METRICS_TIMING=1 $B epita.reduce1 2^24 default 8 > "$L/default.json" 2> "$L/default.err"; echo "== default set: exit $?"
grep -E "range profiler:|sass pass|pass 0" "$L/default.err" | tail -6
# As a worker serves it: the warm-up at start, and the kept session's Start made while the worker waits
# between requests (Backend::prepare_next_metrics), timed apart in prepare_ms.
WS_METRICS_TIMING=1 $B epita.reduce1 2^24 default 8 --warm-up --prepare > "$L/prepared.json" 2> "$L/prepared.err"
echo "== default set, the worker's way (warm-up, Start while idle): exit $?"
grep -E "kept session request|sass pass" "$L/prepared.err" | tail -4
WS_METRICS_TIMING=1 $B harris.impl1 2^24 smsp__sass_inst_executed,smsp__sass_thread_inst_executed_pred_on 3 > "$L/sass.json" 2> "$L/sass.err"; echo "== SASS only x3: exit $?"
base="$CLI run --variant epita.reduce1 --n 2^24 --block 256 --repeat 1"
for i in 1 2 3; do
  for set in plain same range; do
    t0=$(date +%s.%N)
    case $set in
      plain) $base > /dev/null 2>&1;;
      same) ncu --launch-count 1 --metrics "$RANGE,$SASS" $base > "$L/ncu-same-$i.log" 2>&1;;
      range) ncu --launch-count 1 --metrics "$RANGE" $base > "$L/ncu-range-$i.log" 2>&1;;
    esac
    t1=$(date +%s.%N); echo "$set $i $(python3 -c "print(round(($t1-$t0)*1000, 1))")" >> "$L/walls.txt"
  done
done
cat "$L/walls.txt"
grep -E "smsp__sass_branch_targets_threads_divergent|gpu__time_duration|==PROF==|error" "$L/ncu-same-1.log" | head -8
python3 - "$L" "$OUT/metrics-cost.json" <<'PY'
import json, statistics, sys
L, out = sys.argv[1], sys.argv[2]
d = json.load(open(f"{L}/default.json")); s = json.load(open(f"{L}/sass.json"))
walls = {}
for line in open(f"{L}/walls.txt"):
    k, i, ms = line.split(); walls.setdefault(k, []).append(float(ms))
plain = statistics.median(walls["plain"])
added = {k: [w - plain for w in v] for k, v in walls.items() if k != "plain"}
later = d["profile_ms"][1:]
cost = {
    "kernel": "epita.reduce1, 2^24 int32, 256 threads (one kernel)",
    "in_process_default_ms": [round(x, 1) for x in d["profile_ms"]],
    "in_process_default_median_later_ms": round(statistics.median(later), 1),
    "passes": d["passes"], "lines": d["lines_per_collection"],
    "sass_only_lines": s["lines_per_collection"], "sass_only_ms": [round(x, 1) for x in s["profile_ms"]],
    "plain_wall_ms": walls["plain"],
    "ncu_added_same_metrics_ms": [round(x, 1) for x in added["same"]],
    "ncu_added_range_metrics_only_ms": [round(x, 1) for x in added["range"]],
    "ncu_added_same_median_ms": round(statistics.median(added["same"]), 1),
}
cost["ratio_in_process_over_ncu_added"] = round(cost["in_process_default_median_later_ms"] / cost["ncu_added_same_median_ms"], 3)
cost["ratio_vs_ncu_range_only"] = round(cost["in_process_default_median_later_ms"] / statistics.median(added["range"]), 3)
try:
    p = json.load(open(f"{L}/prepared.json"))
    cost["worker_way_default_ms"] = [round(x, 1) for x in p["profile_ms"]]
    cost["worker_way_prepare_ms"] = [round(x, 1) if isinstance(x, (int, float)) else x for x in p["prepare_ms"]]
    cost["worker_way_median_later_ms"] = round(statistics.median(p["profile_ms"][1:]), 1)
    cost["worker_way_ratio_over_ncu_added"] = round(cost["worker_way_median_later_ms"] / cost["ncu_added_same_median_ms"], 3)
    cost["worker_way_plain_ms_before_after"] = [p.get("plain_median_ms_before"), p.get("plain_median_ms_after")]
    cost["plain_ms_before_after"] = [d.get("plain_median_ms_before"), d.get("plain_median_ms_after")]
except Exception as e:
    cost["worker_way_error"] = str(e)
json.dump({"cost": cost}, open(out, "w"), indent=1)
print(json.dumps(cost, indent=1))
PY
tar czf "$OUT/cost-logs.tgz" -C "$L" .
