#!/usr/bin/env bash
# Formats warpscope's C++ and CUDA sources with .clang-format (clang-format from Debian's clang-format
# package). Usage: scripts/format.sh [--check] [FILE...]
#   no FILE: every tracked *.cpp *.hpp *.cu *.cuh under app/ kernels/ tests/ bench/
#   --check: change nothing; list the files that are not formatted and exit 1 if there is one.
# Either way it lists the lines over 120 columns (exit 1 with --check): kernels/.clang-format keeps the
# kernels' line breaks as written (no column limit), so clang-format does not wrap those.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v clang-format >/dev/null; then
  echo "format.sh: clang-format not found (apt-get install clang-format)" >&2
  exit 2
fi
check=0
if [[ ${1:-} == --check ]]; then check=1; shift; fi
if (($# == 0)); then
  mapfile -t files < <(git ls-files -- 'app/*.cpp' 'app/*.hpp' 'kernels/*.cu' 'kernels/*.cuh' 'kernels/*.hpp' \
                                       'tests/*.cpp' 'tests/*.hpp' 'tests/*.cu' 'bench/*.cpp' 'bench/*.cu')
else
  files=("$@")
fi
too_long() { awk 'length > 120 { print FILENAME ":" FNR ": " length " columns"; n++ } END { exit n > 0 }' "$@"; }
if ((check)); then
  bad=0
  for f in "${files[@]}"; do
    if ! clang-format --style=file "$f" | cmp -s - "$f"; then echo "$f"; bad=1; fi
  done
  too_long "${files[@]}" || bad=1
  exit $bad
fi
clang-format --style=file -i "${files[@]}"
too_long "${files[@]}" || true
