#!/usr/bin/env bash
# Builds the Debian package from a build tree (cpack -G DEB), unpacks it into a clean temporary root
# (dpkg -x, nothing installed system-wide) and runs the installed programs from a folder outside the
# source tree with WARPSCOPE_DATA unset: they must find their lessons and reports by their own location.
# Both the package and `cmake --install` into a temporary prefix must hold a man page per subcommand
# (every one the installed --help lists, and report's tools), the bash completion (which must offer
# each subcommand and each option the installed --help lists), and programs whose --version works.
#   bash scripts/test-deb.sh BUILD_DIR     (ctest runs it as the test "package_deb")
set -euo pipefail
build=$(cd "${1:?usage: test-deb.sh BUILD_DIR}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")

# check_manners ROOT WHAT: the man pages, completion and --version of the tree installed under ROOT/usr.
check_manners() {
  local root=$1 what=$2 cli=$1/usr/bin/warpscope-cli
  local man=$root/usr/share/man/man1 comp=$root/usr/share/bash-completion/completions/warpscope-cli
  local v; v=$("$cli" --version) || { echo "test-deb: $what: warpscope-cli --version failed" >&2; exit 1; }
  [ "$v" = "warpscope-cli $version" ] || { echo "test-deb: $what: warpscope-cli --version says '$v', not $version" >&2; exit 1; }
  if [ -e "$root/usr/bin/warpscope" ]; then
    v=$("$root/usr/bin/warpscope" --version) || { echo "test-deb: $what: warpscope --version failed" >&2; exit 1; }
    [ "$v" = "warpscope $version" ] || { echo "test-deb: $what: warpscope --version says '$v'" >&2; exit 1; }
  fi
  # The subcommands as the installed program lists them; report's tools as `report` lists them.
  local subs tools sub pages=0 opt words
  subs=$("$cli" --help | sed -n '/^Subcommands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }')
  tools=$("$cli" report --help | sed -n '/^Subcommands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }')
  [ -n "$subs" ] && [ -n "$tools" ] || { echo "test-deb: $what: no subcommands in --help" >&2; exit 1; }
  if [ -e "$build/app/cli/warpscope-cli.1" ]; then  # help2man was there at build time
    for page in warpscope-cli $(printf 'warpscope-cli-%s\n' $subs) $(printf 'warpscope-cli-report-%s\n' $tools) \
                $([ -e "$root/usr/bin/warpscope" ] && echo warpscope); do
      local f=$man/$page.1
      [ -e "$f" ] || f=$f.gz
      [ -e "$f" ] || { echo "test-deb: $what lacks the man page $page.1" >&2; exit 1; }
      local upper; upper=$(echo "$page" | tr a-z A-Z)
      zcat -f "$f" | grep -q "^\.TH \"\?$upper\"\? " || { echo "test-deb: $what: $page.1 has no .TH $upper" >&2; exit 1; }
      pages=$((pages + 1))
    done
  fi
  # The completion, sourced as bash-completion loads it: each subcommand, tool and listed option offered.
  [ -e "$comp" ] || { echo "test-deb: $what lacks $comp" >&2; exit 1; }
  complete_words() {
    bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _warpscope_cli
             echo " ${COMPREPLY[*]} "' _ "$comp" "$@"
  }
  for sub in $subs; do
    [[ $(complete_words warpscope-cli "$sub") == *" $sub "* ]] ||
      { echo "test-deb: $what: the completion does not offer the subcommand $sub" >&2; exit 1; }
  done
  for sub in $tools; do
    [[ $(complete_words warpscope-cli report "$sub") == *" $sub "* ]] ||
      { echo "test-deb: $what: the completion does not offer report $sub" >&2; exit 1; }
  done
  for words in $subs $(printf 'report:%s\n' $tools); do
    words=${words/:/ }
    # Options as --help lists them, less a deprecated name.
    for opt in $("$cli" $words --help | sed -n '/^Options:/,/^$/p' | grep -v deprecated |
                 grep -oE -- '^ +(-[a-zA-Z],)?--[a-z][a-z0-9-]*' | grep -oE -- '--[a-z0-9-]+'); do
      # shellcheck disable=SC2086
      [[ $(complete_words warpscope-cli $words "$opt") == *" $opt "* ]] ||
        { echo "test-deb: $what: the completion of '$words' does not offer $opt" >&2; exit 1; }
    done
  done
  echo "test-deb: $what: --version $version, $pages man pages, completion of $(echo $subs | wc -w) subcommands and $(echo $tools | wc -w) report tools"
}
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
         usr/share/warpscope/schema/warpscope.schema.json usr/share/bash-completion/completions/warpscope-cli; do
  [ -e "$tmp/root/$f" ] || { echo "test-deb: the package lacks /$f" >&2; exit 1; }
done
check_manners "$tmp/root" "the package"
# cmake --install into a prefix of its own: the same pages, completion and --version.
cmake --install "$build" --prefix "$tmp/inst/usr" >"$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log"; echo "test-deb: cmake --install failed" >&2; exit 1; }
check_manners "$tmp/inst" "cmake --install"

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
