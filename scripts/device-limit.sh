#!/usr/bin/env bash
# Issue 31 ("closer to the limit"): every row of its table on the card this call runs on, in one `device`
# call (carry .deps and .gl, prepared here by `bash scripts/device-gui.sh prepare` and docs/gpu-machine.md).
# Builds preset `default` for sm_90 into build/ (the GUI for the frame rows; build-device/ points at it for
# the metrics scripts) unless WS_SKIP_BUILD=1, then:
#   - kernel rows: $ROUNDS (3) separate `warpscope-cli report` processes per row, each the variant and its
#     baseline at 2^28 int32 (median of $REPEAT launches after the runner's warm-up), the ratio baseline time
#     / variant time per round and its median: epita.tuned / cub.reduce, scan.decoupled_lookback / cub.scan,
#     cs121.filter_scan_vec / cub.select, cs121.hist_shared_vec / cub.histogram; the 2-D convolution
#     (stevens.conv2d_register_tiled, 8192 x 8192 float32, 5x5) against the device copy measured in the
#     same process (GB/s of input + output over the copy's GB/s);
#   - unless WS_SKIP_AB=1, the A/B harnesses: ws_scan_ab's product candidates (the product's look-back at
#     blocks 128/256/512 and with longer waits before the first look-back read, bench/scan_ab_wait.cu)
#     beside cub.scan; ws_filter_ab (filter_scan_vec with and without such a wait against cub.select, 5
#     alternating rounds); ws_conv2d_ab time (the 2-D convolution's candidates against the device copy);
#     ws_reduce_ab 5 (epita.tuned's candidates and the read-only ceiling beside cub.reduce);
#   - metrics: scripts/device-metrics-cost.sh (the default set per request in-process against what ncu
#     adds) and the first request through a warmed `warpscope-cli worker` (default, default,pcsampling);
#     the fresh PC sampling worker's request on its own (WS_METRICS_TIMING; PCS_HW_MB="512 64 ...": with
#     other hardware buffers than the product's), and with PCS_BIG_MB="8 32 ..." PC sampling at 2^28 per
#     buffer size (are samples dropped?);
#   - UI frame build: Compare and Plots at 1920x1080 with the synthetic 40-line report, $UI_ROUNDS (3)
#     rounds of 300 frames, ui_build_ms_median of each;
#   - Live through the worker against in-process (ws_live_rate, 10 s each).
# WS_ONLY_METRICS=1 measures the metrics rows alone (no kernel rows, harnesses, UI or Live);
# WS_SKIP_KERNEL_ROWS=1 leaves out the kernel rows and harnesses only (metrics, UI and Live run).
# WS_GPU_TESTS=FILTER also builds ws_gpu_tests and runs those tests, last (tests that fault kernels make
# NVIDIA's OpenGL reset afterwards, which would slow the UI rows).
# Prints one table, row / this card's figure / goal / met, and writes it with every report and log to
# $OUT/limit-<gpu>.md and $OUT/limit-logs.tgz. Goals: the issue's table.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-$PWD/out}"; mkdir -p "$OUT"
ROUNDS="${ROUNDS:-3}"; REPEAT="${REPEAT:-20}"; UI_ROUNDS="${UI_ROUNDS:-3}"
W=$(mktemp -d)
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export LD_LIBRARY_PATH="$PWD/.deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
[ -f .deps/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] && export WARPSCOPE_FONTS="$PWD/.deps/usr/share/fonts/truetype/dejavu"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee "$W/gpu.txt"
if [ "${WS_SKIP_BUILD:-0}" != 1 ]; then
  t0=$SECONDS
  cmake --preset default -DCMAKE_CUDA_ARCHITECTURES=90 > "$W/configure.log" 2>&1 || { tail -30 "$W/configure.log"; exit 1; }
  cmake --build build -j "$(nproc)" --target warpscope warpscope-cli ws_make_synthetic_report ws_metrics_bench \
    ws_live_rate ws_scan_ab ws_filter_ab ws_conv2d_ab ws_reduce_ab ${WS_GPU_TESTS:+ws_gpu_tests} > "$W/build.log" 2>&1 || { grep -E "error|Error" "$W/build.log" | head -40; exit 1; }
  echo "== build ok ($((SECONDS - t0)) s)"
