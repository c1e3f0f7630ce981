#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Figures from stacksim outputs (PNG and SVG): NoC latency curves, grouped bars, timeline series.
"""stacksim plot: figures from stacksim's outputs, each written as STEM.png and STEM.svg.

    plot.py latency CURVE.csv[=LABEL]... [--x offered] [--y packet_latency] [--ymax Y] [--out STEM]
        latency against offered load, one curve per file (`stacksim noc --rates ... --out DIR`
        writes DIR/curve.csv; the label defaults to the folder name, e.g. the layer policy)
    plot.py bars results.csv --stat COLUMN [--x workload] [--group COLUMN[,COLUMN]]
                [--where KEY=VALUE]... [--facet KEY] [--aggregate mean]
                [--baseline VALUE [--speedup]] [--log] [--out STEM]
        grouped bars of a column of a sweep's results.csv: one group of bars per --x value,
        one bar per --group value. Rows of one bar may differ only in their seed: the bar is
        the mean over seeds and its error bar their min and max (the legend says so). Another
        sweep axis (plan.json's columns) that differs within a bar is an error unless it is
        fixed (--where KEY=VALUE), drawn apart (--facet KEY: one panel per value) or averaged
        on purpose (--aggregate mean). With --baseline each seed's bar is divided by the
        VALUE bar of the same seed (--speedup divides VALUE's bar by each bar instead, for
        times and cycles: higher is better)
    plot.py timeline TIMELINE.json [--series ipc|ctas|stalls] [--bin CYCLES] [--from C] [--to C]
        a time series from `stacksim run --timeline`: warp instructions per cycle of each SM
        in the timeline (ipc), CTAs resident on all SMs (ctas), or warps stalled by reason
        (stalls); --from/--to: only core cycles C..C (at most 100,000 bins)
    plot.py samples SAMPLES.csv [--series NAME[,NAME]] [--from C] [--to C] [--out STEM]
        the series of `stacksim run --samples` over core cycles, one panel each

Needs Python 3 and matplotlib (Debian: python3-matplotlib). Bad input (a missing or malformed
file, a value that is not a finite number, a cell or file too large, bytes that are not UTF-8,
a bad option) exits 2 with one line, never a traceback.
The functions below are also used by scripts/noc_validation.py and scripts/uvm_validation.py.
"""
import argparse
import csv
import functools
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
        if "text.parse_math" in plt.rcParams:
            plt.rcParams["text.parse_math"] = False  # a '$' in a name is text, not TeX
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


# Limits checked before work: inputs past them are refused with one line, not drawn slowly.
MAX_FILE_BYTES = 256 << 20  # a CSV or timeline
MAX_CELL = 4096  # characters in one CSV cell
MAX_BINS = 100_000  # bins of a timeline series
MAX_BARS = 10_000  # bars of one figure
MAX_TIME = 2.0 ** 53  # cycles (a timestamp past this is not an integer cycle any more)


def shown(text, limit=60):
    """`text` as it may appear in a message: escaped, cut short."""
    text = str(text)
    cut = text[:limit].encode("unicode_escape").decode("ascii")
    return cut + (f"... ({len(text)} characters)" if len(text) > limit else "")


