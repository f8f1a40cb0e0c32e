#!/usr/bin/env python3
"""scripts/sanitizer_parse.py on compute-sanitizer logs written here in the tool's documented format
(the banner, report lines with '========= ', the summaries), so the parser is checked without a GPU."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
import sanitizer_parse as sp  # noqa: E402

CLEAN_MEMCHECK = """========= COMPUTE-SANITIZER
{"variant":"epita.reduce3","status":"ok","message":""}
========= ERROR SUMMARY: 0 errors
"""

MEMCHECK_OOB = """========= COMPUTE-SANITIZER
========= Invalid __global__ write of size 4 bytes
=========     at conv1d_tiled(const int *, int, int *)+0x1f0 in /src/kernels/convolution/stevens_conv.cu:88
=========     by thread (1000,0,0) in block (3,0,0)
=========     Address 0x7f00000a0fa0 is out of bounds
=========
========= Invalid __global__ write of size 4 bytes
=========     at conv1d_tiled(const int *, int, int *)+0x1f0 in /src/kernels/convolution/stevens_conv.cu:88
=========     by thread (1001,0,0) in block (3,0,0)
=========
========= Program hit cudaErrorLaunchFailure (error 719) due to "unspecified launch failure" on CUDA API call to cudaStreamSynchronize.
=========
========= ERROR SUMMARY: 3 errors
"""

# racecheck --racecheck-report all: the analysis reports (pairs of accesses, [K hazards]) and the
# hazard reports (one per hazard, typed), then the summary.
RACECHECK_NOSYNC = """========= COMPUTE-SANITIZER
========= Error: Race reported between Write access at reduce1_nosync<int>(const int *, int, int *)+0x90 in /src/kernels/reduction/epita.cu:101
=========     and Atomic access at reduce1_nosync<int>(const int *, int, int *)+0x1c0 in /src/kernels/reduction/epita.cu:104 [12 hazards]
=========
========= Error: Race reported between Atomic access at reduce1_nosync<int>(const int *, int, int *)+0x1c0 in /src/kernels/reduction/epita.cu:104
=========     and Read access at reduce1_nosync<int>(const int *, int, int *)+0x220 in /src/kernels/reduction/epita.cu:106 [6 hazards]
=========
========= Error: Potential WAW hazard detected at __shared__ 0x0 in block (0,0,0) :
=========     Write Thread (0,0,0) at reduce1_nosync<int>(const int *, int, int *)+0x90 in /src/kernels/reduction/epita.cu:101
=========     Write Thread (40,0,0) at reduce1_nosync<int>(const int *, int, int *)+0x1c0 in /src/kernels/reduction/epita.cu:104
=========     Current Value : 0, Incoming Value : 7
=========
========= Error: Potential RAW hazard detected at __shared__ 0x0 in block (1,0,0) :
=========     Write Thread (64,0,0) at reduce1_nosync<int>(const int *, int, int *)+0x1c0 in /src/kernels/reduction/epita.cu:104
=========     Read Thread (0,0,0) at reduce1_nosync<int>(const int *, int, int *)+0x220 in /src/kernels/reduction/epita.cu:106
=========     Current Value : 91
=========
========= Warning: Potential RAW hazard detected at __shared__ 0x0 in block (2,0,0) :
=========     Write Thread (1,0,0) at reduce1_nosync<int>(const int *, int, int *)+0x1c0 in /src/kernels/reduction/epita.cu:104
=========     Read Thread (0,0,0) at reduce1_nosync<int>(const int *, int, int *)+0x220 in /src/kernels/reduction/epita.cu:106
=========
========= RACECHECK SUMMARY: 5 hazards displayed (4 errors, 1 warning)
"""

RACECHECK_CLEAN = """========= COMPUTE-SANITIZER
========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)
"""

# A race on a global word (epita.race's *sum += x) is not racecheck's domain: clean, although the
# program's own check says the answer is wrong.
RACECHECK_GLOBAL_RACE = RACECHECK_CLEAN

SYNCCHECK_DIVERGENT = """========= COMPUTE-SANITIZER
========= Barrier error detected. Divergent thread(s) in warp
=========     at tree(int *)+0x80 in /src/demo.cu:12
=========     by thread (0,0,0) in block (0,0,0)
=========
========= ERROR SUMMARY: 1 error
"""


class ParseTool(unittest.TestCase):
    def test_clean_memcheck(self):
        v = sp.parse_tool("memcheck", CLEAN_MEMCHECK, 0)
        self.assertEqual(v, {"ran": True, "exit": 0, "errors": 0, "first": "", "note": ""})

    def test_memcheck_errors_and_the_first_report(self):
        v = sp.parse_tool("memcheck", MEMCHECK_OOB, 4)
        self.assertTrue(v["ran"])
        self.assertEqual(v["errors"], 3)
        self.assertEqual(v["first"], "Invalid __global__ write of size 4 bytes")
        self.assertEqual(sp.describe("memcheck", v), "memcheck: 3 errors")

    def test_racecheck_counts_hazards_by_type_and_the_analysis_total(self):
        v = sp.parse_tool("racecheck", RACECHECK_NOSYNC, 0)
        self.assertTrue(v["ran"])
        self.assertEqual((v["errors"], v["warnings"]), (4, 1))
        self.assertEqual(v["hazards"], {"RAW": 2, "WAR": 0, "WAW": 1})
        self.assertEqual(v["hazards_total"], 18)  # 12 + 6 from the analysis reports, more than the 3 typed ones
        self.assertTrue(v["first"].startswith("Error: Race reported between Write access at reduce1_nosync"))
        self.assertEqual(sp.describe("racecheck", v),
                         "racecheck: 18 shared-memory hazards (RAW 2, WAW 1), 4 errors / 1 warning")

    def test_racecheck_hazard_mode_only_totals_the_typed_reports(self):
        only_typed = "\n".join(l for l in RACECHECK_NOSYNC.splitlines() if "Race reported" not in l and "[" not in l)
        v = sp.parse_tool("racecheck", only_typed, 0)
        self.assertEqual(v["hazards_total"], 3)
        self.assertTrue(v["first"].startswith("Error: Potential WAW hazard detected at __shared__ 0x0"))

    def test_clean_racecheck_and_the_global_race_it_cannot_see(self):
        for log in (RACECHECK_CLEAN, RACECHECK_GLOBAL_RACE):
            v = sp.parse_tool("racecheck", log, 0)
            self.assertTrue(v["ran"])
            self.assertEqual(sp.findings(v), 0)
            self.assertEqual(sp.describe("racecheck", v), "racecheck clean")

    def test_synccheck_barrier_error(self):
        v = sp.parse_tool("synccheck", SYNCCHECK_DIVERGENT, 0)
        self.assertEqual(v["errors"], 1)
        self.assertEqual(v["first"], "Barrier error detected. Divergent thread(s) in warp")
        self.assertEqual(sp.describe("synccheck", v), "synccheck: 1 error")

    def test_a_refused_run_or_a_missing_summary_did_not_run(self):
        v = sp.parse_tool("memcheck", CLEAN_MEMCHECK, 2)
        self.assertFalse(v["ran"])
        self.assertIn("refused", v["note"])
        v = sp.parse_tool("racecheck", "========= COMPUTE-SANITIZER\n========= Error: Race reported between x [5 hazards]\n", 124)
        self.assertFalse(v["ran"])
        self.assertEqual((v["errors"], v["hazards_total"]), (0, 0))
        self.assertIn("did not finish", v["note"])
        self.assertEqual(sp.describe("racecheck", v), "racecheck did not run")

    def test_program_output_between_the_tool_lines_is_ignored(self):
        v = sp.parse_tool("memcheck", "Error: not the tool's line\n" + CLEAN_MEMCHECK, 0)
        self.assertEqual((v["errors"], v["first"]), (0, ""))

    def test_long_first_lines_are_shortened(self):
        v = sp.parse_tool("memcheck", "========= Invalid " + "x" * 1000 + "\n========= ERROR SUMMARY: 1 error\n", 0)
        self.assertEqual(len(v["first"]), sp.MAX_TEXT)
        self.assertTrue(v["first"].endswith("..."))

    def test_unknown_tool(self):
        with self.assertRaises(ValueError):
            sp.parse_tool("initcheck", CLEAN_MEMCHECK)


class Collect(unittest.TestCase):
    def _variant(self, root, vid, racy, args, logs, app=""):
        d = os.path.join(root, vid)
        os.makedirs(d)
        for name, text in [("args", args), ("racy", "true" if racy else "false"), ("app-memcheck.json", app)] + \
                [(f"{t}.log", log) for t, (log, _) in logs.items()] + [(f"{t}.rc", str(rc)) for t, (_, rc) in logs.items()]:
            with open(os.path.join(d, name), "w") as f:
                f.write(text)

    def test_collect_and_markdown_flag_only_the_unexpected(self):
        with tempfile.TemporaryDirectory() as root:
            self._variant(root, "epita.reduce3", False, "--n 1000",
                          {"memcheck": (CLEAN_MEMCHECK, 0), "racecheck": (RACECHECK_CLEAN, 0), "synccheck": (CLEAN_MEMCHECK, 0)},
                          '{"variant":"epita.reduce3","status":"ok","message":""}')
            self._variant(root, "epita.reduce1_nosync", True, "--n 1000",
                          {"memcheck": (CLEAN_MEMCHECK, 0), "racecheck": (RACECHECK_NOSYNC, 0), "synccheck": (CLEAN_MEMCHECK, 0)},
                          '{"status":"race","message":"race: expected 1000, got 744"}')
            self._variant(root, "stevens.conv2d_tiled", False, "--width 100 --height 77",
                          {"memcheck": (MEMCHECK_OOB, 4), "racecheck": (RACECHECK_CLEAN, 0), "synccheck": ("", 124)})
            self._variant(root, "harris.impl7", False, "--n 1000", {})
            with open(os.path.join(root, "harris.impl7", "skipped"), "w") as f:
                f.write("not run: the script's time budget (420 s) was spent\n")
            out = os.path.join(root, "s.json")
            md = os.path.join(root, "s.md")
            rc = subprocess.run([sys.executable, os.path.join(HERE, "..", "..", "scripts", "sanitizer_parse.py"), "collect", root,
                                 "--version", "2025.3.0", "--device", "NVIDIA H100 80GB HBM3", "--out", out, "--markdown", md],
                                capture_output=True, text=True)
            self.assertEqual(rc.returncode, 0, rc.stderr)
            self.assertIn("5 not as expected", rc.stdout)
            with open(out) as f:
                doc = json.load(f)
            self.assertEqual(doc["format"], "warpscope-sanitizer")
            self.assertEqual([e["variant"] for e in doc["variants"]],
                             ["epita.reduce1_nosync", "epita.reduce3", "harris.impl7", "stevens.conv2d_tiled"])
            nosync, reduce3, skipped, conv = doc["variants"]
            self.assertEqual(skipped["memcheck"], {"ran": False, "exit": 0, "errors": 0, "first": "",
                                                   "note": "not run: the script's time budget (420 s) was spent"})
            self.assertEqual(nosync["check"], "race: expected 1000, got 744")
            self.assertEqual(nosync["racecheck"]["hazards_total"], 18)
            self.assertEqual((reduce3["n"], reduce3["racy"]), (1000, False))
            self.assertEqual((conv["n"], conv["args"]), (7700, "--width 100 --height 77"))
            self.assertFalse(conv["synccheck"]["ran"])
            with open(md) as f:
                text = f.read()
            self.assertIn("Not as expected (5)", text)
            self.assertIn("- harris.impl7: racecheck did not run (not run: the script's time budget (420 s) was spent)", text)
            self.assertIn("- stevens.conv2d_tiled: memcheck: 3 errors (Invalid __global__ write of size 4 bytes)", text)
            self.assertIn("- stevens.conv2d_tiled: synccheck did not run", text)
            self.assertNotIn("- epita.reduce1_nosync", text)  # racy: its hazards are the lesson


class MergeSanitizer(unittest.TestCase):
    SCRIPT = os.path.join(HERE, "..", "..", "scripts", "merge_reports.py")

    def test_attaches_each_variant_s_verdict_to_its_gpu_runs(self):
        with tempfile.TemporaryDirectory() as root:
            report = {"format": "warpscope-report", "version": 1, "device": {"name": "NVIDIA H100 80GB HBM3"}, "runs": [
                {"variant": "epita.reduce1_nosync", "backend": "cuda", "status": "race"},
                {"variant": "epita.reduce1_nosync", "backend": "sim", "status": "race"},
                {"variant": "amp.sequential", "backend": "cuda", "status": "ok"}]}
            verdict = {"variant": "epita.reduce1_nosync", "racy": True, "n": 1000, "args": "--n 1000", "check": "race: expected 1000, got 744",
                       "racecheck": sp.parse_tool("racecheck", RACECHECK_NOSYNC, 0)}
            doc = {"format": "warpscope-sanitizer", "version": 1, "tool_version": "2025.3.0", "device": "NVIDIA H100 80GB HBM3",
                   "variants": [verdict]}
            rp, sp_path = os.path.join(root, "r.json"), os.path.join(root, "s.json")
            with open(rp, "w") as f:
                json.dump(report, f)
            with open(sp_path, "w") as f:
                json.dump(doc, f)
            rc = subprocess.run([sys.executable, self.SCRIPT, rp, "--sanitizer", sp_path], capture_output=True, text=True)
            self.assertEqual(rc.returncode, 0, rc.stderr)
            self.assertIn("1 with sanitizer verdicts", rc.stdout)
            with open(rp) as f:
                runs = json.load(f)["runs"]
            got = runs[0]["sanitizer"]
            self.assertEqual(got["racecheck"], verdict["racecheck"])
            self.assertEqual((got["n"], got["args"], got["tool_version"], got["device"]), (1000, "--n 1000", "2025.3.0", "NVIDIA H100 80GB HBM3"))
            self.assertNotIn("racy", got)  # the run says that itself
            self.assertNotIn("sanitizer", runs[1])  # the sim model was not under the tool
            self.assertNotIn("sanitizer", runs[2])

            with open(sp_path, "w") as f:
                json.dump({"format": "something-else", "variants": []}, f)
            rc = subprocess.run([sys.executable, self.SCRIPT, rp, "--sanitizer", sp_path], capture_output=True, text=True)
            self.assertNotEqual(rc.returncode, 0)
            self.assertIn("is not a warpscope-sanitizer file", rc.stderr)


if __name__ == "__main__":
    unittest.main()
