#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Figures from stacksim outputs (PNG and SVG): NoC latency curves, grouped bars, timeline series.
"""stacksim plot: figures from stacksim's outputs, each written as STEM.png and STEM.svg.

    plot.py latency CURVE.csv[=LABEL]... [--x offered] [--y packet_latency] [--ymax Y] [--out STEM]
        latency against offered load, one curve per file (`stacksim noc --rates ... --out DIR`
        writes DIR/curve.csv; the label defaults to the folder name, e.g. the layer policy)
    plot.py bars results.csv --stat COLUMN [--x workload] [--group COLUMN[,COLUMN]]
                [--baseline VALUE [--speedup]] [--log] [--out STEM]
        grouped bars of a column of a sweep's results.csv: one group of bars per --x value,
        one bar per --group value (rows with the same pair, e.g. several seeds, are averaged;
        error bars show their min and max). With --baseline each group is divided by its bar
        whose --group value is VALUE (--speedup divides VALUE's bar by each bar instead, for
        times and cycles: higher is better)
    plot.py timeline TIMELINE.json [--series ipc|ctas|stalls] [--bin CYCLES] [--out STEM]
        a time series from `stacksim run --timeline`: warp instructions per cycle of each SM
        in the timeline (ipc), CTAs resident on all SMs (ctas), or warps stalled by reason (stalls)

Needs Python 3 and matplotlib (Debian: python3-matplotlib). Bad input exits 2 with one line.
The functions below are also used by scripts/noc_validation.py and scripts/uvm_validation.py.
"""
import argparse
import csv
import json
import os
import sys


class PlotError(Exception):
    """Bad input: reported as one line, exit code 2."""


def _pyplot():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        plt.rcParams["svg.hashsalt"] = "stacksim"  # stable SVG ids
        plt.rcParams["svg.fonttype"] = "none"
        return plt
    except ImportError as e:
        raise PlotError(f"matplotlib is not available ({e}); Debian: apt-get install python3-matplotlib")


def save(fig, stem):
    """Writes STEM.png and STEM.svg; returns their paths."""
    plt = _pyplot()
    folder = os.path.dirname(stem)
    if folder:
        os.makedirs(folder, exist_ok=True)
    paths = [stem + ".png", stem + ".svg"]
    fig.tight_layout()
    fig.savefig(paths[0], dpi=120)
    fig.savefig(paths[1], metadata={"Date": None})
    plt.close(fig)
    return paths


def read_csv(path):
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        raise PlotError(f"{path}: {e.strerror}")
    if not rows:
        raise PlotError(f"{path}: no rows")
    return rows


def number(path, row, column):
    text = row.get(column)
    if text is None:
        raise PlotError(f"{path}: no column '{column}' (columns: {', '.join(row.keys())})")
    try:
        return float(text)
    except ValueError:
        raise PlotError(f"{path}: column '{column}' holds '{text}', not a number")


