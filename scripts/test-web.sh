#!/usr/bin/env bash
# The browser build and its test in a real browser (CI's web step): `bash scripts/setup.sh web`, then
# tests/web/browser_test.mjs in Debian's headless chromium (installed here when missing). Extra arguments go
# to the test (e.g. --shots DIR --size 1920x1080, or --tour epita,stevens for every scene's picture).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null 2>&1; then
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -q --no-install-recommends chromium
fi
start=$SECONDS
bash scripts/setup.sh web
echo "test-web: build done in $((SECONDS - start)) s"
node tests/web/browser_test.mjs "$@"
echo "test-web: build and browser test done in $((SECONDS - start)) s"
