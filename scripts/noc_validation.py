#!/usr/bin/env python3
"""Measures and writes the "2.5D network" tables of docs/validation.md (thesis chapter 5).

Runs `stacksim noc configs/noc/stacked.toml --saturation` over routing functions, layer
policies, latency thresholds, traffic patterns and memory-traffic fractions, and Netrace
replays under each policy. Each part keeps its measurements in docs/data/noc-PART.json and its
table between the <!-- noc-PART:begin/end --> markers of docs/validation.md:

  bottleneck  XY-Z, DOR, uniform, by memory fraction
  routing     XY-Z vs YX-Z at 50 and 75 % memory traffic
  sweep       DLL's and DestDetect's latency threshold, short windows, < 30 % memory traffic:
              the best mean gain over DOR picks each policy's threshold (the thesis chose its
              8 cycles "by experiment" in BookSim's units; here a hop costs 1 cycle at zero load)
  policy      the layer policies at the swept thresholds (full windows), with the headline
              means over < 30 % memory traffic, where the thesis applies the policies
  netrace     Netrace's own test traces replayed under each policy

Usage: scripts/noc_validation.py [--jobs N] [--only PART ...]   measure PARTs (default all), write
                                                                 docs/data and the doc's sections
       scripts/noc_validation.py --check                         render every part from docs/data,
                                                                 compare with the doc, run nothing
       scripts/noc_validation.py --print [--only PART ...]       render from docs/data to stdout
With --figures DIR it draws the policies' saturation throughput from the recorded measurements
and their latency curves (it runs those; about a minute), PNG and SVG (scripts/plot.py), and
measures no part unless --only names some. The policy and netrace parts read the sweep part's
recorded thresholds, so measure the sweep first (`--only sweep policy netrace` does).
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from doc_section import ROOT, load_data, save_data, update_or_check  # noqa: E402

BIN = os.path.join(ROOT, "build", "stacksim")
CONFIG = os.path.join(ROOT, "configs", "noc", "stacked.toml")
DOC = os.path.join(ROOT, "docs", "validation.md")
TRACES = os.path.join(ROOT, "..", "shared", "traces", "netrace")
PARTS = ["bottleneck", "routing", "sweep", "policy", "netrace"]

FULL = ["traffic.warmup=2000", "traffic.measure=6000", "traffic.drain_cap=12000", "traffic.latency_bound=300"]
QUICK = ["traffic.warmup=500", "traffic.measure=2000", "traffic.drain_cap=4000", "traffic.latency_bound=300"]
FRACTIONS = [0.05, 0.10, 0.25, 0.30, 0.50, 0.75]
ROUTING_PATTERNS = ["uniform", "transpose", "bitcomp", "shuffle", "randperm"]
PATTERNS = ["uniform", "transpose", "bitcomp", "shuffle", "randperm"]
LOW = [0.05, 0.10, 0.25]   # memory traffic below 30 %: where the thesis applies the policies
HIGH = [0.50, 0.75]
THRESHOLDS = [1, 2, 3, 4, 6, 8]
THESIS_THRESHOLD = 8
# The policy columns: name -> the --set options (a threshold "{t}" is filled in per policy).
LOCALBUF = {
    "localbuf": ["noc.layer_policy=localbuf", "noc.localbuf.scope=active"],
    "localbuf_port": ["noc.layer_policy=localbuf", "noc.localbuf.scope=port"],
    "localbuf_router": ["noc.layer_policy=localbuf", "noc.localbuf.scope=router"],
}
NAMES = {"dor": "DOR", "localbuf": "LocalBuf", "localbuf_port": "LocalBuf per port",
         "localbuf_router": "LocalBuf whole router", "destdetect": "DestDetect", "dll": "DLL",
         "dll_thesis": f"DLL at {THESIS_THRESHOLD}"}


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
    """The saturation row (numbers as floats)."""
    row = curve_rows(["--saturation", "--pattern", pattern], sets)[0]
    return {k: float(v) for k, v in row.items()}


def replay(sets, trace, speedup):
    with tempfile.TemporaryDirectory() as out:
        cmd = [BIN, "noc", CONFIG, "--trace", os.path.join(TRACES, trace + ".tra.bz2"), "--out", out,
               "--set", f"trace.speedup={speedup}"]
        for s in sets:
            cmd += ["--set", s]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        with open(os.path.join(out, "replay.json")) as f:
            r = json.load(f)
    return {k: r[k] for k in ("packets", "memory_packets", "runtime_cycles", "packet_latency")}


def policy_sets(policy, thresholds):
    """--set options of a policy column under the chosen thresholds {policy: cycles}."""
    if policy in LOCALBUF:
        return LOCALBUF[policy]
    if policy == "dll_thesis":
        return ["noc.layer_policy=dll", f"noc.dll.latency_threshold={THESIS_THRESHOLD}"]
    if policy in ("destdetect", "dll"):
        return [f"noc.layer_policy={policy}", f"noc.{policy}.latency_threshold={thresholds[policy]}"]
    return [f"noc.layer_policy={policy}"]


def run_all(jobs, n):
    """{key: fn(*args)} for jobs {key: (fn, args)}, n at a time."""
    with ThreadPoolExecutor(max_workers=n) as ex:
        futs = {k: ex.submit(fn, *a) for k, (fn, a) in jobs.items()}
        return {k: fu.result() for k, fu in futs.items()}


def pct(x):
    return f"{x:+.1%}"


def mean(xs):
    return sum(xs) / len(xs) if xs else float("nan")


# Measurement: one function per part, returning the object saved to docs/data/noc-PART.json.

def measure_bottleneck(n):
    jobs = {f: (saturation, (FULL + ["noc.routing=xy", "noc.layer_policy=dor", f"traffic.memory_fraction={f}"],
                             "uniform")) for f in FRACTIONS}
    res = run_all(jobs, n)
    return {"windows": FULL, "rows": [dict(fraction=f, **res[f]) for f in FRACTIONS]}


def measure_routing(n):
    jobs = {(r, p, f): (saturation, (FULL + [f"noc.routing={r}", "noc.layer_policy=dor",
                                             f"traffic.memory_fraction={f}"], p))
            for r in ["xy", "yx"] for p in ROUTING_PATTERNS for f in HIGH}
    res = run_all(jobs, n)
    return {"windows": FULL, "rows": [{"routing": r, "pattern": p, "fraction": f, "accepted": res[(r, p, f)]["accepted"]}
                                      for (r, p, f) in jobs]}


def measure_sweep(n):
    jobs = {}
    for p in PATTERNS:
        for f in LOW:
            base = QUICK + ["noc.routing=yx", f"traffic.memory_fraction={f}"]
            jobs[("dor", 0, p, f)] = (saturation, (base + ["noc.layer_policy=dor"], p))
            for pol in ("destdetect", "dll"):
                for t in THRESHOLDS:
                    jobs[(pol, t, p, f)] = (saturation, (base + policy_sets(pol, {pol: t}), p))
    res = run_all(jobs, n)
    return {"windows": QUICK, "rows": [{"policy": k[0], "threshold": k[1], "pattern": k[2], "fraction": k[3],
                                        "accepted": v["accepted"]} for k, v in res.items()]}


def best_thresholds(sweep):
    """{policy: threshold} with the highest mean gain over DOR in the sweep (the lower on a tie)."""
    gains = sweep_gains(sweep)
    return {pol: max(THRESHOLDS, key=lambda t: (round(gains[(pol, t)]["mean"], 6), -t)) for pol in ("destdetect", "dll")}


def sweep_gains(sweep):
    """{(policy, threshold): {pattern: mean gain over DOR over LOW, "mean": over all cells}}."""
    acc = {(r["policy"], r["threshold"], r["pattern"], r["fraction"]): r["accepted"] for r in sweep["rows"]}
    out = {}
    for pol in ("destdetect", "dll"):
        for t in THRESHOLDS:
            g = {p: [acc[(pol, t, p, f)] / acc[("dor", 0, p, f)] - 1 for f in LOW] for p in PATTERNS}
            out[(pol, t)] = {p: mean(v) for p, v in g.items()}
            out[(pol, t)]["mean"] = mean([x for v in g.values() for x in v])
    return out


POLICY_COLUMNS = ["dor", "localbuf", "localbuf_port", "localbuf_router", "destdetect", "dll_thesis", "dll"]


def measure_policy(n):
    thresholds = best_thresholds(load_data("noc-sweep"))
    jobs = {}
    for p in PATTERNS:
        for f in LOW + HIGH:
            cols = POLICY_COLUMNS if f in LOW else ["dor", "dll"]
            for pol in cols:
                jobs[(pol, p, f)] = (saturation, (FULL + ["noc.routing=yx", f"traffic.memory_fraction={f}"]
                                                  + policy_sets(pol, thresholds), p))
    res = run_all(jobs, n)
    return {"windows": FULL, "thresholds": thresholds,
            "rows": [{"policy": k[0], "pattern": k[1], "fraction": k[2], "accepted": v["accepted"],
                      "diverted": v["diverted_packets"], "ring_sent": v["ring_sent"], "ring_dropped": v["ring_dropped"]}
                     for k, v in res.items()]}


NETRACE_POLICIES = ["dor", "localbuf", "destdetect", "dll"]
NETRACE_RUNS = [(t, sp) for t in ["lngrex", "multiregion"] for sp in [1, 20]]


def measure_netrace(n):
    thresholds = best_thresholds(load_data("noc-sweep"))
    jobs = {(pol, t, sp): (replay, (["noc.routing=yx"] + policy_sets(pol, thresholds), t, sp))
            for pol in NETRACE_POLICIES for (t, sp) in NETRACE_RUNS}
    res = run_all(jobs, n)
    return {"thresholds": thresholds,
            "rows": [dict(policy=k[0], trace=k[1], speedup=k[2], **v) for k, v in res.items()]}


# Rendering: one function per part, from the recorded object alone.

def render_bottleneck(d):
    out = ["| memory traffic | saturation throughput | upper-layer link use | interposer link use "
           "(edge / centre) | vertical link use | latency upper / interposer packets (cycles) |",
           "|---|---|---|---|---|---|"]
    for r in d["rows"]:
        out.append(f"| {r['fraction']:.0%} | {r['accepted']:.3f} | {r['upper_utilisation']:.1%} | "
                   f"{r['lower_utilisation']:.1%} ({r['edge_utilisation']:.0%} / {r['centre_utilisation']:.0%}) | "
                   f"{r['vertical_utilisation']:.1%} | {r['upper_latency']:.0f} / {r['lower_latency']:.0f} |")
    return "\n".join(out)


def render_routing(d):
    acc = {(r["routing"], r["pattern"], r["fraction"]): r["accepted"] for r in d["rows"]}
    out = ["| upper-layer pattern | memory | XY-Z | YX-Z | YX-Z gain |", "|---|---|---|---|---|"]
    gains = []
    for p in ROUTING_PATTERNS:
        for f in HIGH:
            a, b = acc[("xy", p, f)], acc[("yx", p, f)]
            g = b / a - 1
            gains.append(g)
            out.append(f"| {p} | {f:.0%} | {a:.3f} | {b:.3f} | {pct(g)} |")
    out.append(f"| **mean** | | | | **{pct(mean(gains))}** (thesis: +56.5%) |")
    return "\n".join(out)


def render_sweep(d):
    gains = sweep_gains(d)
    best = best_thresholds(d)
    out = ["Mean saturation-throughput gain over DOR at 5, 10 and 25 % memory traffic (YX-Z; warm-up "
           "500, window 2000 cycles):", "",
           "| policy | threshold (cycles/hop) | " + " | ".join(PATTERNS) + " | mean |",
           "|---|---|" + "---|" * (len(PATTERNS) + 1)]
    for pol in ("dll", "destdetect"):
        for t in THRESHOLDS:
            g = gains[(pol, t)]
            mark = "**" if t == best[pol] else ""
            out.append(f"| {NAMES[pol]} | {mark}{t}{mark} | " + " | ".join(pct(g[p]) for p in PATTERNS)
                       + f" | {mark}{pct(g['mean'])}{mark} |")
    out += ["", f"Best (bold, used below): DLL {best['dll']} cycles/hop, DestDetect {best['destdetect']} cycles/hop."]
    return "\n".join(out)


def render_policy(d):
    th = d["thresholds"]
    acc = {(r["policy"], r["pattern"], r["fraction"]): r["accepted"] for r in d["rows"]}
    cols = POLICY_COLUMNS
    heads = [NAMES[c] + (f" ({th[c]})" if c in th else "") for c in cols]
    vs = ["dor", "destdetect", "localbuf"]
    out = [f"Saturation throughput (flits/core/cycle; YX-Z; DestDetect at {th['destdetect']}, DLL at {th['dll']} "
           "cycles/hop, the swept best; LocalBuf judges the buffers in use):", "",
           "| pattern | memory | " + " | ".join(heads) + " | DLL vs DOR | vs DestDetect | vs LocalBuf | "
           f"DLL at {THESIS_THRESHOLD} vs DOR |",
           "|---|---|" + "---|" * (len(cols) + 4)]
    per = {p: {k: [] for k in vs + ["thesis"]} for p in PATTERNS}
    for p in PATTERNS:
        for f in LOW:
            v = {c: acc[(c, p, f)] for c in cols}
            r = {k: v["dll"] / v[k] - 1 for k in vs}
            r["thesis"] = v["dll_thesis"] / v["dor"] - 1
            for k in r:
                per[p][k].append(r[k])
            out.append(f"| {p} | {f:.0%} | " + " | ".join(f"{v[c]:.3f}" for c in cols) + " | "
                       + " | ".join(pct(r[k]) for k in vs + ["thesis"]) + " |")
    out += ["", "Means over 5, 10 and 25 % memory traffic (the headline):", "",
            "| pattern | DLL vs DOR | vs DestDetect | vs LocalBuf | vs LocalBuf per port | vs LocalBuf whole router | "
            f"DLL at {THESIS_THRESHOLD} vs DOR |",
            "|---|---|---|---|---|---|---|"]
    extra = {p: {c: mean([acc[("dll", p, f)] / acc[(c, p, f)] - 1 for f in LOW])
                 for c in ("localbuf_port", "localbuf_router")} for p in PATTERNS}
    for p in PATTERNS:
        out.append(f"| {p} | " + " | ".join(pct(mean(per[p][k])) for k in vs) + " | "
                   + " | ".join(pct(extra[p][c]) for c in ("localbuf_port", "localbuf_router"))
                   + f" | {pct(mean(per[p]['thesis']))} |")
    allm = {k: mean([x for p in PATTERNS for x in per[p][k]]) for k in vs + ["thesis"]}
    allx = {c: mean([extra[p][c] for p in PATTERNS]) for c in ("localbuf_port", "localbuf_router")}
    out.append(f"| **mean** | **{pct(allm['dor'])}** (thesis +45%) | **{pct(allm['destdetect'])}** (thesis +14.9%) | "
               f"**{pct(allm['localbuf'])}** (thesis +6.5%) | {pct(allx['localbuf_port'])} | "
               f"{pct(allx['localbuf_router'])} | {pct(allm['thesis'])} |")
    five = mean([acc[("dll", p, 0.05)] / acc[("dor", p, 0.05)] - 1 for p in PATTERNS])
    out += ["", f"DLL vs DOR at 5 % memory traffic, mean over the patterns: {pct(five)} (thesis +55%).", "",
            "Above 30 % memory traffic (the interposer's edge binds; the thesis does not apply the policies there):", "",
            "| pattern | memory | DOR | DLL | DLL vs DOR |", "|---|---|---|---|---|"]
    for p in PATTERNS:
        for f in HIGH:
            a, b = acc[("dor", p, f)], acc[("dll", p, f)]
            out.append(f"| {p} | {f:.0%} | {a:.3f} | {b:.3f} | {pct(b / a - 1)} |")
    return "\n".join(out)


def render_netrace(d):
    th = d["thresholds"]
    v = {(r["policy"], r["trace"], r["speedup"]): r for r in d["rows"]}
    out = [f"Netrace's own test traces (`../shared/traces/netrace/`: `lngrex` is its blackscholes-short-test, "
           f"`multiregion` its multiregion-test), not the thesis's PARSEC set; YX-Z, DestDetect at "
           f"{th['destdetect']}, DLL at {th['dll']} cycles/hop, LocalBuf judging the buffers in use:", "",
           "| trace | packets | memory share | speedup | DOR cycles | LocalBuf | DestDetect | DLL | DLL vs DOR |"
           " DOR / DLL mean latency |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for (t, sp) in NETRACE_RUNS:
        d0 = v[("dor", t, sp)]
        dl = v[("dll", t, sp)]
        out.append(f"| {t} | {d0['packets']} | {d0['memory_packets'] / d0['packets']:.1%} | {sp}x | {d0['runtime_cycles']} | "
                   f"{v[('localbuf', t, sp)]['runtime_cycles']} | {v[('destdetect', t, sp)]['runtime_cycles']} | "
                   f"{dl['runtime_cycles']} | {dl['runtime_cycles'] / d0['runtime_cycles'] - 1:+.2%} | "
                   f"{d0['packet_latency']:.0f} / {dl['packet_latency']:.0f} |")
    return "\n".join(out)


MEASURE = {"bottleneck": measure_bottleneck, "routing": measure_routing, "sweep": measure_sweep,
           "policy": measure_policy, "netrace": measure_netrace}
RENDER = {"bottleneck": render_bottleneck, "routing": render_routing, "sweep": render_sweep,
          "policy": render_policy, "netrace": render_netrace}


def figures(folder, jobs):
    """Saturation throughput by policy at < 30 % memory traffic (recorded data), and latency
    against offered load under each policy (transpose, 10 % memory traffic; runs the curves)."""
    import plot
    d = load_data("noc-policy")
    shown = ["dor", "localbuf", "destdetect", "dll"]
    rows = [{"traffic": f"{r['pattern']} {r['fraction']:.0%}", "policy": NAMES[r["policy"]], "accepted": r["accepted"]}
            for r in d["rows"] if r["fraction"] in LOW and r["pattern"] in ("uniform", "transpose")
            and r["policy"] in shown]
    plot.bar_plot(rows, os.path.join(folder, "noc-policies-saturation"), "accepted", "traffic", ["policy"],
                  title=f"Saturation throughput by layer policy, YX-Z (DestDetect {d['thresholds']['destdetect']}, "
                        f"DLL {d['thresholds']['dll']} cycles/hop)",
                  ylabel="saturation throughput (flits/core/cycle)")
    jobs_ = {pol: (curve_rows, (["--rates", "0.02:0.4:0.02", "--pattern", "transpose"],
                                FULL + ["noc.routing=yx", "traffic.memory_fraction=0.1"] + policy_sets(pol, d["thresholds"])))
             for pol in shown}
    res = run_all(jobs_, jobs)
    plot.latency_plot([(NAMES[pol], res[pol], NAMES[pol]) for pol in shown],
                      os.path.join(folder, "noc-latency-policies"),
                      title="2.5D system, YX-Z, transpose, 10% memory traffic", ymax=300)


def main():
    global BIN, CONFIG
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--bin", default=BIN, help="the stacksim binary (default build/stacksim)")
    ap.add_argument("--only", nargs="+", choices=PARTS, help="these parts only (default: all)")
    ap.add_argument("--check", action="store_true", help="render from docs/data and compare with the doc; run nothing")
    ap.add_argument("--print", action="store_true", help="render from docs/data to stdout; run nothing")
    ap.add_argument("--figures", help="draw the two policy figures (PNG and SVG) into this folder")
    args = ap.parse_args()
    BIN = args.bin
    parts = args.only or ([] if args.figures else PARTS)
    if args.print:
        for p in parts:
            print(f"<!-- noc-{p} -->\n{RENDER[p](load_data('noc-' + p))}\n")
        return 0
    if not args.check:
        for p in parts:
            save_data("noc-" + p, MEASURE[p](args.jobs))
            print(f"noc-{p}: measured", file=sys.stderr)
    for p in parts:
        update_or_check(DOC, "noc-" + p, RENDER[p](load_data("noc-" + p)), args.check)
    if args.figures and not args.check:
        figures(args.figures, args.jobs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
