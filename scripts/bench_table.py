#!/usr/bin/env python3
"""Prints a report's runs as a Markdown table: variant, ms, GB/s, % of peak, ratio to the baseline
(argv[2], default cub.reduce). Only runs of the baseline's pattern (same pattern in `warpscope-cli list`,
same bytes per element, n and type) get a ratio; the others show "-" (a convolution is not ranked against
cub.reduce). `warpscope-cli report show` and `report compare` print such tables too (CSV, JSON)."""
import glob
import json
import os
import shutil
import subprocess
import sys

rep = json.load(open(sys.argv[1]))
BASE = sys.argv[2] if len(sys.argv) > 2 else "cub.reduce"
runs = rep["runs"]
cub = next((r for r in runs if r["variant"] == BASE and r.get("gbps")), None)


def patterns():
    """variant id -> pattern, from warpscope-cli list --json ($WARPSCOPE_CLI, PATH or a build folder); {} without."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for cli in [os.environ.get("WARPSCOPE_CLI"), shutil.which("warpscope-cli")] + sorted(
            glob.glob(os.path.join(root, "build*", "app", "cli", "warpscope-cli"))):
        if not cli or not os.access(cli, os.X_OK):
            continue
        try:
            doc = json.loads(subprocess.run([cli, "list", "--json"], capture_output=True, text=True, timeout=30).stdout)
        except (OSError, ValueError, subprocess.TimeoutExpired):
            continue
        items = doc["variants"] if isinstance(doc, dict) else doc
        return {v["id"]: v["pattern"] for v in items}
    return {}


PATTERN = patterns()


def same_kind(r, base):
    """A ratio to the baseline means something only for the same pattern, bytes per element, n and type."""
    if base is None or r["n"] != base["n"] or r["type"] != base["type"] or not r.get("bytes") or not base.get("bytes"):
        return False
    if PATTERN and PATTERN.get(r["variant"]) != PATTERN.get(base["variant"]):
        return False
    return abs(r["bytes"] / r["n"] - base["bytes"] / base["n"]) < 1e-9 * max(1.0, base["bytes"] / base["n"])
dev = rep.get("device", {})
print(f"Device: {dev.get('name')} ({dev.get('sm_count')} SMs), theoretical {dev.get('theoretical_gbps', 0):.0f} GB/s, "
      f"device copy {dev.get('copy_gbps', 0):.0f} GB/s; n = {runs[0]['n'] if runs else '?'} {runs[0]['type'] if runs else ''}\n")
print("| variant | block x grid | ms (median) | GB/s | % peak | x CUB | check |")
print("|---|---|---:|---:|---:|---:|---|")
best = None
for r in runs:
    g = r.get("gbps")
    ratio = (g / cub["gbps"]) if (g and cub and same_kind(r, cub)) else None
    ms = r.get("time_ms")
    hand = r["variant"] != BASE and r["status"] == "ok" and not r["variant"].endswith("sequential")
    if hand and ratio and (best is None or ratio > best[1]):
        best = (r["variant"], ratio)
    x = f"{ratio:.3f}" if ratio is not None else "-"
    print(f"| {r['variant']} | {r['block']} x {r['grid']} | {ms:.4f} | {g:.1f} | {r.get('pct_theoretical') or 0:.1f} | "
          f"{x} | {r['status']} |" if ms is not None else f"| {r['variant']} | - | - | - | - | - | {r['status']}: {r['message']} |")
if best:
    what = "reduction" if BASE == "cub.reduce" else BASE.split(".")[-1]
    print(f"\nFastest correct hand-written {what}: {best[0]} at {best[1]:.3f}x {BASE}")
