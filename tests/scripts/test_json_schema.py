#!/usr/bin/env python3
"""Every JSON document warpscope writes validates against docs/warpscope.schema.json: the bundled reports
and each --json output kind of warpscope-cli (run, sweep, trace, variants, device, metrics, report, report
show, compare, filter, allreduce), made here with the sim backend. The CSV of the same command holds the same values,
with the same types, as its JSON flattened the way pandas.json_normalize does (null -> empty cell).
Usage: test_json_schema.py WARPSCOPE_CLI SOURCE_DIR. Exit 77 (skipped) without python3-jsonschema."""
import csv
import glob
import io
import json
import os
import subprocess
import sys
import tempfile

try:
    import jsonschema
except ImportError:
    print("python3-jsonschema is not installed: skipped")
    sys.exit(77)

cli, src = sys.argv[1], sys.argv[2]
schema = json.load(open(os.path.join(src, "docs", "warpscope.schema.json")))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
failures = []


def check(name, doc):
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
    for e in errors[:5]:
        failures.append(f"{name}: {'/'.join(map(str, e.path))}: {e.message[:200]}")
    return doc


def run(args, codes=(0,)):
    p = subprocess.run([cli] + args, capture_output=True, text=True)
    if p.returncode not in codes:
        failures.append(f"{' '.join(args)}: exit {p.returncode}: {p.stderr.strip()[:300]}")
    return p.stdout


def run_json(name, args, codes=(0,)):
    out = run(args, codes)
    try:
        doc = json.loads(out)
    except json.JSONDecodeError as e:
        failures.append(f"{name}: not JSON ({e}): {out[:200]!r}")
        return {}
    if not doc.get("format", "").startswith("warpscope-") or doc.get("version") != 1:
        failures.append(f"{name}: no format/version: {doc.get('format')!r} {doc.get('version')!r}")
    return check(name, doc)


def flatten(obj, prefix=""):
    out = {}
    for k, v in obj.items():
        key = prefix + k
        if isinstance(v, dict) and v:
            out.update(flatten(v, key + "."))
        else:
            out[key] = v
    return out


def same_as_json(name, csv_text, rows):
    """The CSV's cells are the flattened JSON rows' values: equal numbers of the same kind, empty for null."""
    table = list(csv.DictReader(io.StringIO(csv_text)))
    if len(table) != len(rows):
        failures.append(f"{name}: {len(table)} CSV rows, {len(rows)} JSON rows")
        return
    for i, (line, row) in enumerate(zip(table, rows)):
        for key, v in flatten(row).items():
            if key.startswith("host_ms.") and name.split()[0] in ("run", "sweep"):
                if key not in line or line[key] == "":  # two processes measured these: each its own time
                    failures.append(f"{name}: row {i}: no {key}")
                continue
            cell = line.get(key)
            if cell is None:
                failures.append(f"{name}: row {i}: no column {key}")
            elif v is None:
                if cell != "":
                    failures.append(f"{name}: row {i}: {key} is null in JSON, {cell!r} in CSV")
            elif isinstance(v, bool):
                if cell != ("true" if v else "false"):
                    failures.append(f"{name}: row {i}: {key} {v} vs {cell!r}")
            elif isinstance(v, int):
                if cell != str(v):
                    failures.append(f"{name}: row {i}: {key} integer {v} vs {cell!r}")
            elif isinstance(v, float):
                if not any(c in cell for c in ".eE") or float(cell) != v:
                    failures.append(f"{name}: row {i}: {key} float {v!r} vs {cell!r} (must read back exactly, as a float)")
            elif isinstance(v, str):
                if cell != v:
                    failures.append(f"{name}: row {i}: {key} {v!r} vs {cell!r}")


for path in sorted(glob.glob(os.path.join(src, "assets", "reports", "**", "*.json"), recursive=True)):
    check(os.path.relpath(path, src), json.load(open(path)))

