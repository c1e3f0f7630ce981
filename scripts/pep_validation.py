#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Regenerates the "PEP" tables of docs/validation.md (thesis chapter 4's PEP measurements).
"""Runs the gtx980 preset (thesis table 4.2) with the thesis's method for PEP: per application,
the preempting kernel (vecadd, priority 1) is called at the victim's start plus 25/50/75 % of
its average CTA time, with a launch latency of 5/15/25/35 us (the request comes that much after
the call) and PEP's prediction 20 or 30 us after the call: 4 x 2 x 3 = 24 runs per application
and policy (chimera and chimera_dirty do not predict, so their 12 distinct runs are counted
twice). PEP takes its first checkpoints when the launch call's signal reaches the SMs
(preemption.first_checkpoint = launch, the default); the prediction decides per CTA whether it
checkpoints or drains. The applications are the thesis's long-CTA ones at sizes whose CTAs last
tens to hundreds of us (CP, GEMM; see APPS for LIB, KMEANS and BS). Renders markdown tables: average preemption latency per
application and policy, where the latency goes (pipeline drain, context write), the context bytes
dirty tracking saves, the throughput overhead relative to Chimera, and (when measured) latency
with 16 and 32 SMs; writes a CSV for `stacksim plot bars` and, with --plot STEM, the plot.

    scripts/pep_validation.py [--stacksim build/stacksim] [--jobs 2] [--apps GEMM,CP]
                              [--no-scaling] [--update docs/validation.md] [--plot docs/figures/pep-latency]
    scripts/pep_validation.py --scaling-only [--update docs/validation.md]   (adds the SM-count line)
    scripts/pep_validation.py --check      (runs nothing: scripts/doc_tables_check.py)

With --update the measurements are saved to docs/data/pep-validation.json and the section
pep-validation of the file is rendered from them; --check renders from that file and compares.
With --cache DIR every run's measurements are kept in DIR (keyed by the binary's modification
time and the run's settings), so an interrupted run resumes and subsets can be run apart."""
import argparse
import concurrent.futures
import csv
import hashlib
import json
import os
import statistics
import subprocess
import sys

from doc_section import ROOT, load_data, save_data, update_or_check
from preemption_validation import CLOCK_MHZ, run, sm_sum  # same preset, base settings and checks

NAME = "pep-validation"
# The thesis's switch applications whose library versions have long CTAs on gtx980 (CP 87 us,
# GEMM 137 us per CTA). KMEANS and BS cannot be sized so: their library kernels do a fixed
# amount of work per thread (kmeans: 5 centres x 8 features per point; blackscholes: one option
# pair per thread) and the grid grows with the input, so their CTAs last 12 and 5 us at any size.
# LIB (lib:4096, 333 us per CTA) never preempts: its 64 CTAs of 64 threads leave room for the
# preempting kernel's CTAs on every SM.
APPS = [("CP", "cp:256"), ("GEMM", "gemm:192")]
# The thesis's other applications at their library sizes (short CTAs: 2.5-12 us), for --apps.
OTHER_APPS = [("KMEANS", "kmeans:32768"), ("BS", "blackscholes:262144"), ("PF", "pathfinder:65536"),
              ("SRAD", "srad:256"), ("HOTSPOT", "hotspot:256"), ("BP", "backprop:16384"),
              ("STENCIL", "stencil2d:512"), ("LIB", "lib:4096")]
POLICIES = ["chimera", "chimera_dirty", "pep", "pep_inplace"]
LATENCIES = [5, 15, 25, 35]
PREDICTIONS = [20, 30]
FRACTIONS = [0.25, 0.50, 0.75]
PREEMPTER = "vecadd:200000"
THESIS = {"chimera": 8.9, "pep": 4.5, "pep_inplace": 3.6}


CACHE = None  # --cache DIR


def cached(stacksim, key, compute):
    """compute(), or its result kept in CACHE from an earlier run with the same binary."""
    if CACHE is None:
        return compute()
    name = hashlib.sha1(json.dumps([os.path.getmtime(stacksim)] + list(key)).encode()).hexdigest()
    path = os.path.join(CACHE, name + ".json")
    if os.path.exists(path):
        with open(path) as f:
            return json.load(f)
    result = compute()
    with open(path + ".tmp", "w") as f:
        json.dump(result, f)
    os.replace(path + ".tmp", path)
    return result


def value(stats, key):
    return stats[key]["value"] if key in stats else 0


