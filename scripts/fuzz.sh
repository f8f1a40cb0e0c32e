#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz, clang with ASan + UBSan) in build-fuzz/ and runs each for
# SECONDS (default 60) on a copy of its seed corpus (tests/fuzz/corpus/<target>) with the JSON
# dictionary. New inputs and crashes go to build-fuzz/corpus/<target>/ and build-fuzz/crashes/<target>/;
# a crash, a leak or a sanitizer report fails the script (add the crashing input to the seed corpus
# once it is fixed).
#   scripts/fuzz.sh [SECONDS] [TARGET...]      targets: report trace lesson numbers mask image cli output font
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v clang++ >/dev/null || ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
  echo "fuzz.sh: needs clang and libFuzzer: apt-get install clang libclang-rt-14-dev" >&2
  exit 2
fi
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(report trace lesson numbers mask image cli output font)

CXX=clang++ CC=clang cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWS_FUZZ=ON \
  -DWS_WITH_CUDA=OFF -DWS_WITH_GUI=OFF -DWS_WITH_TESTS=OFF >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target "${targets[@]/#/fuzz_}"

# One target: its run, its log, one result line in build-fuzz/fuzz_<target>.result; exit 1 on a failure.
fuzz_one() {
  local t=$1 work=build-fuzz/corpus/$1 crashes=build-fuzz/crashes/$1 dict=() start result runs
  mkdir -p "$work" "$crashes"
  case $t in
    report|trace|lesson) dict=(-dict=tests/fuzz/json.dict) ;;
    cli) dict=(-dict=tests/fuzz/cli.dict) ;;
  esac
  start=$(date +%s)
  if build-fuzz/tests/fuzz/fuzz_$t "$work" tests/fuzz/corpus/$t "${dict[@]}" -max_total_time="$seconds" \
       -max_len=65536 -rss_limit_mb=2048 -timeout=10 -artifact_prefix="$crashes/" -print_final_stats=1 \
       >"build-fuzz/fuzz_$t.log" 2>&1; then
    result=ok
  else
    result="FAILED (see build-fuzz/fuzz_$t.log and $crashes/)"
  fi
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "build-fuzz/fuzz_$t.log" | grep -o '[0-9]*$' || echo '?')
  echo "fuzz_$t: $result, $((  $(date +%s) - start )) s, $runs inputs, corpus $(ls "$work" | wc -l) files" \
    >"build-fuzz/fuzz_$t.result"
  [ "$result" = ok ]
}

rm -f build-fuzz/fuzz_*.result
# The targets run side by side, one per core (each libFuzzer process uses one), so every target still
# gets SECONDS of its own; their lines are printed in the targets' order once all have ended.
jobs_max=$(nproc)
pids=()
for t in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n || true; done
  fuzz_one "$t" &
  pids+=($!)
done
status=0
for i in "${!targets[@]}"; do
  t=${targets[$i]}
  wait "${pids[$i]}" || true  # its .result says how it ended
  cat "build-fuzz/fuzz_$t.result" 2>/dev/null || echo "fuzz_$t: FAILED (no result: the run did not finish)"
  if ! grep -q ': ok,' "build-fuzz/fuzz_$t.result" 2>/dev/null; then
    status=1
    # What failed, in the CI log itself: the sanitizer's or libFuzzer's report and the saved input.
    grep -E -A12 '^==[0-9]+==|^SUMMARY|ERROR: libFuzzer|Test unit written' "build-fuzz/fuzz_$t.log" | head -60 >&2 || true
  fi
done
exit $status
