#!/usr/bin/env python3
"""ETC at the thesis's upper footprints (issue 29): nine of its apps at 16-21 MB, where
the main ETC table (scripts/etc_validation.sh) runs 7-12.5 MB, with the same settings (etc preset,
2 MB eviction groups and proactive threshold, the thesis's class annotation for sharing,
PolyBench/GPU's inputs for the Polybench apps): ideal, BL and ETC at 75 % and 50 %.

With --update FILE the measurements are saved in docs/data/etc-large.json and the section
etc-large of FILE is replaced; --check renders from that file and runs nothing
(scripts/doc_tables_check.py).
Usage: scripts/etc_large.py [--bin build/stacksim] [--jobs 2] [--update docs/validation.md | --check]
"""
import concurrent.futures
import json
import subprocess
import tempfile

from doc_section import section_main

NAME = "etc-large"
# (workload, class annotation: n / s / i, Polybench inputs, the main table's size)
APPS = [("2dconv:1664", "n", False, "2dconv:1280"), ("3dconv:136", "n", True, "3dconv:112"),
        ("cons:1280", "s", False, "cons:832"), ("srad:864", "s", False, "srad:608"),
        ("scan:2097152", "s", False, "scan:1048576"), ("atax:2048", "i", True, "atax:1448"),
        ("bicg:2048", "i", True, "bicg:1448"), ("gesummv:1448", "i", True, "gesummv:1024"),
        ("mvt:2048", "i", True, "mvt:1448")]
CONFIGS = [("ideal", 1.0, "manual"), ("bl", 0.75, "manual"), ("etc", 0.75, "auto"), ("bl", 0.5, "manual"),
           ("etc", 0.5, "auto")]


def run(binary, workload, cls, polybench, fraction, mode):
    name = workload.split(":")[0]
    sets = ["uvm.mode=managed", f"uvm.capacity_fraction={fraction}", f"uvm.etc.mode={mode}"]
    if cls in "ns":
        sets.append(f"uvm.etc.sharing={'yes' if cls == 's' else 'no'}")
    if polybench:
        sets.append(f"{name}.inputs=polybench")
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [binary, "run", "etc", "--workload", workload, "--quiet", "--out", tmp + "/r"]
        for s in sets:
            cmd += ["--set", s]
        subprocess.run(cmd, check=True)
        summary = json.load(open(tmp + "/r/summary.json"))
        stats = json.load(open(tmp + "/r/stats.json"))
    if not summary["verification"]["passed"]:
        raise SystemExit(f"{workload} {sets}: verification failed")
    return {"us": summary["simulated_seconds"] * 1e6, "class": stats["gpu.etc.class"]["value"]}


def measure(binary, jobs):
    pool = concurrent.futures.ThreadPoolExecutor(jobs)
    futures = {(w, c, f): pool.submit(run, binary, w, cls, pb, f, mode)
               for w, cls, pb, _ in APPS for c, f, mode in CONFIGS}
    return {"runs": {f"{w}|{c}|{f}": fut.result() for (w, c, f), fut in futures.items()}}


def render(data):
    r = data["runs"]
    lines = ["Written by `scripts/etc_large.py --update docs/validation.md`: simulated µs (kernels and copies); "
             "speedups are BL's time over ETC's.", "",
             "| app (class) | ideal µs | BL 75% | ETC 75% | ETC over BL 75% | BL 50% | ETC 50% | ETC over BL 50% |",
             "|---|---|---|---|---|---|---|---|"]
    for w, cls, _, _ in APPS:
        get = lambda c, f: r[f"{w}|{c}|{f}"]["us"]
        lines.append(f"| {w} ({cls}) | {get('ideal', 1.0):.0f} | {get('bl', 0.75):.0f} | {get('etc', 0.75):.0f} | "
                     f"{get('bl', 0.75) / get('etc', 0.75):.2f}× | {get('bl', 0.5):.0f} | {get('etc', 0.5):.0f} | "
                     f"{get('bl', 0.5) / get('etc', 0.5):.2f}× |")
    return "\n".join(lines)


def main():
    section_main(NAME, render, __doc__.splitlines()[0],
                 lambda ap: ap.add_argument("--jobs", type=int, default=2), lambda args: measure(args.bin, args.jobs))


if __name__ == "__main__":
    main()
