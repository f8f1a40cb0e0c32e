#!/usr/bin/env bash
# The GUI on the GPU machine: build warpscope WITH the GUI, record a real sweep of
# the reduction variants, take headless screenshots of Compare and Plots (Live running), and time
# the UI frame. Two steps:
#
#   1. Here (Debian 12, with apt): download and unpack what the GPU machine lacks.
#        bash scripts/device-gui.sh prepare
#      - GUI build packages (libglfw3-dev libglfw3 libimgui-dev libstb-dev libstb0, the GL/EGL dev
#        files libegl-dev libopengl-dev libgl-dev libglx-dev, X11 headers that EGL/egl.h includes
#        libx11-dev x11proto-dev, and the glvnd libraries the dev symlinks point to) are unpacked into
#        .deps/ (next to nlohmann-json, CLI11 and gtest from the README's recipe).
#      - The glvnd loader (libegl1 libglvnd0 libopengl0 libgl1 libglx0) goes to .gl/ as .debs: the
#        device has NVIDIA's EGL driver but no loader (see the device machine's own README).
#   2. On the device (one `run`, carry [".deps", ".gl"], about 3-6 minutes):
#        bash scripts/device-gui.sh
#      It unpacks .gl/*.deb into / (as the device README says: only there), builds preset `default`
#      for sm_90 only (WS_GUI_ARCH overrides) into build/, then writes to $OUT:
#        sweep-<gpu>.json    warpscope-cli sweep of the variants ($WS_SWEEP_VARIANTS, default reduction)
#                            at n = 2^10 .. 2^28 ($WS_SWEEP_FROM/$WS_SWEEP_TO), median of 10 launches
#        compare.png         Compare, lesson epita, from that report (1600x900)
#        plots.png           Plots, lesson epita: the sweep, and Live run $WS_LIVE_SECONDS (5) seconds
#        present.png         Compare, lesson harris, 2x text, high contrast, focus, 1920x1080
#        benchmark.txt       warpscope --benchmark-frames 200 for compare and plots (JSON lines)
#        log.txt             configure/build tails, device line, sweep progress, stderr of the GUI
#
# Expectations: the build log ends with "GUI ON"; compare.png shows every epita variant with times
# and GB/s (timed on the GPU, not "--"), the best row green; plots.png shows GB/s against n on log
# axes with the theoretical-peak, device-copy and CUB lines and a Live strip of a few thousand
# launches; benchmark.txt has ui_build_ms_median well under 2 ms. If EGL finds no display, the GUI
# says so in log.txt: then export __EGL_VENDOR_LIBRARY_FILENAMES as the device README shows and rerun.
set -uo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = prepare ]; then
  set -e
  mkdir -p .deps/debs-gui .gl
  (cd .deps/debs-gui && apt-get download libglfw3-dev libglfw3 libimgui-dev libstb-dev libstb0 \
      libegl-dev libopengl-dev libgl-dev libglx-dev libx11-dev x11proto-dev \
      libegl1 libglvnd0 libopengl0 libgl1 libglx0 fonts-dejavu-core libgif-dev libgif7)
  for f in .deps/debs-gui/*.deb; do dpkg -x "$f" .deps; done
  (cd .gl && for p in libegl1 libglvnd0 libopengl0 libgl1 libglx0; do cp ../.deps/debs-gui/${p}_*.deb .; done)
  grep -qx '/.gl/' .git/info/exclude 2>/dev/null || grep -qx '/.gl/' .gitignore || echo /.gl/ >> "$(git rev-parse --git-path info/exclude)"
  du -sh .deps .gl
  echo "prepared: run 'bash scripts/device-gui.sh' on the device with carry [\".deps\", \".gl\"]"
  exit 0
fi

OUT="${OUT:-$PWD/out}"
mkdir -p "$OUT"
LOG="$OUT/log.txt"
: > "$LOG"
say() { echo "$*" | tee -a "$LOG"; }

for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export LD_LIBRARY_PATH="$PWD/.deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"  # libglfw.so.3, libstb.so.0
# The GPU machine has no DejaVu fonts: the carried fonts-dejavu-core (prepare) gives the same text as here.
[ -f .deps/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] && export WARPSCOPE_FONTS="$PWD/.deps/usr/share/fonts/truetype/dejavu"
ldconfig -p | grep -q 'libX11.so.6' || say "warning: libX11.so.6 is missing here (libglfw.so.3 needs it): carry libx11-6 too"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a "$LOG"

cmake --preset default -DCMAKE_CUDA_ARCHITECTURES="${WS_GUI_ARCH:-90}" > "$OUT/configure.log" 2>&1
grep -E "warpscope: CUDA backend" "$OUT/configure.log" | tee -a "$LOG"
if ! grep -q "GUI ON" "$OUT/configure.log"; then
  say "configure did not find the GUI packages:"; tail -30 "$OUT/configure.log" >> "$LOG"; rm -f "$OUT/configure.log"; exit 1
fi
rm -f "$OUT/configure.log"
if ! cmake --build build -j "$(nproc)" --target warpscope warpscope-cli > "$OUT/build.log" 2>&1; then
  grep -E "error|Error" "$OUT/build.log" | head -40 >> "$LOG"; rm -f "$OUT/build.log"; say "build failed"; exit 1
fi
rm -f "$OUT/build.log"
say "== build ok"

cli=build/app/cli/warpscope-cli
gui=build/app/gui/warpscope
$cli device >> "$LOG" 2>&1
gpu=$($cli device --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["name"].replace("NVIDIA ","").replace(" ","-").lower())')
sweep="$OUT/sweep-${gpu}.json"
from="${WS_SWEEP_FROM:-10}"; to="${WS_SWEEP_TO:-28}"
say "== sweep ${WS_SWEEP_VARIANTS:-reduction} 2^$from..2^$to"
SECONDS=0
$cli sweep --variants "${WS_SWEEP_VARIANTS:-reduction}" --from "$from" --to "$to" --repeat "${WS_SWEEP_REPEAT:-10}" \
    --title "Reductions, n = 2^$from..2^$to int32, $gpu (warpscope-cli sweep)" --out "$sweep" --force > "$OUT/sweep.txt" 2>> "$LOG"
say "== sweep: exit $? in ${SECONDS} s -> $sweep"
grep -E " 2\^$to " "$OUT/sweep.txt" >> "$LOG"; rm -f "$OUT/sweep.txt"

shot() { say "== $1"; "${@:2}" >> "$LOG" 2>&1; say "   exit $?"; }
shot compare.png $gui --force --screenshot "$OUT/compare.png" --view compare --lesson epita --report "$sweep"
shot plots.png $gui --force --screenshot "$OUT/plots.png" --view plots --lesson epita --report "$sweep" --live-seconds "${WS_LIVE_SECONDS:-5}"
shot present.png $gui --force --screenshot "$OUT/present.png" --view compare --lesson harris --report "$sweep" \
    --font-scale 2 --high-contrast --focus --width 1920 --height 1080
for v in compare plots; do
  $gui --benchmark-frames 200 --view "$v" --report "$sweep" >> "$OUT/benchmark.txt" 2>> "$LOG"
done
cat "$OUT/benchmark.txt" | tee -a "$LOG"
ls -la "$OUT" | tee -a "$LOG"
