#!/usr/bin/env python3
"""Measures and writes docs/noc.md's measured tables of the 8x8 mesh with the default [noc]
(4 VCs x 8 flits, P = 3, L = 1, 4-flit packets): saturation by pattern (noc-mesh-results),
xy against west_first routing (noc-west-first), and Netrace replays (noc-netrace-replay).

Runs `stacksim noc --saturation ...`, `--rates` and `--trace` (about a minute of CPU on one
core), records the measurements in docs/data/<section>.json and writes each table between its
<!-- SECTION:begin/end --> markers. Replay host time is the replay's CPU time (user + system,
from the OS), which does not follow the machine's load as wall time does.
Usage: scripts/noc_tables.py [--bin build/stacksim]    measure and write
       scripts/noc_tables.py --check                  render from docs/data, compare; run nothing
"""
import argparse
import csv
import json
import os
import resource
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from doc_section import ROOT, load_data, save_data, update_or_check  # noqa: E402

BIN = os.path.join(ROOT, "build", "stacksim")
DOC = os.path.join(ROOT, "docs", "noc.md")
TRACES = os.path.join(ROOT, "..", "shared", "traces", "netrace")
SATURATION = [("uniform", 4), ("uniform", 1), ("transpose", 4), ("tornado", 4), ("bitcomp", 4)]
LATENCY_RATES = [0.1, 0.3, 0.38]
WEST_FIRST = ["uniform", "transpose"]
TRACE_NAMES = [("example", "example"), ("shrtex", "shrtex"), ("multiregion", "multiregion"),
               ("lngrex", "lngrex (Netrace's blackscholes-short-test)")]


def noc(args):
    """Rows of curve.csv of `stacksim noc ARGS` (numbers as floats)."""
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([BIN, "noc"] + args + ["--out", out], check=True, stdout=subprocess.DEVNULL)
        with open(os.path.join(out, "curve.csv")) as f:
            return [{k: float(v) for k, v in r.items()} for r in csv.DictReader(f)]


def replay(trace):
    with tempfile.TemporaryDirectory() as out:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([BIN, "noc", "--trace", os.path.join(TRACES, trace + ".tra.bz2"), "--out", out],
                       check=True, stdout=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        with open(os.path.join(out, "replay.json")) as f:
            r = json.load(f)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {k: r[k] for k in ("packets", "trace_cycles", "runtime_cycles", "delayed_packets", "packet_latency")} | {
        "cpu_seconds": round(cpu, 3)}


def measure():
    sat = [{"pattern": p, "flits": f, "accepted": noc(["--saturation", "--pattern", p, "--set",
                                                         f"traffic.packet_flits={f}"])[0]["accepted"]}
           for p, f in SATURATION]
    rows = [noc(["--rate", str(r)])[0] for r in LATENCY_RATES]
    lat = [{"rate": r, "packet_latency": row["packet_latency"]} for r, row in zip(LATENCY_RATES, rows)]
    wf = [{"pattern": p, "routing": r, "accepted": noc(["--saturation", "--pattern", p, "--set", f"noc.routing={r}"])[0]["accepted"]}
          for p in WEST_FIRST for r in ["xy", "west_first"]]
    tr = [dict(trace=t, **replay(t)) for t, _ in TRACE_NAMES]
    return {"noc-mesh-results": {"saturation": sat, "latency": lat}, "noc-west-first": {"rows": wf},
            "noc-netrace-replay": {"rows": tr}}


def render_results(d):
    s = {(r["pattern"], r["flits"]): r["accepted"] for r in d["saturation"]}
    out = ["| pattern | saturation throughput (flits/node/cycle) |", "|---|---|"]
    for p, f in SATURATION:
        if f != 4:
            continue
        extra = f" (1-flit packets: {s[(p, 1)]:.3f})" if (p, 1) in s else ""
        out.append(f"| {p} | {s[(p, f)]:.3f}{extra} |")
    out += ["", "Mean packet latency at " + " / ".join(f"{r['rate']:g}" for r in d["latency"]) + ": "
            + " / ".join(f"{r['packet_latency']:.1f}" for r in d["latency"]) + " cycles."]
    return "\n".join(out)


def render_west_first(d):
    a = {(r["pattern"], r["routing"]): r["accepted"] for r in d["rows"]}
    out = ["| pattern | `xy` | `west_first` |", "|---|---|---|"]
    for p in WEST_FIRST:
        x, w = a[(p, "xy")], a[(p, "west_first")]
        out.append(f"| {p} | {x:.3f} | {w:.3f} ({(w / x - 1) * 100:+.0f} %) |".replace("(-", "(−"))
    return "\n".join(out)


def render_replay(d):
    v = {r["trace"]: r for r in d["rows"]}
    out = ["| trace | packets | trace cycles | runtime (8×8, defaults) | waited for dependencies | latency | host CPU s |",
           "|---|---|---|---|---|---|---|"]
    for t, name in TRACE_NAMES:
        r = v[t]
        out.append(f"| {name} | {r['packets']} | {r['trace_cycles']} | {r['runtime_cycles']} | {r['delayed_packets']} | "
                   f"{r['packet_latency']:.1f} | {r['cpu_seconds']:.3f} |")
    return "\n".join(out)


RENDER = {"noc-mesh-results": render_results, "noc-west-first": render_west_first, "noc-netrace-replay": render_replay}


def main():
    global BIN
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=BIN)
    ap.add_argument("--check", action="store_true", help="render from docs/data and compare; run nothing")
    args = ap.parse_args()
    BIN = args.bin
    if not args.check:
        for name, obj in measure().items():
            save_data(name, obj)
    for name, render in RENDER.items():
        update_or_check(DOC, name, render(load_data(name)), args.check)
    return 0


if __name__ == "__main__":
    sys.exit(main())
