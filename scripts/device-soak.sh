#!/usr/bin/env bash
# Soak on the GPU machine: Live for about 10 minutes, host RSS and device memory sampled every 10 s;
# the memory of every process must stay flat (within 5 %) after the first minute.
#
#   bash scripts/device-soak.sh build      build warpscope (GUI) and warpscope-cli into build/ (as
#                                          scripts/device-gui.sh does: carry [".deps", ".gl"]; 3-6 min)
#   bash scripts/device-soak.sh            the soak (SOAK_SECONDS, default 560: one device call of 10 min)
#
# Two loads run side by side for SOAK_SECONDS, over the lesson SOAK_LESSON (default epita, all its
# variants), on the same GPU:
#   worker      the GUI's Live, headless (`warpscope --screenshot --view plots --live-seconds S`): the
#               window process and the `warpscope-cli worker` child it sends the launches to
#   inprocess   one `warpscope-cli worker` process fed `run` requests of every variant of the lesson in
#               turn (n = SOAK_N, default 2^22): the CLI's in-process path (execute() on the CUDA
#               backend in one long-lived process), each run making its own input
# SOAK_LOADS=worker runs only the first (the GUI and its worker, as in a lecture); default both.
# SOAK_GUI_N sets the n the GUI's Live runs at (the sim mode: 2^12 fills the plots in minutes).
# SOAK_FAULT_EVERY=S (issue 24): the GUI's worker is the tests' fault worker (tests/gpu/fault_worker.cpp,
# built by `scripts/device-gui-faults.sh build`), which faults its GPU S seconds after it starts: Live loses
# its worker every S s and goes on in a fresh one; the GUI leaves the GPU for Mesa (scripts/device-mesa.sh
# install) at the first fault. Only the worker load runs; the workers' memory is listed, not judged (each lives
# S s); the verdict also asks the longest gap between two drawn frames <= 1000 ms and no Xid of the GUI.
# SOAK_USER_FAULT_EVERY=S (issue 24, the user's path): the GUI's editor holds a copy of epita.reduce3 with a
# wrong index (tests/gui/fixtures/reduce3_edited_fault.cu: an illegal address on the GPU) and Live runs it again
# every S s, as Ctrl+Enter does (WARPSCOPE_TEST_EDIT_RUN_EVERY_S): the normal worker faults, restarts, and Live
# goes on. The GUI starts on the GPU (no mark needed) and must leave it for Mesa before the first run: no reset,
# no gap over a second. Verdict as for SOAK_FAULT_EVERY, with the editor's runs that came back faulted counted.
# SOAK_GDB=1 runs the GUI under a debugger that prints its threads' stacks if it stops on a signal.
# Every SOAK_EVERY (10) s one CSV row per process: VmRSS (/proc/PID/status), the process's device
# memory (nvidia-smi --query-compute-apps) and the GPU's used memory. Writes to $OUT (default ./out):
#   soak.csv            t_s,load,role,pid,rss_mib,gpu_mib,gpu_used_mib
#   soak-verdict.txt    per load and role: RSS and device memory at SOAK_SETTLE (60) s, their peak after
#                       it and at the end, growth in %, and PASS (peak <= 5 % (SOAK_LIMIT_PCT) above the
#                       value at SOAK_SETTLE, or within 2 MiB) or FAIL; last line: "verdict: PASS|FAIL"
#   soak-live.png       the Plots view after the Live run;  soak-log.txt  stderr of both loads
# Exit 0 when every series passed, 1 otherwise, 2 when a load did not start.
#
# Without a GPU (the script's own test): SOAK_BACKEND=sim runs both loads through workers whose "cuda"
# backend is the sim model (WARPSCOPE_WORKER_TEST_SIM_AS_CUDA), without nvidia-smi (gpu columns empty):
#   SOAK_BACKEND=sim SOAK_SECONDS=30 SOAK_SETTLE=10 SOAK_EVERY=5 SOAK_BUILD=build-ci OUT=/tmp/soak \
#     bash scripts/device-soak.sh
set -uo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = build ]; then
  for f in .gl/*.deb; do dpkg -x "$f" /; done
  ldconfig
  cmake --preset default -DCMAKE_CUDA_ARCHITECTURES="${WS_GUI_ARCH:-90}" >/tmp/soak-configure.log 2>&1 || { tail -30 /tmp/soak-configure.log; exit 1; }
  grep -E "warpscope: CUDA backend" /tmp/soak-configure.log
  cmake --build build -j "$(nproc)" --target warpscope warpscope-cli 2>&1 | tail -3
  exit "${PIPESTATUS[0]}"
fi

OUT="${OUT:-$PWD/out}"
mkdir -p "$OUT"
seconds="${SOAK_SECONDS:-560}"; every="${SOAK_EVERY:-10}"; settle="${SOAK_SETTLE:-60}"
lesson="${SOAK_LESSON:-epita}"; n="${SOAK_N:-2^22}"; limit="${SOAK_LIMIT_PCT:-5}"
build="${SOAK_BUILD:-build}"
cli="$build/app/cli/warpscope-cli"; gui="$build/app/gui/warpscope"
csv="$OUT/soak.csv"; log="$OUT/soak-log.txt"
: > "$log"
for p in "$cli" "$gui"; do [ -x "$p" ] || { echo "device-soak: $p is missing: run 'bash scripts/device-soak.sh build' first" >&2; exit 2; }; done

gpu_args=()
worker_name='warpscope-cli worker'
if [ -n "${SOAK_FAULT_EVERY:-}" ]; then
  [ -x "$build/tests/ws_gpu_fault_worker" ] || { echo "device-soak: no $build/tests/ws_gpu_fault_worker" >&2; exit 2; }
  export WARPSCOPE_CLI="$PWD/$build/tests/ws_gpu_fault_worker" WS_FAULT_EVERY_S="$SOAK_FAULT_EVERY"
  worker_name=ws_gpu_fault_worker
  SOAK_LOADS=${SOAK_LOADS:-worker}
  [ -d /tmp/ws-mesa/lib ] && source <(bash scripts/device-mesa.sh env)
fi
fault_every="${SOAK_FAULT_EVERY:-}"; fault_mode=""
[ -n "$fault_every" ] && fault_mode=worker
if [ -n "${SOAK_USER_FAULT_EVERY:-}" ]; then
  [ -z "$fault_every" ] || { echo "device-soak: SOAK_FAULT_EVERY and SOAK_USER_FAULT_EVERY exclude each other" >&2; exit 2; }
  fault_every=$SOAK_USER_FAULT_EVERY; fault_mode=user
  export WARPSCOPE_TEST_EDIT_RUN_EVERY_S="$fault_every" XDG_DATA_HOME="$OUT/xdg-data"
  worker_name='warpscope-cli worker'
  SOAK_LOADS=${SOAK_LOADS:-worker}
  [ -d /tmp/ws-mesa/lib ] && source <(bash scripts/device-mesa.sh env)
fi
xids_at_start=$(dmesg 2>/dev/null | grep -i xid | wc -l)
if [ "${SOAK_BACKEND:-cuda}" = sim ]; then
  # The model's host time stands for launch times (test mode only), so Live plots points here too.
  export WARPSCOPE_WORKER_TEST=1 WARPSCOPE_WORKER_TEST_SIM_AS_CUDA=1 WARPSCOPE_WORKER_TEST_SIM_TIMED=1
  gpu_args=(--gpu local)  # a build without CUDA starts no worker unless asked
  have_smi=0
else
  [ -d .deps/usr/lib/x86_64-linux-gnu ] && export LD_LIBRARY_PATH="$PWD/.deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  [ -f .deps/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] && export WARPSCOPE_FONTS="$PWD/.deps/usr/share/fonts/truetype/dejavu"
  have_smi=1
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee -a "$log"
fi

# Load 1: the GUI's Live through its worker, for the whole soak.
gui_args=(--force --screenshot "$OUT/soak-live.png" --view plots --lesson "$lesson" --live-seconds "$seconds" "${gpu_args[@]}")
[ -n "${SOAK_GUI_N:-}" ] && gui_args+=(--n "$SOAK_GUI_N")  # the GUI's n for Live (default: the GUI's own)
[ "$fault_mode" = user ] && gui_args+=(--variant epita.reduce3 --edit --edit-text tests/gui/fixtures/reduce3_edited_fault.cu)
if [ -n "${SOAK_GDB:-}" ]; then
  # SOAK_GDB=1: the GUI under a debugger (gdb, else the toolkit's cuda-gdb) that prints every thread's
  # stack if it stops on a signal; with WARPSCOPE_GL_DEBUG=1 the driver's GL messages go to the log too.
  dbg=$(command -v gdb || command -v cuda-gdb || echo /usr/local/cuda/bin/cuda-gdb)
  "$dbg" -q -batch -ex "set pagination off" -ex "handle SIGPIPE nostop noprint pass" -ex run -ex "bt 40" \
    -ex "thread apply all bt 16" --args "$gui" "${gui_args[@]}" >>"$log" 2>&1 &
else
  "$gui" "${gui_args[@]}" >>"$log" 2>&1 &
fi
gui_pid=$!
# The GUI's own process: the debugger's child under SOAK_GDB.
gui_proc() { if [ -n "${SOAK_GDB:-}" ]; then pgrep -P "$gui_pid" | head -1; else echo "$gui_pid"; fi; }

# Load 2: one CLI process running the lesson's variants in turn, in-process, until told to stop.
loads="${SOAK_LOADS:-worker,inprocess}"
stop_file="$OUT/.soak-stop"; rm -f "$stop_file"
if [[ ",$loads," == *,inprocess,* ]]; then
variants=$("$cli" list --json | python3 -c "import json,sys; print(','.join(v['id'] for v in json.load(sys.stdin)['variants'] if v['lesson'] == '$lesson' and not v['cpu_only']))")
python3 - "$cli" "$variants" "$n" "$stop_file" "$OUT/soak-inprocess.txt" >>"$log" 2>&1 <<'EOF' &
# Feeds `warpscope-cli worker` one run request at a time and reads each answer; counts the outcomes.
import json, os, subprocess, sys
cli, variants, n, stop_file, summary = sys.argv[1], sys.argv[2].split(','), sys.argv[3], sys.argv[4], sys.argv[5]
n = 2 ** int(n[2:]) if n.startswith('2^') else int(n)  # the protocol takes n as an integer
w = subprocess.Popen([cli, 'worker'], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
print(f'inprocess: worker pid {w.pid}', file=sys.stderr, flush=True)
with open(summary + '.pid', 'w') as f:
    f.write(str(w.pid))
hello = json.loads(w.stdout.readline())
counts, i = {}, 0
while not os.path.exists(stop_file):
    v = variants[i % len(variants)]
    w.stdin.write(json.dumps({'id': i, 'type': 'run', 'request': {'variant': v, 'n': n, 'backend': 'cuda', 'repeat': 5}}) + '\n')
    w.stdin.flush()
    line = w.stdout.readline()
    if not line:
        print('inprocess: the worker ended', file=sys.stderr)
        break
    m = json.loads(line)
    status = m.get('run', {}).get('status', m.get('type'))
    counts[status] = counts.get(status, 0) + 1
    if status in ('error', 'faulted', 'wrong'):
        print(f'inprocess: {v}: {status}: {m.get("run", {}).get("message", m.get("message", ""))}', file=sys.stderr)
    i += 1
w.stdin.write(json.dumps({'id': i, 'type': 'shutdown'}) + '\n')
w.stdin.close()
w.wait(timeout=60)
with open(summary, 'w') as f:
    f.write(f'device: {hello.get("device", {}).get("name", "?")}\nruns: {i}\nstatuses: {json.dumps(counts)}\n')
EOF
drv_pid=$!
else
  drv_pid=""
fi

child_of() { pgrep -P "$1" -f "$worker_name" | head -1; }
rss_mib() { awk '/^VmRSS:/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status" 2>/dev/null; }
echo "t_s,load,role,pid,rss_mib,gpu_mib,gpu_used_mib" > "$csv"
start=$(date +%s)
sleep 3
while kill -0 "$gui_pid" 2>/dev/null; do
  t=$(( $(date +%s) - start ))
  apps=""; used=""
  if [ "$have_smi" = 1 ]; then
    apps=$(nvidia-smi --query-compute-apps=pid,used_memory --format=csv,noheader,nounits 2>/dev/null)
    used=$(nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits 2>/dev/null | head -1)
  fi
  inproc=$(cat "$OUT/soak-inprocess.txt.pid" 2>/dev/null)
  gp=$(gui_proc)
  for row in "worker gui $gp" "worker worker $(child_of "$gp")" "inprocess cli $inproc"; do
    set -- $row
    [ -n "${3:-}" ] || continue
    rss=$(rss_mib "$3"); [ -n "$rss" ] || continue
    gmem=$(echo "$apps" | awk -F', *' -v p="$3" '$1 == p { print $2 }')
    echo "$t,$1,$2,$3,$rss,$gmem,$used" >> "$csv"
  done
  [ "$t" -ge $(( seconds + 60 )) ] && { echo "device-soak: Live did not end after $t s" >> "$log"; kill "$gui_pid"; }
  sleep "$every"
done
wait "$gui_pid"; gui_rc=$?
# Under the debugger its exit status is the debugger's: a signal it stopped on is the GUI's failure.
[ -n "${SOAK_GDB:-}" ] && grep -q "received signal" "$log" && gui_rc=134
touch "$stop_file"; [ -n "$drv_pid" ] && wait "$drv_pid"; rm -f "$stop_file" "$OUT/soak-inprocess.txt.pid"
echo "gui exit $gui_rc" >> "$log"
cat "$OUT/soak-inprocess.txt" >> "$log" 2>/dev/null
dmesg 2>/dev/null | grep -i xid | tail -n +$((xids_at_start + 1)) | cut -c1-200 > "$OUT/soak-xids.txt"
gap_ms=$(sed -n 's/.*the longest gap between two was \([0-9]*\) ms.*/\1/p' "$log" | tail -1)

