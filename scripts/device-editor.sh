#!/usr/bin/env bash
# Issue 25's loop on the GPU machine, after `bash scripts/device-session.sh tests` built build/ there:
# an edited kernel through a local worker and through `--gpu ssh:localhost` (sshd from scripts/device-ssh.sh,
# carried in build-ssh/), timed against the goals (bench/edit_run.cpp), a user's file run and an exercise
# graded both ways, and the bottleneck search where the CLI has it. Logs in $OUT/editor/.
#   carry ["build-ssh"], then: bash scripts/device-editor.sh    (EDITOR_GUI=0: without the GUI's pictures, e.g.
#   where a fault test ran and Mesa is not installed: NVIDIA's GL would hang beside CUDA after the fault)
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-$PWD/out}"
L="$OUT/editor"
mkdir -p "$L"
cli=build/app/cli/warpscope-cli
bash scripts/device-ssh.sh up || exit 1
eval "$(bash scripts/device-ssh.sh env)"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
step() {  # step NAME COMMAND...: runs it, keeps its output, prints its tail and exit status
  local name=$1
  shift
  local t0=$SECONDS
  "$@" >"$L/$name.log" 2>&1
  local rc=$?
  echo "== $name: exit $rc ($((SECONDS - t0)) s)"
  tail -n "${TAIL:-12}" "$L/$name.log" | cut -c1-240
}
TAIL=8 step edit-run-local build/bench/ws_edit_run --rounds 5 --gpu local
TAIL=8 step edit-run-ssh build/bench/ws_edit_run --rounds 5 --gpu ssh:localhost
for where in local ssh:localhost; do
  TAIL=4 step "kernel-$where" $cli run --kernel tests/kernels/reduce_good.cu --pattern reduction --like epita.reduce3 \
    --n 16777216 --gpu "$where"
  TAIL=4 step "kernel-error-$where" $cli run --kernel tests/kernels/reduce_broken.cu --pattern reduction \
    --like epita.reduce3 --gpu "$where"
  TAIL=14 step "grade-$where" $cli grade --exercise epita.reduce2_to_reduce3 \
    --kernel assets/exercises/epita.reduce2_to_reduce3/solution.cu --gpu "$where"
  TAIL=6 step "grade-starter-$where" $cli grade --exercise epita.reduce2_to_reduce3 \
    --kernel assets/exercises/epita.reduce2_to_reduce3/starter.cu --gpu "$where"
done
# The GUI's editor with its worker over ssh: the lecturer's demo (reduce3 without the loop's barrier) and the
# copy as made, pictures in $OUT/editor (EGL headless; Mesa beside NVIDIA when scripts/device-mesa.sh installed it).
export LD_LIBRARY_PATH="$PWD/.deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
[ -f .deps/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] && export WARPSCOPE_FONTS="$PWD/.deps/usr/share/fonts/truetype/dejavu"
[ -d /tmp/ws-mesa/lib ] && source <(bash scripts/device-mesa.sh env)
[ "${EDITOR_GUI:-1}" = 1 ] && for case in ok:"" nosync:tests/gui/fixtures/reduce3_edited_nosync.cu; do
  name=${case%%:*} text=${case#*:}
  TAIL=6 step "gui-ssh-$name" build/app/gui/warpscope --gpu ssh:localhost --force --screenshot "$L/gui-ssh-$name.png"     --width 1920 --height 1080 --variant epita.reduce3 --edit --edit-run ${text:+--edit-text "$text"}
done
# The editor's Find the bound on the real GPU (local worker): the three runs and the slides' verdict beside the text.
[ "${EDITOR_GUI:-1}" = 1 ] && TAIL=8 step gui-bound build/app/gui/warpscope --force --screenshot "$L/gui-bound.png" \
  --width 1920 --height 1080 --variant epita.reduce3 --edit --edit-bound
if $cli bound --help >/dev/null 2>&1; then
  for v in epita.reduce3 harris.impl1 harris.impl3 harris.impl4; do
    TAIL=12 step "bound-$v" $cli bound --variant "$v" --n 16777216 --gpu local
  done
  TAIL=12 step bound-ssh $cli bound --variant harris.impl4 --n 16777216 --gpu ssh:localhost
fi
exit 0
