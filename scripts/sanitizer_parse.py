#!/usr/bin/env python3
"""compute-sanitizer logs into warpscope's sanitizer verdicts (stdlib only; tested without a GPU by
tests/scripts/test_sanitizer_parse.py on captured output in the documented format).

  sanitizer_parse.py tool TOOL LOG [--exit N]
      one tool's verdict of one run as JSON (the report's run "sanitizer" -> TOOL object):
      {"ran", "exit", "errors", "first", "note"}, racecheck adds "warnings", "hazards"
      ({"RAW","WAR","WAW"}: typed hazard reports) and "hazards_total".
  sanitizer_parse.py collect DIR --version TEXT --device NAME --out JSON --markdown MD
      every DIR/<variant>/ that scripts/device-sanitizer.sh filled (args, racy, app-*.json,
      <tool>.log, <tool>.rc; or skipped, the reason none ran) into one file {"format":"warpscope-sanitizer","version":1,"tool_version",
      "device","variants":[{"variant","racy","n","args","check","memcheck","racecheck","synccheck"}]}
      and a markdown table of the same.

Log lines start with "========= " (the tool writes its own log with --log-file, apart from the
program's output). What is read:
  memcheck / synccheck  "ERROR SUMMARY: N error(s)"; the first report line ("Invalid __shared__ write
                        of size 4 bytes", "Barrier error detected. ...", "Program hit cudaError...").
  racecheck             "RACECHECK SUMMARY: N hazard(s) displayed (E error(s), W warning(s))";
                        hazard reports "Error: Potential RAW hazard detected at __shared__ 0x10 in
                        block (0,0,0) :" (typed: RAW, WAR, WAW) and analysis reports "Error: Race
                        reported between Write access at ... / and Read access at ... [K hazards]"
                        (hazards_total: the sum of the K, at least the typed reports counted).
A run counts as having run when the summary is there and the program was not refused (exit 2: a bad
request, 3: no device: the CLI stops before any kernel)."""
import argparse
import json
import os
import re
import sys

TOOLS = ("memcheck", "racecheck", "synccheck")
MAX_TEXT = 300  # the first reported line and notes are kept to this many characters
_PREFIX = re.compile(r"^={8,} ?")
_ERROR_SUMMARY = re.compile(r"ERROR SUMMARY:\s*(\d+)\s+errors?", re.I)
_RACE_SUMMARY = re.compile(r"RACECHECK SUMMARY:\s*(\d+)\s+hazards?\s+displayed\s*\(\s*(\d+)\s+errors?,\s*(\d+)\s+warnings?\s*\)", re.I)
_TYPED = re.compile(r"^(error|warning):\s*potential\s+(RAW|WAR|WAW)\s+hazard", re.I)
_ANALYSIS = re.compile(r"^(error|warning):\s*race reported between", re.I)
_COUNT = re.compile(r"\[(\d+)\s+hazards?\]", re.I)
# Report lines that are not findings: the banner, summaries, leak lines, the process line.
_NOT_FINDING = re.compile(r"^(COMPUTE-SANITIZER|ERROR SUMMARY|RACECHECK SUMMARY|LEAK SUMMARY|Process ID|"
                          r"Target application returned|Program finished|No (errors|hazards))", re.I)


def _short(text):
    text = " ".join(text.split())
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT - 3] + "..."


def tool_lines(text):
    """The tool's own lines of a log, without the '========= ' prefix (other lines dropped)."""
    out = []
    for line in text.splitlines():
        if _PREFIX.match(line):
            out.append(_PREFIX.sub("", line, count=1).rstrip())
    return out


def parse_tool(tool, text, exit_code=0):
    """One tool's verdict from its log `text` and the program's exit code (see the module doc)."""
    if tool not in TOOLS:
        raise ValueError(f"unknown tool '{tool}' (one of {', '.join(TOOLS)})")
    lines = tool_lines(text)
    v = {"ran": False, "exit": int(exit_code), "errors": 0, "first": "", "note": ""}
    if tool == "racecheck":
        v.update({"warnings": 0, "hazards": {"RAW": 0, "WAR": 0, "WAW": 0}, "hazards_total": 0})
    summary = False
    analysis_total = 0
    for line in lines:
        body = line.strip()
        if not body:
            continue
        m = _RACE_SUMMARY.search(body) if tool == "racecheck" else _ERROR_SUMMARY.search(body)
        if m:
            summary = True
            if tool == "racecheck":
                v["errors"], v["warnings"] = int(m.group(2)), int(m.group(3))
            else:
                v["errors"] = int(m.group(1))
            continue
        if tool == "racecheck":
            t = _TYPED.match(body)
            if t:
                v["hazards"][t.group(2).upper()] += 1
            c = _COUNT.search(body)
            if c:
                analysis_total += int(c.group(1))
        # The first finding: an unindented line that is not the banner or a summary.
        if not v["first"] and line == line.lstrip() and not _NOT_FINDING.match(body):
            v["first"] = _short(body)
    if tool == "racecheck":
        v["hazards_total"] = max(analysis_total, sum(v["hazards"].values()))
    if exit_code in (2, 3):
        v["note"] = "the CLI refused the run (exit %d): no kernel ran" % exit_code
    elif not summary:
        v["note"] = "no summary in the log (exit %d): the tool did not finish" % exit_code
    else:
        v["ran"] = True
    if not v["ran"]:  # nothing to count from a run that did not happen
        v["errors"] = 0
        if tool == "racecheck":
            v.update({"warnings": 0, "hazards": {"RAW": 0, "WAR": 0, "WAW": 0}, "hazards_total": 0})
    return v


