#!/usr/bin/env bash
cd "$(dirname "$0")/.."
t0=$SECONDS
bash scripts/device-soak.sh build 2>&1 | tail -2
echo "build $((SECONDS-t0)) s"
mkdir -p /tmp/soakout
(OUT=/tmp/soakout SOAK_LOADS=worker SOAK_SECONDS=620 setsid nohup bash scripts/device-soak.sh > /tmp/soakout/driver.txt 2>&1 < /dev/null &)
sleep $((585 - (SECONDS - t0)))
tail -2 /tmp/soakout/soak.csv; tail -3 /tmp/soakout/soak-log.txt
