#!/usr/bin/env bash
# Builds the Debian package from a build tree (cpack -G DEB), unpacks it into a clean temporary root
# (dpkg -x, nothing installed system-wide) and runs the installed programs from a folder outside the
# source tree with WARPSCOPE_DATA unset: they must find their lessons and reports by their own location.
#   bash scripts/test-deb.sh BUILD_DIR     (ctest runs it as the test "package_deb")
set -euo pipefail
build=$(cd "${1:?usage: test-deb.sh BUILD_DIR}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! (cd "$build" && cpack -G DEB -B "$tmp/pkg" >"$tmp/cpack.log" 2>&1); then
  cat "$tmp/cpack.log"
  echo "test-deb: cpack failed" >&2
  exit 1
fi
deb=$(ls "$tmp"/pkg/*.deb)
echo "test-deb: $(basename "$deb") ($(( $(stat -c %s "$deb") / 1024 )) KiB)"
dpkg-deb -f "$deb" Package Version Depends Recommends
dpkg -x "$deb" "$tmp/root"
for f in usr/bin/warpscope-cli usr/share/warpscope/lessons usr/share/warpscope/reports/DEFAULT \
         usr/share/warpscope/schema/warpscope.schema.json usr/share/bash-completion/completions/warpscope-cli \
         $(command -v help2man >/dev/null && echo usr/share/man/man1/warpscope-cli.1 \
           usr/share/man/man1/warpscope-cli-run.1 usr/share/man/man1/warpscope-cli-report-compare.1); do
  [ -e "$tmp/root/$f" ] || { echo "test-deb: the package lacks /$f" >&2; exit 1; }
done

unset WARPSCOPE_DATA WARPSCOPE_ASSETS
mkdir "$tmp/elsewhere" && cd "$tmp/elsewhere"
cli="$tmp/root/usr/bin/warpscope-cli"
"$cli" list >list.txt
grep -q '^epita.reduce3 ' list.txt || { echo "test-deb: installed 'warpscope-cli list' lacks epita.reduce3" >&2; exit 1; }
echo "test-deb: warpscope-cli list: $(wc -l <list.txt) lines"
"$cli" run --variant epita.reduce3 --backend sim --n 100000 >run.txt
grep -q ' ok' run.txt || { cat run.txt; echo "test-deb: the installed sim run is not ok" >&2; exit 1; }
echo "test-deb: warpscope-cli run --variant epita.reduce3 --backend sim: $(grep -E '^  result' run.txt | tr -s ' ')"
if [ -e "$tmp/root/usr/bin/warpscope" ]; then
  for f in usr/share/applications/warpscope.desktop usr/share/icons/hicolor/scalable/apps/warpscope.svg; do
    [ -e "$tmp/root/$f" ] || { echo "test-deb: the package lacks /$f" >&2; exit 1; }
  done
  "$tmp/root/usr/bin/warpscope" --screenshot shot.png >gui.log 2>&1 || { cat gui.log; echo "test-deb: installed warpscope --screenshot failed" >&2; exit 1; }
  if grep -qi "lesson" gui.log && grep -qiE "no lessons|cannot|not found" gui.log; then
    cat gui.log; echo "test-deb: the installed GUI did not find its data" >&2; exit 1
  fi
  [ -s shot.png ] || { echo "test-deb: installed warpscope wrote no screenshot" >&2; exit 1; }
  echo "test-deb: warpscope --screenshot: $(stat -c %s shot.png) bytes"
fi
echo "test-deb: PASS"
