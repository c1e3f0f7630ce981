#!/usr/bin/env python3
"""Measures and writes the tables of docs/gpu-interconnect.md's "Measured on gtx980": kernel
cycles of library workloads on gtx980 with the crossbar, the 4x4 mesh and the 2.5D (stacked)
network, and a few variations of the networks.

Runs `stacksim run gtx980 --workload W --set memory.interconnect=...` per cell (about a minute
on one core), records each run's kernel cycles, verification and host seconds (not shown: they follow the
machine's load) in
docs/data/gpu-interconnect.json, and writes the sections gpu-interconnect and
gpu-interconnect-variations between their markers in docs/gpu-interconnect.md.
Usage: scripts/gpu_interconnect_table.py [--jobs N] [--bin build/stacksim]   measure and write
       scripts/gpu_interconnect_table.py --check    render from docs/data, compare, run nothing
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from doc_section import ROOT, load_data, save_data, update_or_check  # noqa: E402

BIN = os.path.join(ROOT, "build", "stacksim")
DOC = os.path.join(ROOT, "docs", "gpu-interconnect.md")
# (workload spec, how the table names it)
WORKLOADS = [("vecadd:65536", "`vecadd:65536`"), ("matmul:128", "`matmul:128`"), ("reduction", "`reduction` (16384)"),
             ("atax", "`atax` (128)"), ("bfs", "`bfs` (4096)"), ("kmeans", "`kmeans` (2048)"),
             ("stencil2d", "`stencil2d` (128)"), ("stream_read", "`stream_read` (262144)"),
             ("random_traffic", "`random_traffic` (4096 KB)")]
NETWORKS = {"crossbar": [], "mesh": ["memory.interconnect=mesh"], "stacked": ["memory.interconnect=stacked"]}
VARIATIONS = {"mesh YX": ["memory.interconnect=mesh", "memory.noc.routing=yx"],
              "stacked YX-Z": ["memory.interconnect=stacked", "memory.noc.routing=yx"],
              "mesh, concentration 2": ["memory.interconnect=mesh", "memory.noc.concentration=2"],
              "stacked, 64-byte flits": ["memory.interconnect=stacked", "memory.noc.flit_bytes=64"]}
VARIED = {"atax": ["mesh YX", "stacked YX-Z"], "stream_read": list(VARIATIONS)}


def run(workload, sets):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        cmd = [BIN, "run", "gtx980", "--workload", workload, "--out", out]
        for s in sets:
            cmd += ["--set", s]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        with open(os.path.join(out, "summary.json")) as f:
            s = json.load(f)
    return {"kernel_cycles": s["kernel_cycles"], "host_seconds": round(s["host_seconds"], 1),
            "verified": bool(s["verification"]["passed"])}


def measure(jobs):
    todo = {(w, n): NETWORKS[n] for w, _ in WORKLOADS for n in NETWORKS}
    todo.update({(w, v): VARIATIONS[v] for w, vs in VARIED.items() for v in vs})
    with ThreadPoolExecutor(max_workers=jobs) as ex:
        futs = {k: ex.submit(run, k[0], sets) for k, sets in todo.items()}
        return {"runs": [dict(workload=k[0], network=k[1], **f.result()) for k, f in futs.items()]}


def render(d):
    r = {(x["workload"], x["network"]): x for x in d["runs"]}
    bad = [k for k, x in r.items() if not x["verified"]]
    if bad:
        sys.exit(f"gpu_interconnect_table.py: runs that did not verify: {bad}")

    def cell(w, n, base=None):
        x = r[(w, n)]
        s = f"{x['kernel_cycles']:,}"
        if base:
            s += f" ({x['kernel_cycles'] / base - 1:+.0%})".replace("%", " %")
        return s

    main = ["| workload | crossbar | mesh 4x4 | stacked 4x4 over 2x2 |", "|---|---|---|---|"]
    for w, name in WORKLOADS:
        base = r[(w, "crossbar")]["kernel_cycles"]
        main.append(f"| {name} | {cell(w, 'crossbar')} | {cell(w, 'mesh', base)} | {cell(w, 'stacked', base)} |")
    var = ["| workload | " + " | ".join(VARIATIONS) + " |", "|---|" + "---|" * len(VARIATIONS)]
    for w, vs in VARIED.items():
        var.append(f"| `{w}` | " + " | ".join(f"{r[(w, v)]['kernel_cycles']:,}" if v in vs else "" for v in VARIATIONS)
                   + " |")
    return "\n".join(main), "\n".join(var)


def main():
    global BIN
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--bin", default=BIN)
    ap.add_argument("--check", action="store_true", help="render from docs/data and compare; run nothing")
    args = ap.parse_args()
    BIN = args.bin
    if not args.check:
        save_data("gpu-interconnect", measure(args.jobs))
    main_table, variations = render(load_data("gpu-interconnect"))
    update_or_check(DOC, "gpu-interconnect", main_table, args.check)
    update_or_check(DOC, "gpu-interconnect-variations", variations, args.check)
    return 0


if __name__ == "__main__":
    sys.exit(main())
