#!/usr/bin/env bash
# Time to result on the GPU machine: where the host's wall time goes around the GPU's milliseconds.
# Builds the CLI (preset device, build-device/; carry .deps as for scripts/device-check.sh), then:
#   1. one `run --n 2^28 --repeat 20` of each reduction, scan, histogram and filter variant that takes
#      2^28 (goal: host_ms total <= 1500 ms: the run after the CUDA context exists);
#   2. the four-filter report at 2^28 (goal: <= 8 s wall for the report's runs);
#   3. the whole reduction lesson report at 2^28 (goal: <= 30 s wall for the report's runs).
# Every table row shows the run's host_ms phases (input, upload, launches, download, reference, check,
# other, total) and the GPU median, from the run JSON. Output: stdout and $OUT/host-time.md (and the
# run JSON and reports under $OUT). WS_HOST_N (default 2^28), WS_HOST_REPEAT (20), WS_SKIP_BUILD=1,
# WS_HOST_VARIANTS (a regex over variant ids; default: every 1-D reduction, scan, histogram and filter),
# WS_CLI (another CLI binary), WS_HOST_BACKEND (cuda; sim tries the script on a machine without a GPU).
# Not a test: a table to read and copy into docs/device/.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-$PWD/out}"
mkdir -p "$OUT"
N="${WS_HOST_N:-2^28}"
REPEAT="${WS_HOST_REPEAT:-20}"
if [ "${WS_SKIP_BUILD:-0}" != 1 ]; then
  cmake --preset device -DCMAKE_CUDA_ARCHITECTURES=90 > "$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
  cmake --build --preset device -j "$(nproc)" --target warpscope-cli > "$OUT/build.log" 2>&1 ||
    { grep -E "error|Error" "$OUT/build.log" | head -40; exit 1; }
  echo "== build ok"
fi
cli="${WS_CLI:-build-device/app/cli/warpscope-cli}"
[ -x "$cli" ] || { echo "no CLI at $cli" >&2; exit 2; }
$cli device | tee "$OUT/device.txt"
exec python3 - "$cli" "$N" "$REPEAT" "$OUT" "${WS_HOST_VARIANTS:-}" "${WS_HOST_BACKEND:-cuda}" <<'PY'
import json, os, re, subprocess, sys, time
cli, n, repeat, out, pattern, backend = sys.argv[1:7]
phases = ["input", "upload", "launches", "model", "download", "reference", "check", "metrics", "other", "total"]
lines = []
def emit(s=""):
    print(s, flush=True)
    lines.append(s)
def row(name, r, wall=None):
    h = r.get("host_ms", {})
    gpu = r.get("time_ms")
    cells = " | ".join(f"{h.get(p, 0):.0f}" for p in phases)
    w = f"{wall:.2f}" if wall is not None else ""
    goal = "" if not h else ("yes" if h.get("total", 0) <= 1500 else "NO")
    emit(f"| {name} | {r.get('status', '?')} | {'-' if gpu is None else f'{gpu:.3f}'} | {cells} | {w} | {goal} |")
header = "| variant | status | GPU ms | " + " | ".join(phases) + " | process wall s | total <= 1.5 s |"
rule = "|" + "---|" * (len(phases) + 5)
d = subprocess.run([cli, "device", "--json"], capture_output=True, text=True)
device = json.loads(d.stdout) if d.returncode == 0 else {"name": "no CUDA device"}
emit(f"# Host time to result, n = {n}, repeat {repeat}, backend {backend}, {device.get('name', '?')}, {os.cpu_count()} CPUs")
emit()
emit("Phases in ms (host_ms of each run); process wall includes starting the CLI and creating the CUDA context.")
emit()
emit("## Single runs")
emit()
emit(header)
emit(rule)
variants = json.loads(subprocess.check_output([cli, "list", "--json"]))
singles = []
for v in variants:
    if v.get("cpu_only") or v["pattern"] not in ("reduction", "scan", "atomics"):
        continue
    if v["pattern"] == "atomics" and not re.search(r"hist|filter|select", v["id"]):
        continue  # the race and the counters have a fixed 1000 x 1000 launch
    if (v.get("rules", {}).get("max_n") or 0) and v["rules"]["max_n"] < 2**28:
        continue  # single-block scans
    if pattern and not re.search(pattern, v["id"]):
        continue
    singles.append(v["id"])
for vid in singles:
    t0 = time.monotonic()
    p = subprocess.run([cli, "run", "--variant", vid, "--n", n, "--repeat", repeat, "--backend", backend, "--json"],
                       capture_output=True, text=True)
    wall = time.monotonic() - t0
    try:
        r = json.loads(p.stdout)
    except ValueError:
        emit(f"| {vid} | rc {p.returncode}: {p.stderr.strip()[:80]} |")
        continue
    row(vid, r, wall)
def report(title, variants, goal_s, name):
    path = os.path.join(out, name)
    t0 = time.monotonic()
    p = subprocess.run([cli, "report", "--variants", variants, "--n", n, "--repeat", repeat, "--backend", backend, "--out", path],
                       capture_output=True, text=True)
    wall = time.monotonic() - t0
    emit()
    emit(f"## {title}")
    emit()
    if p.returncode not in (0, 1) or not os.path.exists(path):
        emit(f"report failed (rc {p.returncode}): {p.stderr.strip()[-300:]}")
        return
    runs = json.load(open(path))["runs"]
    emit(header)
    emit(rule)
    for r in runs:
        row(r["variant"], r)
    runs_s = sum(r.get("host_ms", {}).get("total", 0) for r in runs) / 1000
    emit()
    emit(f"{len(runs)} runs: {runs_s:.2f} s in the runs (sum of host_ms total; goal <= {goal_s} s: "
         f"{'yes' if runs_s <= goal_s else 'NO'}), {wall:.2f} s process wall including the CUDA context")
report("Four-filter report", "cs121.filter_global,cs121.filter_shared,cs121.filter_warp_agg,cub.select", 8, "host-time-filters.json")
report("Reduction lesson report (every reduction)", "reduction", 30, "host-time-reductions.json")
open(os.path.join(out, "host-time.md"), "w").write("\n".join(lines) + "\n")
print(f"wrote {os.path.join(out, 'host-time.md')}")
PY