def read_text(path):
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        raise PlotError(f"{shown(path)}: {e.strerror}")
    if len(data) > MAX_FILE_BYTES:
        raise PlotError(f"{shown(path)}: larger than {MAX_FILE_BYTES >> 20} MB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise PlotError(f"{shown(path)}: byte {e.start} is not UTF-8 (0x{data[e.start]:02x})")


def read_csv(path):
    """Rows of the CSV at `path` as dicts; every cell a string of at most MAX_CELL characters."""
    text = read_text(path)
    if "\0" in text:
        raise PlotError(f"{shown(path)}: holds a NUL byte (not a CSV table)")
    csv.field_size_limit(MAX_CELL)
    try:
        reader = csv.reader(text.splitlines())
        lines = list(reader)
    except csv.Error as e:
        raise PlotError(f"{shown(path)}: line {reader.line_num}: {e} (cells hold at most {MAX_CELL} characters)")
    lines = [line for line in lines if line]
    if len(lines) < 2:
        raise PlotError(f"{shown(path)}: no rows")
    header = lines[0]
    if len(set(header)) != len(header):
        raise PlotError(f"{shown(path)}: a column name appears twice in the header")
    rows = []
    for n, line in enumerate(lines[1:], start=2):
        if len(line) != len(header):
            raise PlotError(f"{shown(path)}: row {n} has {len(line)} cells, the header {len(header)}")
        rows.append(dict(zip(header, line)))
    return rows


def kind(value):
    """JSON's name for the type of `value`."""
    return {type(None): "null", bool: "a boolean", list: "an array", dict: "an object", str: "a string",
            int: "an integer", float: "a number"}.get(type(value), type(value).__name__)


def finite(path, what, value):
    """`value` (from JSON or text) as a finite float, or PlotError naming `what`."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise PlotError(f"{shown(path)}: {what} is {kind(value)}, not a number")
    try:
        v = float(value)
    except (ValueError, OverflowError):
        raise PlotError(f"{shown(path)}: {what} holds '{shown(value)}', not a number")
    if v != v or v in (float("inf"), float("-inf")):
        raise PlotError(f"{shown(path)}: {what} is {shown(value)}, not a finite number")
    return v


def number(path, row, column):
    text = row.get(column)
    if text is None:
        raise PlotError(f"{shown(path)}: no column '{shown(column)}' (columns: {shown(', '.join(row.keys()), 300)})")
    return finite(path, f"column '{shown(column)}'", text)


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


def check_axes(rows, path, x, groups, axes, aggregate, seed="seed"):
    """Refuses rows of one bar (same x and groups) that differ in a sweep axis other than the
    seed, unless `aggregate`: averaging over an axis is a choice the user states."""
    if aggregate or not axes:
        return
    named = set([x] + groups)
    free = [a for a in axes if a not in named and a != seed and a in rows[0]]
    seen = {}
    for r in rows:
        key = (r[x],) + tuple(r[g] for g in groups)
        first = seen.setdefault(key, r)
        for a in free:
            if r[a] != first[a]:
                cell = ", ".join(f"{k}={shown(v, 30)}" for k, v in zip([x] + groups, key))
                raise PlotError(f"{shown(path)}: the rows of one bar ({cell}) differ in '{shown(a)}' "
                                f"({shown(first[a], 30)}, {shown(r[a], 30)}): name it in --x or --group, fix it with "
                                f"--where {shown(a)}=VALUE, split by it with --facet {shown(a)}, "
                                f"or average over it with --aggregate mean")


def _bars(ax, rows, path, stat, x, groups, baseline, speedup, seed):
    """Draws one panel; returns (x values, number of seeds behind the error bars)."""
    # bar (x, group) -> seed -> values (several when another axis is aggregated)
    values = {}
    xs, gs = [], []
    for r in rows:
        key_x, key_g = r[x], " / ".join(r[g] for g in groups) if groups else stat
        if r[stat] == "":
            continue
        v = number(path, r, stat)
        values.setdefault((key_x, key_g), {}).setdefault(r.get(seed, ""), []).append(v)
        if key_x not in xs:
            xs.append(key_x)
        if key_g not in gs:
            gs.append(key_g)
    if len(xs) * max(1, len(gs)) > MAX_BARS:
        raise PlotError(f"{shown(path)}: {len(xs) * len(gs)} bars, at most {MAX_BARS}")
    if baseline is not None and baseline not in gs:
        raise PlotError(f"{shown(path)}: no bars with {'/'.join(groups)} = '{shown(baseline)}' to normalise to "
                        f"(values: {shown(', '.join(gs), 200)})")
    width = 0.8 / max(1, len(gs))
    most_seeds = 1
    for i, g in enumerate(gs):
        heights, low, high, pos = [], [], [], []
        for j, xv in enumerate(xs):
            per_seed = values.get((xv, g))
            if not per_seed:
                continue
            means = {k: sum(v) / len(v) for k, v in per_seed.items()}
            if baseline is not None:
                base = values.get((xv, baseline))
                if not base:
                    continue
                base_means = {k: sum(v) / len(v) for k, v in base.items()}
                overall = sum(base_means.values()) / len(base_means)
                # Each seed against the baseline of the same seed: the baseline is exactly 1.
                ratio = {}
                for k, m in means.items():
                    b = base_means.get(k, overall)
                    ratio[k] = (b / m if m else 0.0) if speedup else (m / b if b else 0.0)
                means = ratio
            seeds = list(means.values())
            most_seeds = max(most_seeds, len(seeds))
            mean = sum(seeds) / len(seeds)
            pos.append(j + (i - (len(gs) - 1) / 2) * width)
            heights.append(mean)
            low.append(mean - min(seeds))
            high.append(max(seeds) - mean)
        err = [low, high] if any(low) or any(high) else None
        ax.bar(pos, heights, width, label=shown(g), yerr=err, capsize=2 if err else 0)
    ax.set_xticks(range(len(xs)))
    ax.set_xticklabels([shown(v, 30) for v in xs], rotation=30 if len(xs) > 6 else 0,
                       ha="right" if len(xs) > 6 else "center")
    return gs, most_seeds


def bar_plot(rows, stem, stat, x, groups, baseline=None, speedup=False, path="table", title=None, ylabel=None,
             logy=False, axes=None, where=(), facet=None, aggregate=None, seed="seed"):
    """Grouped bars of `stat` by `x` (one group each) and `groups` (one bar each). `axes`: the
    sweep's axis columns (checked by check_axes); `where`: (column, value) filters; `facet`: a
    column drawn as one panel per value; `aggregate` ("mean"): other axes may be averaged."""
    rows = [r for r in rows if r.get("status", "done") == "done"]
    if not rows:
        raise PlotError(f"{shown(path)}: no rows with status done")
    for c in [x, stat] + groups + [k for k, _ in where] + ([facet] if facet else []):
        if c not in rows[0]:
            raise PlotError(f"{shown(path)}: no column '{shown(c)}' (columns: {shown(', '.join(rows[0].keys()), 300)})")
    for k, v in where:
        kept = [r for r in rows if r[k] == v]
        if not kept:
            values = sorted(set(r[k] for r in rows))
            raise PlotError(f"{shown(path)}: --where {shown(k)}={shown(v)} matches no row (values: "
                            f"{shown(', '.join(values), 200)})")
        rows = kept
    panels = [(None, rows)]
    if facet:
        order = []
        for r in rows:
            if r[facet] not in order:
                order.append(r[facet])
        if len(order) > 16:
            raise PlotError(f"--facet {shown(facet)}: {len(order)} values, at most 16 panels")
        panels = [(v, [r for r in rows if r[facet] == v]) for v in order]
    check_axes(rows, path, x, groups + ([facet] if facet else []), axes, aggregate, seed)
    plt = _pyplot()
    n_x = len(set(r[x] for r in rows))
    fig, axs = plt.subplots(1, len(panels), squeeze=False, sharey=True,
                            figsize=(min(16.0, len(panels) * max(6.4, 0.9 * n_x * 2 / 2 + 2)), 4.6))
    most_seeds, gs = 1, []
    for ax, (value, part) in zip(axs[0], panels):
        gs, seeds = _bars(ax, part, path, stat, x, groups, baseline, speedup, seed)
        most_seeds = max(most_seeds, seeds)
        if logy:
            ax.set_yscale("log")
        ax.set_xlabel(x)
        if value is not None:
            ax.set_title(f"{shown(facet)} = {shown(value)}", fontsize="medium")
        if baseline is not None:
            ax.axhline(1.0, color="grey", linewidth=0.8)
        ax.grid(True, axis="y", alpha=0.3)
    ax0 = axs[0][0]
    if ylabel:
        ax0.set_ylabel(ylabel)
    elif baseline is not None:
        ax0.set_ylabel(f"{'speedup' if speedup else shown(stat)} vs {shown(baseline)}")
    else:
        ax0.set_ylabel(shown(stat))
    legend_title = " / ".join(groups) if groups else None
    if most_seeds > 1:
        note = f"error bars: min-max over {most_seeds} seeds"
        legend_title = f"{legend_title}\n{note}" if legend_title else note
    if groups or len(gs) > 1 or most_seeds > 1:
        axs[0][-1].legend(title=legend_title, fontsize="small", title_fontsize="small")
    if title:
        fig.suptitle(shown(title, 200))
    return save(fig, stem)


def samples_plot(path, stem, series=None, title=None, start=None, stop=None):
    """Each series of a --samples CSV against its `cycle` column, one panel per series."""
    rows = read_csv(path)
    if "cycle" not in rows[0]:
        raise PlotError(f"{shown(path)}: no column 'cycle' (not a --samples CSV)")
    names = series or [c for c in rows[0] if c != "cycle"]
    if not names:
        raise PlotError(f"{shown(path)}: no series besides 'cycle'")
    if len(names) > 16:
        raise PlotError(f"{shown(path)}: {len(names)} series, at most 16 panels (choose with --series)")
    for n in names:
        if n not in rows[0]:
            raise PlotError(f"{shown(path)}: no series '{shown(n)}' (series: "
                            f"{shown(', '.join(c for c in rows[0] if c != 'cycle'), 300)})")
    cycles = [finite(path, f"row {i + 2} cycle", r["cycle"]) for i, r in enumerate(rows)]
    keep = [i for i, c in enumerate(cycles) if (start is None or c >= start) and (stop is None or c < stop)]
    if not keep:
        raise PlotError(f"{shown(path)}: no samples in the window --from {start} --to {stop}")
    plt = _pyplot()
    fig, axs = plt.subplots(len(names), 1, squeeze=False, sharex=True, figsize=(7.2, 1.0 + 1.8 * len(names)))
    for ax, n in zip(axs[:, 0], names):
        xs, ys = [], []
        for i in keep:
            cell = rows[i][n]
            xs.append(cycles[i])
            # An empty cell is an interval without data (a ratio with no reads): a gap.
            ys.append(float("nan") if cell == "" else finite(path, f"row {i + 2} '{shown(n)}'", cell))
        ax.plot(xs, ys, linewidth=1.0)
        ax.set_ylabel(shown(n, 24), fontsize="small")
        ax.grid(True, alpha=0.3)
    axs[-1][0].set_xlabel("core cycle")
    if title:
        fig.suptitle(shown(title, 200))
    return save(fig, stem)


def sweep_axes(table):
    """The axis columns of the sweep whose results.csv is `table`: plan.json's "columns" beside
    it, else the columns between "status" and "cycles" of its header."""
    plan = os.path.join(os.path.dirname(os.path.abspath(table)), "plan.json")
    try:
        with open(plan, "rb") as f:
            cols = json.loads(f.read(MAX_FILE_BYTES).decode("utf-8"), parse_constant=_no_constant).get("columns")
        if isinstance(cols, list) and all(isinstance(c, str) for c in cols):
            return cols
    except (OSError, ValueError, AttributeError, RecursionError):
        pass
    header = list(read_csv(table)[0].keys())
    if "status" in header and "cycles" in header and header.index("status") < header.index("cycles"):
        return header[header.index("status") + 1:header.index("cycles")]
    return []


def _no_constant(name):
    raise ValueError(f"{name} is not a number JSON allows")


def load_timeline(path):
    """The complete ("X") events of a stacksim timeline, checked: each an object with a string
    name and cat, finite non-negative ts and dur below 2^53 cycles, integer pid and tid."""
    text = read_text(path)
    try:
        doc = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as e:
        raise PlotError(f"{shown(path)}: not JSON ({shown(e, 120)})")
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        raise PlotError(f"{shown(path)}: not a stacksim timeline (no traceEvents list)")
    spans = []
    for n, e in enumerate(doc["traceEvents"]):
        if not isinstance(e, dict):
            raise PlotError(f"{shown(path)}: traceEvents[{n}] is {kind(e)}, not an event object")
        if e.get("ph") != "X":
            continue
        for key in ("name", "cat"):
            if not isinstance(e.get(key, ""), str):
                raise PlotError(f"{shown(path)}: traceEvents[{n}].{key} is not a string")
        for key in ("pid", "tid"):
            if isinstance(e.get(key, 0), bool) or not isinstance(e.get(key, 0), int):
                raise PlotError(f"{shown(path)}: traceEvents[{n}].{key} is not an integer")
        ts = finite(path, f"traceEvents[{n}].ts", e.get("ts"))
        dur = finite(path, f"traceEvents[{n}].dur", e.get("dur"))
        if ts < 0 or dur < 0 or ts + dur > MAX_TIME:
            raise PlotError(f"{shown(path)}: traceEvents[{n}]: ts {ts:g} and dur {dur:g} must be 0..2^53 cycles")
        spans.append({"name": e.get("name", ""), "cat": e.get("cat", ""), "ts": ts, "dur": dur,
                      "pid": e.get("pid", 0), "tid": e.get("tid", 0)})
    return spans


def time_bins(path, spans, bin_cycles, start, stop):
    """(first cycle, bin width, number of bins) over [start, stop) (default: the run), at most MAX_BINS."""
    end = max((e["ts"] + e["dur"] for e in spans), default=0)
    lo = start or 0
    hi = stop if stop is not None else end
    if hi <= lo:
        raise PlotError(f"{shown(path)}: no events" if not spans or end <= 0 else
                        f"{shown(path)}: --from {lo:g} is not before --to {hi:g} (the run ends at {end:g})")
    width = bin_cycles or max(1, round((hi - lo) / 200))
    bins = int((hi - lo) // width) + 1
    if bins > MAX_BINS:
        raise PlotError(f"--bin {width}: {bins} bins over cycles {lo:g}..{hi:g}, at most {MAX_BINS}; "
                        f"give a larger --bin or a window (--from/--to)")
    return lo, width, bins


def timeline_plot(path, stem, series="ipc", bin_cycles=0, title=None, start=None, stop=None):
    if bin_cycles < 0:
        raise PlotError(f"--bin {bin_cycles}: expected a number of cycles >= 1")
    spans = load_timeline(path)
    if start is not None and stop is not None and stop <= start:
        raise PlotError(f"--from {start:g} is not before --to {stop:g}")
    if start is not None or stop is not None:
        lo_w, hi_w = start or 0, stop if stop is not None else MAX_TIME
        spans = [dict(e, ts=max(e["ts"], lo_w), dur=min(e["ts"] + e["dur"], hi_w) - max(e["ts"], lo_w))
                 for e in spans if e["ts"] < hi_w and e["ts"] + max(e["dur"], 1) > lo_w]
    kernels = [e for e in spans if e.get("cat") == "kernel"]
    first, width, bins = time_bins(path, spans, bin_cycles, start, stop)
    plt = _pyplot()
    starts = [first + i * width for i in range(bins)]
    fig, ax = plt.subplots(figsize=(7.2, 4.0))

    def occupancy(items):  # mean number of overlapping spans per bin
        acc = [0.0] * bins
        for e in items:
            a, b = e["ts"] - first, e["ts"] + e["dur"] - first
            i = max(0, int(a // width))
            while i < bins and i * width < b:
                acc[i] += min(b, (i + 1) * width) - max(a, i * width)
                i += 1
        return [v / width for v in acc]

    if series == "ipc":
        per_sm = {}
        for e in spans:
            i = int((e["ts"] - first) // width)
            if e.get("cat") == "issue" and 0 <= i < bins:
                per_sm.setdefault(e["pid"], [0] * bins)[i] += 1
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
        ax.stackplot(starts, [occupancy(reasons[n]) for n in names], labels=[shown(n) for n in names])
        ax.set_ylabel("warps stalled (mean per bin)")
    else:
        raise PlotError(f"unknown series '{series}' (ipc, ctas, stalls)")
    for k in kernels:
        ax.axvspan(k["ts"], k["ts"] + k["dur"], color="grey", alpha=0.08)
        ax.annotate(shown(k["name"]), (k["ts"], 1.0), xycoords=("data", "axes fraction"), fontsize="x-small",
                    va="top", rotation=90)
    ax.set_xlabel(f"core cycle (bins of {width})")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")
    if title:
        ax.set_title(title)
    return save(fig, stem)


class _Parser(argparse.ArgumentParser):
    """Usage errors as one line (the message), exit 2, like every other bad input."""

    def error(self, message):
        raise PlotError(shown(message, 300))


def _where(spec):
    key, eq, value = spec.partition("=")
    if not eq or not key:
        raise PlotError(f"--where {shown(spec)}: expected KEY=VALUE")
    return key, value


def _cycle(text):
    v = finite("--from/--to", "the cycle", text)
    if v < 0 or v > MAX_TIME:
        raise PlotError(f"--from/--to {shown(text)}: expected a cycle from 0 to 2^53")
    return v


def main(argv=None):
    prog = "plot.py"
    if argv is None:
        argv = sys.argv[1:]
    if len(argv) >= 2 and argv[0] == "--prog":
        prog, argv = argv[1], argv[2:]
    try:
        a, paths = _run(prog, argv)
    except PlotError as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 2
    except SystemExit as e:  # --help
        return e.code if isinstance(e.code, int) else 0
    except MemoryError:
        print(f"{prog}: error: out of memory (input too large)", file=sys.stderr)
        return 2
    if a is None:
        return 0
    print("wrote " + " and ".join(paths))
    return 0


@functools.lru_cache(maxsize=4)
def _parser(prog):
    ap = _Parser(prog=prog, description="Figures from stacksim outputs (PNG and SVG).")
    sub = ap.add_subparsers(dest="kind", required=True, parser_class=_Parser)
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
    bars.add_argument("--where", action="append", default=[], metavar="KEY=VALUE",
                      help="only rows whose KEY is VALUE (repeatable)")
    bars.add_argument("--facet", metavar="KEY", help="one panel per value of KEY")
    bars.add_argument("--aggregate", choices=["mean"],
                      help="average over sweep axes not named in --x/--group (otherwise an error)")
    bars.add_argument("--baseline")
    bars.add_argument("--speedup", action="store_true")
    bars.add_argument("--log", action="store_true", help="logarithmic y axis")
    tl = sub.add_parser("timeline", help="a time series from a --timeline JSON")
    tl.add_argument("timeline")
    tl.add_argument("--series", default="ipc", choices=["ipc", "ctas", "stalls"])
    tl.add_argument("--bin", type=int, default=0, help="cycles per bin (default: 1/200 of the run)")
    sm = sub.add_parser("samples", help="the series of a --samples CSV over time")
    sm.add_argument("samples")
    sm.add_argument("--series", default="", help="NAME[,NAME]: which columns (default: all)")
    for p in (tl, sm):
        p.add_argument("--from", dest="start", type=_cycle, help="first core cycle shown")
        p.add_argument("--to", dest="stop", type=_cycle, help="core cycle the figure ends")
    for p in (lat, bars, tl, sm):
        p.add_argument("--out", help="output STEM (writes STEM.png and STEM.svg)")
        p.add_argument("--title")
    return ap


def _run(prog, argv):
    a = _parser(prog).parse_args(argv)
    if a.kind == "latency":
        if a.ymax is not None and not (a.ymax == a.ymax and abs(a.ymax) != float("inf")):
            raise PlotError(f"--ymax {a.ymax}: expected a finite number")
        curves = []
        for spec in a.curves:
            path, _, label = spec.partition("=")
            label = label or os.path.basename(os.path.dirname(os.path.abspath(path)))
            curves.append((shown(label), read_csv(path), path))
        out = a.out or os.path.splitext(curves[0][2])[0] + "-latency"
        return a, latency_plot(curves, out, a.x, a.y, a.title, a.ymax)
    if a.kind == "bars":
        if a.speedup and a.baseline is None:
            raise PlotError("--speedup needs --baseline")
        groups = [g for g in a.group.split(",") if g]
        out = a.out or os.path.splitext(a.table)[0] + "-" + a.stat.replace("/", "_")
        rows = read_csv(a.table)
        return a, bar_plot(rows, out, a.stat, a.x, groups, a.baseline, a.speedup, a.table, a.title, logy=a.log,
                           axes=sweep_axes(a.table), where=[_where(w) for w in a.where], facet=a.facet,
                           aggregate=a.aggregate)
    if a.kind == "samples":
        series = [n for n in a.series.split(",") if n] or None
        out = a.out or os.path.splitext(a.samples)[0] + "-samples"
        return a, samples_plot(a.samples, out, series, a.title, a.start, a.stop)
    out = a.out or os.path.splitext(a.timeline)[0] + "-" + a.series
    return a, timeline_plot(a.timeline, out, a.series, a.bin, a.title, a.start, a.stop)


if __name__ == "__main__":
    sys.exit(main())