def measure(stats):
    lat = stats["gpu.preemption.latency"]["value"]
    freed = max(1, value(stats, "gpu.preemption.sms_freed"))
    pep = {k.split(".")[-1]: v["value"] for k, v in stats.items() if k.startswith("gpu.preemption.pep.")}
    # Throughput overhead: cycles CTAs stood still for saves (first checkpoints included) and
    # restores, per freed SM.
    overhead = sm_sum(stats, "save_cycles") + sm_sum(stats, "restore_cycles") + pep.get("first_cycles", 0)
    return {"requests": lat["count"], "latency_us": lat["mean"] / CLOCK_MHZ,
            "overhead_us": overhead / CLOCK_MHZ / freed, "switched": value(stats, "gpu.preemption.ctas_switched"),
            "drained": value(stats, "gpu.preemption.ctas_drained"), "pep": pep,
            # Where a save's time goes (every context write: switches, first and second checkpoints).
            "context_writes": sm_sum(stats, "context_writes"),
            "pipeline_drain_cycles": sm_sum(stats, "pipeline_drain_cycles"),
            "context_write_cycles": sm_sum(stats, "context_write_cycles")}


def victim_profile(stacksim, workload, sets=()):
    return cached(stacksim, ["profile", workload] + list(sets), lambda: compute_profile(stacksim, workload, sets))


def compute_profile(stacksim, workload, sets):
    summary, _ = run(stacksim, [workload], list(sets))
    k = summary["kernels"][0]
    ctas = [x for x in summary["kernels"] if x["avg_cta_cycles"] > 0]
    return {"start_us": k["start_cycle"] / CLOCK_MHZ,
            "avg_cta_us": statistics.mean(x["avg_cta_cycles"] for x in ctas) / CLOCK_MHZ}


def preempted(stacksim, workload, call_us, latency_us, prediction_us, policy, extra=()):
    apps = [workload, f"{PREEMPTER}@{call_us:.3f}us^1"]
    sets = [f"app[1].launch_latency_us={latency_us}", f"preemption.policy={policy}",
            f"preemption.prediction_us={prediction_us}"] + list(extra)
    return cached(stacksim, ["preempted"] + apps + sets, lambda: measure(run(stacksim, apps, sets)[1]))


def mean(xs):
    return statistics.mean(xs) if xs else float("nan")


SCALE_APP = "gemm:512"  # 512 long CTAs: 4 waves on 16 SMs, 2 on 32
SCALE_LINE = "Latency with 16 and 32 SMs"


def scaling_jobs(stacksim, pool):
    """Latency against SM count. The request comes in the second wave (the victim's start plus
    1.25 of its CTA time at that SM count), so CTAs have finished and every policy's drain
    estimate is measured; in the first wave Chimera assumes a CTA is half way, which on a
    long-CTA kernel drains CTAs that have most of their work left."""
    jobs = {}
    for n in (16, 32):
        sets = [f"gpu.num_sms={n}"]
        p = victim_profile(stacksim, SCALE_APP, sets)
        call = p["start_us"] + 1.25 * p["avg_cta_us"]
        for pol in ("chimera", "pep"):
            jobs[f"{n}/{pol}"] = pool.submit(preempted, stacksim, SCALE_APP, call, 25, 20, pol, sets)
    return jobs


def scaling_line(s):
    return (f"{SCALE_LINE} ({SCALE_APP}, same memory, request in the second wave): " + ", ".join(
        f"{pol} {s[f'16/{pol}']['latency_us']:.1f} → {s[f'32/{pol}']['latency_us']:.1f} µs "
        f"({s[f'32/{pol}']['latency_us'] / s[f'16/{pol}']['latency_us']:.2f}×, "
        f"{s[f'16/{pol}']['switched']}/{s[f'16/{pol}']['drained']} → {s[f'32/{pol}']['switched']}/{s[f'32/{pol}']['drained']}"
        " CTAs switched/drained)" for pol in ("chimera", "pep")) + " (thesis: 2.58×).")


def run_key(app, pol, lat, frac, pred):
    # chimera and chimera_dirty ignore the prediction: one run serves both predictions.
    return f"{app}/{pol}/{lat}/{frac}/{pred if pol.startswith('pep') else 0}"


