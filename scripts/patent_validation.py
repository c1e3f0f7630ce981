#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Regenerates the "Patent scheduler" table of docs/validation.md: FCFS vs Chimera priority preemption vs patent 004.
"""Runs two multi-tenant mixes (library kernels of six tenants arriving over time, some with
priority 1) on the gtx980 preset under three kernel schedulers, with the same cap of two running
kernels and spatial SM sharing:

- FCFS: kernel_scheduler.policy = "fcfs", no preemption;
- Chimera: FCFS launches (priority first) and the preemption controller takes SMs for a
  higher-priority kernel with Chimera's per-CTA technique;
- patent: kernel_scheduler.policy = "patent" (pair ranking, gain vs cost), CTAs leave by
  Chimera's technique too, so only the scheduling decisions differ.

Each run also runs every tenant alone (run.alone_runs) and the table gives STP, ANTT, fairness
(min over tenants of alone/shared turnaround divided by the max) and the preemptions.

    scripts/patent_validation.py [--stacksim build/stacksim] [--jobs 2] [--update docs/validation.md]

With --update, the text between <!-- patent-validation:begin --> and <!-- patent-validation:end -->
in that file is replaced; otherwise the table goes to stdout."""
import argparse
import concurrent.futures

from preemption_validation import run  # gtx980, its base settings and verification checks

MIXES = [
    ("A: alternating arrivals", ["stream:524288", "blackscholes:131072@10us", "stream_read:524288@20us^1",
                                 "matmul:192@30us", "kmeans:16384@40us^1", "gemm:128@50us"]),
    ("B: a memory pair holds the GPU", ["stream:1048576", "stream_read:1048576@5us", "matmul:256@30us",
                                        "blackscholes:131072@60us", "gemm:128@90us", "kmeans:16384@120us^1"]),
]
BASE = ["run.alone_runs=true", "gpu.sm_sharing=spatial", "gpu.max_resident_kernels=2"]
SCHEDULERS = [
    ("FCFS (no preemption)", ["kernel_scheduler.policy=fcfs", "preemption.policy=none"]),
    ("priority preemption, Chimera", ["kernel_scheduler.policy=fcfs", "preemption.policy=chimera"]),
    ("patent scheduler", ["kernel_scheduler.policy=patent", "preemption.policy=chimera"]),
]


def row(name, summary, stats):
    apps = summary["applications"]
    progress = [1.0 / a["normalized_turnaround"] for a in apps]
    fairness = min(progress) / max(progress)
    value = lambda k: stats[k]["value"] if k in stats else 0
    preemptions = value("gpu.kernel_scheduler.preemptions")
    declined = value("gpu.kernel_scheduler.declined")
    requests = value("gpu.preemption.requests")
    ntt = " / ".join(f"{a['normalized_turnaround']:.2f}" for a in apps)
    return (f"| {name} | {summary['stp']:.3f} | {summary['antt']:.3f} | {fairness:.3f} | "
            f"{int(preemptions)} / {int(declined)} | {int(requests)} | {summary['cycles'] / 1216.0:.1f} | {ntt} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--stacksim", default="build/stacksim")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--update", metavar="FILE")
    args = ap.parse_args()
    jobs = [(mix, sets) for _, mix in MIXES for _, sets in SCHEDULERS]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda j: run(args.stacksim, j[0], BASE + j[1]), jobs))
    lines = ["gtx980, spatial sharing, at most 2 running kernels; tenants as `NAME:SIZE@ARRIVAL^PRIORITY`. "
             "Preemptions: kernels the patent scheduler preempted / better pairs it declined (gain <= cost); "
             "SM requests: the preemption controller's requests.", ""]
    for m, (title, mix) in enumerate(MIXES):
        lines += [f"Mix {title}: " + ", ".join(f"`{a}`" for a in mix) + ".", "",
                  "| scheduler | STP | ANTT | fairness | preemptions / declined | SM requests "
                  "| makespan us | normalised turnaround per tenant |",
                  "|---|---|---|---|---|---|---|---|"]
        for k, (name, _) in enumerate(SCHEDULERS):
            lines.append(row(name, *results[m * len(SCHEDULERS) + k]))
        lines.append("")
    text = "\n".join(lines)
    if not args.update:
        print(text, end="")
        return
    with open(args.update) as f:
        doc = f.read()
    begin, end = "<!-- patent-validation:begin -->\n", "<!-- patent-validation:end -->"
    i, j = doc.index(begin) + len(begin), doc.index(end)
    with open(args.update, "w") as f:
        f.write(doc[:i] + text + doc[j:])


if __name__ == "__main__":
    main()
