#!/usr/bin/env python3
"""warpscope's CUPTI metrics against Nsight Compute (and their cost).

Run on the GPU machine from the repository root after `cmake --build --preset device`:
    python3 scripts/metrics_vs_ncu.py OUTDIR
1. Agreement: for each variant, `warpscope-cli run --metrics LIST --json` against
   `ncu --metrics LIST` on the same program; ncu's values summed over the kernels of the last
   launcher call (the CLI's warm-up and timed launches come first). Writes OUTDIR/ncu-compare.md.
2. Cost: ncu wall minus plain wall for one kernel (epita.reduce1, --launch-count 1) with the
   default set's range metrics, beside ws_metrics_bench's in-process request-to-values time for
   the same kernel and metrics (and for the whole default set). Writes OUTDIR/metrics-cost.json.
"""
import csv, io, json, os, subprocess, sys, time

BUILD = "build-device"
CLI = f"{BUILD}/app/cli/warpscope-cli"
BENCH = f"{BUILD}/tests/ws_metrics_bench"
N = "2^24"
COUNTERS = [  # summable counters: compared over all kernels of one launcher call
    "smsp__inst_executed.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "smsp__inst_executed_op_shared_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum",
    "lts__t_requests_op_atom.sum",
    "lts__t_requests_op_red.sum",
    "dram__bytes_read.sum",
]
VARIANTS = ["harris.impl1", "harris.impl2", "harris.impl3", "epita.reduce0", "epita.reduce1"]


def sh(cmd, env=None):
    return subprocess.run(cmd, capture_output=True, text=True, env=env)


def ours(variant, metrics):
    p = sh([CLI, "run", "--variant", variant, "--n", N, "--block", "256", "--repeat", "1", "--metrics", ",".join(metrics), "--json"])
    j = json.loads(p.stdout)
    return j, j.get("metrics", {}).get("values", {})


def ncu(variant, metrics, launches):
    p = sh(["ncu", "--metrics", ",".join(metrics), "--csv", "--page", "raw", "--print-units", "base",
            CLI, "run", "--variant", variant, "--n", N, "--block", "256", "--repeat", "1"])
    rows = [r for r in csv.reader(io.StringIO(p.stdout[p.stdout.find('"ID"'):]))]
    if not rows:
        return {}, p.stderr[-400:]
    head, data = rows[0], [r for r in rows[2:] if len(r) == len(rows[0])]  # row 1 holds the units
    last = data[-launches:] if launches > 0 else data
    out = {}
    for m in metrics:
        if m in head:
            k = head.index(m)
            out[m] = sum(float(r[k].replace(",", "")) for r in last if r[k] not in ("", "n/a"))
    return out, ""


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else "."
    lines = ["| variant | metric | warpscope | ncu | diff |", "|---|---|---:|---:|---:|"]
    compare = {}
    for v in VARIANTS:
        run, mine = ours(v, COUNTERS)
        theirs, err = ncu(v, COUNTERS, run.get("launches", 1))
        compare[v] = {"warpscope": mine, "ncu": theirs, "error": err}
        for m in COUNTERS:
            a, b = mine.get(m), theirs.get(m)
            d = "" if a is None or b is None or b == 0 else f"{100.0 * (a - b) / b:+.1f} %"
            lines.append(f"| {v} | {m} | {a if a is not None else '-'} | {b if b is not None else '-'} | {d} |")
    with open(os.path.join(outdir, "ncu-compare.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))

    # Cost, one kernel: epita.reduce1 is a single launch.
    cat = json.loads(sh([CLI, "metrics", "--json"]).stdout)
    range_default = [m["name"] for m in cat if m["default"] and m["source"] == "range profiler"]
    base = [CLI, "run", "--variant", "epita.reduce1", "--n", N, "--block", "256", "--repeat", "1"]
    walls = {}
    for name, cmd in [("plain", base), ("ncu", ["ncu", "--launch-count", "1", "--metrics", ",".join(range_default)] + base)]:
        best = None
        for _ in range(2):
            t = time.perf_counter()
            p = sh(cmd)
            w = time.perf_counter() - t
            best = w if best is None else min(best, w)
        walls[name] = best
        walls[name + "_rc"] = p.returncode
    ncu_added_ms = 1000.0 * (walls["ncu"] - walls["plain"])
    env = dict(os.environ, WS_METRICS_TIMING="1")
    pr = sh([BENCH, "epita.reduce1", N, ",".join(range_default), "3"], env)
    pd = sh([BENCH, "epita.reduce1", N, "default", "3"], env)
    bench_range, bench_default = json.loads(pr.stdout), json.loads(pd.stdout)
    cost = {
        "kernel": "epita.reduce1", "n": N, "metrics": range_default,
        "plain_wall_s": walls["plain"], "ncu_wall_s": walls["ncu"], "ncu_added_ms": ncu_added_ms,
        "in_process_range_ms": bench_range["profile_ms"], "in_process_default_ms": bench_default["profile_ms"],
        "passes": bench_range["last"]["passes"],
        "ratio_range": min(bench_range["profile_ms"]) / ncu_added_ms if ncu_added_ms > 0 else None,
        "ratio_default": min(bench_default["profile_ms"]) / ncu_added_ms if ncu_added_ms > 0 else None,
        "first_call_range_ms": bench_range["profile_ms"][0],
        "breakdown_range": pr.stderr.strip().splitlines(), "breakdown_default": pd.stderr.strip().splitlines(),
    }
    with open(os.path.join(outdir, "metrics-cost.json"), "w") as f:
        json.dump({"compare": compare, "cost": cost}, f, indent=2)
    print(json.dumps(cost, indent=2))


if __name__ == "__main__":
    main()
