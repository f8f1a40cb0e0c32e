#!/usr/bin/env bash
# Renders every scene of every lesson (assets/lessons/*.json, "scenes") as the lecture
# hall sees them: 1920x1080, text at 2x, high contrast, focus mode. Headless (EGL), no GPU needed: the
# step-through views run the sim model, timings come from the report the app opens by default.
#
#   bash scripts/render-scenes.sh [OUT_DIR] [BUILD_DIR]     (defaults: scenes-png, build-ci or build)
#   LESSONS="epita harris" bash scripts/render-scenes.sh      (only these lessons)
#
# Writes OUT_DIR/<lesson>-<NN>.png, one per scene, and lists them with each scene's note.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-scenes-png}
build=${2:-}
if [[ -z $build ]]; then
  for b in "$root/build-ci" "$root/build"; do [[ -x $b/app/gui/warpscope ]] && build=$b && break; done
fi
app=${build:-$root/build}/app/gui/warpscope
[[ -x $app ]] || { echo "render-scenes: no $app; build first (bash scripts/setup.sh)" >&2; exit 1; }
mkdir -p "$out"
lessons=${LESSONS:-$(for f in "$root"/assets/lessons/*.json; do basename "$f" .json; done)}
for lesson in $lessons; do
  count=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1])).get("scenes", [])))' \
          "$root/assets/lessons/$lesson.json")
  for ((k = 1; k <= count; ++k)); do
    png=$(printf '%s/%s-%02d.png' "$out" "$lesson" "$k")
    "$app" --lesson "$lesson" --scene "$k" --force --screenshot "$png" --width 1920 --height 1080 \
      --font-scale 2 --high-contrast --focus --frames 3
    note=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["scenes"][int(sys.argv[2]) - 1]["note"][:110])' \
           "$root/assets/lessons/$lesson.json" "$k")
    echo "$png  $note"
  done
done
