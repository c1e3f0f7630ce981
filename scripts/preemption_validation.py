#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Regenerates the "Preemption" tables of docs/validation.md (thesis chapter 4's measurements).
"""Runs the gtx980 preset (thesis table 4.2) on the library kernels that match the thesis's
applications and prints markdown tables:

1. the analogue of the thesis's table 4.1: average CTA time, average switch (save) time, CTA
   context size and CTAs per SM, measured by stacksim, next to the thesis's figures;
2. the thesis's method: the preempting kernel (vecadd, priority 1, no launch latency of its own)
   arrives at 5/15/25/35 us after the victim's first kernel starts plus 25/50/75/50 % of the
   victim's average CTA time; average preemption latency and overhead per technique (switch,
   drain, flush, Chimera with 5/10/15 us targets);
3. switch latency with 16 and 32 SMs (thesis: 32 SMs = 2.58x 16 SMs).

    scripts/preemption_validation.py [--stacksim build/stacksim] [--jobs 2] [--update docs/validation.md]

With --update, the text between <!-- preemption-validation:begin --> and
<!-- preemption-validation:end --> in that file is replaced; otherwise the tables go to stdout."""
import argparse
import concurrent.futures
import json
import statistics
import subprocess
import sys
import tempfile

CLOCK_MHZ = 1216.0  # gtx980 core clock
# thesis app -> (library workload, thesis table 4.1: launch us, CTA us, switch us, context KB, CTAs/SM)
APPS = [
    ("GEMM", "gemm:192", (23.4, 193.6, 17.9, 28, 8)),
    ("KMEANS", "kmeans:32768", (29.7, 984.7, 9.0, 10, 8)),
    ("BS", "blackscholes:262144", (3.4, 387.5, 16.7, 12.5, 16)),
    ("PF", "pathfinder:65536", (11.3, 24.2, 11.6, 18, 8)),
    ("SRAD", "srad:256", (5.2, 1.8, 4.0, 12, 4)),  # thesis SRAD1
    ("HOTSPOT", "hotspot:256", (33.3, 4.5, 7.7, 38, 3)),
    ("LUD", "lud:256", (4.4, 5.3, 10.5, 16, 8)),
    ("BP", "backprop:16384", (16.7, 4.7, 2.0, 12, 1)),
    ("STENCIL", "stencil2d:512", (4.5, 41.3, 4.2, 12.5, 4)),
]
POLICIES = [("switch", []), ("drain", []), ("flush", []),
            ("Chimera 5 us", ["preemption.chimera.latency_target_us=5"]),
            ("Chimera 10 us", ["preemption.chimera.latency_target_us=10"]),
            ("Chimera 15 us", ["preemption.chimera.latency_target_us=15"])]
POINTS = [(5, 0.25), (15, 0.50), (25, 0.75), (35, 0.50)]  # (us after the victim starts, fraction of a CTA)
BASE = ["host.timed_copies=false", "run.alone_runs=false"]
PREEMPTER = "vecadd:200000"


def run(stacksim, apps, sets):
    with tempfile.TemporaryDirectory() as d:
        cmd = [stacksim, "run", "gtx980", "--quiet", "--out", d]
        for a in apps:
            cmd += ["--app", a]
        for s in BASE + sets:
            cmd += ["--set", s]
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            sys.exit(f"stacksim failed ({' '.join(cmd)}):\n{r.stdout}")
        with open(f"{d}/summary.json") as f:
            summary = json.load(f)
        with open(f"{d}/stats.json") as f:
            stats = json.load(f)
    for a in summary.get("applications", []):
        if not a["verification"]["passed"]:
            sys.exit(f"verification failed: {' '.join(apps)} {sets}")
    return summary, stats


def sm_sum(stats, name):
    return sum(v["value"] for k, v in stats.items() if k.startswith("gpu.sm") and k.endswith(".preemption." + name))


def measure(stats):
    lat = stats["gpu.preemption.latency"]["value"]
    freed = max(1, stats["gpu.preemption.sms_freed"]["value"])
    overhead = sm_sum(stats, "save_cycles") + sm_sum(stats, "restore_cycles") + sm_sum(stats, "flushed_cycles")
    return {"requests": lat["count"], "latency_us": lat["mean"] / CLOCK_MHZ,
            "overhead_us": overhead / CLOCK_MHZ / freed,
            "switched": sm_sum(stats, "ctas_switched"), "saved_bytes": sm_sum(stats, "context_bytes_saved"),
            "save_cycles": sm_sum(stats, "save_cycles"),
            "decided": stats["gpu.preemption.ctas_switched"]["value"] + stats["gpu.preemption.ctas_drained"]["value"]
            + stats["gpu.preemption.ctas_flushed"]["value"], "freed": stats["gpu.preemption.sms_freed"]["value"]}


def victim_profile(stacksim, workload):
    summary, _ = run(stacksim, [workload], [])
    k = summary["kernels"][0]
    ctas = [x for x in summary["kernels"] if x["avg_cta_cycles"] > 0]
    avg_cta = statistics.mean(x["avg_cta_cycles"] for x in ctas)
    return {"start_us": k["start_cycle"] / CLOCK_MHZ, "avg_cta_us": avg_cta / CLOCK_MHZ,
            "end_us": summary["simulated_seconds"] * 1e6}


