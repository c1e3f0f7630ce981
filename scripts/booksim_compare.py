#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Latency of configs/noc/mesh.toml against BookSim 2's default iq router, point by point.
"""Runs BookSim 2 (a binary you built; it is not a dependency of stacksim) and stacksim on the
8x8 mesh of configs/noc/mesh.toml, for each pattern and packet size: bisects BookSim's
saturation rate (the highest rate it does not call "unstable"), then measures both simulators'
mean packet latency (creation to tail ejection, source queueing included) at 10 %, 20 %, ...,
90 % of it, and prints one markdown table per case and the largest difference below 80 %.

    scripts/booksim_compare.py --booksim PATH/TO/booksim [--stacksim build/stacksim]
                               [--patterns uniform,transpose,bitcomp,hotspot] [--flits 1,4]

BookSim's config (written to a temporary file) is its defaults with the keys of docs/noc.md's
"BookSim 2's keys" table; rates are flits/node/cycle on both sides (injection_rate_uses_flits).
stacksim's hotspot (20 % of packets to node 36, the rest uniform over the other nodes) is
given to BookSim as weights 17 for node 36 and 1 for every node (21.25 % / 1.25 %: BookSim may
send to the source itself, stacksim does not, which is also BookSim's uniform)."""
import argparse
import os
import re
import subprocess
import sys
import tempfile

CONFIG = """topology = mesh; k = 8; n = 2; routing_function = dor;
num_vcs = 4; vc_buf_size = 8; router = iq;
routing_delay = 1; vc_alloc_delay = 1; sw_alloc_delay = 1; st_final_delay = 1; credit_delay = 0;
vc_allocator = islip; sw_allocator = islip; alloc_iters = 1; wait_for_tail_credit = 0;
sim_type = latency; injection_process = bernoulli; injection_rate_uses_flits = 1; seed = 1;
traffic = uniform; packet_size = 1; injection_rate = 0.01;
"""
HOTSPOT = "hotspot({{%s},{%s}})" % (",".join(str(i) for i in range(64)),
                                     ",".join("17" if i == 36 else "1" for i in range(64)))


def booksim(binary, cfg, pattern, flits, rate):
    """BookSim's mean packet latency at `rate`, or None when it reports the run unstable."""
    traffic = HOTSPOT if pattern == "hotspot" else pattern
    out = subprocess.run([binary, cfg, f"traffic={traffic}", f"packet_size={flits}", f"injection_rate={rate:.6f}"],
                         capture_output=True, text=True).stdout
    if "Simulation unstable" in out:
        return None
    m = re.search(r"Overall Traffic Statistics.*?Packet latency average = ([0-9.eE+-]+)", out, re.S)
    if not m:
        sys.exit(f"booksim_compare: no latency in BookSim's output at {pattern} {flits} {rate}")
    return float(m.group(1))


def stacksim(binary, config, pattern, flits, rate):
    out = subprocess.run([binary, "noc", config, "--rate", f"{rate:.6f}", "--pattern", pattern,
                          "--set", f"traffic.packet_flits={flits}"], capture_output=True, text=True, check=True).stdout
    return float(out.strip().splitlines()[-1].split()[3])  # rate offered accepted latency ...


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--booksim", required=True)
    ap.add_argument("--stacksim", default="build/stacksim")
    ap.add_argument("--config", default="configs/noc/mesh.toml")
    ap.add_argument("--patterns", default="uniform,transpose,bitcomp,hotspot")
    ap.add_argument("--flits", default="1,4")
    a = ap.parse_args()
    if not os.access(a.booksim, os.X_OK):
        sys.exit(f"booksim_compare: {a.booksim}: not an executable BookSim binary")
    with tempfile.NamedTemporaryFile("w", suffix=".cfg", delete=False) as f:
        f.write(CONFIG)
        cfg = f.name
    worst = {}
    try:
        for pattern in a.patterns.split(","):
            for flits in (int(x) for x in a.flits.split(",")):
                lo, hi = 0.005, 1.0  # bisect BookSim's saturation to 0.002 flits/node/cycle
                while hi - lo > 0.002:
                    mid = (lo + hi) / 2
                    lo, hi = (mid, hi) if booksim(a.booksim, cfg, pattern, flits, mid) is not None else (lo, mid)
                print(f"\n{pattern}, {flits}-flit packets: BookSim saturates above {lo:.4f}\n")
                print("| rate | of BookSim's saturation | BookSim | stacksim | difference |")
                print("|---|---|---|---|---|")
                for tenth in range(1, 10):
                    rate = lo * tenth / 10
                    b = booksim(a.booksim, cfg, pattern, flits, rate)
                    s = stacksim(a.stacksim, a.config, pattern, flits, rate)
                    if b is None:
                        print(f"| {rate:.4f} | {tenth / 10:.1f} | unstable | {s:.2f} | |")
                        continue
                    d = (s / b - 1) * 100
                    if tenth <= 8:
                        worst[f"{pattern} {flits}"] = max(worst.get(f"{pattern} {flits}", 0.0), abs(d))
                    print(f"| {rate:.4f} | {tenth / 10:.1f} | {b:.2f} | {s:.2f} | {d:+.1f} % |")
    finally:
        os.unlink(cfg)
    print("\nLargest |difference| up to 0.8 of BookSim's saturation: "
          + ", ".join(f"{k} {v:.1f} %" for k, v in worst.items()))


if __name__ == "__main__":
    main()
