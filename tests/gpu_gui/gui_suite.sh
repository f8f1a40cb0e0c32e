#!/usr/bin/env bash
# The GUI on NVIDIA's driver (ctest label gpu-gui; on the GPU machine only, never in CI): every view tab and
# every scene of every lesson rendered headless at 1920x1080 on the GPU, each in a fresh process and then all in
# one long process (warpscope --tour), then Live through the worker for LIVE_SECONDS (30) with at least 1000
# launches shown, then a queue whose middle run faults on the GPU (tests/gpu/fault_worker.cpp), then all of it
# again on the GPU the fault left behind.
#
#   bash tests/gpu_gui/gui_suite.sh BUILD_DIR OUT_DIR
#
# A step fails on a non-zero exit, a missing PNG or a blank one (ws_check_png: colours and foreground
# pixels, not only the exit code), or an OpenGL reset the GUI did not survive. After the fault, NVIDIA's
# driver (580.159.04) resets GL contexts that draw beside CUDA work on that GPU (docs/device/gl-after-fault.md):
# the GUI then draws with Mesa (carried by scripts/device-mesa.sh) or on another GPU, so the second round's
# Live must show 1000 launches too. OUT_DIR gets the PNGs (round-1 and round-2 folders) and suite-log.txt.
# SCENE_SHOTS=0 leaves out the scenes' fresh processes (the --tour process still draws every scene): the
# suite then fits one 600 s call of the device tool. ROUNDS=1 runs the first round alone (on a GPU no kernel
# has faulted on yet, without Mesa carried: the second round's pictures need Mesa or another GPU).
set -uo pipefail
build=${1:?build dir}
out=${2:?out dir}
gui=$build/app/gui/warpscope
check=$build/tests/gui/ws_check_png
fault_worker=$build/tests/ws_gpu_fault_worker
root=$(cd "$(dirname "$0")/../.." && pwd)
LIVE_SECONDS=${LIVE_SECONDS:-30}
SCENE_SHOTS=${SCENE_SHOTS:-1}
ROUNDS=${ROUNDS:-2}
mkdir -p "$out"
log=$out/suite-log.txt
: > "$log"
failures=0
say() { echo "$*" | tee -a "$log"; }
fail() { say "FAIL $*"; failures=$((failures + 1)); }

# shot NAME ARGS...: one fresh process, a 1920x1080 picture, checked for content.
shot() {
  local name=$1; shift
  local png=$out/$round/$name.png t0=$SECONDS
  timeout 300 "$gui" --force --screenshot "$png" --width 1920 --height 1080 "$@" > "$out/last.log" 2>&1
  local rc=$?
  local resets; resets=$(grep -c "reset this OpenGL context" "$out/last.log")
  if [ $rc -ne 0 ]; then
    fail "$round/$name: exit $rc: $(grep -v '^$' "$out/last.log" | tail -1 | cut -c1-300)"
  elif ! "$check" "$png" --size 1920 1080 --min-colors 40 --min-foreground 0.01 > /dev/null 2>&1; then
    fail "$round/$name: blank or missing picture ($("$check" "$png" --size 1920 1080 --min-colors 40 --min-foreground 0.01 2>&1 | tail -1))"
  else
    say "ok   $round/$name ($((SECONDS - t0)) s$([ "$resets" -gt 0 ] && echo ", $resets GL reset(s) survived"))"
  fi
}

views="results tree warps banks source memory metrics scan conv atomics compare plots roofline race ladder pair grid allreduce"
variant_of() {
  case $1 in
    scan) echo stevens.kogge_stone ;;
    conv) echo stevens.conv1d_tiled ;;
    atomics) echo cs121.hist_shared ;;
    grid) echo epita.reduce3 --n 2^16 ;;
    banks) echo harris.impl2 ;;
    *) echo epita.reduce3 ;;
  esac
}

