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
Usage: scripts/noc_zero_load.py [--config configs/noc/mesh.toml] [--bin build/stacksim] [--saturation]
"""
import argparse
import csv
import os
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


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


def saturation_table(args):
    print("| pattern | packet flits | saturation throughput | offered | mean latency | next rate tried | why it saturated |")
    print("|---|---|---|---|---|---|---|")
    for pattern in ["uniform", "transpose", "bitcomp", "tornado", "hotspot"]:
        for flits in [1, 4]:
            ok, above, reason = saturation(args.bin, args.config, pattern, flits)
            nxt = f"{float(above['offered']):.4f}" if above else "–"
            print(f"| {pattern} | {flits} | {float(ok['accepted']):.4f} | {float(ok['offered']):.4f} | "
                  f"{float(ok['packet_latency']):.1f} | {nxt} | {reason or '–'} |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default=os.path.join(ROOT, "configs", "noc", "mesh.toml"))
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "stacksim"))
    ap.add_argument("--saturation", action="store_true", help="print the saturation table instead")
    args = ap.parse_args()
    if args.saturation:
        return saturation_table(args)
    print("| pattern | packet flits | hops | measured latency | T0 formula | difference |")
    print("|---|---|---|---|---|---|")
    for pattern in ["uniform", "transpose", "bitcomp", "hotspot"]:
        for flits in [1, 4]:
            row, p, l = run(args.bin, args.config, pattern, flits)
            hops, lat = float(row["hops"]), float(row["packet_latency"])
            t0 = (hops + 1) * (p + l) + 1 + (flits - 1)
            print(f"| {pattern} | {flits} | {hops:.2f} | {lat:.2f} | {t0:.2f} | {100 * (lat - t0) / t0:+.1f} % |")


if __name__ == "__main__":
    main()
