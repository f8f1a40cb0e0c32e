#!/usr/bin/env python3
"""Moves a report's per-line metrics (runs[].metrics.lines[]: file, line) from the kernel sources of the
commit that recorded them to the kernel sources of the working tree.

A kernel edit that only adds or removes lines (trace-point markers, comments) shifts the line numbers
of every statement below it, so the Source view would show a recorded counter next to the wrong
statement. For each kernels/*/*.cu named in the report, the recorded file (`git show REV:path`) and the
current one are aligned line by line (difflib); a counter moves with its unchanged line and is dropped
when its line itself changed (the count is printed). The values are untouched.

usage: scripts/remap_report_lines.py REPORT.json REV [FILE.cu=REV2 ...]
  REV: the commit whose kernels the report's lines refer to (the report's build.git when it was
       recorded on a clean tree); FILE.cu=REV2: that file as of another commit (a recording made on a
       tree with uncommitted kernel edits: the first commit whose file has code on every recorded line).
  Run it once per recording: a second run would move the lines again.
"""
import difflib
import glob
import json
import os
import subprocess
import sys


def kernel_paths(root):
    return {os.path.basename(p): os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "kernels", "*", "*.cu"))}


def line_map(old, new):
    """1-based old line -> 1-based new line, for the lines difflib finds unchanged."""
    m = {}
    for tag, i1, i2, j1, _ in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag == "equal":
            for k in range(i2 - i1):
                m[i1 + k + 1] = j1 + k + 1
    return m


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    report, rev = sys.argv[1], sys.argv[2]
    revs = dict(a.split("=", 1) for a in sys.argv[3:])
    root = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True, check=True).stdout.strip()
    text = open(report, encoding="utf-8").read()
    compact = not text.startswith("{\n")
    data = json.loads(text)
    paths = kernel_paths(root)
    maps = {}
    moved = dropped = 0
    for run in data.get("runs", []):
        lines = (run.get("metrics") or {}).get("lines")
        if not lines:
            continue
        kept = []
        for entry in lines:
            f = entry.get("file")
            if f not in paths:
                kept.append(entry)
                continue
            if f not in maps:
                at = revs.get(f, rev)
                old = subprocess.run(["git", "show", f"{at}:{paths[f]}"], capture_output=True, text=True, cwd=root)
                if old.returncode != 0:
                    sys.exit(f"{paths[f]} is not in {at}: {old.stderr.strip()}")
                new = open(os.path.join(root, paths[f]), encoding="utf-8").read()
                maps[f] = line_map(old.stdout.splitlines(), new.splitlines())
            to = maps[f].get(entry["line"])
            if to is None:
                dropped += 1
                continue
            moved += to != entry["line"]
            entry["line"] = to
            kept.append(entry)
        run["metrics"]["lines"] = kept
    out = json.dumps(data, ensure_ascii=False, separators=(",", ":")) if compact else json.dumps(data, ensure_ascii=False, indent=1)
    with open(report, "w", encoding="utf-8") as fh:
        fh.write(out + ("\n" if text.endswith("\n") else ""))
    print(f"{report}: {moved} line counters moved, {dropped} dropped (their line changed since it was recorded)")


if __name__ == "__main__":
    main()
