#!/usr/bin/env python3
# Markdown tables for docs/validation.md (section "ETC") from scripts/etc_validation.sh's CSV:
# per-app times, per-class geometric means of the speedups the thesis reports, and the
# sensitivity rows (fault latency, compression cost and forced ratio).
# Usage: scripts/etc_table.py RESULTS.csv
# A run stopped by the deadlock watchdog (10^8 cycles) is shown as "> 98039" (µs at 1020 MHz);
# a speedup over such a BL is a lower bound ("≥"), a speedup of such a run an upper bound ("≤").
import csv, math, sys

WATCHDOG_US = 1e8 / 1020.0
rows = list(csv.DictReader(open(sys.argv[1])))
ORDER = ["2dconv", "3dconv", "sad", "corr", "covar", "fdtd2d", "lps", "lud", "srad", "cons", "scan",
         "atax", "bicg", "gesummv", "mvt"]
CLASS = {a: "n" for a in ORDER[:7]} | {a: "s" for a in ORDER[7:11]} | {a: "i" for a in ORDER[11:]}
CLASS_NAME = {"n": "regular, no sharing", "s": "regular, sharing", "i": "irregular"}
FOUND = {"0.0": "undecided", "1.0": "regular", "2.0": "regular, sharing", "3.0": "irregular"}

res = {}  # (app, config, fraction) -> (µs, bounded, row)
sizes = {}
for r in rows:
    app = r["app"].split(":")[0]
    sizes[app] = r["app"]
    if r["sim_us"]:
        assert r["verified"] == "True", r
        res[(app, r["config"], r["fraction"])] = (float(r["sim_us"]), False, r)
    else:
        res[(app, r["config"], r["fraction"])] = (WATCHDOG_US, True, r)
apps = [a for a in ORDER if a in sizes]


def cell(app, cfg, frac):
    if (app, cfg, frac) not in res:
        return "–"
    us, bounded, _ = res[(app, cfg, frac)]
    return f"> {us:.0f}" if bounded else f"{us:.0f}"


def speedup(app, num, den):
    """time(num) / time(den) and its kind: 0 exact, +1 lower bound, -1 upper bound."""
    if num not in res or den not in res:
        return None
    (a, ab, _), (b, bb, _) = res[num], res[den]
    if ab and bb:
        return None  # both stopped by the watchdog: unknown
    return a / b, (1 if ab else 0) - (1 if bb else 0)


def gmean(vals):
    vals = [v for v in vals if v]
    if not vals:
        return "–"
    g = math.exp(sum(math.log(v[0]) for v in vals) / len(vals))
    kinds = {v[1] for v in vals}
    mark = "≥ " if kinds == {0, 1} or kinds == {1} else "≤ " if kinds == {0, -1} or kinds == {-1} else "≈ " if len(kinds) > 1 else ""
    return f"{mark}{g:.2f}× ({len(vals)})"


print("| app | size | class found | ideal | BL 75% | ETC 75% | evict 75% | comp 75% | throttle 75% | static 75% "
      "| BL 50% | ETC 50% | evict 50% | comp 50% | throttle 50% | static 50% |")
print("|" + "---|" * 16)
for a in apps:
    found = FOUND.get(res.get((a, "ideal", "1.0"), (0, 0, {"class": ""}))[2]["class"], "?")
    cols = [cell(a, "ideal", "1.0")]
    for f in ("0.75", "0.5"):
        cols += [cell(a, c, f) for c in ("bl", "etc", "evict", "comp", "throttle", "static")]
    print(f"| {a} | {sizes[a].split(':')[1]} | {found} | " + " | ".join(cols) + " |")

print()
print("Geometric means over each class's apps (number of apps with a known value in brackets):")
print()
print("| class | memory | BL / ideal time | ETC over BL | evict over BL | comp over BL | throttle over BL "
      "| static over BL | ETC / ideal time |")
print("|---|---|---|---|---|---|---|---|---|")
# "n*": the regular apps without sharing that the classifier finds regular (CORR and COVAR are
# found irregular, and at 0.56 MB their BL never finishes).
CLASS_NAME["n*"] = "regular, no sharing, found regular"
for c in ("n", "n*", "s", "i"):
    ca = [a for a in apps if CLASS[a] == c] if c != "n*" else [a for a in apps if CLASS[a] == "n" and a not in ("corr", "covar")]
    for f in ("0.75", "0.5"):
        line = [gmean([speedup(a, (a, "bl", f), (a, "ideal", "1.0")) for a in ca])]
        for cfg in ("etc", "evict", "comp", "throttle", "static"):
            line.append(gmean([speedup(a, (a, "bl", f), (a, cfg, f)) for a in ca]))
        line.append(gmean([speedup(a, (a, "etc", f), (a, "ideal", "1.0")) for a in ca]))
        print(f"| {CLASS_NAME[c]} | {float(f):.0%} | " + " | ".join(line) + " |")

print()
lat_all = [speedup(a, (a, "etc_50us", "0.75"), (a, "etc", "0.75")) for a in apps]
cost_all = [speedup(a, (a, "comp_cost", "1.0"), (a, "ideal", "1.0")) for a in apps]
print()
print(f"ETC 75%, 50 µs / 20 µs faults, time: {gmean(lat_all)} over all apps; "
      f"{gmean([l for a, l in zip(apps, lat_all) if CLASS[a] != 'i'])} regular; "
      f"{gmean([l for a, l in zip(apps, lat_all) if CLASS[a] == 'i'])} irregular. "
      f"Compression at 100% / ideal, time: {gmean(cost_all)}.")
print()
print("| app | ETC 75%, 50 µs / 20 µs faults | comp at 100% / ideal | measured ratio at 100% "
      "| ETC 50%, forced ratio 1.5 / 2 / 3 over the same without compression |")
print("|---|---|---|---|---|")
for a in apps:
    lat = speedup(a, (a, "etc_50us", "0.75"), (a, "etc", "0.75"))
    cost = speedup(a, (a, "comp_cost", "1.0"), (a, "ideal", "1.0"))
    ratio = res.get((a, "comp_cost", "1.0"), (0, 0, {"compression_ratio": ""}))[2]["compression_ratio"]
    base = {"s": "evict", "i": "throttle"}.get(CLASS[a])
    sweep = []
    for r in ("1.5", "2", "3"):
        s = speedup(a, (a, base, "0.5"), (a, f"etc_r{r}", "0.5")) if base else None
        sweep.append("–" if not s else ("≥ " if s[1] > 0 else "≤ " if s[1] < 0 else "") + f"{s[0]:.2f}×")
    fmt = lambda s: "–" if not s else ("≥ " if s[1] > 0 else "≤ " if s[1] < 0 else "") + f"{s[0]:.3f}"
    print(f"| {a} | {fmt(lat)} | {fmt(cost)} | {float(ratio):.2f} | " + " / ".join(sweep) + " |"
          if ratio else f"| {a} | {fmt(lat)} | {fmt(cost)} | – | " + " / ".join(sweep) + " |")
