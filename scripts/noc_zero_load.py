#!/usr/bin/env python3
"""Regenerates docs/noc.md's zero-load table (measured latency against the formula) and, with
--saturation, its saturation table of the same network.

Runs `stacksim noc CONFIG --rate 0.01` (near zero load) for each pattern and packet size and
prints, as a Markdown table, the measured mean packet latency beside the zero-load formula
T0 = (H + 1) x (P + L) + 1 + (F - 1) with the measured mean hop count H, the config's pipeline
depth P and link latency L (BookSim 2's iq router has the same per-hop cost, P + L = 5 cycles,
with routing_delay, vc_alloc_delay, sw_alloc_delay and st_final_delay 1 and 1-cycle channels).
With --saturation it runs `stacksim noc CONFIG --saturation` per pattern and packet size and
prints the saturation throughput with the evidence for it: offered and accepted load and mean
latency at the highest rate that met the criterion, and the lowest rate tried that did not,
with the reason (latency bound, accepted < 97% of offered, packets stuck).
Each table's measurements are kept in docs/data/noc-zero-load.json / noc-mesh-saturation.json
and the table is written between the <!-- noc-zero-load / noc-mesh-saturation:begin/end -->
markers of docs/noc.md; with --check the tables are rendered from docs/data and compared with
the doc, running nothing (scripts/doc_tables_check.py).
Usage: scripts/noc_zero_load.py [--config configs/noc/mesh.toml] [--bin build/stacksim] [--saturation] [--check]
"""
import argparse
import csv
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from doc_section import ROOT, load_data, save_data, update_or_check  # noqa: E402

DOC = os.path.join(ROOT, "docs", "noc.md")
ZERO_LOAD = [(p, f) for p in ["uniform", "transpose", "bitcomp", "hotspot"] for f in [1, 4]]
SATURATION = [(p, f) for p in ["uniform", "transpose", "bitcomp", "tornado", "hotspot"] for f in [1, 4]]


def run(binary, config, pattern, flits):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        subprocess.run([binary, "noc", config, "--rate", "0.01", "--pattern", pattern, "--set",
                        f"traffic.packet_flits={flits}", "--out", out], check=True, stdout=subprocess.DEVNULL)
        with open(os.path.join(out, "curve.csv")) as f:
            row = next(csv.DictReader(f))
        with open(os.path.join(out, "config.toml")) as f:
            keys = dict(line.split(" = ", 1) for line in f.read().splitlines() if " = " in line)
    return row, int(keys["pipeline_stages"]), int(keys["link_latency"])


def saturation(binary, config, pattern, flits):
    """The two rows of `stacksim noc --saturation`: the last rate that met the criterion and the
    first that did not (None when every rate tried met it), and the printed reason."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        text = subprocess.run([binary, "noc", config, "--saturation", "--pattern", pattern, "--set",
                               f"traffic.packet_flits={flits}", "--out", out], check=True,
                              stdout=subprocess.PIPE, text=True).stdout
        with open(os.path.join(out, "curve.csv")) as f:
            rows = list(csv.DictReader(f))
    reason = text.split("the lowest that saturated (", 1)[1].split(")\n", 1)[0] if "saturated (" in text else ""
    return rows[0], rows[1] if len(rows) > 1 else None, reason


def measure_saturation(args):
    rows = []
    for pattern, flits in SATURATION:
        ok, above, reason = saturation(args.bin, args.config, pattern, flits)
        rows.append({"pattern": pattern, "flits": flits, "accepted": float(ok["accepted"]),
                     "offered": float(ok["offered"]), "packet_latency": float(ok["packet_latency"]),
                     "next_offered": float(above["offered"]) if above else None, "reason": reason})
    return {"rows": rows}


def render_saturation(d):
    out = ["| pattern | packet flits | saturation throughput | offered | mean latency | next rate tried | why it saturated |",
           "|---|---|---|---|---|---|---|"]
    for r in d["rows"]:
        nxt = f"{r['next_offered']:.4f}" if r["next_offered"] is not None else "–"
        out.append(f"| {r['pattern']} | {r['flits']} | {r['accepted']:.4f} | {r['offered']:.4f} | "
                   f"{r['packet_latency']:.1f} | {nxt} | {r['reason'] or '–'} |")
    return "\n".join(out)


def measure_zero_load(args):
    rows = []
    for pattern, flits in ZERO_LOAD:
        row, p, l = run(args.bin, args.config, pattern, flits)
        rows.append({"pattern": pattern, "flits": flits, "hops": float(row["hops"]),
                     "packet_latency": float(row["packet_latency"]), "pipeline_stages": p, "link_latency": l})
    return {"rows": rows}


def render_zero_load(d):
    out = ["| pattern | packet flits | hops | measured latency | T0 formula | difference |", "|---|---|---|---|---|---|"]
    for r in d["rows"]:
        hops, lat = r["hops"], r["packet_latency"]
        t0 = (hops + 1) * (r["pipeline_stages"] + r["link_latency"]) + 1 + (r["flits"] - 1)
        out.append(f"| {r['pattern']} | {r['flits']} | {hops:.2f} | {lat:.2f} | {t0:.2f} | {100 * (lat - t0) / t0:+.1f} % |")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default=os.path.join(ROOT, "configs", "noc", "mesh.toml"))
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "stacksim"))
    ap.add_argument("--saturation", action="store_true", help="measure the saturation table instead")
    ap.add_argument("--check", action="store_true", help="render both tables from docs/data and compare; run nothing")
    args = ap.parse_args()
    parts = {"noc-zero-load": (measure_zero_load, render_zero_load),
             "noc-mesh-saturation": (measure_saturation, render_saturation)}
    if not args.check:
        name = "noc-mesh-saturation" if args.saturation else "noc-zero-load"
        save_data(name, parts[name][0](args))
        parts = {name: parts[name]}
    for name, (_, render) in parts.items():
        update_or_check(DOC, name, render(load_data(name)), args.check)


if __name__ == "__main__":
    main()