fi
[ -e build-device ] || ln -s build build-device
cli=build/app/cli/warpscope-cli
gpu=$($cli device --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["name"].replace("NVIDIA ","").replace(" ","-").lower())')

# Kernel rows: NAME VARIANT BASE [report options...]
kernel_row() {
  local name=$1 variant=$2 base=$3; shift 3
  for r in $(seq 1 "$ROUNDS"); do
    timeout 300 $cli report --force --variants "$variant,$base" --repeat "$REPEAT" "$@" --out "$W/$name-$r.json" \
      > /dev/null 2> "$W/$name-$r.log" || { echo "$name round $r failed:"; tail -3 "$W/$name-$r.log"; }
  done
}
if [ "${WS_ONLY_METRICS:-0}" != 1 ] && [ "${WS_SKIP_KERNEL_ROWS:-0}" != 1 ]; then  # WS_ONLY_METRICS=1: the metrics rows alone
t0=$SECONDS
kernel_row reduce epita.tuned cub.reduce --n 2^28 --type int32
kernel_row scan scan.decoupled_lookback cub.scan --n 2^28 --type int32
kernel_row filter cs121.filter_scan_vec cub.select --n 2^28 --type int32
kernel_row hist cs121.hist_shared_vec cub.histogram --n 2^28 --type int32
for r in $(seq 1 "$ROUNDS"); do
  timeout 300 $cli report --force --variants stevens.conv2d_register_tiled --width 8192 --height 8192 --mask-width 5 \
    --type float32 --repeat "$REPEAT" --out "$W/conv2d-$r.json" > /dev/null 2> "$W/conv2d-$r.log" \
    || { echo "conv2d round $r failed:"; tail -3 "$W/conv2d-$r.log"; }
done
# Mid-sized scans and filters (one report each): what a longer wait before the look-back costs where a grid
# has few waves.
for n in 2^20 2^22 2^23 2^24; do
  timeout 120 $cli report --force --variants scan.decoupled_lookback,cub.scan,cs121.filter_scan_vec,cub.select --n $n \
    --repeat "$REPEAT" --out "$W/mid-$n.json" > /dev/null 2> "$W/mid-$n.log" || { echo "mid $n failed:"; tail -3 "$W/mid-$n.log"; }
done
echo "== kernel rows ($((SECONDS - t0)) s)"

if [ "${WS_SKIP_AB:-0}" != 1 ]; then
  t0=$SECONDS
  timeout 300 build/bench/ws_scan_ab product > "$W/scan-ab.txt" 2>&1
  echo "== ws_scan_ab product: exit $? ($((SECONDS - t0)) s)"
  grep -E "^(copy|cub|product|\|)" "$W/scan-ab.txt"
  t0=$SECONDS
  timeout 300 build/bench/ws_filter_ab 5 > "$W/filter-ab.txt" 2>&1
  echo "== ws_filter_ab 5: exit $? ($((SECONDS - t0)) s)"
  grep -E "check|^\||rounds|copy" "$W/filter-ab.txt"
  t0=$SECONDS
  timeout 200 build/bench/ws_conv2d_ab time > "$W/conv2d-ab.txt" 2>&1
  echo "== ws_conv2d_ab time: exit $? ($((SECONDS - t0)) s)"
  tail -25 "$W/conv2d-ab.txt"
  t0=$SECONDS
  timeout 300 build/bench/ws_reduce_ab 5 > "$W/reduce-ab.txt" 2>&1
  echo "== ws_reduce_ab 5: exit $? ($((SECONDS - t0)) s)"
  grep -E "rounds|read|tiles<4,plain> 1024|checked|WRONG" "$W/reduce-ab.txt"
fi
fi  # WS_ONLY_METRICS

