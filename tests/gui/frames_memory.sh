#!/usr/bin/env bash
# Headless frames must not pile up memory: the peak RSS of 240 frames stays within LIMIT_MIB of the
# peak of 40 (a driver that is never flushed keeps every frame's orphaned vertex buffers: ~2 MB a frame).
#   frames_memory.sh WARPSCOPE OUT_DIR [LIMIT_MIB]
set -uo pipefail
gui=$1 out=$2 limit=${3:-200}
peak_rss_mib() {  # runs warpscope for $1 frames, prints its peak VmRSS in MiB (sampled every 0.1 s)
  "$gui" --force --screenshot "$out/frames_memory.png" --frames "$1" --view results & local pid=$! peak=0 kib
  while kill -0 "$pid" 2>/dev/null; do
    kib=$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status" 2>/dev/null)
    [ -n "$kib" ] && [ "$kib" -gt "$peak" ] && peak=$kib
    sleep 0.1
  done
  wait "$pid" || { echo "warpscope --frames $1 failed" >&2; exit 1; }
  echo $(( peak / 1024 ))
}
short=$(peak_rss_mib 40) long=$(peak_rss_mib 240)
echo "peak RSS: 40 frames $short MiB, 240 frames $long MiB (limit: +$limit MiB)"
[ $(( long - short )) -le "$limit" ]
