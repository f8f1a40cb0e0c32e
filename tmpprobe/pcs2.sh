#!/usr/bin/env bash
set -uo pipefail
cd "$(dirname "$0")/.."
echo "bg alive? $(ps -p $(cat /tmp/bgpid 2>/dev/null || echo 1) -o pid=,etime=,cmd= 2>&1)"
export LD_LIBRARY_PATH="$PWD/.deps/usr/lib/x86_64-linux-gnu"
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
t0=$SECONDS
[ -f build/build.ninja ] || cmake --preset default -DCMAKE_CUDA_ARCHITECTURES=90 > /tmp/conf.log 2>&1
cmake --build build -j 16 > /tmp/build.log 2>&1 || { grep -E "error" /tmp/build.log | head; exit 1; }
echo "build $((SECONDS-t0)) s"
T=build/tests/ws_gpu_tests
for f in 'GpuPcSampling.*'; do
  echo "=== $f"; timeout 120 $T --gtest_filter="$f" 2>&1 | grep -E "^\[ (gpu|warning)|OK \]|FAILED \]|Failure|Expected|Which is|error" | cut -c1-200 | head -40
done
cli=build/app/cli/warpscope-cli
echo "=== CLI default,pcsampling"; timeout 60 $cli run --variant harris.impl2 --n 2^24 --metrics default,pcsampling 2>&1 | grep -iE "pc|sampl|warn|error|note" | head
echo "=== CLI report three variants pcsampling"; timeout 90 $cli report --variants harris.impl1,harris.impl3,epita.reduce2 --n 2^24 --metrics default,pcsampling --out /tmp/r.json 2>&1 | grep -iE "warn|error" | head
python3 -c "
import json; r=json.load(open('/tmp/r.json'))
for x in r['runs']: m=x.get('metrics',{}); print(x['variant'], m.get('values',{}).get('ws__pc_samples'), len(m.get('pc_sampling',{}).get('kernels',[])), len(m.get('values',{})), m.get('error'))
"
echo "=== full ws_gpu_tests"; t0=$SECONDS
timeout 300 $T > /tmp/all.log 2>&1; echo "exit $? ($((SECONDS-t0)) s)"
grep -E "^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]|^\[==========\]" /tmp/all.log | head -20
grep -E "Timings|before a PC" /tmp/all.log | head
