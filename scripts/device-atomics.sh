#!/usr/bin/env bash
# The atomics lesson on the GPU machine, in one `device` call. Carry .deps (see README).
# Builds (preset device), runs the atomics GPU tests, then benchmarks with each CUB baseline in the same
# process on one shared input (warpscope-cli report):
#   histograms on 2^30 random bytes, 256 bins (bar: best >= 1.0x cub.histogram);
#   filters on 2^28 int32 with half the values kept (bar: best >= 0.9x cub.select), and
#   cs121.filter_scan_vec again with blocks of 128 (its other tile) against cub.select;
#   the slide's plot: every filter's GB/s against the kept fraction 0, 0.1, .., 1 (n = 2^26 by default).
# Everything goes to $OUT: logs, the reports (JSON), atomics-bench.md (tables and the bars) and
# atomics-sweep.csv (keep, variant, GB/s, ms). WS_SKIP_TESTS=1 / WS_SKIP_BENCH=1 / WS_SKIP_SWEEP=1 split the
# work over several device calls (10 minutes each); WS_HIST_N, WS_FILTER_N, WS_SWEEP_N, WS_BENCH_REPEAT.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-$PWD/out}"
mkdir -p "$OUT"
REPEAT="${WS_BENCH_REPEAT:-20}"
HIST_N="${WS_HIST_N:-2^30}"
FILTER_N="${WS_FILTER_N:-2^28}"
SWEEP_N="${WS_SWEEP_N:-2^26}"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee "$OUT/gpu.txt"

cmake --preset device -DCMAKE_CUDA_ARCHITECTURES=90 > "$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
cmake --build --preset device -j "$(nproc)" --target warpscope-cli ws_gpu_tests > "$OUT/build.log" 2>&1 || { grep -E "error|Error" "$OUT/build.log" | head -40; exit 1; }
echo "== build ok"
cli=build-device/app/cli/warpscope-cli
$cli device | tee "$OUT/device.txt"

if [ "${WS_SKIP_TESTS:-0}" != 1 ]; then
  ctest --preset gpu -R '[Aa]tomics' --timeout 600 > "$OUT/gpu-tests-atomics.log" 2>&1
  echo "== atomics gpu tests: exit $?"
  grep -E "tests passed|tests failed|\(Failed\)|\[ gpu" "$OUT/gpu-tests-atomics.log" | tail -30
fi

[ "${WS_SKIP_BENCH:-0}" = 1 ] && exit 0  # split long sessions: tests in one call, benchmarks in the next

# The race, as the slide shows it (1000 x 1000 threads, expected 1,000,000).
$cli run --variant cs121.race --json > "$OUT/race.json" 2>&1
echo "== race: $(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j["message"])' "$OUT/race.json")"

hist="$OUT/atomics-hist.json"
$cli report --force --variants cs121.hist_global,cs121.hist_shared,cs121.hist_shared_vec,cub.histogram --n "$HIST_N" --repeat "$REPEAT" \
  --title "Histograms, n = $HIST_N bytes, 256 bins" --out "$hist" 2> "$OUT/bench-hist.log"
echo "== histograms: exit $?"
filt="$OUT/atomics-filter.json"
$cli report --force --variants cs121.filter_global,cs121.filter_shared,cs121.filter_warp_agg,cs121.filter_scan,cs121.filter_scan_vec,cub.select \
  --n "$FILTER_N" --keep 0.5 --repeat "$REPEAT" --title "Filters, n = $FILTER_N int32, half kept" --out "$filt" 2> "$OUT/bench-filter.log"
echo "== filters: exit $?"
filt128="$OUT/atomics-filter-128.json"  # cs121.filter_scan_vec's other tile: 128 threads x 32 values
$cli report --force --variants cs121.filter_scan_vec,cub.select --block 128 \
  --n "$FILTER_N" --keep 0.5 --repeat "$REPEAT" --title "Filters, n = $FILTER_N int32, half kept, block 128" --out "$filt128" 2>> "$OUT/bench-filter.log"
echo "== filters (block 128): exit $?"

echo "keep,variant,gbps,median_ms,status" > "$OUT/atomics-sweep.csv"
[ "${WS_SKIP_SWEEP:-0}" = 1 ] && KEEPS="" || KEEPS="${WS_SWEEP_KEEPS:-0 0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9 1}"
for keep in $KEEPS; do
  f="$OUT/atomics-sweep-$keep.json"
  $cli report --force --variants cs121.filter_global,cs121.filter_shared,cs121.filter_warp_agg,cs121.filter_scan,cs121.filter_scan_vec,cub.select \
    --n "$SWEEP_N" --keep "$keep" --repeat "${WS_SWEEP_REPEAT:-10}" --out "$f" 2>> "$OUT/bench-sweep.log"
  python3 - "$f" "$keep" >> "$OUT/atomics-sweep.csv" <<'EOF'
import json, sys
rep = json.load(open(sys.argv[1]))
for r in rep["runs"]:
    print(f'{sys.argv[2]},{r["variant"]},{r.get("gbps") or 0:.1f},{r.get("time_ms") or 0:.4f},{r["status"]}')
EOF
done
echo "== sweep -> $OUT/atomics-sweep.csv"

python3 - "$hist" "$filt" "$OUT/atomics-sweep.csv" "$filt128" > "$OUT/atomics-bench.md" <<'EOF'
import csv, json, sys
def table(path, baseline, bar, what):
    rep = json.load(open(path))
    runs = {r["variant"]: r for r in rep["runs"]}
    base = runs.get(baseline, {}).get("gbps", 0) or 0
    print(f"### {rep.get('title', what)}\n")
    print("| variant | ms (median) | GB/s | x " + baseline + " | check |")
    print("|---|---:|---:|---:|---|")
    best, best_id = 0, None
    for r in rep["runs"]:
        g = r.get("gbps", 0) or 0
        ratio = g / base if base else 0
        print(f'| {r["variant"]} | {r.get("time_ms") or 0:.4f} | {g:.1f} | {ratio:.2f} | {r["status"]} {r.get("message", "")} |')
        if r["variant"] != baseline and r["status"] == "ok" and g > best:
            best, best_id = g, r["variant"]
    ratio = best / base if base else 0
    verdict = "PASS" if ratio >= bar else "FAIL"
    print(f"\nBar: best {what} ({best_id}) = {ratio:.2f}x {baseline} (needs >= {bar}): **{verdict}**\n")
table(sys.argv[1], "cub.histogram", 1.0, "histogram")
table(sys.argv[2], "cub.select", 0.9, "filter")
table(sys.argv[4], "cub.select", 0.9, "filter")
rows = list(csv.DictReader(open(sys.argv[3])))
variants = list(dict.fromkeys(r["variant"] for r in rows))
keeps = list(dict.fromkeys(r["keep"] for r in rows))
print("### Throughput (GB/s, read + write) against the kept fraction (the slide's plot)\n")
print("| keep | " + " | ".join(variants) + " |")
print("|---:|" + "---:|" * len(variants))
for k in keeps:
    vals = {r["variant"]: r["gbps"] for r in rows if r["keep"] == k}
    print(f"| {k} | " + " | ".join(vals.get(v, "") for v in variants) + " |")
EOF
cat "$OUT/atomics-bench.md"