def latency_plot(curves, stem, x="offered", y="packet_latency", title=None, ymax=None):
    """curves: [(label, rows of a curve.csv, path)]. Saturated points are drawn hollow."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for label, rows, path in curves:
        xs = [number(path, r, x) for r in rows]
        ys = [number(path, r, y) for r in rows]
        line, = ax.plot(xs, ys, marker="o", label=label)
        sat = [(a, b) for a, b, r in zip(xs, ys, rows) if r.get("saturated") == "1"]
        if sat:
            ax.plot([a for a, _ in sat], [b for _, b in sat], linestyle="none", marker="o", markersize=9,
                    color=line.get_color(), markerfacecolor="white")
    ax.set_xlabel({"offered": "offered load (flits/node/cycle)", "accepted": "accepted load (flits/node/cycle)",
                   "rate": "injection rate (flits/node/cycle)"}.get(x, x))
    ax.set_ylabel({"packet_latency": "packet latency (cycles)",
                   "network_latency": "network latency (cycles)"}.get(y, y))
    if ymax:
        ax.set_ylim(top=ymax)
    ax.grid(True, alpha=0.3)
    ax.legend()
    if title:
        ax.set_title(title)
    return save(fig, stem)


def bar_plot(rows, stem, stat, x, groups, baseline=None, speedup=False, path="table", title=None, ylabel=None,
             logy=False):
    """Grouped bars of `stat` by `x` (one group each) and `groups` (one bar each)."""
    plt = _pyplot()
    rows = [r for r in rows if r.get("status", "done") == "done"]
    if not rows:
        raise PlotError(f"{path}: no rows with status done")
    for c in [x, stat] + groups:
        if c not in rows[0]:
            raise PlotError(f"{path}: no column '{c}' (columns: {', '.join(rows[0].keys())})")
    values = {}
    xs, gs = [], []
    for r in rows:
        key_x, key_g = r[x], " / ".join(r[g] for g in groups) if groups else stat
        if r[stat] == "":
            continue
        values.setdefault((key_x, key_g), []).append(number(path, r, stat))
        if key_x not in xs:
            xs.append(key_x)
        if key_g not in gs:
            gs.append(key_g)
    if baseline is not None and baseline not in gs:
        raise PlotError(f"{path}: no bars with {'/'.join(groups)} = '{baseline}' to normalise to "
                        f"(values: {', '.join(gs)})")
    fig, ax = plt.subplots(figsize=(min(12.0, max(6.4, 0.9 * len(xs) * max(1, len(gs)) / 2 + 2)), 4.6))
    width = 0.8 / max(1, len(gs))
    for i, g in enumerate(gs):
        heights, low, high, pos = [], [], [], []
        for j, xv in enumerate(xs):
            v = values.get((xv, g))
            if not v:
                continue
            mean, lo, hi = sum(v) / len(v), min(v), max(v)
            if baseline is not None:
                base = values.get((xv, baseline))
                if not base:
                    continue
                b = sum(base) / len(base)
                if speedup:
                    mean, lo, hi = (b / mean if mean else 0.0), (b / hi if hi else 0.0), (b / lo if lo else 0.0)
                else:
                    mean, lo, hi = (mean / b, lo / b, hi / b) if b else (0.0, 0.0, 0.0)
            pos.append(j + (i - (len(gs) - 1) / 2) * width)
            heights.append(mean)
            low.append(mean - lo)
            high.append(hi - mean)
        err = [low, high] if any(low) or any(high) else None
        ax.bar(pos, heights, width, label=g, yerr=err, capsize=2 if err else 0)
    if logy:
        ax.set_yscale("log")
    ax.set_xticks(range(len(xs)))
    ax.set_xticklabels(xs, rotation=30 if len(xs) > 6 else 0, ha="right" if len(xs) > 6 else "center")
    ax.set_xlabel(x)
    if ylabel:
        ax.set_ylabel(ylabel)
    elif baseline is not None:
        ax.set_ylabel(f"{'speedup' if speedup else stat} vs {baseline}")
        ax.axhline(1.0, color="grey", linewidth=0.8)
    else:
        ax.set_ylabel(stat)
    ax.grid(True, axis="y", alpha=0.3)
    if groups or len(gs) > 1:
        ax.legend(title=" / ".join(groups) if groups else None, fontsize="small")
    if title:
        ax.set_title(title)
    return save(fig, stem)


def timeline_plot(path, stem, series="ipc", bin_cycles=0, title=None):
    plt = _pyplot()
    try:
        with open(path) as f:
            events = json.load(f)["traceEvents"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise PlotError(f"{path}: not a stacksim timeline ({e})")
    spans = [e for e in events if e.get("ph") == "X"]
    kernels = [e for e in spans if e.get("cat") == "kernel"]
    end = max((e["ts"] + e["dur"] for e in spans), default=0)
    if end <= 0:
        raise PlotError(f"{path}: no events")
    width = bin_cycles or max(1, round(end / 200))
    bins = int(end // width) + 1
    starts = [i * width for i in range(bins)]
    fig, ax = plt.subplots(figsize=(7.2, 4.0))

    def occupancy(items):  # mean number of overlapping spans per bin
        acc = [0.0] * bins
        for e in items:
            a, b = e["ts"], e["ts"] + e["dur"]
            i = int(a // width)
            while i < bins and i * width < b:
                acc[i] += min(b, (i + 1) * width) - max(a, i * width)
                i += 1
        return [v / width for v in acc]

    if series == "ipc":
        per_sm = {}
        for e in spans:
            if e.get("cat") == "issue":
                per_sm.setdefault(e["pid"], [0] * bins)[int(e["ts"] // width)] += 1
        if not per_sm:
            raise PlotError(f"{path}: no issue events (run with --timeline and --timeline-sms)")
        for pid in sorted(per_sm):
            ax.plot(starts, [n / width for n in per_sm[pid]], label=f"SM {pid - 1}")
        ax.set_ylabel("warp instructions per cycle")
    elif series == "ctas":
        ctas = [e for e in spans if e.get("cat") == "cta"]
        if not ctas:
            raise PlotError(f"{path}: no CTA events")
        ax.plot(starts, occupancy(ctas), label="all SMs")
        ax.set_ylabel("CTAs resident (mean per bin)")
    elif series == "stalls":
        reasons = {}
        for e in spans:
            if e.get("cat") == "stall":
                reasons.setdefault(e["name"], []).append(e)
        if not reasons:
            raise PlotError(f"{path}: no stall events (run with --timeline and --timeline-sms)")
        names = sorted(reasons)
        ax.stackplot(starts, [occupancy(reasons[n]) for n in names], labels=names)
        ax.set_ylabel("warps stalled (mean per bin)")
    else:
        raise PlotError(f"unknown series '{series}' (ipc, ctas, stalls)")
    for k in kernels:
        ax.axvspan(k["ts"], k["ts"] + k["dur"], color="grey", alpha=0.08)
        ax.annotate(k["name"], (k["ts"], 1.0), xycoords=("data", "axes fraction"), fontsize="x-small",
                    va="top", rotation=90)
    ax.set_xlabel(f"core cycle (bins of {width})")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")
    if title:
        ax.set_title(title)
    return save(fig, stem)


def main(argv=None):
    prog = "plot.py"
    if argv is None:
        argv = sys.argv[1:]
    if len(argv) >= 2 and argv[0] == "--prog":
        prog, argv = argv[1], argv[2:]
    ap = argparse.ArgumentParser(prog=prog, description="Figures from stacksim outputs (PNG and SVG).")
    sub = ap.add_subparsers(dest="kind", required=True)
    lat = sub.add_parser("latency", help="NoC latency vs offered load, one curve per curve.csv")
    lat.add_argument("curves", nargs="+", metavar="CURVE.csv[=LABEL]")
    lat.add_argument("--x", default="offered")
    lat.add_argument("--y", default="packet_latency")
    lat.add_argument("--ymax", type=float, help="clip the y axis here (latency past saturation)")
    bars = sub.add_parser("bars", help="grouped bars of a column of a results.csv")
    bars.add_argument("table")
    bars.add_argument("--stat", required=True)
    bars.add_argument("--x", default="workload")
    bars.add_argument("--group", default="")
    bars.add_argument("--baseline")
    bars.add_argument("--speedup", action="store_true")
    bars.add_argument("--log", action="store_true", help="logarithmic y axis")
    tl = sub.add_parser("timeline", help="a time series from a --timeline JSON")
    tl.add_argument("timeline")
    tl.add_argument("--series", default="ipc", choices=["ipc", "ctas", "stalls"])
    tl.add_argument("--bin", type=int, default=0, help="cycles per bin (default: 1/200 of the run)")
    for p in (lat, bars, tl):
        p.add_argument("--out", help="output STEM (writes STEM.png and STEM.svg)")
        p.add_argument("--title")
    a = ap.parse_args(argv)
    try:
        if a.kind == "latency":
            curves = []
            for spec in a.curves:
                path, _, label = spec.partition("=")
                label = label or os.path.basename(os.path.dirname(os.path.abspath(path)))
                curves.append((label, read_csv(path), path))
            out = a.out or os.path.splitext(curves[0][2])[0] + "-latency"
            paths = latency_plot(curves, out, a.x, a.y, a.title, a.ymax)
        elif a.kind == "bars":
            if a.speedup and a.baseline is None:
                raise PlotError("--speedup needs --baseline")
            groups = [g for g in a.group.split(",") if g]
            out = a.out or os.path.splitext(a.table)[0] + "-" + a.stat.replace("/", "_")
            paths = bar_plot(read_csv(a.table), out, a.stat, a.x, groups, a.baseline, a.speedup, a.table, a.title,
                             logy=a.log)
        else:
            out = a.out or os.path.splitext(a.timeline)[0] + "-" + a.series
            paths = timeline_plot(a.timeline, out, a.series, a.bin, a.title)
    except PlotError as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 2
    print("wrote " + " and ".join(paths))
    return 0


if __name__ == "__main__":
    sys.exit(main())
