#!/usr/bin/env bash
# Everything a session's changes need on the GPU machine, in two back-to-back `device` calls (carry
# .deps and .gl, prepared by `bash scripts/device-gui.sh prepare`; the second call must find the first
# one's build/, so make it while the machine is warm):
#   bash scripts/device-session.sh tests   build preset `default` for sm_90 (CLI, GUI, GPU tests,
#                                          benches) into build/, every GPU test (ws_gpu_tests and
#                                          ws_gpu_context_tests)
#   bash scripts/device-session.sh bench   same-run ratios against CUB (reductions incl. epita.tuned,
#                                          scans, histograms, filters, 2-D convolution), Live through
#                                          the worker against in-process, PC sampling from the CLI, the
#                                          lessons' replay report, the GUI's faulted queue, the sim
#                                          backend's time on two cores
#   bash scripts/device-session.sh gui     after `tests` on the same warm machine (or alone: it builds what it
#                                          needs): the GUI on NVIDIA's driver, `ctest -L gpu-gui` (every view
#                                          and scene, Live, a faulting queue, twice; tests/gpu_gui/gui_suite.sh).
#                                          Run it for every change to app/gui or app/ui, and look at its PNGs.
# Each phase packs its logs, reports and tables into $OUT/<phase>.tgz and prints a summary.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-$PWD/out}"; mkdir -p "$OUT"
phase="${1:-tests}"
W=$(mktemp -d)
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export LD_LIBRARY_PATH="$PWD/.deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
[ -f .deps/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] && export WARPSCOPE_FONTS="$PWD/.deps/usr/share/fonts/truetype/dejavu"
cli=build/app/cli/warpscope-cli
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
if [ "$phase" = tests ]; then
  t0=$SECONDS
  cmake --preset default -DCMAKE_CUDA_ARCHITECTURES=90 > "$W/configure.log" 2>&1 || { tail -30 "$W/configure.log"; exit 1; }
  grep -E "warpscope: CUDA backend" "$W/configure.log"
  cmake --build build -j "$(nproc)" > "$W/build.log" 2>&1 || { grep -E "error|Error" "$W/build.log" | head -40; exit 1; }
  echo "== build ok ($((SECONDS - t0)) s)"
  t0=$SECONDS
  timeout 400 build/tests/ws_gpu_tests > "$W/gpu-tests.log" 2>&1
  echo "== ws_gpu_tests: exit $? ($((SECONDS - t0)) s)"
  grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]|^\[ (gpu|warning|trace)" "$W/gpu-tests.log" | cut -c1-220 | tail -60
  grep -B2 -A8 "Failure" "$W/gpu-tests.log" | cut -c1-220 | head -60
  timeout 100 build/tests/ws_gpu_context_tests > "$W/context-tests.log" 2>&1
  echo "== ws_gpu_context_tests: exit $?"; grep -E "^\[  PASSED  \]|^\[  FAILED  \]" "$W/context-tests.log"
  # The other GPU test programs (ctest label gpu): the editor's copies, traced edits, ...
  for t in build/tests/ws_gpu_*_tests; do
    case $(basename "$t") in ws_gpu_tests|ws_gpu_context_tests) continue ;; esac
    t0=$SECONDS
    timeout 300 "$t" > "$W/$(basename "$t").log" 2>&1
    echo "== $(basename "$t"): exit $? ($((SECONDS - t0)) s)"
    grep -E "^\[  PASSED  \]|^\[  FAILED  \]|^\[ gpu " "$W/$(basename "$t").log" | cut -c1-200 | tail -70
    grep -B2 -A8 "Failure" "$W/$(basename "$t").log" | cut -c1-220 | head -40
  done
