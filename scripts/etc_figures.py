#!/usr/bin/env python3
# ETC figures for docs/validation.md: per-app speedups over BL (from scripts/etc_validation.sh's
# CSV) and far faults per 50k cycles over time (the thesis's fig. 3.15 kind).
# Usage: scripts/etc_figures.py RESULTS.csv OUTDIR [STACKSIM]   (needs matplotlib)
import csv, os, subprocess, sys, tempfile
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

results, outdir = sys.argv[1], sys.argv[2]
binary = sys.argv[3] if len(sys.argv) > 3 else "build/stacksim"
rows = list(csv.DictReader(open(results)))
# A run that hit the watchdog (empty time) counts as the watchdog's limit: a lower bound.
limit = 98000.0
t = {(r["app"].split(":")[0], r["config"], r["fraction"]): float(r["sim_us"] or limit) for r in rows}
apps = list(dict.fromkeys(r["app"].split(":")[0] for r in rows))

fig, axes = plt.subplots(1, 2, figsize=(12, 3.8), sharey=True)
for ax, frac in zip(axes, ("0.75", "0.5")):
    configs = [("etc", "ETC (auto)"), ("static", "static half-SM"), ("ideal", "ideal")]
    for i, (cfg, label) in enumerate(configs):
        xs, ys = [], []
        for j, a in enumerate(apps):
            base = t.get((a, "bl", frac))
            v = t.get((a, cfg, "1.0" if cfg == "ideal" else frac))
            if base and v:
                xs.append(j + (i - 1) * 0.27)
                ys.append(base / v)
        ax.bar(xs, ys, width=0.27, label=label)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(apps)))
    ax.set_xticklabels(apps, rotation=45, ha="right")
    ax.set_yscale("log")
    ax.set_title(f"GPU memory = {float(frac):.0%} of the footprint")
axes[0].set_ylabel("speedup over BL (log)")
axes[0].legend(fontsize=8)
fig.tight_layout()
for ext in ("png", "svg"):
    fig.savefig(os.path.join(outdir, f"etc-speedup.{ext}"))

# Far faults per sample over time: ATAX at 50%, BL against ETC (dynamic throttling).
fig, ax = plt.subplots(figsize=(7, 3.2))
tmp = tempfile.mkdtemp()
base = ["run", "etc", "--workload", "atax:512", "--set", "uvm.mode=managed", "--set", "uvm.capacity_fraction=0.5",
        "--set", "uvm.eviction_granularity_bytes=262144", "--sample-stat", "gpu.gmmu.faults.far",
        "--sample-every", "50000", "--quiet", "--force"]
for label, extra in (("BL", []), ("ETC", ["--set", "uvm.etc.mode=auto"])):
    out = os.path.join(tmp, label)
    subprocess.run([binary] + base + extra + ["--samples", out + ".csv", "--out", out], check=True)
    s = list(csv.DictReader(open(out + ".csv")))
    cyc = [int(r["cycle"]) / 1e6 for r in s]
    f = [int(r["gpu.gmmu.faults.far"]) for r in s]
    ax.plot(cyc, [b - a for a, b in zip([0] + f[:-1], f)], label=label, linewidth=0.9)
ax.set_xlabel("Mcycles")
ax.set_ylabel("far faults per 50k cycles")
ax.set_title("ATAX at 50% of its footprint")
ax.legend()
fig.tight_layout()
for ext in ("png", "svg"):
    fig.savefig(os.path.join(outdir, f"etc-fault-rate.{ext}"))
