#!/usr/bin/env bash
# warpscope --tour (the gpu-gui suite's long-process round, here with Mesa): one process writes every view tab
# with the selected variant and every scene of every lesson, each a whole 1920x1080 picture with content;
# a --tour that names a file, or a folder that already holds a tour's pictures (without --force), is refused
# with one line and exit 2.
#   bash tests/gui/tour_test.sh WARPSCOPE WS_CHECK_PNG LESSONS_DIR OUT_DIR
set -uo pipefail
gui=$1 check=$2 lessons=$3 out=$4
rm -rf "$out"
mkdir -p "$out"
scenes=0
for f in "$lessons"/*.json; do
  scenes=$((scenes + $(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1])).get("scenes", [])))' "$f")))
done
views=$("$gui" --help | sed -n 's/.*--view TEXT.*centre tab to show: //p' | tr ',' '\n' | grep -c .)
[ "$views" -ge 17 ] || { echo "could not count the views from --help ($views)"; exit 1; }
"$gui" --tour "$out/tour" --width 1920 --height 1080 --variant epita.reduce3 > "$out/log.txt" 2>&1
rc=$?
written=$(ls "$out/tour"/*.png 2>/dev/null | wc -l)
[ $rc -eq 0 ] || { echo "--tour exit $rc: $(tail -2 "$out/log.txt")"; exit 1; }
[ "$written" -eq $((views + scenes)) ] || { echo "--tour wrote $written pictures, not $views views + $scenes scenes"; exit 1; }
grep -q "^warpscope: --tour: $written pictures written to $out/tour" "$out/log.txt" || { echo "no summary line: $(tail -1 "$out/log.txt")"; exit 1; }
for png in "$out"/tour/*.png; do
  "$check" "$png" --size 1920 1080 --min-colors 40 --min-foreground 0.01 > /dev/null || { echo "blank: $png"; exit 1; }
done
[ -f "$out/tour/scene-epita-01.png" ] && [ -f "$out/tour/view-grid.png" ] || { echo "names: $(ls "$out/tour" | head -3)"; exit 1; }
err=$("$gui" --tour "$out/tour" 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] && [[ "$err" == "warpscope: --tour '$out/tour' already holds "*": it is kept (give --force to replace the tour's pictures, or another folder)" ]] \
  || { echo "a second tour into the same folder without --force: rc $rc: $err"; exit 1; }
touch "$out/a-file"
err=$("$gui" --tour "$out/a-file" 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] && [ "$err" = "warpscope: --tour '$out/a-file' is a file, not a folder" ] || { echo "file refused? rc $rc: $err"; exit 1; }
echo "ok: $written pictures ($views views, $scenes scenes) in one process"