with tempfile.TemporaryDirectory() as tmp:
    sim = ["--backend", "sim"]
    doc = run_json("list", ["list", "--json"])
    same_as_json("list --csv", run(["list", "--csv"]), doc.get("variants", []))
    doc = run_json("metrics", ["metrics", "--json"])
    same_as_json("metrics --csv", run(["metrics", "--csv"]), doc.get("metrics", []))
    run_json("device", ["device", "--json"], codes=(0, 3))
    run_json("allreduce", ["allreduce", "--gpus", "4", "--bytes", "64KiB", "--json"])
    run_json("allreduce sweep", ["allreduce", "--method", "ring,tree", "--gpus", "2", "--sweep", "4KiB:64KiB", "--json"])
    r = ["run", "--variant", "epita.reduce3", "--type", "float32", "--n", "100000"] + sim
    doc = run_json("run", r + ["--json"])
    same_as_json("run --csv", run(r + ["--csv"]), [{k: v for k, v in doc.items() if k not in ("format", "version")}])
    if isinstance(doc.get("result"), float) and doc["result"] != round(doc["result"]):
        pass  # a float32 sum with a fraction: the CSV check above compared it digit for digit
    sw = ["sweep", "--variants", "epita.reduce3,harris.impl2", "--from", "10", "--to", "12"] + sim
    doc = run_json("sweep", sw + ["--json"])
    same_as_json("sweep --csv", run(sw + ["--csv"]), doc.get("runs", []))
    for point in doc.get("runs", []):  # a sim sweep has the model's host time to plot, no GPU time
        if point.get("time_ms") is not None or not point.get("host_ms", {}).get("total", 0) > 0:
            failures.append(f"sweep: sim point without host_ms.total or with a GPU time: {point.get('variant')}")
    kf = ["sweep", "--variants", "cub.select", "--keep-fraction", "0:1:0.5", "--n", "2^12"] + sim
    run_json("kept-fraction sweep", kf + ["--json"])
    tr = ["trace", "--variant", "epita.reduce2", "--n", "64", "--block", "16", "--blocks", "2"]
    doc = run_json("trace", tr + ["--json"])
    rows = [dict(s, variant="epita.reduce2", block=b["block_index"] if "block_index" in b else k)
            for k, b in enumerate(doc.get("blocks", [])) for s in b["steps"]]
    table = list(csv.DictReader(io.StringIO(run(tr + ["--csv"]))))
    if len(table) != len(rows) or not table or table[0].get("phase") != rows[0]["phase"]:
        failures.append(f"trace --csv: {len(table)} rows for {len(rows)} steps")
    out = os.path.join(tmp, "r.json")
    doc = run_json("report", ["report", "--variants", "epita.reduce3,harris.impl2,stevens.conv1d_basic", "--out", out,
                              "--json", "--quiet"] + sim)
    check("report file", json.load(open(out)))
    if doc.get("device", {}).get("theoretical_gbps", None) is not None:
        failures.append("report: the sim device's theoretical_gbps is not null")
    show = run_json("report show", ["report", "show", out, "--json", "--variants", "epita.reduce3"])
    if [r["variant"] for r in show.get("runs", [])] != ["epita.reduce3"]:
        failures.append(f"report show --variants: {[r['variant'] for r in show.get('runs', [])]}")
    same_as_json("report show --csv", run(["report", "show", out, "--csv"]), json.load(open(out))["runs"])
    h100 = os.path.join(src, "assets", "reports", "nvidia-h100.json")
    h200 = os.path.join(src, "assets", "reports", "nvidia-h200.json")
    doc = run_json("report compare", ["report", "compare", h100, h200, "--json"])
    same_as_json("report compare --csv", run(["report", "compare", h100, h200, "--csv"]), doc.get("variants", []))
    run_json("report filter", ["report", "filter", h100, "--variants", "reduction", "--json"])

for f in failures:
    print(f)
print(f"{len(failures)} failures")
sys.exit(1 if failures else 0)
