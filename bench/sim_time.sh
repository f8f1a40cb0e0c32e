#!/usr/bin/env bash
# Wall time of `warpscope-cli run --backend sim` for every variant at one n (default 2^24), one table
# row per variant: wall seconds, status, and the run's own host_ms phases when the CLI reports them.
# Usage: bench/sim_time.sh [CLI] [N] [VARIANT_REGEX]   (CLI defaults to build-ci/app/cli/warpscope-cli)
# Variants whose launch rules refuse N (single-block scans, 2-D convolutions sized by --width/--height)
# are run at their own default n and marked so.
set -u
cli=${1:-build-ci/app/cli/warpscope-cli}
n=${2:-2^24}
filter=${3:-.}
[ -x "$cli" ] || { echo "no CLI at $cli (build it: cmake --build --preset ci --target warpscope-cli)" >&2; exit 2; }
now() { date +%s.%N; }
printf '%-30s %9s %-8s %s\n' variant wall_s status note
worst=0
for v in $("$cli" list --json | python3 -c 'import json,sys; [print(x["id"]) for x in json.load(sys.stdin)]' | grep -E -- "$filter"); do
  note=""
  t0=$(now)
  out=$("$cli" run --variant "$v" --backend sim --n "$n" --json 2>&1)
  rc=$?
  t1=$(now)
  if [ $rc -eq 2 ]; then  # the launch rules refuse this n: run at the variant's default size instead
    note="default n ($(echo "$out" | head -c 60))"
    t0=$(now)
    out=$("$cli" run --variant "$v" --backend sim --json 2>&1)
    rc=$?
    t1=$(now)
  fi
  status=$(echo "$out" | python3 -c 'import json,sys
try: print(json.load(sys.stdin).get("status","?"))
except Exception: print("rc'$rc'")' 2>/dev/null)
  wall=$(echo "$t1 - $t0" | bc -l)
  printf '%-30s %9.3f %-8s %s\n' "$v" "$wall" "$status" "$note"
  if (( $(echo "$wall > $worst" | bc -l) )); then worst=$wall; fi
done
printf 'worst %.3f s\n' "$worst"
