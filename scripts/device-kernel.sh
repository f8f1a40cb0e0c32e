#!/usr/bin/env bash
# Your own kernel on the GPU machine (docs/your-kernel.md), one `device` call (carry .deps, as for
# scripts/device-session.sh): builds preset `device` (sm_90, no GUI) into build-device, then
#   - ws_cuda_unit_tests Nvrtc.*: NVRTC compiles there too (label unit)
#   - ws_gpu_tests GpuUserKernel.*: edited reduce3 correct and timed, wrong, compile error on its line,
#     fault and endless kernel through a worker (the next run works), bank conflicts and per-line counters
#   - ws_gpu_tests GpuGrade.*: grading on the GPU (exercises)
#   - the edit -> checked, timed result wall time of `warpscope-cli run --kernel` at n = 2^24 through a
#     local worker: first with an empty module cache (NVRTC runs), then cached; and in-process
# Logs go to $OUT (kernel-*.log); a summary is printed.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-$PWD/out}"; mkdir -p "$OUT"
export LD_LIBRARY_PATH="$PWD/.deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
t0=$SECONDS
if [ -z "${WS_SKIP_BUILD:-}" ]; then
  cmake --preset device > "$OUT/kernel-configure.log" 2>&1 || { tail -30 "$OUT/kernel-configure.log"; exit 1; }
  cmake --build build-device -j "$(nproc)" --target warpscope-cli ws_gpu_tests ws_cuda_unit_tests \
    > "$OUT/kernel-build.log" 2>&1 || { grep -E "error|Error" "$OUT/kernel-build.log" | head -40; exit 1; }
  echo "== build ok ($((SECONDS - t0)) s)"
fi
B=${KERNEL_BUILD:-build-device}
cli=$B/app/cli/warpscope-cli
summary() { grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[ (gpu|fault)" "$1" | cut -c1-260; grep -B2 -A10 "Failure" "$1" | cut -c1-260 | head -60; }
timeout 120 $B/tests/ws_cuda_unit_tests --gtest_filter='Nvrtc.*' > "$OUT/kernel-nvrtc.log" 2>&1
echo "== Nvrtc.*: exit $?"; summary "$OUT/kernel-nvrtc.log"
timeout 300 $B/tests/ws_gpu_tests --gtest_filter='GpuUserKernel.*:GpuGrade.*' > "$OUT/kernel-gpu-tests.log" 2>&1
echo "== GpuUserKernel.*, GpuGrade.*: exit $?"; summary "$OUT/kernel-gpu-tests.log"

echo "== edit -> checked, timed result (n = 2^24, reduce_good.cu as an edited epita.reduce3)"
export XDG_CACHE_HOME=$(mktemp -d)
k=tests/kernels/reduce_good.cu
wall() {  # LABEL ARGS...: wall seconds of one CLI run, its output kept in the log
  local label=$1; shift
  local s=$(date +%s%N)
  timeout 60 $cli run "$@" > "$OUT/kernel-run-$label.log" 2>&1; local rc=$?
  local e=$(date +%s%N)
  printf "%-20s rc %d  wall %5d ms  | %s\n" "$label" $rc $(( (e - s) / 1000000 )) \
    "$(grep -E "your kernel|ms|Error|error" "$OUT/kernel-run-$label.log" | head -2 | tr '\n' ' ' | cut -c1-200)"
}
wall worker-first --kernel $k --like epita.reduce3 --n 2^24 --gpu local
wall worker-cached --kernel $k --like epita.reduce3 --n 2^24 --gpu local
rm -rf "$XDG_CACHE_HOME"/warpscope
wall inprocess-first --kernel $k --like epita.reduce3 --n 2^24
wall inprocess-cached --kernel $k --like epita.reduce3 --n 2^24
wall original-reduce3 --variant epita.reduce3 --n 2^24
wall json --kernel $k --like epita.reduce3 --n 2^24 --json
wall metrics --kernel tests/kernels/reduce_bank2.cu --n 2^24 --metrics default
wall broken --kernel tests/kernels/reduce_broken.cu --n 2^24
wall ssh-localhost --kernel $k --like epita.reduce3 --n 2^24 --gpu ssh:localhost
if [ -d assets/exercises ]; then
  echo "== grade (solutions and starters of every exercise)"
  for s in assets/exercises/*/solution.cu; do
    id=$(basename "$(dirname "$s")")
    timeout 120 $cli grade --exercise "$id" --kernel "$s" > "$OUT/kernel-grade-$id.log" 2>&1
    echo "grade $id solution: exit $? $(tail -1 "$OUT/kernel-grade-$id.log" | cut -c1-160)"
    timeout 120 $cli grade --exercise "$id" --kernel "$(dirname "$s")/starter.cu" > "$OUT/kernel-grade-$id-starter.log" 2>&1
    echo "grade $id starter: exit $? (non-zero expected) $(tail -1 "$OUT/kernel-grade-$id-starter.log" | cut -c1-160)"
  done
fi
echo "== done ($((SECONDS - t0)) s); logs in $OUT"
