#!/usr/bin/env python3
# Markdown tables for docs/validation.md (section "ETC") from scripts/etc_validation.sh's CSV:
# per-app times, per-class geometric means of the speedups the thesis reports, and the
# sensitivity rows (fault latency, compression cost and forced ratio).
# Usage: scripts/etc_table.py [RESULTS.csv] [--update docs/validation.md | --check]
# The CSV (default docs/figures/etc-results.csv) is the recorded measurements. --update writes
# the sections etc-measured, etc-classes and etc-sensitivity of the doc; --check compares them
# with what the CSV gives, running nothing (scripts/doc_tables_check.py); else they are printed.
# A run stopped by the deadlock watchdog (10^8 cycles) is shown as "> 98039" (µs at 1020 MHz);
# a speedup over such a BL is a lower bound ("≥"), a speedup of such a run an upper bound ("≤").
import argparse
import csv
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from doc_section import ROOT, update_or_check  # noqa: E402

WATCHDOG_US = 1e8 / 1020.0
ORDER = ["2dconv", "3dconv", "sad", "corr", "covar", "fdtd2d", "lps", "lud", "srad", "cons", "scan",
         "atax", "bicg", "gesummv", "mvt"]
CLASS = {a: "n" for a in ORDER[:7]} | {a: "s" for a in ORDER[7:11]} | {a: "i" for a in ORDER[11:]}
CLASS_NAME = {"n": "regular, no sharing", "s": "regular, sharing", "i": "irregular",
              # the regular apps without sharing that the classifier finds regular (CORR and COVAR
              # were found irregular, and at 0.56 MB their BL never finishes)
              "n*": "regular, no sharing, found regular"}
FOUND = {"0.0": "undecided", "1.0": "regular", "2.0": "regular, sharing", "3.0": "irregular"}


class Results:
    def __init__(self, rows):
        self.res = {}  # (app, config, fraction) -> (µs, bounded, row)
        self.sizes = {}
        for r in rows:
            app = r["app"].split(":")[0]
            self.sizes[app] = r["app"]
            if r["sim_us"]:
                if r["verified"] != "True":
                    sys.exit(f"etc_table.py: a finished run did not verify: {r}")
                self.res[(app, r["config"], r["fraction"])] = (float(r["sim_us"]), False, r)
            else:
                self.res[(app, r["config"], r["fraction"])] = (WATCHDOG_US, True, r)
        self.apps = [a for a in ORDER if a in self.sizes]

    def cell(self, app, cfg, frac):
        if (app, cfg, frac) not in self.res:
            return "–"
        us, bounded, _ = self.res[(app, cfg, frac)]
        return f"> {us:.0f}" if bounded else f"{us:.0f}"

    def speedup(self, num, den):
        """time(num) / time(den) and its kind: 0 exact, +1 lower bound, -1 upper bound."""
        if num not in self.res or den not in self.res:
            return None
        (a, ab, _), (b, bb, _) = self.res[num], self.res[den]
        if ab and bb:
            return None  # both stopped by the watchdog: unknown
        return a / b, (1 if ab else 0) - (1 if bb else 0)


def gmean(vals):
    vals = [v for v in vals if v]
    if not vals:
        return "–"
    g = math.exp(sum(math.log(v[0]) for v in vals) / len(vals))
    kinds = {v[1] for v in vals}
    mark = ("≥ " if kinds == {0, 1} or kinds == {1} else "≤ " if kinds == {0, -1} or kinds == {-1}
            else "≈ " if len(kinds) > 1 else "")
    return f"{mark}{g:.2f}× ({len(vals)})"


def measured(r):
    out = ["| app | size | class found | ideal | BL 75% | ETC 75% | evict 75% | comp 75% | throttle 75% "
           "| static 75% | BL 50% | ETC 50% | evict 50% | comp 50% | throttle 50% | static 50% |",
           "|" + "---|" * 16]
    for a in r.apps:
        found = FOUND.get(r.res.get((a, "ideal", "1.0"), (0, 0, {"class": ""}))[2]["class"], "?")
        cols = [r.cell(a, "ideal", "1.0")]
        for f in ("0.75", "0.5"):
            cols += [r.cell(a, c, f) for c in ("bl", "etc", "evict", "comp", "throttle", "static")]
        out.append(f"| {a} | {r.sizes[a].split(':')[1]} | {found} | " + " | ".join(cols) + " |")
    return out


