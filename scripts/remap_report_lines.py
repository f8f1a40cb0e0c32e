#!/usr/bin/env python3
"""Moves a report's per-line metrics (runs[].metrics.lines[]: file, line) and the source lines of its
stored traces (traces[].steps[].lines and each op's line) from the kernel sources of the commit that
recorded them to the kernel sources of the working tree.

A kernel edit that only adds or removes lines (trace-point markers, comments) shifts the line numbers
of every statement below it, so the Source view would show a recorded counter next to the wrong
statement. For each kernels/*/*.cu and *.cuh named in the report, the recorded file (`git show REV:path`) and the
current one are aligned line by line (difflib, blanks inside a line ignored, so a reformat that only
respaces a line keeps its counters). A counter moves with its unchanged line. Where lines were joined
or split (clang-format, a WS_T(...) moved to its own line), a counter moves to the new line whose code
(WS_T spans and // comments left out) holds its old line's code, or else to the longest new line of
code its old line held; counters that land on one line are added up (lanes per instruction recomputed).
Any other counter is dropped. A stored trace's lines are trace points' statements, which always have
a new line; the script stops, changing nothing, if one has none. The counts are printed.

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
    found = [p for ext in ("*.cu", "*.cuh") for p in glob.glob(os.path.join(root, "kernels", "*", ext))]
    return {os.path.basename(p): os.path.relpath(p, root) for p in found}


def code_of(line):
    """The line's code: WS_T(...) spans and any // comment removed, and every blank (scanner's trace_code_of)."""
    out = line
    at = out.find("WS_T(")
    while at >= 0:
        i, depth = at + 5, 1
        while i < len(out) and depth > 0:
            depth += 1 if out[i] == "(" else -1 if out[i] == ")" else 0
            i += 1
        out = out[:at] + out[i:]
        at = out.find("WS_T(")
    comment = out.find("//")
    if comment >= 0:
        out = out[:comment]
    return "".join(out.split())


def line_map(old, new):
    """1-based old line -> 1-based new line: unchanged lines (blanks ignored), then joined and split ones."""
    m = {}
    squeeze = lambda lines: ["".join(l.split()) for l in lines]
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, squeeze(old), squeeze(new), autojunk=False).get_opcodes():
        if tag == "equal":
            for k in range(i2 - i1):
                m[i1 + k + 1] = j1 + k + 1
        elif tag == "replace":
            news = [(j, code_of(new[j])) for j in range(j1, j2) if code_of(new[j])]
            at = 0  # joined lines keep their order: search from the last new line taken
            for i in range(i1, i2):
                was = code_of(old[i])
                if not was:
                    continue
                holds = [k for k in range(at, len(news)) if was in news[k][1]]
                if holds:
                    at = holds[0]
                    m[i + 1] = news[at][0] + 1
                    continue
                parts = [k for k in range(at, len(news)) if news[k][1] in was]
                if parts:
                    at = max(parts, key=lambda k: (len(news[k][1]), k))
                    m[i + 1] = news[at][0] + 1
    return m


def merge(entries):
    """Entries that name one file and line become one: counts added, lanes per instruction recomputed."""
    out, seen = [], {}
    for e in entries:
        key = (e.get("file"), e.get("line"))
        if key not in seen:
            seen[key] = dict(e)
            out.append(seen[key])
            continue
        into = seen[key]
        for k, v in e.items():
            if k not in ("file", "line", "lanes_per_instruction") and isinstance(v, (int, float)):
                into[k] = into.get(k, 0) + v
        if into.get("warp_instructions"):
            into["lanes_per_instruction"] = into["thread_instructions"] / into["warp_instructions"]
    return out


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

    def map_of(f):
        if f not in maps:
            at = revs.get(f, rev)
            old = subprocess.run(["git", "show", f"{at}:{paths[f]}"], capture_output=True, text=True, cwd=root)
            if old.returncode != 0:
                sys.exit(f"{paths[f]} is not in {at}: {old.stderr.strip()}")
            new = open(os.path.join(root, paths[f]), encoding="utf-8").read()
            maps[f] = line_map(old.stdout.splitlines(), new.splitlines())
        return maps[f]

    moved = dropped = merged = 0
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
            to = map_of(f).get(entry["line"])
            if to is None:
                dropped += 1
                continue
            moved += to != entry["line"]
            entry["line"] = to
            kept.append(entry)
        run["metrics"]["lines"] = merge(kept)
        merged += len(kept) - len(run["metrics"]["lines"])
    traced = 0
    for trace in data.get("traces", []):
        f = trace.get("source_file")
        if f not in paths:
            continue
        m = map_of(f)

        def to(line):
            if line not in m:
                sys.exit(f"{report}: trace of {trace.get('variant')} names {f}:{line}, which has no line now")
            return m[line]

        for step in trace.get("steps", []):
            step["lines"] = [to(l) for l in step.get("lines", [])]
            for op in step.get("ops", []):
                if isinstance(op, list) and len(op) == 9 and op[8] > 0:  # trace_store.cpp: the 9th field is the line
                    op[8] = to(op[8])
        traced += 1
    out = json.dumps(data, ensure_ascii=False, separators=(",", ":")) if compact else json.dumps(data, ensure_ascii=False, indent=1)
    with open(report, "w", encoding="utf-8") as fh:
        fh.write(out + ("\n" if text.endswith("\n") else ""))
    print(f"{report}: {moved} line counters moved, {merged} added to another on a joined line, {dropped} dropped "
          f"(their line's code is gone); the lines of {traced} stored traces moved")


if __name__ == "__main__":
    main()
