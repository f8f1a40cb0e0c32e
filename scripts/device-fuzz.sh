#!/usr/bin/env bash
# The libFuzzer targets for a long run on the GPU machine's 16 cores (the 2 cores here take 80 minutes for
# 10 minutes a target; there all eight run at once). The binaries are built here by scripts/fuzz.sh
# (clang, ASan + UBSan: they link only libc, libm, libstdc++ and libgcc, and fuzz_font Debian's libstb, packed
# with them) and carried packed:
#
#   bash scripts/device-fuzz.sh pack            here: strip the debug info of build-fuzz/'s targets into
#                                               build-fuzzbin/fuzz.tar.xz (about 8 MB); carry ["build-fuzzbin"]
#   setsid bash scripts/device-fuzz.sh run 600 [TARGET...] &   there: every target at once for 600 s on a copy of its seed
#                                               corpus, with scripts/fuzz.sh's options; logs in /tmp/ws-fuzz
#   bash scripts/device-fuzz.sh report          there: one line per target (ok / FAILED, inputs, corpus),
#                                               the failures' reports; exit 1 on a failure, 3 while running
set -uo pipefail
cd "$(dirname "$0")/.."
W=/tmp/ws-fuzz
targets=(report trace lesson numbers mask image cli output font)
case "${1:-}" in
  pack)
    t=$(mktemp -d)
    for n in "${targets[@]}"; do strip --strip-debug -o "$t/fuzz_$n" "build-fuzz/tests/fuzz/fuzz_$n" || exit 1; done
    # fuzz_font links Debian's libstb, which the GPU machine lacks: it travels beside the binaries.
    ldd build-fuzz/tests/fuzz/fuzz_font | awk '/libstb/ {print $3}' | xargs -r -I{} cp -L {} "$t/"
    mkdir -p build-fuzzbin && tar cJf build-fuzzbin/fuzz.tar.xz -C "$t" . && ls -la build-fuzzbin/fuzz.tar.xz
    ;;
  run)
    seconds=${2:-600}
    [ $# -gt 2 ] && targets=("${@:3}")  # run SECONDS [TARGET...]: only these
    rm -rf "$W" && mkdir -p "$W/bin" && tar xJf build-fuzzbin/fuzz.tar.xz -C "$W/bin" || exit 1
    for n in "${targets[@]}"; do
      mkdir -p "$W/corpus/$n" "$W/crashes/$n"
      dict=()
      case $n in
        report|trace|lesson) dict=(-dict=tests/fuzz/json.dict) ;;
        cli) dict=(-dict=tests/fuzz/cli.dict) ;;
      esac
      ( LD_LIBRARY_PATH="$W/bin" "$W/bin/fuzz_$n" "$W/corpus/$n" "tests/fuzz/corpus/$n" "${dict[@]}" -max_total_time="$seconds" \
          -max_len=65536 -rss_limit_mb=2048 -timeout=10 -artifact_prefix="$W/crashes/$n/" -print_final_stats=1 \
          >"$W/fuzz_$n.log" 2>&1
        echo $? >"$W/fuzz_$n.rc" ) &
    done
    wait
    ;;
  report)
    status=0
    for n in "${targets[@]}"; do
      if [ ! -f "$W/fuzz_$n.rc" ]; then echo "fuzz_$n: still running"; status=3; continue; fi
      rc=$(cat "$W/fuzz_$n.rc")
      runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$W/fuzz_$n.log" | grep -o '[0-9]*$' || echo '?')
      secs=$(grep -o 'Done [0-9]* runs in [0-9]* second' "$W/fuzz_$n.log" | grep -o 'in [0-9]*' | grep -o '[0-9]*' || echo '?')
      if [ "$rc" = 0 ]; then
        echo "fuzz_$n: ok, $secs s, $runs inputs, corpus $(ls "$W/corpus/$n" | wc -l) files"
      else
        echo "fuzz_$n: FAILED (exit $rc), $runs inputs"
        grep -E -A12 '^==[0-9]+==|^SUMMARY|ERROR: libFuzzer|Test unit written' "$W/fuzz_$n.log" | head -40
        [ "$status" = 0 ] && status=1
      fi
    done
    exit $status
    ;;
  *)
    echo "usage: bash scripts/device-fuzz.sh pack|run [SECONDS]|report" >&2
    exit 2
    ;;
esac
