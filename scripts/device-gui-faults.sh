#!/usr/bin/env bash
# The GUI on a GPU after CUDA kernels faulted on it (issue 24): reproduce, and bisect between the smallest GL
# programs (tests/gpu_gui/gl_probe.cpp: glClear, a triangle from a VBO, the same indexed, ImGui's OpenGL3
# backend alone) and warpscope itself, before and after each kind of fault. On the GPU machine, carry
# [".deps", ".gl"] (prepared here by `bash scripts/device-gui.sh prepare`):
#
#   bash scripts/device-gui-faults.sh build    build preset `default` for sm_90 into build/ (GUI, CLI, GPU
#                                              tests, the probe): 3-6 min
#   bash scripts/device-gui-faults.sh          the sequence: probes and GUI pictures before, then each fault
#                                              of GpuWorkerFaults alone, the probes and the GUI after each,
#                                              dmesg's new Xid lines after every step
#   bash scripts/device-gui-faults.sh after    after one fault: the GUI's pictures (views drawn after the worker
#                                              opened) and Live 30 s (a reset survived: a new context, on another
#                                              GPU when there is one); on a two-GPU machine Live goes on there
#   bash scripts/device-gui-faults.sh issue    issue 24's sequence with Mesa beside NVIDIA (scripts/device-mesa.sh
#                                              install first): three pictures (Live 3 s) before, every
#                                              GpuWorkerFaults test, the same after and Live 30 s; counts the
#                                              Xid lines dmesg charges to warpscope after the faults
#   bash scripts/device-gui-faults.sh pairs    (or `build pairs`) GL beside a second process on the same GPU,
#                                              before and after one illegal-address fault: an idle CUDA
#                                              context, one copying, an idle `warpscope-cli worker`, a second
#                                              GL process; then the GUI with its worker on and off
#
# Writes to $OUT: faults-log.txt (everything printed), and the GUI's PNGs of the first and last round.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-$PWD/out}"; mkdir -p "$OUT"
LOG="$OUT/faults-log.txt"
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export LD_LIBRARY_PATH="$PWD/.deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
[ -f .deps/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] && export WARPSCOPE_FONTS="$PWD/.deps/usr/share/fonts/truetype/dejavu"

if [ "${1:-}" = build ]; then
  SECONDS=0
  cmake --preset default -DCMAKE_CUDA_ARCHITECTURES="${WS_GUI_ARCH:-90}" > /tmp/faults-configure.log 2>&1 \
    || { tail -30 /tmp/faults-configure.log; exit 1; }
  grep -E "warpscope: CUDA backend" /tmp/faults-configure.log
  cmake --build build -j "$(nproc)" --target warpscope warpscope-cli ws_gpu_tests ws_gpu_fault_worker ws_gl_probe \
    > /tmp/faults-build.log 2>&1 || { grep -E -B3 "error|Error" /tmp/faults-build.log | head -60; exit 1; }
  echo "== build ok in $SECONDS s"
  [ -n "${2:-}" ] || exit 0
  set -- "$2"
fi