t0=$SECONDS
OUT="$W/metrics" WS_SKIP_BUILD=1 bash scripts/device-metrics-cost.sh > "$W/metrics-cost.txt" 2>&1
echo "== metrics cost: exit $? ($((SECONDS - t0)) s)"
tar xzf "$W/metrics/cost-logs.tgz" -C "$W/metrics" ./default.err 2>/dev/null && tail -6 "$W/metrics/default.err"
# The first request through a warmed worker, sent 8 s after start (the warm-up is done by then).
for set in default default,pcsampling; do
  req='{"variant":"harris.impl2","n":16777216,"repeat":1,"warmup":0,"metrics":"'$set'"}'
  (sleep 8; echo '{"id":1,"type":"run","request":'"$req"'}'; sleep 4; echo '{"id":2,"type":"run","request":'"$req"'}'; sleep 3
   echo '{"id":3,"type":"shutdown"}') | WS_METRICS_TIMING=1 WARPSCOPE_CLI=$PWD/$cli $cli worker > "$W/worker-$set.jsonl" 2> "$W/worker-$set.err"
  echo "worker $set: exit $?"; grep -E "warm-up|error|pc sampling" "$W/worker-$set.err" | cut -c1-220
done
# What the fresh worker's PC sampling request does (its stderr, a pipe of the serving worker above, here):
# the fresh worker as the serving worker starts it, its request sent once it is idle.
# PC sampling's hardware buffer: 512 MiB (the product's) and smaller (WS_PC_SAMPLING_HW_MB, a measurement switch).
req='{"variant":"harris.impl2","n":16777216,"repeat":1,"warmup":0,"metrics":"pcsampling"}'
for mb in ${PCS_HW_MB:-product}; do
  hw=""; [ "$mb" != product ] && hw="WS_PC_SAMPLING_HW_MB=$mb"
  (sleep 4; echo '{"id":1,"type":"run","request":'"$req"'}'; sleep 3; echo '{"id":2,"type":"shutdown"}') \
    | env $hw WS_METRICS_TIMING=1 WARPSCOPE_PC_SAMPLING_WORKER=1 $cli worker > "$W/pcs-fresh-$mb.jsonl" 2> "$W/pcs-fresh-$mb.err"
  echo "fresh PC sampling worker alone, hardware buffer $mb MiB: exit $?"; grep -E "pc sampling|warm-up" "$W/pcs-fresh-$mb.err" | cut -c1-220
  python3 -c 'import json,sys
for l in open(sys.argv[1]):
    j = json.loads(l)
    if j.get("type") == "result":
        r = j["run"]; m = r.get("metrics", {})
        print("  host_ms", {k: round(v, 1) for k, v in r.get("host_ms", {}).items() if v}, "samples", m.get("values", {}).get("ws__pc_samples"), "error", m.get("error"), [w for w in m.get("warnings", []) if "dropped" in w])' "$W/pcs-fresh-$mb.jsonl"
done
# Does the buffer drop samples of longer runs? 2^28 elements, one process each (its first collection).
for mb in ${PCS_BIG_MB:-}; do
  for v in harris.impl2 epita.reduce1; do
    WS_PC_SAMPLING_HW_MB=$mb $cli run --variant $v --n 2^28 --metrics pcsampling --repeat 1 --warmup 0 --json \
      > "$W/pcs-big-$v-$mb.json" 2> /dev/null
    python3 -c 'import json,sys
r = json.load(open(sys.argv[1])); m = r.get("metrics", {}); h = r.get("host_ms", {})
drops = [w for w in m.get("warnings", []) if "dropped" in w]
print("  %s 2^28, buffer %s MiB: %.3f ms, samples %s, launches %.0f ms, metrics %.0f ms %s %s" % (sys.argv[2], sys.argv[3],
      r.get("time_ms", 0), m.get("values", {}).get("ws__pc_samples"), h.get("launches", 0), h.get("metrics", 0), drops, m.get("error") or ""))' \
      "$W/pcs-big-$v-$mb.json" $v $mb
  done
done

if [ "${WS_ONLY_METRICS:-0}" != 1 ]; then
t0=$SECONDS
build/tests/gui/ws_make_synthetic_report "$W/many.json" many > /dev/null
for r in $(seq 1 "$UI_ROUNDS"); do
  for view in compare plots; do
    timeout 60 build/app/gui/warpscope --benchmark-frames 300 --view $view --report "$W/many.json" --width 1920 \
      --height 1080 > "$W/ui-$view-$r.txt" 2>&1 || { echo "ui $view round $r failed:"; tail -3 "$W/ui-$view-$r.txt"; }
  done
