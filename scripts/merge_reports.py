#!/usr/bin/env python3
"""Merge warpscope reports of one device and session into the first: the runs of the parts take the
place of the first report's runs of the same variant that did not run (skipped or error); traces and
sweeps are appended. Usage: merge_reports.py MAIN.json [PART.json...] [--title TITLE] [--sanitizer FILE].
Refuses reports of another device or format version. --sanitizer attaches the compute-sanitizer verdicts
of scripts/device-sanitizer.sh (its sanitizer.json) to every run of MAIN of the same variant, as the
run's "sanitizer" object (the report loader checks it). Writes MAIN.json in place (through a temporary
file)."""
import argparse, json, os, sys, tempfile

ap = argparse.ArgumentParser()
ap.add_argument("main")
ap.add_argument("parts", nargs="*")
ap.add_argument("--sanitizer")
ap.add_argument("--title")
a = ap.parse_args()
main = json.load(open(a.main))
for path in a.parts:
    part = json.load(open(path))
    for key in ("version", "format"):
        if part.get(key) != main.get(key):
            sys.exit(f"merge_reports: {path}: {key} {part.get(key)!r} differs from {main.get(key)!r}")
    if part.get("device", {}).get("name") != main.get("device", {}).get("name"):
        sys.exit(f"merge_reports: {path} was recorded on another device")
    for run in part.get("runs", []):
        if run.get("status") in ("skipped", "error"):
            continue
        slots = [i for i, r in enumerate(main["runs"]) if r.get("variant") == run.get("variant") and r.get("status") in ("skipped", "error")]
        if slots:
            main["runs"][slots[0]] = run
        else:
            main["runs"].append(run)
    main.setdefault("traces", []).extend(part.get("traces", []))
    if part.get("sweeps"):
        main.setdefault("sweeps", []).extend(part["sweeps"])
if a.title:
    main["title"] = a.title
attached = 0
if a.sanitizer:
    doc = json.load(open(a.sanitizer))
    if doc.get("format") != "warpscope-sanitizer" or doc.get("version") != 1:
        sys.exit(f"merge_reports: {a.sanitizer} is not a warpscope-sanitizer file of version 1")
    verdicts = {}
    for e in doc.get("variants", []):
        if not any(t in e for t in ("memcheck", "racecheck", "synccheck")):
            continue  # nothing ran under any tool: no verdict
        v = {k: e[k] for k in ("n", "args", "check", "memcheck", "racecheck", "synccheck") if k in e}
        v["tool_version"], v["device"] = doc.get("tool_version", ""), doc.get("device", "")
        verdicts[e["variant"]] = v
    for run in main["runs"]:
        if run.get("variant") in verdicts and run.get("backend") == "cuda":
            run["sanitizer"] = verdicts[run["variant"]]
            attached += 1
left = [r["variant"] for r in main["runs"] if r.get("status") in ("skipped", "error")]
fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(a.main)), suffix=".json")
with os.fdopen(fd, "w") as f:
    json.dump(main, f, separators=(",", ":"))
os.replace(tmp, a.main)
print(f"merge_reports: {a.main}: {len(main['runs'])} runs, {len(left)} not run{': ' + ', '.join(left) if left else ''}"
      + (f", {attached} with sanitizer verdicts" if a.sanitizer else ""))