def render(data):
    """The section's text, from the recorded measurements alone."""
    apps, rs = data["apps"], data["runs"]

    def runs(app, pol):
        out = []
        for lat in LATENCIES:
            for frac in FRACTIONS:
                for pred in PREDICTIONS:
                    m = rs[run_key(app, pol, lat, frac, pred)]
                    if m["requests"] > 0:
                        out.append(m)
        return out

    out = ["Average preemption latency (µs) over the runs with a request (of 24), and the CTAs' "
           "cases under PEP (a / b / c / d / e, summed over the runs).", "",
           "| app | CTA µs | runs | Chimera | Chimera+dirty | PEP | PEP+in-place | PEP cases a/b/c/d/e |",
           "|---|---|---|---|---|---|---|---|"]
    all_runs = {p: [] for p in POLICIES}
    for name, w in apps:
        cells = []
        for pol in POLICIES:
            ms = runs(name, pol)
            all_runs[pol] += [(name, m) for m in ms]
            cells.append(f"{mean([m['latency_us'] for m in ms]):.1f}")
        cases = [sum(m["pep"].get(f"case_{c}", 0) for m in runs(name, "pep")) for c in "abcde"]
        out.append(f"| {name} ({w}) | {data['profiles'][name]['avg_cta_us']:.0f} | {len(runs(name, 'pep'))} | "
                   + " | ".join(cells) + " | " + "/".join(str(int(c)) for c in cases) + " |")
    means = {p: mean([m["latency_us"] for _, m in all_runs[p]]) for p in POLICIES}
    out.append("| **mean** | | | " + " | ".join(f"**{means[p]:.1f}**" for p in POLICIES) + " | |")
    out.append(f"| thesis | | | {THESIS['chimera']} | – | {THESIS['pep']} | {THESIS['pep_inplace']} | |")
    out.append("")
    # Latency change against Chimera per application and over all (each run weighted equally).
    def change(sel):
        base = mean([m["latency_us"] for n, m in all_runs["chimera"] if sel(n)])
        return {p: 100 * (mean([m["latency_us"] for n, m in all_runs[p] if sel(n)]) / base - 1) for p in POLICIES[1:]}
    out.append("| latency change against Chimera | Chimera+dirty | PEP | PEP+in-place |")
    out.append("|---|---|---|---|")
    for name, _ in apps:
        c = change(lambda n, name=name: n == name)
        out.append(f"| {name} | " + " | ".join(f"{c[p]:+.1f} %" for p in POLICIES[1:]) + " |")
    c = change(lambda n: True)
    out.append("| all runs | " + " | ".join(f"{c[p]:+.1f} %" for p in POLICIES[1:]) + " |")
    out.append("| thesis (switch-heavy applications) | −31.8 % | −58.5 % | −70.3 % |")
    out.append("")
    out.append("Where a save's time goes, per context write (switches and checkpoints, all runs): "
               "pipeline drain (stop order → last result back) / context write (→ last line acknowledged), µs: " +
               ", ".join(f"{p} " + (lambda w: f"{sum(m['pipeline_drain_cycles'] for _, m in all_runs[p]) / w / CLOCK_MHZ:.2f}"
                                    f" / {sum(m['context_write_cycles'] for _, m in all_runs[p]) / w / CLOCK_MHZ:.2f}"
                                    if w else "– / –")(sum(m["context_writes"] for _, m in all_runs[p]))
                          for p in POLICIES) + ".")
    out.append("")
    pep = [m["pep"] for _, m in all_runs["pep"]]
    full = sum(p.get("request_full_bytes", 0) for p in pep)
    dirty = sum(p.get("request_bytes", 0) for p in pep)
    cd = [m["pep"] for _, m in all_runs["chimera_dirty"]]
    cd_full, cd_dirty = sum(p.get("request_full_bytes", 0) for p in cd), sum(p.get("request_bytes", 0) for p in cd)
    inp = [m["pep"] for _, m in all_runs["pep_inplace"]]
    inp_saved = sum(p.get("inplace_bytes", 0) for p in inp)
    inp_total = sum(p.get("first_bytes", 0) + p.get("request_bytes", 0) for p in inp)
    pct = lambda a, b: 100 * a / b if b else float("nan")
    out.append("| context bytes | stacksim | thesis |")
    out.append("|---|---|---|")
    cd_saved = f"{100 - pct(cd_dirty, cd_full):.1f} %" if cd_full else "– (no CTA switched)"
    out.append(f"| saved by dirty tracking (Chimera+dirty, switched CTAs) | {cd_saved} | 34.4 % |")
    out.append(f"| saved by dirty tracking at the request (PEP) | {100 - pct(dirty, full):.1f} % | – |")
    out.append(f"| kept in place (PEP+in-place, of all checkpoint bytes) | {pct(inp_saved, inp_total):.1f} % | 16.2 % further |")
    out.append("")
    ovh = {p: mean([m["overhead_us"] for _, m in all_runs[p]]) for p in POLICIES}
    if ovh["chimera"] > 0:
        against = ", ".join(f"{p} {100 * (ovh[p] / ovh['chimera'] - 1):+.1f} %" for p in POLICIES[1:])
    else:  # Chimera drained every CTA: nothing to compare against, give the absolute figures
        against = "Chimera 0 (it drained every CTA); " + ", ".join(f"{p} {ovh[p]:.2f} µs" for p in POLICIES[1:])
    out.append("Throughput overhead (µs of CTA standstill per freed SM: saves, first checkpoints, restores) against "
               "Chimera: " + against + " (thesis: first checkpoint −37.9 %, PEP −6.3 %, PEP+in-place −16.4 %).")
    if data.get("scaling"):
        out.append("")
        out.append(scaling_line(data["scaling"]))
    return "\n".join(out)


