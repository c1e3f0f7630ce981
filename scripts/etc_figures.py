#!/usr/bin/env python3
# ETC figures for docs/validation.md from scripts/etc_validation.sh's CSV: per-app speedups over
# BL of ETC and of each technique alone (the thesis's figs. 3.10-3.14), ETC's speedup against a
# forced compression ratio (fig. 3.21), and far faults per 50k cycles over time for ATAX at 75%
# (fig. 3.15, two runs here; --no-runs skips them).
# Usage: /usr/bin/python3 scripts/etc_figures.py RESULTS.csv OUTDIR [STACKSIM [--no-runs]]   (needs matplotlib)
import csv, os, subprocess, sys, tempfile
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

results, outdir = sys.argv[1], sys.argv[2]
binary = sys.argv[3] if len(sys.argv) > 3 else "build/stacksim"
rows = list(csv.DictReader(open(results)))
# A run that hit the deadlock watchdog (no time) counts as the watchdog's 10^8 cycles: a bound.
limit = 1e8 / 1020.0
t = {(r["app"].split(":")[0], r["config"], r["fraction"]): float(r["sim_us"] or limit) for r in rows}
stopped = {(r["app"].split(":")[0], r["config"], r["fraction"]) for r in rows if not r["sim_us"]}
apps = list(dict.fromkeys(r["app"].split(":")[0] for r in rows))
order = ["2dconv", "3dconv", "sad", "corr", "covar", "fdtd2d", "lps", "lud", "srad", "cons", "scan",
         "atax", "bicg", "gesummv", "mvt"]
apps = [a for a in order if a in apps] + [a for a in apps if a not in order]


def save(fig, name):
    fig.tight_layout()
    for ext in ("png", "svg"):
        fig.savefig(os.path.join(outdir, f"{name}.{ext}"))


configs = [("etc", "ETC (auto)"), ("evict", "proactive eviction"), ("comp", "compression"),
           ("throttle", "dynamic throttling"), ("static", "static half-SM"), ("ideal", "ideal")]
fig, axes = plt.subplots(2, 1, figsize=(13, 7.5), sharex=True)
width = 0.8 / len(configs)
for ax, frac in zip(axes, ("0.75", "0.5")):
    for i, (cfg, label) in enumerate(configs):
        xs, ys, bound = [], [], []
        for j, a in enumerate(apps):
            kb, kv = (a, "bl", frac), (a, cfg, "1.0" if cfg == "ideal" else frac)
            if kb not in t or kv not in t or (kb in stopped and kv in stopped):
                continue  # not run, or both stopped by the watchdog: unknown
            xs.append(j + (i - (len(configs) - 1) / 2) * width)
            ys.append(t[kb] / t[kv])
            bound.append(kb in stopped or kv in stopped)
        bars = ax.bar(xs, ys, width=width, label=label, color=f"C{i}")
        for b, hatched in zip(bars, bound):
            if hatched:
                b.set_hatch("///")
                b.set_edgecolor("white")
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_yscale("log")
    ax.set_ylabel("speedup over BL (log)")
    ax.set_title(f"GPU memory = {float(frac):.0%} of the footprint "
                 "(hatched: bound, a run stopped by the watchdog at 100 Mcycles)")
axes[1].set_xticks(range(len(apps)))
axes[1].set_xticklabels(apps, rotation=45, ha="right")
axes[0].legend(fontsize=8, ncol=3)
save(fig, "etc-speedup")

# ETC at 50% with every page compressed N times, relative to ETC at 50% with measured ratios.
sweep = sorted({r["config"] for r in rows if r["config"].startswith("etc_r")}, key=lambda c: float(c[5:]))
if sweep:
    fig, ax = plt.subplots(figsize=(7, 3.6))
    for a in apps:
        base = t.get((a, "bl", "0.5"))
        pts = [(float(c[5:]), base / t[(a, c, "0.5")]) for c in sweep if (a, c, "0.5") in t and base]
        if pts:
            ax.plot([1.0] + [p[0] for p in pts], [base / t[(a, "bl", "0.5")]] + [p[1] for p in pts], marker="o",
                    label=a)
    ax.set_xlabel("forced compression ratio (1 = BL, no compression)")
    ax.set_ylabel("speedup over BL at 50%")
    ax.set_yscale("log")
    ax.legend(fontsize=7, ncol=2)
    save(fig, "etc-ratio")

# Far faults per 50k cycles over the first 10 M cycles: ATAX at 75%, ETC against static
# half-SM throttling. BL, compression alone and dynamic throttling alone thrash until the
# deadlock watchdog stops them, and a stopped run writes no samples.
if len(sys.argv) > 4 and sys.argv[4] == "--no-runs":
    sys.exit(0)
fig, ax = plt.subplots(figsize=(7, 3.2))
tmp = tempfile.mkdtemp()
base = ["run", "etc", "--workload", "atax:1448", "--set", "uvm.mode=managed", "--set", "uvm.capacity_fraction=0.75",
        "--sample-stat", "gpu.gmmu.faults.far", "--sample-every", "50000", "--quiet", "--force"]
runs = (("ETC (dynamic throttling + compression)", ["--set", "uvm.etc.mode=auto"]),
        ("static half-SM throttling", ["--set", "uvm.etc.mode=manual", "--set", "uvm.etc.throttling=static"]))
for i, (label, extra) in enumerate(runs):
    out = os.path.join(tmp, str(i))
    subprocess.run([binary] + base + extra + ["--samples", out + ".csv", "--out", out], check=True)
    s = [r for r in csv.DictReader(open(out + ".csv")) if int(r["cycle"]) <= 10_000_000]
    cyc = [int(r["cycle"]) / 1e6 for r in s]
    f = [int(r["gpu.gmmu.faults.far"]) for r in s]
    ax.plot(cyc, [b - a for a, b in zip([0] + f[:-1], f)], label=label, linewidth=0.9)
ax.set_xlabel("Mcycles")
ax.set_ylabel("far faults per 50k cycles")
ax.set_title("ATAX at 75% of its footprint (BL: no CTA finishes in 100 Mcycles)")
ax.legend(fontsize=8)
save(fig, "etc-fault-rate")