one_round() {
  round=$1
  mkdir -p "$out/$round"
  say "== $round: every view"
  for v in $views; do
    # shellcheck disable=SC2046
    shot "view-$v" --view "$v" --variant $(variant_of "$v") --font-scale 1.5
  done
  say "== $round: every scene of every lesson$([ "$SCENE_SHOTS" = 0 ] && echo " (SCENE_SHOTS=0: in the tour only)")"
  scenes_total=0
  for f in "$root"/assets/lessons/*.json; do
    lesson=$(basename "$f" .json)
    count=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1])).get("scenes", [])))' "$f")
    scenes_total=$((scenes_total + count))
    [ "$SCENE_SHOTS" = 0 ] && continue
    for ((k = 1; k <= count; ++k)); do
      shot "scene-$lesson-$(printf %02d "$k")" --lesson "$lesson" --scene "$k" --font-scale 2 --high-contrast --focus
    done
  done
  say "== $round: every view and every scene again, in one long process (--tour)"
  local t0=$SECONDS expect
  expect=$(( $(echo $views | wc -w) + scenes_total ))
  timeout 1200 "$gui" --force --tour "$out/$round/tour" --width 1920 --height 1080 --variant epita.reduce3 --font-scale 1.5 \
    > "$out/last.log" 2>&1
  local rc=$? shown=0 bad=0 png
  for png in "$out/$round"/tour/*.png; do
    [ -f "$png" ] || continue
    shown=$((shown + 1))
    "$check" "$png" --size 1920 1080 --min-colors 40 --min-foreground 0.01 > /dev/null 2>&1 || { bad=$((bad + 1)); say "     blank: $png"; }
  done
  if [ $rc -ne 0 ] || [ "$shown" -ne "$expect" ] || [ "$bad" -ne 0 ]; then
    fail "$round/tour: exit $rc, $shown of $expect pictures, $bad blank: $(grep -v '^$' "$out/last.log" | tail -1 | cut -c1-300)"
  else
    say "ok   $round/tour: $shown pictures in one process ($((SECONDS - t0)) s$(grep -q 'reset this OpenGL context' "$out/last.log" && echo ", GL reset(s) survived"))"
  fi
  say "== $round: Live through the worker, $LIVE_SECONDS s"
  shot live --view plots --lesson epita --live-seconds "$LIVE_SECONDS"
  launches=$(sed -n 's/.*Live ran .*: \([0-9]*\) launches shown.*/\1/p' "$out/last.log" | tail -1)
  say "     Live: ${launches:-no} launches shown; $(grep -m1 -o 'Live is paused[^.]*' "$out/last.log")"
  if [ "${launches:-0}" -lt 1000 ]; then fail "$round/live: ${launches:-0} launches < 1000"; fi
  say "== $round: a queue whose middle run faults on the GPU"
  WARPSCOPE_CLI="$fault_worker" WS_FAULT_VARIANT=epita.reduce4 WS_FAULT_KIND=oob_write \
    shot fault-queue --lesson epita --view results --n 2^24 \
    --queue epita.reduce2,epita.reduce3,epita.reduce4,epita.reduce5,epita.reduce6
  grep -E "queue:|faulted" "$out/last.log" | head -3 | cut -c1-200 | sed 's/^/     /' | tee -a "$log"
}

nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | tee -a "$log"
xids_before=$(dmesg 2>/dev/null | grep -ci xid)
one_round round-1
[ "$ROUNDS" = 1 ] || one_round round-2
say "== dmesg: $(( $(dmesg 2>/dev/null | grep -ci xid) - xids_before )) new Xid lines; by process:"
dmesg 2>/dev/null | grep -i xid | tail -n +$((xids_before + 1)) | sed -n 's/.*Xid ([^)]*): \([0-9]*\), pid=[0-9]*, name=\([^,]*\).*/Xid \1 \2/p' \
  | sort | uniq -c | tee -a "$log"
say "== gpu-gui suite: $failures failure(s)"
[ "$failures" -eq 0 ]