elif [ "$phase" = gui ]; then
  if [ ! -x build/app/gui/warpscope ] || [ ! -x build/tests/ws_gpu_fault_worker ]; then
    cmake --preset default -DCMAKE_CUDA_ARCHITECTURES=90 > "$W/configure.log" 2>&1 || { tail -30 "$W/configure.log"; exit 1; }
    cmake --build build -j "$(nproc)" --target warpscope warpscope-cli ws_check_png ws_gpu_fault_worker > "$W/build.log" 2>&1 \
      || { grep -E "error|Error" "$W/build.log" | head -40; exit 1; }
  fi
  # Mesa beside NVIDIA (scripts/device-mesa.sh install): where the only GPU faulted, the GUI draws with it.
  [ -d /tmp/ws-mesa/lib ] && source <(bash scripts/device-mesa.sh env)
  t0=$SECONDS
  ctest --test-dir build -L gpu-gui --output-on-failure > "$W/gpu-gui.log" 2>&1
  echo "== ctest -L gpu-gui: exit $? ($((SECONDS - t0)) s)"
  grep -E "^(ok|FAIL|==|     )" build/tests/gpu_gui/suite-log.txt | grep -vE "^ok +round-./(view|scene)" | cut -c1-220
  grep -c "^ok" build/tests/gpu_gui/suite-log.txt | sed 's/^/pictures ok: /'
  cp build/tests/gpu_gui/suite-log.txt "$W/"
  # The pictures in tarballs of their own (one file from $OUT may hold 16 MB): views, live and queue of
  # both rounds; the scenes of the second round (after the fault).
  (cd build/tests/gpu_gui && tar czf "$OUT/gui-views.tgz" round-*/view-* round-*/live.png round-*/fault-queue.png \
     && tar czf "$OUT/gui-scenes.tgz" round-2/scene-*)
  # The editor's pictures (the lecturer's demo without reduce3's barrier, a fault, a compile error, ...).
  (cd build/tests && tar czf "$OUT/gui-editor.tgz" editor_*.png 2>/dev/null)
else
  [ -x "$cli" ] || { echo "no $cli: run the tests phase first (on this warm machine)"; exit 2; }
  gpu=$($cli device --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["name"].replace("NVIDIA ","").replace(" ","-").lower())')
  echo "== epita.tuned against cub.reduce"
  OUT="$W/tuned" WS_SKIP_BUILD=1 CLI=$cli bash scripts/device-tuned.sh 2>&1 | grep -E "x cub|failed"
  echo "== same-run ratios at 2^28 (median of 20)"
  ratio() {  # NAME BASE VARIANTS ARGS...
    local name=$1 base=$2 variants=$3; shift 3
    timeout 200 $cli report --force --variants "$variants" --n 2^28 --repeat 20 "$@" --out "$W/ratios-$name.json" > /dev/null 2> "$W/ratios-$name.log" \
      || { echo "$name failed"; tail -3 "$W/ratios-$name.log"; return; }
    python3 scripts/bench_table.py "$W/ratios-$name.json" "$base" > "$W/ratios-$name.md"; tail -1 "$W/ratios-$name.md"
  }
  ratio reductions cub.reduce reduction
  ratio scans cub.scan stevens.scan_hierarchical,scan.decoupled_lookback,cub.scan
  ratio histograms cub.histogram cs121.hist_shared,cs121.hist_shared_vec,cub.histogram
  ratio filters cub.select cs121.filter_scan,cs121.filter_scan_vec,cs121.filter_warp_agg,cub.select
  echo "== Live through the worker against in-process"
  for args in "--seconds 10" "--seconds 10 --variants epita.reduce3,epita.reduce5,harris.impl6,cub.reduce --n 2^20"; do
    timeout 60 build/bench/ws_live_rate --backend cuda $args 2>&1 | tail -4
  done
  timeout 60 build/bench/ws_worker_roundtrip --backend cuda --count 1000 2>&1 | tail -3
  echo "== PC sampling from the CLI"
  for v in harris.impl1 epita.reduce0 epita.reduce6; do
    timeout 60 $cli run --variant "$v" --n 2^24 --metrics pcsampling > "$W/pcsampling-$v.txt" 2>&1
    echo "$v: exit $?"; sed -n '/stalls (PC sampling/,$p' "$W/pcsampling-$v.txt" | head -14
  done
  echo "== lessons' replay report and the GUI's faulted queue"
  OUT="$W/lessons" WS_SKIP_BUILD=1 SIM_VARIANTS=. bash scripts/device-lesson-data.sh 2>&1 | grep -vE "^(NVIDIA|--)" | tail -14
fi
tar czf "$OUT/$phase.tgz" -C "$W" --exclude='*.o' .
ls -la "$OUT"
