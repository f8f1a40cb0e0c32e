#!/usr/bin/env bash
# UI frame build, this tree against an older version of some files, in one device call (issue 31): builds
# `warpscope` (preset default, sm_90) as the tree is ("new"), then with $AB_FILES as they were at $AB_REF
# ("old"), and times both alternately, $AB_ROUNDS (5) rounds of 300 frames at 1920x1080 on the synthetic
# 40-line report, each view of $AB_VIEWS (plots compare). Also "new" with $AB_NEW_ENV set (a switch to
# measure, e.g. WS_NO_DASH_CACHE=1) when given. Prints one line per run and the medians; logs under $OUT.
#   AB_REF=HEAD~1 AB_FILES=app/ui/widgets/plot.cpp OUT=$OUT bash scripts/device-ui-ab.sh
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-$PWD/out}"; mkdir -p "$OUT"
: "${AB_REF:?AB_REF: the git ref of the old files}" "${AB_FILES:?AB_FILES: the files to take from AB_REF}"
export LD_LIBRARY_PATH="$PWD/.deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
[ -f .deps/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] && export WARPSCOPE_FONTS="$PWD/.deps/usr/share/fonts/truetype/dejavu"
B=$(mktemp -d)
t0=$SECONDS
{ cmake --preset default -DCMAKE_CUDA_ARCHITECTURES=90 && cmake --build build -j "$(nproc)" --target warpscope ws_make_synthetic_report; } \
  > "$OUT/ui-ab-build.log" 2>&1 || { grep -E "error|Error" "$OUT/ui-ab-build.log" | head -30; exit 1; }
cp build/app/gui/warpscope "$B/new"
# AB_REF: a git ref, or a folder holding the old files at their paths (a machine without the repository's history)
for f in $AB_FILES; do
  cp "$f" "$B/$(basename "$f").new"
  if [ -d "$AB_REF" ]; then cp "$AB_REF/$f" "$f"; else git show "$AB_REF:$f" > "$f"; fi
done
cmake --build build -j "$(nproc)" --target warpscope >> "$OUT/ui-ab-build.log" 2>&1 || { grep -E "error" "$OUT/ui-ab-build.log" | head; exit 1; }
cp build/app/gui/warpscope "$B/old"
for f in $AB_FILES; do cp "$B/$(basename "$f").new" "$f"; done
cmake --build build -j "$(nproc)" --target warpscope >> "$OUT/ui-ab-build.log" 2>&1
echo "== builds ok ($((SECONDS - t0)) s), old = $AB_FILES from $AB_REF"
build/tests/gui/ws_make_synthetic_report "$B/many.json" many > /dev/null
runs="old new"; [ -n "${AB_NEW_ENV:-}" ] && runs="old new switched"
for r in $(seq 1 "${AB_ROUNDS:-5}"); do
  for view in ${AB_VIEWS:-plots compare}; do
    for b in $runs; do
      bin=$B/$b; envs=""; [ "$b" = switched ] && bin=$B/new envs="$AB_NEW_ENV"
      env $envs timeout 60 "$bin" --benchmark-frames 300 --view "$view" --report "$B/many.json" --width 1920 --height 1080 \
        2> /dev/null | tail -1 | python3 -c 'import json,sys; j=json.load(sys.stdin); print(sys.argv[1], sys.argv[2], sys.argv[3], j["ui_build_ms_median"])' "$view" "$b" "$r" \
        | tee -a "$OUT/ui-ab.txt"
    done
  done
done
python3 - "$OUT/ui-ab.txt" <<'PY'
import collections, statistics, sys
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    view, b, r, ms = line.split(); d[(view, b)].append(float(ms))
for (view, b), v in sorted(d.items()):
    print(f"{view:8s} {b:9s} median {statistics.median(v):.3f} ms  rounds {' '.join(f'{x:.3f}' for x in v)}")
PY
