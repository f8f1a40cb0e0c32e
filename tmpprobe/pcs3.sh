#!/usr/bin/env bash
set -uo pipefail
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH="$PWD/.deps/usr/lib/x86_64-linux-gnu"
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
[ -f build/build.ninja ] || cmake --preset default -DCMAKE_CUDA_ARCHITECTURES=90 > /tmp/conf.log 2>&1
cmake --build build -j 16 > /tmp/build.log 2>&1 || { grep -E "error" /tmp/build.log | head; exit 1; }
T=build/tests/ws_gpu_tests
timeout 120 $T --gtest_filter='GpuPcSampling.Harris*:GpuPcSampling.AfterTheDefault*:GpuPcSampling.Again*' 2>&1 | grep -v "^\[ gpu      \]     " | cut -c1-300 | tail -40
cli=build/app/cli/warpscope-cli
timeout 90 $cli report --variants harris.impl1,harris.impl3 --n 2^24 --metrics default,pcsampling --out /tmp/r.json > /dev/null 2>&1
python3 -c "
import json; r=json.load(open('/tmp/r.json'))
for x in r['runs']: m=x.get('metrics',{}); print(x['variant'], m.get('values',{}).get('ws__pc_samples'), m.get('error'), m.get('warnings'))
"
