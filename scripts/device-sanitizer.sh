#!/usr/bin/env bash
# compute-sanitizer (memcheck, racecheck, synccheck) over every GPU variant at a small n, on the GPU
# machine in one `device` call after a build (carry .deps, as for scripts/device-check.sh):
#   bash scripts/device-sanitizer.sh [CLI]
# CLI: the warpscope-cli to check (default build/app/cli/warpscope-cli, as scripts/device-session.sh
# tests builds it, else build-device/app/cli/warpscope-cli). Each variant of `list --json` that is not
# CPU-only (racy ones and the CUB baselines included) runs `run --variant ID --n N --repeat 1 --warmup 0`
# (one launch per kernel) under each tool; the size is the first the launch rules accept of --n N,
# --n 1024 and --width 100 --height 77 (the 2-D convolutions). racecheck runs with --racecheck-report
# all: the analysis reports count the hazards, the hazard reports give their types (RAW, WAR, WAW).
# Under $OUT:
#   sanitizer.json         per variant and tool: ran, errors, warnings, hazards by type, the first
#                          reported line, the n (scripts/sanitizer_parse.py's format)
#   sanitizer.md           the same as a table, and what was not as expected (a non-racy variant
#                          with a finding, a tool that did not finish)
#   sanitizer-report.json  a report of the same variants at the same n with the verdicts attached
#                          (scripts/merge_reports.py --sanitizer): warpscope --report shows them
#   sanitizer-logs.tgz     every tool's log and the program's output
# Environment: WS_SANITIZER_N (default 1000), WS_SANITIZER_JOBS (runs at once, default 6),
# WS_SANITIZER_TIMEOUT (seconds per tool run, default 60), WS_SANITIZER_BUDGET (seconds after which the
# variants not started yet are recorded as not run, default 420), WS_SANITIZER_ONLY (a regex of ids).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
[ -d .deps ] && export LD_LIBRARY_PATH="$PWD/.deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export N="${WS_SANITIZER_N:-1000}" TIMEOUT="${WS_SANITIZER_TIMEOUT:-60}" BUDGET="${WS_SANITIZER_BUDGET:-420}"
JOBS="${WS_SANITIZER_JOBS:-6}"

# One variant (called through xargs): the size, then the three tools, files under $W/ID.
if [ "${1:-}" = "--one" ]; then
  id=$2 racy=$3 d="$W/$2"
  mkdir -p "$d"
  echo "$racy" > "$d/racy"
  if [ $(($(date +%s) - START)) -gt "$BUDGET" ]; then  # keep the whole within one device call
    echo "--n $N" > "$d/args"
    echo "not run: the script's time budget ($BUDGET s) was spent" > "$d/skipped"
    echo "$id: skipped (time budget)"
    exit 0
  fi
  for args in "--n $N" "--n 1024" "--width 100 --height 77"; do
    # shellcheck disable=SC2086  # args is several words on purpose
    timeout 60 "$CLI" run --variant "$id" $args --repeat 1 --warmup 0 --json > "$d/probe.json" 2> "$d/probe.err"
    rc=$?
    [ "$rc" -ne 2 ] && break  # 2: the launch rules refused this size; try the next
  done
  echo "$args" > "$d/args"
  for tool in memcheck racecheck synccheck; do
    extra=""
    [ "$tool" = racecheck ] && extra=$RACE_OPTS
    # shellcheck disable=SC2086
    timeout "$TIMEOUT" "$SANITIZER" --tool "$tool" $extra --log-file "$d/$tool.log" \
      "$CLI" run --variant "$id" $args --repeat 1 --warmup 0 --json > "$d/app-$tool.json" 2> "$d/app-$tool.err"
    echo $? > "$d/$tool.rc"
  done
  echo "$id: $args, exit $(cat "$d/memcheck.rc") $(cat "$d/racecheck.rc") $(cat "$d/synccheck.rc")"
  exit 0
fi

OUT="${OUT:-$PWD/out}"
mkdir -p "$OUT"
CLI="${1:-}"
if [ -z "$CLI" ]; then
  for c in build/app/cli/warpscope-cli build-device/app/cli/warpscope-cli; do [ -x "$c" ] && { CLI=$c; break; }; done
fi
{ [ -n "$CLI" ] && [ -x "$CLI" ]; } || { echo "device-sanitizer: no warpscope-cli (build first, or give its path)"; exit 2; }
CLI=$(readlink -f "$CLI")
SANITIZER=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
[ -x "$SANITIZER" ] || { echo "device-sanitizer: no compute-sanitizer on PATH or in /usr/local/cuda/bin"; exit 2; }
W=$(mktemp -d)
START=$(date +%s)
export START
# racecheck's typed hazard reports and a print limit above the default, where this version has them.
RACE_OPTS=""
help=$("$SANITIZER" --help 2>&1)
grep -q -- "--racecheck-report" <<< "$help" && RACE_OPTS="--racecheck-report all"
grep -q -- "--print-limit" <<< "$help" && RACE_OPTS="$RACE_OPTS --print-limit 2000"
export CLI SANITIZER W RACE_OPTS
version=$("$SANITIZER" --version | sed -n 's/.*Version \([0-9][0-9.]*\).*/\1/p' | head -1)
device=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "== $device, compute-sanitizer $version, $CLI, n = $N, $JOBS at once, racecheck options: ${RACE_OPTS:-none}"

"$CLI" list --json | python3 -c '
import json, os, re, sys
only = re.compile(os.environ.get("WS_SANITIZER_ONLY", ""))
for v in json.load(sys.stdin)["variants"]:
    if not v["cpu_only"] and only.search(v["id"]):
        print(v["id"], "true" if v["racy"] else "false")' > "$W/variants.txt"
echo "== $(wc -l < "$W/variants.txt") GPU variants"
t0=$SECONDS
xargs -P "$JOBS" -L 1 bash "$0" --one < "$W/variants.txt" | sort > "$W/runs.txt"
echo "== sanitizer runs: $((SECONDS - t0)) s"

python3 scripts/sanitizer_parse.py collect "$W" --version "$version" --device "$device" \
  --out "$OUT/sanitizer.json" --markdown "$OUT/sanitizer.md"
sed -n '/^[0-9]* variants/,/^| variant/p' "$OUT/sanitizer.md" | head -40

# A report of the same variants at the same sizes (three timed launches), the verdicts attached.
ids=$(awk '{print $1}' "$W/variants.txt" | paste -sd, -)
timeout 300 "$CLI" report --variants "$ids" --n "$N" --repeat 3 --title "compute-sanitizer verdicts, n = $N" \
  --out "$OUT/sanitizer-report.json" > "$W/report.log" 2>&1
conv2d=$(grep -l -- "--width" "$W"/*/args 2>/dev/null | xargs -r -n1 dirname | xargs -r -n1 basename | paste -sd, -)
if [ -n "$conv2d" ]; then
  timeout 120 "$CLI" report --variants "$conv2d" --width 100 --height 77 --repeat 3 --out "$W/report-2d.json" >> "$W/report.log" 2>&1
  [ -f "$OUT/sanitizer-report.json" ] && [ -f "$W/report-2d.json" ] &&
    python3 scripts/merge_reports.py "$OUT/sanitizer-report.json" "$W/report-2d.json"
fi
if [ -f "$OUT/sanitizer-report.json" ]; then
  python3 scripts/merge_reports.py "$OUT/sanitizer-report.json" --sanitizer "$OUT/sanitizer.json"
else
  echo "device-sanitizer: no report written:"; tail -5 "$W/report.log"
fi
tar czf "$OUT/sanitizer-logs.tgz" -C "$W" .
ls -la "$OUT"
