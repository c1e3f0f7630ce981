#!/usr/bin/env python3
"""Regenerates the "2.5D network" tables of docs/validation.md (thesis chapter 5).

Runs `stacksim noc configs/noc/stacked.toml --saturation` over routing functions, layer
policies, traffic patterns and memory-traffic fractions, and Netrace replays under each policy,
then prints Markdown tables; with --figures DIR it also draws latency against offered load under
each policy and the policies' saturation throughput (scripts/plot.py; PNG and SVG).
Usage: scripts/noc_validation.py [--jobs N] [--quick] [--config FILE] [--figures docs/figures] > out.md
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "build", "stacksim")
CONFIG = os.path.join(ROOT, "configs", "noc", "stacked.toml")
TRACES = os.path.join(ROOT, "..", "shared", "traces", "netrace")
POLICIES = ["dor", "localbuf", "destdetect", "dll"]


def curve_rows(options, sets):
    """Rows of the curve.csv of `stacksim noc CONFIG OPTIONS --set ...`."""
    with tempfile.TemporaryDirectory() as out:
        cmd = [BIN, "noc", CONFIG] + options + ["--out", out]
        for s in sets:
            cmd += ["--set", s]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        with open(os.path.join(out, "curve.csv")) as f:
            return list(csv.DictReader(f))


def saturation(sets, pattern):
    return curve_rows(["--saturation", "--pattern", pattern], sets)[0]


def curve(sets, pattern, rates):
    return curve_rows(["--rates", rates, "--pattern", pattern], sets)


def figures(folder, results, base_fractions):
    """Latency vs offered load per policy, and saturation throughput by policy (uniform, threshold 8)."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import plot
    curves = [(pol, results[("curve", pol)], pol) for pol in POLICIES if ("curve", pol) in results]
    if curves:
        plot.latency_plot(curves, os.path.join(folder, "noc-latency-policies"),
                          title="2.5D system, YX-Z, uniform random, 25% memory traffic", ymax=300)
    rows = [{"memory traffic": f"{f:.0%}", "policy": pol,
             "accepted": results[("policy", 8, pol, "uniform", f)]["accepted"]}
            for f in base_fractions for pol in POLICIES if ("policy", 8, pol, "uniform", f) in results]
    if rows:
        plot.bar_plot(rows, os.path.join(folder, "noc-policies-saturation"), "accepted", "memory traffic", ["policy"],
                      title="Saturation throughput, uniform random, YX-Z, threshold 8",
                      ylabel="saturation throughput (flits/core/cycle)")


def replay(sets, trace, speedup):
    with tempfile.TemporaryDirectory() as out:
        cmd = [BIN, "noc", CONFIG, "--trace", os.path.join(TRACES, trace + ".tra.bz2"), "--out", out,
               "--set", f"trace.speedup={speedup}"]
        for s in sets:
            cmd += ["--set", s]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        with open(os.path.join(out, "replay.json")) as f:
            return json.load(f)