def write_csv(data, stem):
    rows = []
    for name, _ in data["apps"]:
        for pol in POLICIES:
            ms = [m for k, m in data["runs"].items() if k.startswith(f"{name}/{pol}/") and m["requests"] > 0]
            # chimera runs stand for both predictions: count them twice, as render() does.
            lat = mean([m["latency_us"] for m in ms])
            rows.append({"app": name, "policy": pol, "latency_us": f"{lat:.3f}"})
    table = stem + ".csv"
    with open(table, "w", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=["app", "policy", "latency_us"])
        wr.writeheader()
        wr.writerows(rows)
    return table


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--stacksim", default="build/stacksim")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--apps", help="comma-separated applications instead of " + ",".join(a for a, _ in APPS)
                    + ": any of " + ",".join(a for a, _ in APPS + OTHER_APPS)
                    + " (without --update: the section is printed, not saved; with it, give --section)")
    ap.add_argument("--update", metavar="FILE", help="Markdown file whose pep-validation section is replaced "
                    "(the measurements are saved to docs/data/pep-validation.json)")
    ap.add_argument("--check", action="store_true",
                    help="run nothing: render from docs/data/pep-validation.json and compare with docs/validation.md")
    ap.add_argument("--plot", help="output STEM of the latency plot (stacksim plot bars)")
    ap.add_argument("--no-scaling", action="store_true", help="skip the 16/32-SM measurement (gemm:512, slow)")
    ap.add_argument("--scaling-only", action="store_true",
                    help="only (re)measure the 16/32-SM latency and add it to the recorded measurements")
    ap.add_argument("--cache", help="folder that keeps each run's measurements (resume, subsets)")
    ap.add_argument("--section", default=NAME,
                    help="the section (and docs/data/SECTION.json) to write or check; the short-CTA applications "
                         "have their own: --apps KMEANS,BS,PF,SRAD,HOTSPOT,BP,STENCIL --no-scaling --section "
                         "pep-short-cta")
    args = ap.parse_args()
    if args.check:
        update_or_check(os.path.join(ROOT, "docs", "validation.md"), args.section, render(load_data(args.section)), True)
        return
    if args.cache:
        global CACHE
        os.makedirs(args.cache, exist_ok=True)
        CACHE = args.cache
    pool = concurrent.futures.ThreadPoolExecutor(args.jobs)
    if args.scaling_only:
        data = load_data(args.section)
        data["scaling"] = {k: j.result() for k, j in scaling_jobs(args.stacksim, pool).items()}
    else:
        apps = [a for a in APPS + OTHER_APPS if a[0] in args.apps.split(",")] if args.apps else APPS
        profiles = dict(zip([n for n, _ in apps], pool.map(lambda a: victim_profile(args.stacksim, a[1]), apps)))
        jobs = {}
        for name, w in apps:
            p = profiles[name]
            for lat in LATENCIES:
                for frac in FRACTIONS:
                    call = p["start_us"] + frac * p["avg_cta_us"]
                    for pred in PREDICTIONS:
                        for pol in POLICIES:
                            key = run_key(name, pol, lat, frac, pred)
                            if key not in jobs:
                                jobs[key] = pool.submit(preempted, args.stacksim, w, call, lat, pred, pol)
        scale = {} if args.no_scaling else scaling_jobs(args.stacksim, pool)
        data = {"apps": [list(a) for a in apps], "profiles": profiles,
                "runs": {k: j.result() for k, j in jobs.items()},
                "scaling": {k: j.result() for k, j in scale.items()} or None}
    text = render(data)
    if args.plot:
        table = write_csv(data, args.plot)
        subprocess.run([args.stacksim, "plot", "bars", table, "--stat", "latency_us", "--x", "app", "--group", "policy",
                        "--out", args.plot, "--title", "PEP: preemption latency (us) per application"], check=True)
    if args.update:
        save_data(args.section, data)
        update_or_check(args.update, args.section, text, False)
    else:
        print(text)


if __name__ == "__main__":
    main()
