#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Latency of configs/noc/mesh.toml against BookSim 2's default iq router, point by point.
"""Runs BookSim 2 (a binary you built; it is not a dependency of stacksim) and stacksim on the
8x8 mesh of configs/noc/mesh.toml, for each pattern and packet size: bisects BookSim's
saturation rate (the highest rate it does not call "unstable"), then measures both simulators'
mean packet latency (creation to tail ejection, source queueing included) at 10 %, 20 %, ...,
90 % of it. The measurements are kept in docs/data/booksim-compare.json; the tables are written
between the <!-- booksim-compare:begin/end --> markers of docs/validation.md (one table per case
and the largest difference below 80 %) and <!-- booksim-summary --> of docs/noc.md.

    scripts/booksim_compare.py --booksim PATH/TO/booksim [--stacksim build/stacksim]
                               [--patterns uniform,transpose,bitcomp,hotspot] [--flits 1,4]
    scripts/booksim_compare.py --stacksim-only   re-measure stacksim at the recorded rates, keep
                                                 the recorded BookSim side (no BookSim needed)
    scripts/booksim_compare.py --check           render from docs/data and compare; run nothing

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

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from doc_section import ROOT, load_data, save_data, update_or_check  # noqa: E402

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


def measure(a, cfg):
    """{"cases": [{pattern, flits, booksim_saturation, points: [{tenth, rate, booksim, stacksim}]}]}."""
    cases = []
    for pattern in a.patterns.split(","):
        for flits in (int(x) for x in a.flits.split(",")):
            lo, hi = 0.005, 1.0  # bisect BookSim's saturation to 0.002 flits/node/cycle
            while hi - lo > 0.002:
                mid = (lo + hi) / 2
                lo, hi = (mid, hi) if booksim(a.booksim, cfg, pattern, flits, mid) is not None else (lo, mid)
            points = []
            for tenth in range(1, 10):
                rate = lo * tenth / 10
                points.append({"tenth": tenth, "rate": rate, "booksim": booksim(a.booksim, cfg, pattern, flits, rate),
                               "stacksim": stacksim(a.stacksim, a.config, pattern, flits, rate)})
            cases.append({"pattern": pattern, "flits": flits, "booksim_saturation": lo, "points": points})
    return {"cases": cases}


def difference(p):
    return None if p["booksim"] is None else (p["stacksim"] / p["booksim"] - 1) * 100


def render_validation(d):
    out, worst = [], {}
    for c in d["cases"]:
        out += [f"{c['pattern']}, {c['flits']}-flit packets: BookSim saturates above {c['booksim_saturation']:.4f}", "",
                "| rate | of BookSim's saturation | BookSim | stacksim | difference |", "|---|---|---|---|---|"]
        for p in c["points"]:
            d_ = difference(p)
            if d_ is None:
                out.append(f"| {p['rate']:.4f} | {p['tenth'] / 10:.1f} | unstable | {p['stacksim']:.2f} | |")
                continue
            if p["tenth"] <= 8:
                key = f"{c['pattern']} {c['flits']}"
                worst[key] = max(worst.get(key, 0.0), abs(d_))
            out.append(f"| {p['rate']:.4f} | {p['tenth'] / 10:.1f} | {p['booksim']:.2f} | {p['stacksim']:.2f} | {d_:+.1f} % |")
        out.append("")
    out.append("Largest |difference| up to 0.8 of BookSim's saturation: "
               + ", ".join(f"{k} {v:.1f} %" for k, v in worst.items()))
    return "\n".join(out)


def render_summary(d):
    by = {(c["pattern"], c["flits"]): c for c in d["cases"]}
    patterns = list(dict.fromkeys(c["pattern"] for c in d["cases"]))

    def cells(c):
        below = max(abs(difference(p)) for p in c["points"] if p["tenth"] <= 8 and p["booksim"] is not None)
        top = [difference(p) for p in c["points"] if p["tenth"] == 9]
        at90 = f"{top[0]:+.1f} %".replace("-", "−") if top and top[0] is not None else "unstable"
        return f"{below:.1f} % | {at90}"

    out = ["| pattern | 1-flit: ≤ 80 % | 1-flit: 90 % | 4-flit: ≤ 80 % | 4-flit: 90 % |", "|---|---|---|---|---|"]
    for p in patterns:
        out.append(f"| {p} | {cells(by[(p, 1)])} | {cells(by[(p, 4)])} |")
    return "\n".join(out)


def write(d, check):
    update_or_check(os.path.join(ROOT, "docs", "validation.md"), "booksim-compare", render_validation(d), check)
    update_or_check(os.path.join(ROOT, "docs", "noc.md"), "booksim-summary", render_summary(d), check)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--booksim")
    ap.add_argument("--stacksim", default="build/stacksim")
    ap.add_argument("--config", default="configs/noc/mesh.toml")
    ap.add_argument("--patterns", default="uniform,transpose,bitcomp,hotspot")
    ap.add_argument("--flits", default="1,4")
    ap.add_argument("--stacksim-only", action="store_true",
                    help="re-measure stacksim at the recorded rates; keep the recorded BookSim side")
    ap.add_argument("--check", action="store_true", help="render from docs/data and compare; run nothing")
    a = ap.parse_args()
    if a.check:
        return write(load_data("booksim-compare"), True)
    if a.stacksim_only:
        d = load_data("booksim-compare")
        for c in d["cases"]:
            for p in c["points"]:
                p["stacksim"] = stacksim(a.stacksim, a.config, c["pattern"], c["flits"], p["rate"])
        save_data("booksim-compare", d)
        return write(d, False)
    if not a.booksim or not os.access(a.booksim, os.X_OK):
        sys.exit(f"booksim_compare: {a.booksim}: not an executable BookSim binary (--booksim)")
    with tempfile.NamedTemporaryFile("w", suffix=".cfg", delete=False) as f:
        f.write(CONFIG)
        cfg = f.name
    try:
        d = measure(a, cfg)
    finally:
        os.unlink(cfg)
    save_data("booksim-compare", d)
    write(d, False)


if __name__ == "__main__":
    main()