def main():
    global BIN, CONFIG
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--quick", action="store_true", help="shorter windows (for a smoke run)")
    ap.add_argument("--bin", default=BIN, help="the stacksim binary (default build/stacksim)")
    ap.add_argument("--only", nargs="+", choices=["bottleneck", "routing", "policy", "netrace", "curve"],
                    help="these tables only (curve: the latency figure's runs)")
    ap.add_argument("--figures", help="also write the figures (PNG and SVG) to this folder")
    ap.add_argument("--config", default=CONFIG,
                    help="the 2.5D config (default configs/noc/stacked.toml; configs/noc/stacked_thesis.toml: "
                         "the thesis's 8 VCs x 8 flits and whole-router LocalBuf)")
    args = ap.parse_args()
    BIN = args.bin
    CONFIG = args.config
    base = ["traffic.warmup=2000", "traffic.measure=6000", "traffic.drain_cap=12000", "traffic.latency_bound=300"]
    if args.quick:
        base = ["traffic.warmup=500", "traffic.measure=2000", "traffic.drain_cap=4000", "traffic.latency_bound=300"]
    fractions = [0.05, 0.10, 0.25, 0.30, 0.50, 0.75]
    patterns = ["uniform", "transpose", "bitcomp", "shuffle"]
    jobs = {}

    def add(key, fn, *a):
        if args.only is None or key[0] in args.only:
            jobs[key] = (fn, a)

    # 1. Bottleneck analysis: XY-Z, DOR, uniform, by memory fraction.
    for f in fractions:
        add(("bottleneck", f), saturation, base + ["noc.routing=xy", "noc.layer_policy=dor",
                                                   f"traffic.memory_fraction={f}"], "uniform")
    # 2. XY-Z vs YX-Z under heavy memory traffic, four upper-layer patterns.
    for r in ["xy", "yx"]:
        for p in patterns:
            for f in [0.5, 0.75]:
                add(("routing", r, p, f), saturation, base + [f"noc.routing={r}", "noc.layer_policy=dor",
                                                              f"traffic.memory_fraction={f}"], p)
    # 3. Policies (YX-Z for all, as in the thesis) at the paper's threshold (8) and at 4.
    for thr in [8, 4]:
        for pol in POLICIES:
            if thr != 8 and pol in ("dor", "localbuf"):
                continue
            for p in patterns:
                for f in [0.05, 0.10, 0.25, 0.50, 0.75]:
                    threshold = [f"noc.{pol}.latency_threshold={thr}"] if pol in ("destdetect", "dll") else []
                    add(("policy", thr, pol, p, f), saturation,
                        base + ["noc.routing=yx", f"noc.layer_policy={pol}", f"traffic.memory_fraction={f}"]
                        + threshold, p)
    # 4. Latency against offered load under each policy (figure only).
    if args.figures:
        for pol in POLICIES:
            add(("curve", pol), curve, base + ["noc.routing=yx", f"noc.layer_policy={pol}",
                                               "traffic.memory_fraction=0.25"], "uniform", "0.05:0.7:0.05")
    # 5. Netrace runtime under each policy.
    for pol in POLICIES:
        for t in ["lngrex", "multiregion"]:
            for sp in [1, 20]:
                add(("netrace", pol, t, sp), replay, ["noc.routing=yx", f"noc.layer_policy={pol}"], t, sp)

    results = {}
    with ThreadPoolExecutor(max_workers=args.jobs) as ex:
        futs = {k: ex.submit(fn, *a) for k, (fn, a) in jobs.items()}
        for k, fu in futs.items():
            results[k] = fu.result()

    def thr(k):
        return float(results[k]["accepted"])

    def section(name):
        return args.only is None or name in args.only

    if section("bottleneck"):
        print("### Bottleneck analysis (XY-Z, DOR, uniform random)\n")
        print("| memory traffic | saturation throughput | upper-layer link use | interposer link use "
              "(edge / centre) | vertical link use | latency upper / interposer packets (cycles) |")
        print("|---|---|---|---|---|---|")
        for f in fractions:
            r = results[("bottleneck", f)]
            print(f"| {f:.0%} | {float(r['accepted']):.3f} | {float(r['upper_utilisation']):.1%} | "
                  f"{float(r['lower_utilisation']):.1%} ({float(r['edge_utilisation']):.0%} / "
                  f"{float(r['centre_utilisation']):.0%}) | {float(r['vertical_utilisation']):.1%} | "
                  f"{float(r['upper_latency']):.0f} / {float(r['lower_latency']):.0f} |")
    if section("routing"):
        print("\n### XY-Z vs YX-Z (DOR; memory packets to uniformly random controllers)\n")
        print("| upper-layer pattern | memory | XY-Z | YX-Z | YX-Z gain |")
        print("|---|---|---|---|---|")
        gains = []
        for p in patterns:
            for f in [0.5, 0.75]:
                a, b = thr(("routing", "xy", p, f)), thr(("routing", "yx", p, f))
                g = b / a - 1 if a > 0 else float("nan")
                gains.append(g)
                print(f"| {p} | {f:.0%} | {a:.3f} | {b:.3f} | {g:+.1%} |")
        print(f"| **mean** | | | | **{sum(gains) / len(gains):+.1%}** (paper: +56.5%) |")
    if section("policy"):
        for t in [8, 4]:
            print(f"\n### Layer policies, saturation throughput (YX-Z, latency threshold {t} cycles)\n")
            print("| pattern | memory | DOR | LocalBuf | DestDetect | DLL | DLL vs DOR | vs DestDetect | vs LocalBuf |")
            print("|---|---|---|---|---|---|---|---|---|")
            rel = {"dor": [], "destdetect": [], "localbuf": []}
            low = {"dor": [], "destdetect": [], "localbuf": []}  # 5-25% memory traffic
            for p in patterns:
                for f in [0.05, 0.10, 0.25, 0.50, 0.75]:
                    v = {pol: thr(("policy", t if pol in ("destdetect", "dll") else 8, pol, p, f)) for pol in POLICIES}
                    r = {k: v["dll"] / v[k] - 1 for k in rel}
                    for k in rel:
                        rel[k].append(r[k])
                        if f <= 0.25:
                            low[k].append(r[k])
                    print(f"| {p} | {f:.0%} | {v['dor']:.3f} | {v['localbuf']:.3f} | {v['destdetect']:.3f} | "
                          f"{v['dll']:.3f} | {r['dor']:+.1%} | {r['destdetect']:+.1%} | {r['localbuf']:+.1%} |")
            m = {k: sum(x) / len(x) for k, x in rel.items()}
            print(f"| **mean** | | | | | | **{m['dor']:+.1%}** (paper +45%) | **{m['destdetect']:+.1%}** "
                  f"(paper +14.9%) | **{m['localbuf']:+.1%}** (paper +6.5%) |")
            m = {k: sum(x) / len(x) for k, x in low.items()}
            print(f"| **mean, 5-25% memory** | | | | | | **{m['dor']:+.1%}** | **{m['destdetect']:+.1%}** | "
                  f"**{m['localbuf']:+.1%}** |")
    if section("netrace"):
        print("\n### Netrace (PARSEC) runtime by policy (YX-Z)\n")
        print("| trace | packets | memory share | speedup | DOR cycles | LocalBuf | DestDetect | DLL | DLL vs DOR |"
              " DOR / DLL mean latency |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        for t in ["lngrex", "multiregion"]:
            for sp in [1, 20]:
                v = {pol: results[("netrace", pol, t, sp)] for pol in POLICIES}
                d = v["dor"]
                share = d["memory_packets"] / d["packets"]
                print(f"| {t} | {d['packets']} | {share:.1%} | {sp}x | {d['runtime_cycles']} | "
                      f"{v['localbuf']['runtime_cycles']} | {v['destdetect']['runtime_cycles']} | "
                      f"{v['dll']['runtime_cycles']} | {v['dll']['runtime_cycles'] / d['runtime_cycles'] - 1:+.2%} | "
                      f"{d['packet_latency']:.0f} / {v['dll']['packet_latency']:.0f} |")

    if args.figures:
        figures(args.figures, results, [0.05, 0.10, 0.25, 0.50, 0.75])


if __name__ == "__main__":
    sys.exit(main())