edit_faults=$(grep -c "the editor's run [0-9]* came back: faulted" "$log")
edit_runs=$(grep -c "the editor's run [0-9]* came back" "$log")
python3 - "$csv" "$settle" "$limit" "$gui_rc" "$seconds" "$loads" "$fault_every" "${gap_ms:-}" \
    "$OUT/soak-xids.txt" "$fault_mode" "$edit_runs" "$edit_faults" > "$OUT/soak-verdict.txt" <<'EOF'
# Per series (load, role; a restarted worker is a new pid, so a new series): the value at the settle
# time, the peak after it and the last, and whether the peak stays within the limit.
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
settle, limit, gui_rc, seconds = float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
loads = sys.argv[6].split(',')
fault_every, gap_ms, xids = sys.argv[7], sys.argv[8], [l for l in open(sys.argv[9]) if l.strip()]
ok = gui_rc == 0
fault_mode, edit_runs, edit_faults = sys.argv[10], int(sys.argv[11]), int(sys.argv[12])
if fault_every:
    worker = 'ws_gpu_fault_wo' if fault_mode == 'worker' else 'warpscope-cli'
    faults = sum(f'name={worker}' in l for l in xids)
    gui_xids = sum('name=warpscope,' in l for l in xids)  # the GUI's own process ("warpscope-cli" is its worker)
    print(f'faults injected every {fault_every} s: {faults} Xid lines of the {"fault worker" if fault_mode == "worker" else "worker"}, '
          f'{gui_xids} of the GUI')
    if fault_mode == 'user':
        print(f"the editor's faulting kernel: {edit_runs} runs came back, {edit_faults} of them faulted")
        if edit_faults == 0:
            ok = False
            print("FAIL: no run of the editor's kernel faulted")
    print(f'longest gap between two drawn frames: {gap_ms or "?"} ms (at most 1000)')
    if gui_xids or not gap_ms or int(gap_ms) > 1000:
        ok = False
        print('FAIL: the GUI was reset, or its picture stood still for more than a second')
