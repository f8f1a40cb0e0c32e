#!/usr/bin/env bash
# The round trip of a small request through a local worker, ssh to localhost and a Slurm job step on
# localhost (scripts/local-cluster.sh up first), against in-process: ws_worker_roundtrip ROUNDS times
# per place (each COUNT requests, sim backend), and a markdown table of the medians of its numbers.
#   bash bench/remote_roundtrip.sh [BUILD_DIR] [ROUNDS] [COUNT] [N]    (defaults build-ci 5 1000 1024)
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build-ci}"
rounds="${2:-5}"
count="${3:-1000}"
n="${4:-1024}"
bench="$build/bench/ws_worker_roundtrip"
[ -x "$bench" ] || { echo "remote_roundtrip: $bench is missing (cmake --build --preset ci --target ws_worker_roundtrip)" >&2; exit 1; }
# The far side runs this build's CLI; srun finds the local cluster's slurm.conf.
export WARPSCOPE_REMOTE_CLI="${WARPSCOPE_REMOTE_CLI:-$PWD/$build/app/cli/warpscope-cli}"
[ -n "${SLURM_CONF:-}" ] || eval "$(bash scripts/local-cluster.sh env)"

median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
echo "| worker | start ms | in-process median ms | worker median ms | added median ms | worker p90 ms |"
echo "|---|---:|---:|---:|---:|---:|"
for gpu in local ssh:localhost "slurm:-N1 -n1"; do
  log=$(mktemp)
  for _ in $(seq "$rounds"); do
    "$bench" --backend sim --count "$count" --n "$n" --gpu "$gpu" >>"$log"
  done
  start=$(sed -n 's/.*started in \([0-9.]*\) ms.*/\1/p' "$log" | median)
  inproc=$(awk '$1 == "in-process" {print $3}' "$log" | median)
  worker=$(awk '$1 == "worker" {print $3}' "$log" | median)
  added=$(awk '$1 == "added" {print $3}' "$log" | median)
  p90=$(awk '$1 == "worker" {print $6}' "$log" | median)
  printf '| %s | %.0f | %.3f | %.3f | %.3f | %.3f |\n' "$gpu" "$start" "$inproc" "$worker" "$added" "$p90"
  rm -f "$log"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
