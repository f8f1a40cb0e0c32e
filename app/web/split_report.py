#!/usr/bin/env python3
"""Writes a bundled report without its GPU recordings, for the page's start (app/web/CMakeLists.txt).

A report's "traces" (step traces recorded on the GPU) are most of its bytes: 9.6 of nvidia-h100-lessons.json's
10.0 MB. The page opens the copy written here at start (its runs, sweeps and device: what Results and Compare
show) and reads the whole report's recordings only when the page first needs them (bundled_recordings.cpp).
Every other key is kept as it is, in its order; numbers keep their values (Python's float repr reads back
to the same double).

    split_report.py REPORT OUT   # OUT: REPORT less its "traces"
"""
import json
import sys


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        report = json.load(f)
    report.pop("traces", None)
    with open(argv[2], "w", encoding="utf-8") as f:
        json.dump(report, f, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