done
echo "== UI frames ($((SECONDS - t0)) s)"

timeout 60 build/bench/ws_live_rate --backend cuda --seconds 10 > "$W/live.txt" 2>&1
echo "== live: exit $?"; tail -3 "$W/live.txt"
fi  # WS_ONLY_METRICS

# Last: tests that fault kernels on purpose (the editor's, grading) make NVIDIA's OpenGL reset afterwards
# (docs/device/gl-after-fault.md), which would slow the UI rows above.
if [ -n "${WS_GPU_TESTS:-}" ]; then  # WS_GPU_TESTS=FILTER: those GPU tests, last
  t0=$SECONDS
  timeout 300 build/tests/ws_gpu_tests --gtest_filter="$WS_GPU_TESTS" > "$W/gpu-tests.log" 2>&1
  echo "== ws_gpu_tests --gtest_filter=$WS_GPU_TESTS: exit $? ($((SECONDS - t0)) s)"
  grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]" "$W/gpu-tests.log" | cut -c1-200 | tail -20
fi

python3 - "$W" "$ROUNDS" "$UI_ROUNDS" "$(cat "$W/gpu.txt")" <<'PY' | tee "$OUT/limit-$gpu.md"
import glob, json, re, statistics, sys
W, rounds, ui_rounds, gpu = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
med = statistics.median
rows = []
def runs(path):
    return {x["variant"]: x for x in json.load(open(path))["runs"]}
def ratio_row(what, name, variant, base, goal):
    ratios, times = [], []
    for r in range(1, rounds + 1):
        try:
            rr = runs(f"{W}/{name}-{r}.json")
            ok = rr[variant]["status"] == "ok" and rr[base]["status"] == "ok"
            ratios.append(rr[base]["time_ms"] / rr[variant]["time_ms"] if ok else float("nan"))
            times.append(f"{rr[variant]['time_ms']:.4f}/{rr[base]['time_ms']:.4f}")
        except Exception as e:
            times.append(f"unreadable ({e})")
    m = med(ratios) if ratios else float("nan")
    rows.append((what, f"{m:.3f}x (rounds {', '.join(f'{x:.3f}' for x in ratios)}; ms {', '.join(times)})",
                 f">= {goal}x", "met" if m >= goal else "not met"))
ratio_row("epita.tuned vs cub.reduce", "reduce", "epita.tuned", "cub.reduce", 1.03)
ratio_row("scan.decoupled_lookback vs cub.scan", "scan", "scan.decoupled_lookback", "cub.scan", 1.05)
ratio_row("cs121.filter_scan_vec vs cub.select", "filter", "cs121.filter_scan_vec", "cub.select", 1.05)
ratio_row("cs121.hist_shared_vec vs cub.histogram", "hist", "cs121.hist_shared_vec", "cub.histogram", 1.05)
conv = []
for r in range(1, rounds + 1):
    try:
        rep = json.load(open(f"{W}/conv2d-{r}.json"))
        run = rep["runs"][0]
        conv.append((run["gbps"] / rep["device"]["copy_gbps"], run["time_ms"], run["gbps"], rep["device"]["copy_gbps"], run["status"]))
    except Exception as e:
        pass
if conv:
    m = med([c[0] for c in conv])
    rows.append(("stevens.conv2d_register_tiled 8192^2 5x5 vs device copy",
                 f"{m:.3f}x (rounds " + ", ".join(f"{c[0]:.3f}: {c[1]:.4f} ms {c[2]:.0f}/{c[3]:.0f} GB/s {c[4]}" for c in conv) + ")",
                 ">= 0.95x", "met" if m >= 0.95 else "not met"))
