#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Regenerates the "Patent scheduler" table of docs/validation.md: FCFS vs Chimera priority preemption vs patent 004.
"""Runs three multi-tenant mixes (library kernels of three to six tenants arriving over time, some with
priority 1) on the gtx980 preset under four kernel schedulers, with the same cap of two running
kernels and spatial SM sharing:

- FCFS: kernel_scheduler.policy = "fcfs", no preemption;
- Chimera: FCFS launches (priority first) and the preemption controller takes SMs for a
  higher-priority kernel with Chimera's per-CTA technique (only for a kernel already running: at
  the cap a higher-priority kernel waits);
- priority kernel preemption: kernel_scheduler.policy = "priority", at the cap a pending kernel
  of higher priority takes the place of the running kernel of lowest priority (Chimera's CTAs);
- patent: kernel_scheduler.policy = "patent" (pair ranking, gain vs cost), CTAs leave by
  Chimera's technique too, so only the scheduling decisions differ.

Each run also runs every tenant alone (run.alone_runs) and the table gives STP, ANTT, fairness
(min over tenants of alone/shared turnaround divided by the max) and the preemptions.

    scripts/patent_validation.py [--stacksim build/stacksim] [--jobs 2] [--update docs/validation.md]
    scripts/patent_validation.py --check

With --update, the measurements are saved in docs/data/patent-validation.json and the text between
<!-- patent-validation:begin --> and <!-- patent-validation:end --> in that file is replaced;
otherwise the table goes to stdout. --check runs nothing (scripts/doc_tables_check.py)."""
import argparse
import concurrent.futures
import os

from doc_section import ROOT, load_data, save_data, update_or_check
from preemption_validation import run  # gtx980, its base settings and verification checks

NAME = "patent-validation"

MIXES = [
    ("A: alternating arrivals", ["stream:524288", "blackscholes:131072@10us", "stream_read:524288@20us^1",
                                 "matmul:192@30us", "kmeans:16384@40us^1", "gemm:128@50us"]),
    ("B: a memory pair holds the GPU", ["stream:1048576", "stream_read:1048576@5us", "matmul:256@30us",
                                        "blackscholes:131072@60us", "gemm:128@90us", "kmeans:16384@120us^1"]),
    # A priority-1 compute kernel arrives while a memory pair holds both places: priority kernel
    # preemption takes a stream kernel's place for it; the patent weighs the resident stream
    # CTAs' context against the time the pair still runs together.
    ("C: a priority kernel meets a memory pair", ["stream:524288", "stream_read:524288@5us", "matmul:192@30us^1"]),
]
BASE = ["run.alone_runs=true", "gpu.sm_sharing=spatial", "gpu.max_resident_kernels=2"]
SCHEDULERS = [
    ("FCFS (no preemption)", ["kernel_scheduler.policy=fcfs", "preemption.policy=none"]),
    ("priority preemption, Chimera", ["kernel_scheduler.policy=fcfs", "preemption.policy=chimera"]),
    # At the cap a higher-priority kernel takes a running kernel's place, whatever the gain: the
    # preemption the patent's gain/cost test weighs.
    ("priority kernel preemption", ["kernel_scheduler.policy=priority", "preemption.policy=chimera"]),
    ("patent scheduler", ["kernel_scheduler.policy=patent", "preemption.policy=chimera"]),
]


def measure(summary, stats):
    """What the table shows of one run."""
    apps = summary["applications"]
    progress = [1.0 / a["normalized_turnaround"] for a in apps]
    value = lambda k: stats[k]["value"] if k in stats else 0
    return {"stp": summary["stp"], "antt": summary["antt"], "fairness": min(progress) / max(progress),
            "preemptions": int(value("gpu.kernel_scheduler.preemptions")),
            "declined": int(value("gpu.kernel_scheduler.declined")),
            "gain_taken": value("gpu.kernel_scheduler.gain.taken"),
            "cost_taken": value("gpu.kernel_scheduler.cost.taken"),
            "gain_declined": value("gpu.kernel_scheduler.gain.declined"),
            "cost_declined": value("gpu.kernel_scheduler.cost.declined"),
            "requests": int(value("gpu.preemption.requests")),
            "makespan_us": summary["cycles"] / 1216.0,
            "ntt": [a["normalized_turnaround"] for a in apps]}


def row(name, m):
    ntt = " / ".join(f"{x:.2f}" for x in m["ntt"])
    decisions = f"{m['preemptions']} / {m['declined']}"
    if m["preemptions"] or m["declined"]:
        gc = []
        if m["gain_taken"] or m["cost_taken"]:  # the patent's estimates; priority preemption has none
            gc.append(f"taken {m['gain_taken'] / 1e3:.0f}k vs {m['cost_taken'] / 1e3:.0f}k")
        if m["declined"]:
            gc.append(f"declined {m['gain_declined'] / 1e3:.0f}k vs {m['cost_declined'] / 1e3:.0f}k")
        if gc:
            decisions += " (" + "; ".join(gc) + ")"
    return (f"| {name} | {m['stp']:.3f} | {m['antt']:.3f} | {m['fairness']:.3f} | "
            f"{decisions} | {m['requests']} | {m['makespan_us']:.1f} | {ntt} |")


def render(data):
    lines = ["gtx980, spatial sharing, at most 2 running kernels; tenants as `NAME:SIZE@ARRIVAL^PRIORITY`. "
             "Preemptions / declined: running kernels the kernel scheduler preempted (patent: for a better pair; "
             "priority: for a higher-priority kernel) / better pairs the patent declined (gain <= cost), with "
             "the patent's predicted gain vs cost summed over those decisions (alone-equivalent cycles); SM "
             "requests: the preemption controller's requests.", ""]
    for mix in data["mixes"]:
        lines += [f"Mix {mix['title']}: " + ", ".join(f"`{a}`" for a in mix["apps"]) + ".", "",
                  "| scheduler | STP | ANTT | fairness | preemptions / declined | SM requests "
                  "| makespan us | normalised turnaround per tenant |",
                  "|---|---|---|---|---|---|---|---|"]
        for name, m in zip([n for n, _ in SCHEDULERS], mix["rows"]):
            lines.append(row(name, m))
        lines.append("")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--stacksim", default="build/stacksim")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--update", metavar="FILE", help="Markdown file whose patent-validation section is replaced")
    ap.add_argument("--check", action="store_true",
                    help="run nothing: render from docs/data/patent-validation.json and compare with docs/validation.md")
    args = ap.parse_args()
    if args.check:
        update_or_check(os.path.join(ROOT, "docs", "validation.md"), NAME, render(load_data(NAME)), True)
        return
    jobs = [(mix, sets) for _, mix in MIXES for _, sets in SCHEDULERS]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda j: run(args.stacksim, j[0], BASE + j[1]), jobs))
    data = {"mixes": [{"title": title, "apps": mix,
                       "rows": [measure(*results[m * len(SCHEDULERS) + k]) for k in range(len(SCHEDULERS))]}
                      for m, (title, mix) in enumerate(MIXES)]}
    if not args.update:
        print(render(data))
        return
    save_data(NAME, data)
    update_or_check(args.update, NAME, render(data), False)


if __name__ == "__main__":
    main()
