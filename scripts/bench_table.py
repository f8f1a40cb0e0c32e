#!/usr/bin/env python3
"""Prints a report's runs as a Markdown table: variant, ms, GB/s, % of peak, ratio to the baseline
(argv[2], default cub.reduce)."""
import json
import sys

rep = json.load(open(sys.argv[1]))
BASE = sys.argv[2] if len(sys.argv) > 2 else "cub.reduce"
runs = rep["runs"]
cub = next((r for r in runs if r["variant"] == BASE and r.get("gbps")), None)
dev = rep.get("device", {})
print(f"Device: {dev.get('name')} ({dev.get('sm_count')} SMs), theoretical {dev.get('theoretical_gbps', 0):.0f} GB/s, "
      f"device copy {dev.get('copy_gbps', 0):.0f} GB/s; n = {runs[0]['n'] if runs else '?'} {runs[0]['type'] if runs else ''}\n")
print("| variant | block x grid | ms (median) | GB/s | % peak | x CUB | check |")
print("|---|---|---:|---:|---:|---:|---|")
best = None
for r in runs:
    g = r.get("gbps")
    ratio = (g / cub["gbps"]) if (g and cub) else None
    ms = r.get("time_ms")
    hand = r["variant"] != BASE and r["status"] == "ok" and not r["variant"].endswith("sequential")
    if hand and ratio and (best is None or ratio > best[1]):
        best = (r["variant"], ratio)
    print(f"| {r['variant']} | {r['block']} x {r['grid']} | {ms:.4f} | {g:.1f} | {r.get('pct_theoretical') or 0:.1f} | "
          f"{ratio:.3f} | {r['status']} |" if ms is not None else f"| {r['variant']} | - | - | - | - | - | {r['status']}: {r['message']} |")
if best:
    what = "reduction" if BASE == "cub.reduce" else BASE.split(".")[-1]
    print(f"\nFastest correct hand-written {what}: {best[0]} at {best[1]:.3f}x {BASE}")
