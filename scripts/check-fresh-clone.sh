#!/usr/bin/env bash
# Clones this repository (its committed HEAD) into a temporary folder and runs there exactly the two
# commands the README gives for a fresh Debian 12 machine: the app's (with --screenshot FILE appended,
# so that it renders one picture and ends) and the tests'. Prints each command and its outcome.
#   bash scripts/check-fresh-clone.sh        (WS_KEEP=1 keeps the clone for a look afterwards)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
[ "${WS_KEEP:-0}" = 1 ] || trap 'rm -rf "$tmp"' EXIT

# The README's commands are its indented lines that start with "bash scripts/setup.sh": run, then test.
mapfile -t cmds < <(grep -E '^    bash scripts/setup\.sh' "$src/README.md" | sed 's/^    //')
if [ "${#cmds[@]}" -lt 2 ]; then
  echo "check-fresh-clone: README.md does not give the two commands (run, test)" >&2
  exit 1
fi
run_cmd="${cmds[0]} --screenshot $tmp/first-start.png"
test_cmd="${cmds[1]}"

git clone -q "$src" "$tmp/warpscope"
cd "$tmp/warpscope"
echo "check-fresh-clone: clone of $(git rev-parse --short HEAD) in $tmp/warpscope"
start=$(date +%s)
echo "check-fresh-clone: \$ $run_cmd"
bash -c "$run_cmd"
if [ ! -s "$tmp/first-start.png" ]; then
  echo "check-fresh-clone: the app wrote no screenshot" >&2
  exit 1
fi
echo "check-fresh-clone: run command passed ($(( $(date +%s) - start )) s, screenshot $(stat -c %s "$tmp/first-start.png") bytes)"
start=$(date +%s)
echo "check-fresh-clone: \$ $test_cmd"
bash -c "$test_cmd"
echo "check-fresh-clone: test command passed ($(( $(date +%s) - start )) s)"
echo "check-fresh-clone: PASS"
