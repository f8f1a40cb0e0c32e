#!/usr/bin/env bash
# One device call for the replay data of every lesson and the GUI's fault handling on the GPU machine.
# Prepare here first: `bash scripts/device-gui.sh prepare`; then on the device, carry [".deps", ".gl"]:
#   bash scripts/device-lesson-data.sh
# Builds preset `default` (GUI ON, sm_90) into build/, then writes to $OUT:
#   nvidia-<gpu>-lessons.json  every variant of every lesson at n = $N (2^24): timings (repeat 20),
#                              CUPTI metrics (the default group) and GPU-recorded step traces
#   gui-fault-queue.png        the GUI's Results after a queue whose middle run faults (an out-of-bounds
#                              write launched by tests/gpu/fault_worker.cpp in place of $FAULT_VARIANT)
#   sim-2cores.txt             bench/sim_time.sh pinned to two cores (taskset -c 0,1): the sim backend's
#                              time to result at 2^24 on a quiet two-core share of this machine
#   log.txt                    build tails, device line, what each step printed
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-$PWD/out}"; mkdir -p "$OUT"; LOG="$OUT/log.txt"; : > "$LOG"
say() { echo "$*" | tee -a "$LOG"; }
N="${N:-2^24}"; FAULT_VARIANT="${FAULT_VARIANT:-epita.reduce4}"

for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export LD_LIBRARY_PATH="$PWD/.deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
[ -f .deps/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] && export WARPSCOPE_FONTS="$PWD/.deps/usr/share/fonts/truetype/dejavu"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a "$LOG"

if [ "${WS_SKIP_BUILD:-0}" != 1 ]; then
  cmake --preset default -DCMAKE_CUDA_ARCHITECTURES=90 > "$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
  grep -E "warpscope: CUDA backend" "$OUT/configure.log" | tee -a "$LOG"
  t0=$(date +%s)
  cmake --build build -j "$(nproc)" > "$OUT/build.log" 2>&1 || { grep -E "error|Error" "$OUT/build.log" | head -40; exit 1; }
  say "== build ok ($(( $(date +%s) - t0 )) s)"
fi
cli=build/app/cli/warpscope-cli; gui=build/app/gui/warpscope
gpu=$($cli device --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["name"].replace("NVIDIA ","").replace(" ","-").lower())')

if [ "${WS_SKIP_GUI:-0}" != 1 ]; then
say "== GUI queue with a fault in the middle ($FAULT_VARIANT)"
WARPSCOPE_CLI="$PWD/build/tests/ws_gpu_fault_worker" WS_FAULT_VARIANT="$FAULT_VARIANT" WS_FAULT_KIND=oob_write \
  timeout 200 $gui --force --screenshot "$OUT/gui-fault-queue.png" --lesson epita --view results --n 2^24 \
  --queue epita.reduce2,epita.reduce3,"$FAULT_VARIANT",epita.reduce5,epita.reduce6,harris.impl7 \
  --width 1920 --height 1080 --font-scale 1.5 >> "$LOG" 2>&1
say "   exit $?"
fi

if [ "${WS_SKIP_REPORT:-0}" != 1 ]; then
  say "== lessons report, n = $N, metrics default, traces"
  t0=$(date +%s)
  timeout 420 $cli report --force --variants all --n "$N" --repeat 20 --metrics default --traces 1024 \
    --title "Every lesson's variants, n = $N, $gpu (CUPTI metrics; GPU-recorded step traces, block 0 of n = 1024)" \
    --out "$OUT/nvidia-${gpu}-lessons.json" > "$OUT/report-table.txt" 2> "$OUT/report.log"
  say "   exit $? in $(( $(date +%s) - t0 )) s"; tail -4 "$OUT/report.log" | tee -a "$LOG"
  # The variants whose rules refuse n = 2^24 run at the sizes they take, into parts merged into one report.
  part() {  # NAME VARIANTS ARGS...
    local name=$1 variants=$2; shift 2
    timeout 200 $cli report --force --variants "$variants" "$@" --repeat 20 --metrics default --out "$OUT/part-$name.json" \
      > /dev/null 2> "$OUT/part-$name.log" || { say "   part $name failed:"; tail -3 "$OUT/part-$name.log" | tee -a "$LOG"; }
  }
  part conv2d stevens.conv2d_basic,stevens.conv2d_tiled,stevens.conv2d_tiled_coarse,stevens.conv2d_register_tiled --width 4096 --height 4096
  part scan_naive stevens.scan_naive --n 2^20
  part block_scans stevens.kogge_stone,stevens.kogge_stone_db --n 1024
  part brent_kung stevens.brent_kung --n 2048
  part counters cs121.race,cs121.atomic_counter --n 16777000
  python3 scripts/merge_reports.py "$OUT/nvidia-${gpu}-lessons.json" "$OUT"/part-*.json \
    --title "Every lesson's variants on the $gpu: n = $N (2-D convolutions 4096 x 4096, single-block scans and counters at the sizes they take); CUPTI metrics; GPU-recorded step traces of block 0 of n = 1024" \
    | tee -a "$LOG"
fi

if [ "${WS_SKIP_SIM:-0}" != 1 ]; then
  say "== sim time to result on two cores"
  taskset -c 0,1 bash bench/sim_time.sh "$cli" 2^24 "${SIM_VARIANTS:-.}" > "$OUT/sim-2cores.txt" 2>&1
  say "   exit $?"; sort -k3 -n -r "$OUT/sim-2cores.txt" | head -5 | tee -a "$LOG"
fi