gui=build/app/gui/warpscope
probe=build/tests/ws_gl_probe
tests=build/tests/ws_gpu_tests
for b in "$gui" "$probe" "$tests"; do [ -x "$b" ] || { echo "no $b: run '$0 build' first"; exit 2; }; done
: > "$LOG"
SHOTS=$(mktemp -d)
say() { echo "$*" | tee -a "$LOG"; }
xid_seen=$(dmesg 2>/dev/null | grep -ci xid)
new_xids() {  # prints the Xid lines dmesg gained since the last call
  local now; now=$(dmesg 2>/dev/null | grep -ci xid)
  if [ "$now" -gt "$xid_seen" ]; then
    dmesg | grep -i xid | tail -n $((now - xid_seen)) | cut -c1-230 | sed 's/^/   dmesg: /' | tee -a "$LOG"
  fi
  xid_seen=$now
}
probes() {  # the GL programs, smallest first
  local m s
  for m in clear triangle indexed imgui; do
    for s in "" --pbuffer; do timeout 60 "$probe" "$m" $s 2>&1 | tail -1 | sed 's/^/   probe /' | tee -a "$LOG"; done
  done
  new_xids
}
shot() {  # NAME [VAR=VALUE ...] -- warpscope options...
  local name=$1; shift
  local envs=()
  while [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  local t0=$SECONDS
  timeout 120 env "${envs[@]}" "$gui" --force --screenshot "$SHOTS/$name.png" "$@" > /tmp/shot.log 2>&1
  local rc=$?
  say "   gui $name (${envs[*]}): exit $rc in $((SECONDS - t0)) s; $(grep -E 'reset|Live ran|error|abort|Drawing|picture' /tmp/shot.log | head -3 | cut -c1-300 | tr '\n' ' ')"
  new_xids
}
round() {  # TAG: the probes and three GUI pictures
  local tag=$1
  say "== $tag"
  probes
  shot "$tag-compare" -- --view compare --lesson epita
  shot "$tag-plots" -- --view plots --lesson epita --live-seconds 3
  shot "$tag-tree" -- --view tree --variant epita.reduce3
}

nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a "$LOG"
say "== dmesg Xid lines before anything: $xid_seen"
beside() {  # LABEL HOLDER...: the ImGui probe (300 frames) and the triangle while HOLDER runs on the same GPU
  local label=$1; shift
  setsid "$@" > /tmp/holder.log 2>&1 &
  local pid=$!
  sleep 3
  say "   beside $label:"
  timeout 60 "$probe" imgui --frames 300 2>&1 | tail -1 | sed 's/^/     probe /' | tee -a "$LOG"
  timeout 60 "$probe" triangle 2>&1 | tail -1 | sed 's/^/     probe /' | tee -a "$LOG"
  kill -- -"$pid" 2>/dev/null; wait "$pid" 2>/dev/null
  tail -1 /tmp/holder.log | sed 's/^/     holder: /' | tee -a "$LOG"
  new_xids
}
pairs() {
  beside "an idle CUDA context" "$probe" cuda-hold 30
  beside "a CUDA context copying" "$probe" cuda-copy 30
  beside "an idle warpscope-cli worker" bash -c "sleep 40 | build/app/cli/warpscope-cli worker"
  beside "a second GL process" "$probe" imgui --frames 3000
  shot "$1-gui" -- --view compare --lesson epita
  shot "$1-gui-noworkergpu" CUDA_VISIBLE_DEVICES= -- --view compare --lesson epita
}
if [ "${1:-}" = priority ]; then  # after one fault: the ImGui probe beside a copying CUDA context, per context kind
  timeout 120 "$tests" --gtest_filter="GpuWorkerFaults.IllegalAddress" 2>&1 | grep -E "^\[ +(OK|FAILED) " | tee -a "$LOG"
  new_xids
  setsid "$probe" cuda-copy 400 > /tmp/holder.log 2>&1 &
  holder=$!
  sleep 3
  for args in "" "--plain" "--priority high" "--priority low" "--plain --priority high" "--pbuffer"; do
    timeout 60 "$probe" imgui --frames 300 $args 2>&1 | tail -2 | tr '\n' ' ' | sed 's/^/   probe /' | tee -a "$LOG"; echo | tee -a "$LOG"
    new_xids | tail -1
  done
  kill -- -"$holder"
  exit 0
fi
if [ "${1:-}" = after ]; then
  nvidia-smi --query-gpu=index,name --format=csv,noheader | tee -a "$LOG"
  shot before-live -- --view plots --lesson epita --live-seconds 5
  timeout 120 "$tests" --gtest_filter="GpuWorkerFaults.IllegalAddress" 2>&1 | grep -E "^\[ +(OK|FAILED) " | tee -a "$LOG"
  new_xids
  shot after-compare -- --view compare --lesson epita
  shot after-tree -- --view tree --variant epita.reduce3
  shot after-grid -- --view grid --variant epita.reduce3 --n 2^16
  shot after-live -- --view plots --lesson epita --live-seconds 30
  grep -E "reset|Live" /tmp/shot.log | cut -c1-400 | sed 's/^/   /' | tee -a "$LOG"
  cp "$SHOTS/after-live.png" "$SHOTS/after-compare.png" "$OUT/" 2>/dev/null
  exit 0
fi
if [ "${1:-}" = issue ]; then
  source <(bash scripts/device-mesa.sh env)
  "$probe" devices 2>&1 | cut -c1-300 | sed 's/^/   /' | tee -a "$LOG"
  say "== before the faults"
  shot before-compare -- --view compare --lesson epita
  shot before-plots -- --view plots --lesson epita --live-seconds 3
  shot before-tree -- --view tree --variant epita.reduce3
  say "== GpuWorkerFaults.*"
  timeout 300 "$tests" --gtest_filter="GpuWorkerFaults.*" 2>&1 | grep -E "^\[ +(OK|FAILED|PASSED) " | tee -a "$LOG"
  new_xids
  cat /tmp/warpscope-*/gpu-faults/*.json "${XDG_RUNTIME_DIR:-/nonexistent}"/warpscope/gpu-faults/*.json 2>/dev/null \
    | cut -c1-300 | sed 's/^/   mark: /' | tee -a "$LOG"
  gui_xids_before=$(dmesg 2>/dev/null | grep -i xid | grep -c "name=warpscope")
  say "== after the faults"
  shot after-compare -- --view compare --lesson epita
  shot after-plots -- --view plots --lesson epita --live-seconds 3
  shot after-tree -- --view tree --variant epita.reduce3
  shot after-live30 -- --view plots --lesson epita --live-seconds 30
  say "== Xid lines charged to warpscope after the faults: $(( $(dmesg 2>/dev/null | grep -i xid | grep -c "name=warpscope") - gui_xids_before ))"
  cp "$SHOTS"/*.png "$OUT/" 2>/dev/null
  exit 0
fi
if [ "${1:-}" = lock ]; then  # after one fault: GL beside a copying CUDA context, their GPU work serialised by flock
  timeout 120 "$tests" --gtest_filter="GpuWorkerFaults.IllegalAddress" 2>&1 | grep -E "^\[ +(OK|FAILED) " | tee -a "$LOG"
  new_xids
  setsid "$probe" cuda-copy 100 --lock /tmp/ws-gpu.lock > /tmp/holder.log 2>&1 &
  holder=$!
  sleep 3
  for frames in 300 3000; do
    timeout 60 "$probe" imgui --frames $frames --lock /tmp/ws-gpu.lock 2>&1 | tail -1 | sed "s/^/   probe ($frames frames, locked) /" | tee -a "$LOG"
    new_xids | tail -2
  done
  kill -- -"$holder"; wait "$holder" 2>/dev/null; tail -1 /tmp/holder.log | sed 's/^/   holder: /' | tee -a "$LOG"
  setsid "$probe" cuda-copy 100 > /tmp/holder.log 2>&1 &
  holder=$!
  sleep 3
  timeout 40 "$probe" imgui --frames 300 2>&1 | tail -1 | sed "s/^/   probe (300 frames, not locked) /" | tee -a "$LOG"
  echo "   (timeout: $?)" | tee -a "$LOG"
  new_xids | tail -2
  kill -- -"$holder"
  exit 0
fi
if [ "${1:-}" = pairs ]; then
  say "== before any fault"
  pairs before
  say "== fault: GpuWorkerFaults.IllegalAddress"
  timeout 120 "$tests" --gtest_filter="GpuWorkerFaults.IllegalAddress" 2>&1 | grep -E "^\[ +(OK|FAILED) " | tee -a "$LOG"
  new_xids
  say "== after the fault"
  probes
  pairs after
  tar czf "$OUT/shots.tgz" -C "$SHOTS" .
  exit 0
fi
round before
for fault in IllegalAddress Trap EndlessKernelIsKilledByTheWatchdog; do
  say "== fault: GpuWorkerFaults.$fault"
  timeout 120 "$tests" --gtest_filter="GpuWorkerFaults.$fault" 2>&1 | grep -E "^\[ +(OK|FAILED|PASSED) " | tee -a "$LOG"
  new_xids
  say "== after $fault"
  probes
  shot "after-$fault-compare" -- --view compare --lesson epita
  [ "$fault" = IllegalAddress ] || continue
  # What differs from the probes: the shader cache on disk, the worker's CUDA context beside the GUI.
  shot "after-$fault-nocache" __GL_SHADER_DISK_CACHE=0 -- --view compare --lesson epita
  shot "after-$fault-noworkergpu" CUDA_VISIBLE_DEVICES= -- --view compare --lesson epita
  shot "after-$fault-gldebug" WARPSCOPE_GL_DEBUG=1 -- --view compare --lesson epita
  grep -m8 "GL debug" /tmp/shot.log | cut -c1-200 | sed 's/^/   /' | tee -a "$LOG"
done
round after-all
tar czf "$OUT/shots.tgz" -C "$SHOTS" .
ls -la "$OUT" | tee -a "$LOG"
