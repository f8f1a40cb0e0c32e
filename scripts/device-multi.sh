#!/usr/bin/env bash
# The lesson "Reduction across GPUs" (issue 30) on a multi-GPU machine, in one device call (nvidia-h200-x2
# or -x4; carry .deps as for scripts/device-check.sh). Builds preset device for sm_90, only the targets this
# needs (ws_gpu_multi_tests, ws_allreduce_bench), runs the gpu-multi tests and the benchmark (hand ring vs
# NCCL ring at 256 MiB per GPU, NCCL timed nccl-tests style, the 4 KiB..1 GiB sweep), writes logs under
# $OUT and prints a summary. NVLink multicast stays off in every process (NCCL_NVLS_ENABLE=0 and the other
# two variables the machines keep). About 4 minutes on 16 cores; WS_SKIP_BUILD=1 reuses build-device.
# Usage: OUT=/some/dir bash scripts/device-multi.sh [--no-sweep]
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-$PWD/out}"
mkdir -p "$OUT"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
start=$SECONDS

nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.mem --format=csv | tee "$OUT/gpus.txt"
nvidia-smi topo -m > "$OUT/topo.txt" 2>&1 && cat "$OUT/topo.txt"

if [ "${WS_SKIP_BUILD:-0}" != 1 ]; then
  cmake --preset device -DCMAKE_CUDA_ARCHITECTURES=90 > "$OUT/configure.log" 2>&1 ||
    { tail -30 "$OUT/configure.log"; exit 1; }
  grep -E "warpscope: (NCCL|nccl)" "$OUT/configure.log"
  cmake --build --preset device -j "$(nproc)" --target ws_gpu_multi_tests ws_allreduce_bench warpscope-cli > "$OUT/build.log" 2>&1 ||
    { grep -E "error|Error" "$OUT/build.log" | head -40; exit 1; }
  echo "== build ok at $((SECONDS - start)) s"
fi

(cd build-device && timeout 300 ctest -L gpu-multi -V --timeout 240) > "$OUT/gpu-multi-tests.log" 2>&1
tests_rc=$?
echo "== gpu-multi tests: exit $tests_rc at $((SECONDS - start)) s"
grep -E "tests passed|tests failed|\(Failed\)|\*\*\*|Skipped|: Failure" "$OUT/gpu-multi-tests.log" | tail -40
grep -E "ring, [0-9]+ GPUs, 256 MiB" "$OUT/gpu-multi-tests.log" | head -2

ngpu=$(nvidia-smi -L | wc -l)
counts=(2); [ "$ngpu" -ge 4 ] && counts=(2 4)
bench_rc=0
for g in "${counts[@]}"; do
# NCCL says at each communicator's init which NCCL_ALGO it read (INIT and ENV only: nothing per call, so the
# timings stay clean), so the log shows that Ring and Tree each got their own (collective/nccl_api.cpp).
NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,ENV \
  timeout 300 build-device/bench/ws_allreduce_bench --gpus "$g" "$@" > "$OUT/allreduce-bench-${g}gpu.txt" \
  2> "$OUT/allreduce-bench-${g}gpu.err" || bench_rc=1
grep -E "^(method,|[a-z_]+,[0-9]+,)" "$OUT/allreduce-bench-${g}gpu.txt" > "$OUT/allreduce-sweep-${g}gpu.csv"
echo "== allreduce bench on $g GPUs: exit $bench_rc at $((SECONDS - start)) s"
grep '^#' "$OUT/allreduce-bench-${g}gpu.txt" | grep -vE "^#   (tree|nccl_tree)" | tail -40
echo "== NCCL_ALGO as NCCL read it at each communicator's init:"
grep -E "NCCL_ALGO|NCCL_NVLS|NCCL WARN" "$OUT/allreduce-bench-${g}gpu.err" | sed "s/^[^ ]* [^ ]* [^ ]* //" | sort | uniq -c | head -12
echo "== sweep on $g GPUs (busbw GB/s):"
python3 - "$OUT/allreduce-sweep-${g}gpu.csv" <<'PY' || cat "$OUT/allreduce-sweep-${g}gpu.csv"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
methods = ["ring", "tree", "nccl_ring", "nccl_tree"]
by = {}
for r in rows:
    by.setdefault(int(r["bytes"]), {})[r["method"]] = r
print("%12s" % "bytes" + "".join("%12s" % m for m in methods))
for b in sorted(by):
    print("%12d" % b + "".join("%12s" % (by[b][m]["busbw_gbs"] + ("" if by[b][m]["correct"] == "1" else "!")
                                        if m in by[b] else "-") for m in methods))
PY
# The reports a student without GPUs opens (bundled under assets/reports/): every method at 256 MiB per GPU
# with the ring's and the tree's measured steps, and the message-size sweep.
timeout 120 build-device/app/cli/warpscope-cli allreduce --backend cuda --gpus "$g" --json \
  > "$OUT/allreduce-${g}gpu.json" 2> "$OUT/allreduce-${g}gpu-cli.err" || { bench_rc=1; cat "$OUT/allreduce-${g}gpu-cli.err"; }
timeout 200 build-device/app/cli/warpscope-cli allreduce --backend cuda --gpus "$g" --sweep 4KiB:1GiB --json \
  > "$OUT/allreduce-sweep-${g}gpu.json" 2>> "$OUT/allreduce-${g}gpu-cli.err" || { bench_rc=1; cat "$OUT/allreduce-${g}gpu-cli.err"; }
timeout 120 build-device/app/cli/warpscope-cli allreduce --backend cuda --gpus "$g" --method ring,tree --repeat 10 --steps 2>&1 | tail -30
done
# At most 8 files come back: the reports alone, the logs in one archive.
(cd "$OUT" && tar czf logs.tgz --remove-files ./*.txt ./*.log ./*.err ./*.csv)
echo "== done in $((SECONDS - start)) s; logs in $OUT"
exit $((tests_rc != 0 || bench_rc != 0))