print(f'soak of {seconds} s; flat means the peak after {settle:.0f} s is within {limit:g} % (or 2 MiB) of the value at {settle:.0f} s')
if gui_rc != 0:
    print(f'FAIL: the GUI exited {gui_rc} (soak-log.txt)')
series = {}
for r in rows:
    series.setdefault((r['load'], r['role'], r['pid']), []).append(r)
roles = {(k[0], k[1]) for k in series}
for need in [('worker', 'gui'), ('worker', 'worker'), ('inprocess', 'cli')]:
    if need[0] not in loads:
        continue
    if need not in roles and not (fault_every and need == ('worker', 'worker')):
        ok = False
        print(f'FAIL: no samples of {need[0]} {need[1]}')
def num(x):
    try:
        return float(x)
    except (TypeError, ValueError):  # empty without nvidia-smi, "[N/A]" where it hides per-process memory
        return None
# The GPU's used memory (all processes: nvidia-smi may not map a container's pids) as one more series.
by_t = {r['t_s']: r['gpu_used_mib'] for r in rows if num(r['gpu_used_mib']) is not None}
if by_t:
    series[('gpu', 'total', '-')] = [{'t_s': t, 'rss_mib': '', 'gpu_mib': v} for t, v in by_t.items()]
for (load, role, pid), rs in sorted(series.items()):
    for col, name in [('rss_mib', 'RSS'), ('gpu_mib', 'device memory')]:
        pts = [(float(r['t_s']), num(r[col])) for r in rs if num(r[col]) is not None]
        after = [v for t, v in pts if t >= settle]
        if not pts:
            continue
        if fault_every and (load, role) == ('worker', 'worker'):  # a worker lives fault_every s: listed only
            print(f'{load:9} {role:6} pid {pid:>7} {name:13}: {pts[0][1]:9.1f} .. {pts[-1][1]:9.1f} MiB '
                  f'({len(pts)} samples, t = {pts[0][0]:.0f}..{pts[-1][0]:.0f} s)')
            continue
        if len(after) < 2:
            print(f'{load:9} {role:6} pid {pid:>7} {name:13}: {len(after)} sample(s) after {settle:.0f} s: too short to judge')
            if (load, role) != ('worker', 'worker'):  # a restarted worker's first process may be short-lived
                ok = False
            continue
        base, peak, last = after[0], max(after), after[-1]
        growth = 100.0 * (peak - base) / base if base > 0 else 0.0
        good = peak <= base * (1 + limit / 100.0) or peak - base <= 2.0
        ok &= good
        print(f'{load:9} {role:6} pid {pid:>7} {name:13}: {base:9.1f} MiB at {settle:.0f} s, peak {peak:9.1f}, last {last:9.1f}'
              f' ({growth:+.1f} %, {len(after)} samples) {"PASS" if good else "FAIL"}')
print('verdict:', 'PASS' if ok else 'FAIL')
EOF
cat "$OUT/soak-verdict.txt"
grep -q '^verdict: PASS' "$OUT/soak-verdict.txt"