for n in ("2^20", "2^22", "2^23", "2^24"):
    try:
        rr = runs(f"{W}/mid-{n}.json")
        rows.append((f"mid-sized n = {n} (one report)", ", ".join(
            f"{v} {rr[v]['time_ms']:.4f} ms" for v in ("scan.decoupled_lookback", "cub.scan", "cs121.filter_scan_vec", "cub.select")) +
            f"; scan {rr['cub.scan']['time_ms'] / rr['scan.decoupled_lookback']['time_ms']:.3f}x, filter "
            f"{rr['cub.select']['time_ms'] / rr['cs121.filter_scan_vec']['time_ms']:.3f}x", "(no goal)", ""))
    except Exception as e:
        rows.append((f"mid-sized n = {n}", f"unreadable ({e})", "", ""))
try:
    c = json.load(open(f"{W}/metrics/metrics-cost.json"))["cost"]
    rows.append(("metrics, default set, per request", f"{c['in_process_default_median_later_ms']} ms = "
                 f"{c['ratio_in_process_over_ncu_added']}x of what ncu adds ({c['ncu_added_same_median_ms']} ms; "
                 f"ncu runs {c['ncu_added_same_metrics_ms']})", "<= 0.02x",
                 "met" if c["ratio_in_process_over_ncu_added"] <= 0.02 else "not met"))
    if "worker_way_ratio_over_ncu_added" in c:
        r = c["worker_way_ratio_over_ncu_added"]
        rows.append(("metrics, default set, per request, the worker's way (Start made while idle)",
                     f"{c['worker_way_median_later_ms']} ms = {r}x of what ncu adds (requests {c['worker_way_default_ms']}, "
                     f"Starts while idle {c['worker_way_prepare_ms']} ms; plain run ms before/after {c['worker_way_plain_ms_before_after']},"
                     f" without {c['plain_ms_before_after']})", "<= 0.02x", "met" if r <= 0.02 else "not met"))
except Exception as e:
    rows.append(("metrics, default set, per request", f"no figure ({e})", "<= 0.02x", "-"))
for s in ("default", "default,pcsampling"):
    got = []
    try:
        for line in open(f"{W}/worker-{s}.jsonl"):
            j = json.loads(line)
            if j.get("type") == "result":
                m = j["run"].get("metrics", {})
                got.append((m.get("profile_ms"), j["run"].get("host_ms", {}).get("total"), m.get("error")))
    except Exception as e:
        got.append((None, None, str(e)))
    first = got[0] if got else (None, None, "no answer")
    total = first[1]
    rows.append((f"first metrics request ({s}, warmed worker, harris.impl2 2^24)",
                 "requests (profile_ms / host total ms): " + "; ".join(f"{g[0]} / {g[1]}" + (f" ({g[2]})" if g[2] else "") for g in got),
                 "<= 100 ms", "met" if total is not None and total <= 100 else "not met"))
for view in ("compare", "plots"):
    vals = []
    for r in range(1, ui_rounds + 1):
        try:
            t = open(f"{W}/ui-{view}-{r}.txt").read()
            vals.append(float(re.search(r'"?ui_build_ms_median"?\s*[:=]\s*([0-9.]+)', t).group(1)))
        except Exception:
            pass
    m = med(vals) if vals else float("nan")
    rows.append((f"UI frame build, {view}, 1920x1080, 40 sweep lines + 10,000 Live points",
                 f"{m:.3f} ms (rounds {', '.join(f'{v:.3f}' for v in vals)})", "<= 1 ms", "met" if m <= 1 else "not met"))
try:
    t = open(f"{W}/live.txt").read().strip().splitlines()
    rows.append(("Live through the worker (ws_live_rate --backend cuda --seconds 10)", " / ".join(t[-3:]), ">= 95 %", "see figure"))
except Exception as e:
    rows.append(("Live through the worker", f"no figure ({e})", ">= 95 %", "-"))
print(f"# Issue 31's rows on {gpu}\n")
print("| row | this card | goal | |\n|---|---|---|---|")
for r in rows:
    print("| " + " | ".join(r) + " |")
PY
for f in scan-ab filter-ab conv2d-ab reduce-ab; do cp "$W/$f.txt" "$OUT/$f-$gpu.txt" 2>/dev/null; done
tar czf "$OUT/limit-logs-$gpu.tgz" -C "$W" --exclude='many.json' .
ls -la "$OUT"