def findings(v):
    """How many things a tool verdict reports (0: clean)."""
    return v.get("errors", 0) + v.get("warnings", 0) + v.get("hazards_total", 0)


def describe(tool, v):
    """A tool verdict in a few words, as the Results view says it."""
    if not v.get("ran"):
        return f"{tool} did not run"
    if findings(v) == 0:
        return f"{tool} clean"
    if tool == "racecheck":
        types = ", ".join(f"{k} {n}" for k, n in v["hazards"].items() if n)
        total = v["hazards_total"]
        return f"racecheck: {total} shared-memory hazard{'s' * (total != 1)}" + (f" ({types})" if types else "") + \
            f", {v['errors']} error{'s' * (v['errors'] != 1)} / {v['warnings']} warning{'s' * (v['warnings'] != 1)}"
    return f"{tool}: {v['errors']} error{'s' * (v['errors'] != 1)}"


def _read(path, default=""):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return default


def _check_of(app_json):
    """The CLI's own check of the run under the tool ("race: expected X, got Y"), from run --json."""
    try:
        j = json.loads(app_json)
    except ValueError:
        return ""
    if isinstance(j, list):
        j = j[0] if j else {}
    if not isinstance(j, dict):
        return ""
    status, message = str(j.get("status", "")), str(j.get("message", ""))
    if message.startswith(status):  # races and wrong results say "race: expected X, got Y" themselves
        return _short(message)
    return _short(status + (": " + message if message else ""))


def collect(directory, version, device):
    """Every variant folder under `directory` into the sanitizer file's object (see the module doc)."""
    variants = []
    for vid in sorted(os.listdir(directory)):
        d = os.path.join(directory, vid)
        if not os.path.isdir(d) or not os.path.exists(os.path.join(d, "args")):
            continue
        args = _read(os.path.join(d, "args")).strip()
        m = re.search(r"--n\s+(\d+)", args)
        wh = re.search(r"--width\s+(\d+)\s+--height\s+(\d+)", args)
        n = int(m.group(1)) if m else int(wh.group(1)) * int(wh.group(2)) if wh else 0
        entry = {"variant": vid, "racy": _read(os.path.join(d, "racy")).strip() == "true", "n": n, "args": args,
                 "check": _check_of(_read(os.path.join(d, "app-memcheck.json")))}
        skipped = _read(os.path.join(d, "skipped")).strip()
        for tool in TOOLS:
            if skipped:  # the script ran out of time before this variant
                entry[tool] = dict(parse_tool(tool, "", 0), note=_short(skipped))
                continue
            log = os.path.join(d, tool + ".log")
            if not os.path.exists(log):
                continue
            rc = _read(os.path.join(d, tool + ".rc"), "1").strip()
            entry[tool] = parse_tool(tool, _read(log), int(rc) if rc.lstrip("-").isdigit() else 1)
        variants.append(entry)
    return {"format": "warpscope-sanitizer", "version": 1, "tool_version": version, "device": device, "variants": variants}


def markdown(doc):
    """The sanitizer file as a markdown table, with the expectations checked: non-racy variants clean."""
    rows = ["| variant | racy | run | the CLI's check | memcheck | racecheck | synccheck |", "|---|---|---|---|---|---|---|"]
    unexpected = []
    for e in doc["variants"]:
        cells = []
        for tool in TOOLS:
            v = e.get(tool)
            cells.append(describe(tool, v) if v else "-")
            if v and (not v["ran"] or (findings(v) and not e["racy"])):
                unexpected.append(f"{e['variant']}: {describe(tool, v)}" + (f" ({v['first'] or v['note']})" if v['first'] or v['note'] else ""))
        rows.append(f"| {e['variant']} | {'racy' if e['racy'] else ''} | {e['args']} | {e['check']} | " + " | ".join(cells) + " |")
    head = [f"# compute-sanitizer over every GPU variant ({doc['device']}, compute-sanitizer {doc['tool_version']})", "",
            "memcheck: out-of-bounds and misaligned accesses, CUDA API errors. racecheck: shared-memory hazards only "
            "(a race on a global word, like epita.race's read-modify-write, is not its domain). synccheck: barrier misuse "
            "(__syncthreads in divergent code, bad __syncwarp masks).", ""]
    racy = [e for e in doc["variants"] if e["racy"]]
    head.append(f"{len(doc['variants'])} variants; racy: " + ", ".join(
        f"{e['variant']} ({'; '.join(describe(t, e[t]) for t in TOOLS if t in e)})" for e in racy) + ".")
    head.append("")
    head.append("Every non-racy variant clean and every tool ran." if not unexpected else
                f"Not as expected ({len(unexpected)}):\n" + "\n".join("- " + u for u in unexpected))
    return "\n".join(head + [""] + rows) + "\n", unexpected


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("tool")
    t.add_argument("tool", choices=TOOLS)
    t.add_argument("log")
    t.add_argument("--exit", type=int, default=0)
    c = sub.add_parser("collect")
    c.add_argument("dir")
    c.add_argument("--version", required=True)
    c.add_argument("--device", required=True)
    c.add_argument("--out", required=True)
    c.add_argument("--markdown", required=True)
    a = ap.parse_args(argv)
    if a.cmd == "tool":
        print(json.dumps(parse_tool(a.tool, _read(a.log), a.exit)))
        return 0
    doc = collect(a.dir, a.version, a.device)
    with open(a.out, "w") as f:
        json.dump(doc, f, indent=1)
    md, unexpected = markdown(doc)
    with open(a.markdown, "w") as f:
        f.write(md)
    print(f"sanitizer_parse: {len(doc['variants'])} variants -> {a.out}, {a.markdown}; "
          f"{'all as expected' if not unexpected else str(len(unexpected)) + ' not as expected'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
