#!/usr/bin/env python3
"""Regenerates docs/noc.md's zero-load table: measured latency against the formula.

Runs `stacksim noc CONFIG --rate 0.01` (near zero load) for each pattern and packet size and
prints, as a Markdown table, the measured mean packet latency beside the zero-load formula
T0 = (H + 1) x (P + L) + 1 + (F - 1) with the measured mean hop count H, the config's pipeline
depth P and link latency L (BookSim 2's iq router has the same per-hop cost, P + L = 5 cycles,
with routing_delay, vc_alloc_delay, sw_alloc_delay and st_final_delay 1 and 1-cycle channels).
Usage: scripts/noc_zero_load.py [--config configs/noc/mesh.toml] [--bin build/stacksim]
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default=os.path.join(ROOT, "configs", "noc", "mesh.toml"))
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "stacksim"))
    args = ap.parse_args()
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