def classes(r):
    out = ["| class | memory | BL / ideal time | ETC over BL | evict over BL | comp over BL | throttle over BL "
           "| static over BL | ETC / ideal time |",
           "|---|---|---|---|---|---|---|---|---|"]
    for c in ("n", "n*", "s", "i"):
        ca = ([a for a in r.apps if CLASS[a] == c] if c != "n*"
              else [a for a in r.apps if CLASS[a] == "n" and a not in ("corr", "covar")])
        for f in ("0.75", "0.5"):
            line = [gmean([r.speedup((a, "bl", f), (a, "ideal", "1.0")) for a in ca])]
            for cfg in ("etc", "evict", "comp", "throttle", "static"):
                line.append(gmean([r.speedup((a, "bl", f), (a, cfg, f)) for a in ca]))
            line.append(gmean([r.speedup((a, "etc", f), (a, "ideal", "1.0")) for a in ca]))
            out.append(f"| {CLASS_NAME[c]} | {float(f):.0%} | " + " | ".join(line) + " |")
    return out


def sensitivity(r):
    lat_all = [r.speedup((a, "etc_50us", "0.75"), (a, "etc", "0.75")) for a in r.apps]
    cost_all = [r.speedup((a, "comp_cost", "1.0"), (a, "ideal", "1.0")) for a in r.apps]
    out = [f"ETC 75%, 50 µs / 20 µs faults, time: {gmean(lat_all)} over all apps; "
           f"{gmean([x for a, x in zip(r.apps, lat_all) if CLASS[a] != 'i'])} regular; "
           f"{gmean([x for a, x in zip(r.apps, lat_all) if CLASS[a] == 'i'])} irregular. "
           f"Compression at 100% / ideal, time: {gmean(cost_all)}.", "",
           "| app | ETC 75%, 50 µs / 20 µs faults | comp at 100% / ideal | measured ratio at 100% "
           "| ETC 50%, forced ratio 1.5 / 2 / 3 over the same without compression |",
           "|---|---|---|---|---|"]
    fmt = lambda s: "–" if not s else ("≥ " if s[1] > 0 else "≤ " if s[1] < 0 else "") + f"{s[0]:.3f}"
    for a in r.apps:
        lat = r.speedup((a, "etc_50us", "0.75"), (a, "etc", "0.75"))
        cost = r.speedup((a, "comp_cost", "1.0"), (a, "ideal", "1.0"))
        ratio = r.res.get((a, "comp_cost", "1.0"), (0, 0, {"compression_ratio": ""}))[2]["compression_ratio"]
        base = {"s": "evict", "i": "throttle"}.get(CLASS[a])
        sweep = []
        for x in ("1.5", "2", "3"):
            s = r.speedup((a, base, "0.5"), (a, f"etc_r{x}", "0.5")) if base else None
            sweep.append("–" if not s else ("≥ " if s[1] > 0 else "≤ " if s[1] < 0 else "") + f"{s[0]:.2f}×")
        ratio_text = f"{float(ratio):.2f}" if ratio else "–"
        out.append(f"| {a} | {fmt(lat)} | {fmt(cost)} | {ratio_text} | " + " / ".join(sweep) + " |")
    return out


def render(rows):
    """The three sections, by name, from the CSV rows alone."""
    r = Results(rows)
    return {"etc-measured": "\n".join(measured(r)), "etc-classes": "\n".join(classes(r)),
            "etc-sensitivity": "\n".join(sensitivity(r))}


def main():
    ap = argparse.ArgumentParser(description="ETC validation tables from etc_validation.sh's CSV")
    ap.add_argument("csv", nargs="?", default=os.path.join(ROOT, "docs", "figures", "etc-results.csv"))
    ap.add_argument("--update", metavar="FILE", help="Markdown file whose etc-* sections are replaced")
    ap.add_argument("--check", action="store_true", help="compare docs/validation.md with what the CSV gives")
    args = ap.parse_args()
    try:
        with open(args.csv) as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        sys.exit(f"{args.csv}: {e.strerror}")
    sections = render(rows)
    if not args.update and not args.check:
        print("\n\n".join(sections.values()))
        return
    doc = args.update or os.path.join(ROOT, "docs", "validation.md")
    for name, text in sections.items():
        update_or_check(doc, name, text, args.check)


if __name__ == "__main__":
    main()
