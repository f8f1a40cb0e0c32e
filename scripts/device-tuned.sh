#!/usr/bin/env bash
# epita.tuned against cub.reduce in the same runs, on the GPU machine (carry .deps). Builds preset device
# (sm_90) unless WS_SKIP_BUILD=1, then for int32 and float32 at n = $N (2^28): $ROUNDS rounds, each a
# report of epita.tuned, epita.full_unroll and cub.reduce (median of $REPEAT timed launches after the
# runner's warm-up), and prints every round's medians and the ratios cub/variant (> 1: faster than CUB),
# then the median ratio over the rounds. Output: stdout and $OUT/tuned-*.json.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-$PWD/out}"; mkdir -p "$OUT"
N="${N:-2^28}"; ROUNDS="${ROUNDS:-5}"; REPEAT="${REPEAT:-50}"
if [ "${WS_SKIP_BUILD:-0}" != 1 ]; then
  cmake --preset device -DCMAKE_CUDA_ARCHITECTURES=90 > "$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
  cmake --build --preset device -j "$(nproc)" > "$OUT/build.log" 2>&1 || { grep -E "error|Error" "$OUT/build.log" | head -40; exit 1; }
  echo "== build ok"
fi
cli="${CLI:-build-device/app/cli/warpscope-cli}"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
for type in int32 float32; do
  for r in $(seq 1 "$ROUNDS"); do
    $cli report --force --variants epita.tuned,epita.full_unroll,cub.reduce --n "$N" --type "$type" --repeat "$REPEAT" \
      --out "$OUT/tuned-$type-$r.json" > /dev/null 2> "$OUT/tuned-$type-$r.log" || { echo "round $r failed:"; tail -3 "$OUT/tuned-$type-$r.log"; }
  done
  python3 - "$type" "$OUT" "$ROUNDS" <<'PY'
import json, statistics, sys
t, out, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
ratios = {"epita.tuned": [], "epita.full_unroll": []}
for r in range(1, rounds + 1):
    try:
        runs = {x["variant"]: x for x in json.load(open(f"{out}/tuned-{t}-{r}.json"))["runs"]}
    except Exception as e:
        print("round", r, "unreadable:", e); continue
    med = {k: v["time_ms"] for k, v in runs.items()}
    st = {k: v["status"] for k, v in runs.items()}
    line = " ".join(f"{k} {med[k]:.4f} ms ({st[k]})" for k in med)
    for k in ratios:
        ratios[k].append(med["cub.reduce"] / med[k])
    print(f"{t} round {r}: {line}; cub/tuned {ratios['epita.tuned'][-1]:.4f}, cub/full_unroll {ratios['epita.full_unroll'][-1]:.4f}")
for k, v in ratios.items():
    if v: print(f"{t}: {k} = {statistics.median(v):.4f}x cub.reduce (median of {len(v)} rounds; min {min(v):.4f}, max {max(v):.4f})")
PY
done
