#!/usr/bin/env bash
# Time to result of the sim backend: `warpscope-cli run --backend sim` of every variant at one n (default
# 2^24), one row per variant: wall seconds, CPU seconds (user + sys, all threads), status, and the run's
# own host_ms phases (input, model, reference, check, other). Not a test: a table to read (goal: wall
# <= 0.5 s per variant on a 2-core machine; CPU seconds show the work when the machine is shared).
# Usage: bench/sim_time.sh [CLI] [N] [VARIANT_REGEX]   (CLI defaults to build-ci/app/cli/warpscope-cli)
# Sizes: n for every 1-D variant; the 2-D convolutions get a square image of about n pixels; the atomic
# counters the largest multiple of their 1000-thread block <= n; variants whose rules refuse n (the
# single-block scans) their default n.
set -u
cli=${1:-build-ci/app/cli/warpscope-cli}
n=${2:-2^24}
filter=${3:-.}
[ -x "$cli" ] || { echo "no CLI at $cli (build it: cmake --build --preset ci --target warpscope-cli)" >&2; exit 2; }
exec python3 - "$cli" "$n" "$filter" <<'PY'
import json, math, os, re, resource, subprocess, sys, time
cli, n_text, pattern = sys.argv[1], sys.argv[2], sys.argv[3]
n = eval(n_text.replace("^", "**"), {}) if re.fullmatch(r"[0-9^<* ]+", n_text) else int(n_text)
variants = [v for v in json.loads(subprocess.check_output([cli, "list", "--json"])) if re.search(pattern, v["id"])]
print(f"warpscope sim time to result, n = {n_text}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
cols = ["input", "model", "launches", "reference", "check", "other"]
print(f"{'variant':30} {'n':>10} {'wall s':>7} {'cpu s':>6} {'status':9} " + " ".join(f"{c:>9}" for c in cols))
worst = (0.0, "")
for v in variants:
    args = ["run", "--variant", v["id"], "--backend", "sim", "--json"]
    rules = v.get("rules", {})
    if v["pattern"] == "convolution" and "2d" in v["id"]:
        side = int(math.isqrt(n))
        args += ["--width", str(side), "--height", str(side)]
    elif v["id"] in ("cs121.race", "cs121.atomic_counter"):
        args += ["--n", str(n // 1000 * 1000)]
    else:
        args += ["--n", str(n)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run([cli] + args, capture_output=True, text=True)
    if p.returncode == 2:  # the launch rules refuse this n (single-block scans): the variant's default n
        args = [a for i, a in enumerate(args) if a != "--n" and (i == 0 or args[i - 1] != "--n")]
        p = subprocess.run([cli] + args, capture_output=True, text=True)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    try:
        r = json.loads(p.stdout)
        status, host, size = r.get("status", "?"), r.get("host_ms", {}), r.get("n", 0)
    except ValueError:
        status, host, size = f"rc {p.returncode}", {}, 0
        print(f"  {v['id']}: {p.stderr.strip()[:100]}", file=sys.stderr)
    phases = " ".join(f"{host.get(c, 0):9.0f}" for c in cols)
    print(f"{v['id']:30} {size:>10} {wall:7.3f} {cpu:6.2f} {status:9} {phases}", flush=True)
    worst = max(worst, (wall, v["id"]))
print(f"slowest: {worst[1]} {worst[0]:.3f} s wall (host_ms columns in milliseconds)")
PY
