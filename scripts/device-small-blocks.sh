#!/usr/bin/env bash
# GPU machine, after a device build (build-device/): the teaching blocks of 8 and 16 threads run and
# check on the GPU for every variant that allows them, the block scans at 16, GPU-recorded traces of a
# 16-thread block equal the model, and the race lesson on ones loses updates. Prints one line per run.
set -uo pipefail
cd "$(dirname "$0")/.."
cli=build-device/app/cli/warpscope-cli
fails=0
for v in epita.race epita.reduce0 epita.reduce1 epita.reduce2 epita.reduce3 epita.reduce4 epita.add_twice epita.reduce5 \
         epita.reduce7 harris.multipass harris.impl1 harris.impl2 harris.impl3 harris.impl4 stevens.reduce_divergent stevens.reduce_compact; do
  for b in 8 16; do
    line=$($cli run --variant $v --block $b --n 1000 --input sequence 2>&1 | grep -E '^  result|error|refuse' | tr -s ' ')
    echo "$v block $b:$line"
    case "$line" in *" ok"*|*race*) ;; *) fails=$((fails + 1));; esac
  done
done
for v in stevens.scan_naive stevens.kogge_stone stevens.kogge_stone_db stevens.brent_kung; do
  line=$($cli run --variant $v --block 16 --n 16 --input sequence 2>&1 | grep -E '^  result|error' | tr -s ' ')
  echo "$v block 16 n 16:$line"
  case "$line" in *" ok"*) ;; *) fails=$((fails + 1));; esac
done
for v in epita.reduce3 stevens.kogge_stone; do
  line=$($cli trace --variant $v --block 16 --n 16 --input sequence --backend cuda --json | python3 -c 'import json,sys; j=json.load(sys.stdin); print(" matches_model", j.get("matches_model"), j.get("difference",""))')
  echo "trace --backend cuda $v block 16:$line"
  case "$line" in *True*) ;; *) fails=$((fails + 1));; esac
done
echo "race on ones: $($cli run --variant epita.race --input ones 2>&1 | grep -E '^  result' | tr -s ' ')"
echo "small blocks: $fails failed"