def preempted_run(stacksim, workload, start_us, policy_sets, policy, extra=()):
    apps = [workload, f"{PREEMPTER}@{start_us:.3f}us^1"]
    _, stats = run(stacksim, apps, ["app[1].launch_latency_us=0", f"preemption.policy={policy}"] + list(policy_sets)
                   + list(extra))
    return measure(stats)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--stacksim", default="build/stacksim")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--update")
    args = ap.parse_args()
    pool = concurrent.futures.ThreadPoolExecutor(args.jobs)
    profiles = dict(zip([w for _, w, _ in APPS], pool.map(lambda a: victim_profile(args.stacksim, a[1]), APPS)))

    jobs = {}
    for name, w, _ in APPS:
        p = profiles[w]
        for i, (at, frac) in enumerate(POINTS):
            t = p["start_us"] + at + frac * p["avg_cta_us"]
            for label, sets in POLICIES:
                policy = "chimera" if label.startswith("Chimera") else label
                jobs[(w, label, i)] = pool.submit(preempted_run, args.stacksim, w, t, sets, policy)
    # gemm:256 has 256 CTAs: two waves on 16 SMs, one full wave on 32 (8 CTAs per SM).
    scale = {n: pool.submit(preempted_run, args.stacksim, "gemm:256", profiles["gemm:192"]["start_us"] + 15, [],
                            "switch", [f"gpu.num_sms={n}"]) for n in (16, 32)}

    out = []
    out.append("| app (workload) | CTA time µs | switch time µs | CTA context KB | CTAs/SM | thesis: launch µs, CTA µs, switch µs, context KB, CTAs/SM |")
    out.append("|---|---|---|---|---|---|")
    for name, w, thesis in APPS:
        # Over the switch runs of the four arrival points.
        ms = [jobs[(w, "switch", i)].result() for i in range(len(POINTS))]
        sw = sum(m["switched"] for m in ms)
        freed = sum(m["freed"] for m in ms)
        switch_us = sum(m["save_cycles"] for m in ms) / sw / CLOCK_MHZ if sw else float("nan")
        ctx_kb = sum(m["saved_bytes"] for m in ms) / sw / 1024 if sw else float("nan")
        per_sm = sum(m["decided"] for m in ms) / freed if freed else float("nan")
        out.append(f"| {name} ({w}) | {profiles[w]['avg_cta_us']:.1f} | {switch_us:.1f} | {ctx_kb:.1f} | {per_sm:.1f} | "
                   f"{thesis[0]}, {thesis[1]}, {thesis[2]}, {thesis[3]}, {thesis[4]} |")
    out.append("")
    out.append("Average preemption latency (µs) and overhead (µs of SM time per freed SM: save + restore + flushed "
               "work) over the requests of the four arrival points; `-`: no request (the victim had left the SMs).")
    out.append("")
    out.append("| app | " + " | ".join(label for label, _ in POLICIES) + " |")
    out.append("|---|" + "---|" * len(POLICIES))
    totals = {label: [] for label, _ in POLICIES}
    for name, w, _ in APPS:
        cells = []
        for label, _ in POLICIES:
            ms = [jobs[(w, label, i)].result() for i in range(len(POINTS))]
            ms = [m for m in ms if m["requests"] > 0]
            if not ms:
                cells.append("-")
                continue
            lat = statistics.mean(m["latency_us"] for m in ms)
            ovh = statistics.mean(m["overhead_us"] for m in ms)
            totals[label].append(lat)
            cells.append(f"{lat:.1f} / {ovh:.1f}")
        out.append(f"| {name} | " + " | ".join(cells) + " |")
    out.append("| **mean latency** | " + " | ".join(
        f"**{statistics.mean(totals[l]):.1f}**" if totals[l] else "-" for l, _ in POLICIES) + " |")
    out.append("")
    s16, s32 = scale[16].result(), scale[32].result()
    ratio = s32["latency_us"] / s16["latency_us"] if s16["latency_us"] else float("nan")
    out.append(f"Switch latency of GEMM (gemm:256) with 16 SMs: {s16['latency_us']:.1f} µs; with 32 SMs (same memory): "
               f"{s32['latency_us']:.1f} µs, {ratio:.2f}× (thesis: 2.58×).")
    text = "\n".join(out)
    if args.update:
        with open(args.update) as f:
            doc = f.read()
        b, e = "<!-- preemption-validation:begin -->", "<!-- preemption-validation:end -->"
        if b not in doc or e not in doc:
            sys.exit(f"{args.update}: markers {b} / {e} not found")
        doc = doc[:doc.index(b) + len(b)] + "\n" + text + "\n" + doc[doc.index(e):]
        with open(args.update + ".tmp", "w") as f:
            f.write(doc)
        import os
        os.replace(args.update + ".tmp", args.update)
    else:
        print(text)


if __name__ == "__main__":
    main()
