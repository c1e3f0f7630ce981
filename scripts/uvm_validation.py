#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Regenerates the "Partial-page migration" tables of docs/validation.md (paper 002's experiments).
"""Runs stacksim's GTX480-like preset with 2 MB pages on paper 002's benchmarks (the ISPASS-2009
GPGPU-Sim kernels at that suite's input sizes) and on dense and sparse library kernels, and
prints markdown tables: whole-page / single-range / multi-range migration, programmer-controlled
copy (uvm.mode=device) and ideal overlap (uvm.mode=ideal) at PCIe 16 and 32 GB/s; multi range
with each choice of the range cost model that favours it switched off; a migration unit sweep;
L1 TLB miss rates and walks with 4 KB vs 2 MB pages; a fault-latency sweep; and an
oversubscription table (75 % and 50 % of the footprint). Deterministic: every run is seeded.

    scripts/uvm_validation.py [--stacksim build/stacksim] [--jobs 2] [--update docs/validation.md]
                              [--figures docs/figures]

With --update, the text between the markers <!-- uvm-validation:begin --> and
<!-- uvm-validation:end --> in that file is replaced; otherwise the tables go to stdout. With
--figures, the first table is also drawn (per bandwidth) as grouped bars (scripts/plot.py)."""
import argparse
import concurrent.futures
import json
import os
import statistics
import subprocess
import sys
import tempfile

# Paper 002's benchmarks that the library has (WP does not fit the PTX subset), at the input
# sizes of the ISPASS-2009 suite the paper draws them from.
PAPER = ["cp:256", "nn:28", "lib:4096", "mum:50000", "lps:100", "bfs:65536"]
# Other library kernels at sizes of a few MB.
DENSE = ["vecadd:262144", "stream:65536", "hotspot:128", "pathfinder:20000", "backprop:4096", "lps:100"]
SPARSE = ["bfs:16000", "atax:512", "kmeans:8192", "bfs:65536", "mum:50000"]
COMPUTE = ["gemm:160", "cp:256", "nn:28", "lib:4096"]
LIBRARY = ["vecadd:262144", "stream:65536", "hotspot:128", "pathfinder:20000", "backprop:4096", "bfs:16000",
           "atax:512", "kmeans:8192", "gemm:160"]
OVERSUB = ["stream:65536", "hotspot:128", "atax:512", "bfs:16000"]
KERNELS = PAPER + LIBRARY
SETS = [("paper 002's kernels", PAPER), ("other library kernels", LIBRARY)]
# Multi range with one choice of the range cost model that favours it switched off
# (docs/unified-memory.md, "What a range migration costs").
COSTS = [("no pipelining", ["uvm.range_pipelined=false"]), ("driver setup", ["uvm.range_copy_setup_ns=-1"]),
         ("via the host", ["uvm.range_service=host"])]


def cls(k):
    return "dense" if k in DENSE else "sparse" if k in SPARSE else "compute"


PAGE_2M = ["uvm.page_bytes=2097152"]


def run(stacksim, workload, sets):
    with tempfile.TemporaryDirectory() as d:
        # The paper's simulator (GPGPU-Sim) has no kernel launch latency: none here either.
        cmd = [stacksim, "run", "gtx480", "--workload", workload, "--quiet", "--out", d,
               "--set", "host.launch_latency_us=0"]
        for s in sets:
            cmd += ["--set", s]
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            sys.exit(f"failed ({r.returncode}): {' '.join(cmd)}\n{r.stdout}")
        summary = json.load(open(os.path.join(d, "summary.json")))
        stats = {k: v["value"] for k, v in json.load(open(os.path.join(d, "stats.json"))).items()}
        if not summary["verification"]["passed"]:
            sys.exit(f"verification failed: {' '.join(cmd)}")
        # The paper's measure: data transfer plus execution up to the end of the last kernel
        # (reading results back afterwards is not part of it); gtx480 core clock 1400 MHz.
        end_cycle = max(k["start_cycle"] + k["cycles"] for k in summary["kernels"])
        return {"us": end_cycle * round(1e6 / 1400.0) * 1e-6, "e2e_us": summary["simulated_seconds"] * 1e6,
                "stats": stats}


def pcie(gbps):
    return [f"pcie.h2d_gbps={gbps}", f"pcie.d2h_gbps={gbps}"]


def mode(name):
    if name in ("device", "ideal"):
        return [f"uvm.mode={name}"]
    return ["uvm.mode=managed", f"uvm.mechanism={name}"]


# Relative host time of a run (for the job order only).
SLOW = {"nn:28": 20, "mum:50000": 16, "cp:256": 5, "lib:4096": 5, "lps:100": 4, "bfs:65536": 4}
MODES = ["device", "ideal", "whole_page", "single_range", "multi_range"]
LABEL = {"device": "programmer copy", "ideal": "ideal overlap", "whole_page": "whole page",
         "single_range": "single range", "multi_range": "multi range"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--stacksim", default="build/stacksim")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--update")
    ap.add_argument("--figures", help="also write the figures (PNG and SVG) to this folder")
    a = ap.parse_args()

    jobs = {}
    for bw in (16, 32):
        for k in KERNELS:
            for m in MODES:
                jobs[("main", bw, k, m)] = (k, PAGE_2M + pcie(bw) + mode(m))
    for k in PAPER:
        for name, sets in COSTS:
            jobs[("cost", name, k)] = (k, PAGE_2M + pcie(16) + mode("multi_range") + sets)
    units = [256, 1024, 4096, 16384, 65536]
    for k in KERNELS:
        for u in units:
            jobs[("unit", u, k)] = (k, PAGE_2M + pcie(16) + mode("multi_range") + [f"uvm.multi_range.migration_unit_bytes={u}"])
        for p in (4096, 2097152):
            jobs[("tlb", p, k)] = (k, [f"uvm.page_bytes={p}", "uvm.mode=ideal", "uvm.l1_tlb_entries=256",
                                          "uvm.l1_tlb_ways=256"])
        for lat in (20, 30, 40, 50):
            for m in ("whole_page", "multi_range"):
                jobs[("lat", lat, m, k)] = (k, PAGE_2M + pcie(16) + mode(m) + [f"uvm.fault_latency_ns={lat * 1000}"])
    fractions = [1.0, 0.75, 0.5]
    for k in OVERSUB:
        for f in fractions:
            jobs[("over", f, k)] = (k, ["uvm.mode=managed", "uvm.page_bytes=65536", "uvm.prefetcher=tree",
                                        "uvm.eviction=age_lru", "uvm.eviction_granularity_bytes=65536",
                                        f"uvm.capacity_fraction={f}"] + pcie(16))
    res = {}
    # The longest runs first, so that the workers finish together.
    order = sorted(jobs, key=lambda key: -SLOW.get(jobs[key][0], 1))
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        futs = {ex.submit(run, a.stacksim, *jobs[key]): key for key in order}
        for f in concurrent.futures.as_completed(futs):
            res[futs[f]] = f.result()

    out = []
    w = out.append

    def mean_ratio(kernels, f):
        return statistics.mean(f(k) for k in kernels)

    for bw in (16, 32):
        w(f"**PCIe {bw} GB/s, 2 MB pages** — simulated time from the start to the end of the last kernel "
          f"(copies or faults plus execution, as in the paper) normalised to programmer-controlled copy "
          f"(lower is better); footprint in 2 MB pages:\n")
        w("| kernel | class | pages | " + " | ".join(LABEL[m] for m in MODES) + " | MB moved H2D whole / single / multi |")
        w("|---|---|---|" + "---|" * len(MODES) + "---|")

        def t(k, m):
            return res[("main", bw, k, m)]["us"] / res[("main", bw, k, "device")]["us"]

        for title, kernels in SETS:
            w(f"| *{title}* | | |" + " |" * len(MODES) + " |")
            for k in kernels:
                moved = [res[("main", bw, k, m)]["stats"]["gpu.gmmu.bytes_migrated"] / 1e6
                         for m in ("whole_page", "single_range", "multi_range")]
                pages = res[("main", bw, k, "multi_range")]["stats"]["gpu.gmmu.capacity_pages"]
                w(f"| {k} | {cls(k)} | {pages:.0f} | " + " | ".join(f"{t(k, m):.2f}" for m in MODES) +
                  " | " + " / ".join(f"{mb:.2f}" for mb in moved) + " |")
            w(f"| **mean** | | | " + " | ".join(f"**{mean_ratio(kernels, lambda k: t(k, m)):.2f}**" for m in MODES) + " | |")
        w("")
        for title, kernels in SETS:
            wp = mean_ratio(kernels, lambda k: t(k, "whole_page"))
            e2e = {m: mean_ratio(kernels, lambda k: res[("main", bw, k, m)]["e2e_us"] / res[("main", bw, k, "device")]["e2e_us"])
                   for m in MODES}
            w(f"{title[0].upper() + title[1:]}: whole page / single range = "
              f"{mean_ratio(kernels, lambda k: t(k, 'whole_page') / t(k, 'single_range')):.2f}x, "
              f"whole page / multi range = {mean_ratio(kernels, lambda k: t(k, 'whole_page') / t(k, 'multi_range')):.2f}x, "
              f"programmer copy / multi range = {mean_ratio(kernels, lambda k: 1 / t(k, 'multi_range')):.2f}x "
              f"(means of per-kernel ratios; whole page is {wp:.2f}x programmer copy). "
              f"Including reading the results back (managed pages migrate back whole), the means are " +
              ", ".join(f"{LABEL[m]} {e2e[m]:.2f}" for m in MODES) + ".\n")

    w("**Range cost model** (multi range, 16 GB/s, 2 MB pages, paper 002's kernels): time normalised to "
      "programmer copy with the defaults (hardware range requests: no setup, pipelined, no host handler) and with "
      "one choice that favours ranges switched off: `range_pipelined = false`, `range_copy_setup_ns = -1` (the "
      "link's 1 µs driver setup per request), `range_service = host` (every range miss waits for a 20 µs fault "
      "batch); range requests raised with the defaults.\n")
    w("| kernel | multi range | " + " | ".join(name for name, _ in COSTS) + " | range requests |")
    w("|---|---|" + "---|" * len(COSTS) + "---|")

    def tc(k, name):
        key = ("main", 16, k, "multi_range") if name is None else ("cost", name, k)
        return res[key]["us"] / res[("main", 16, k, "device")]["us"]

    for k in PAPER:
        w(f"| {k} | {tc(k, None):.2f} | " + " | ".join(f"{tc(k, name):.2f}" for name, _ in COSTS) +
          f" | {res[('main', 16, k, 'multi_range')]['stats']['gpu.gmmu.faults.range']:.0f} |")
    w(f"| **mean** | **{mean_ratio(PAPER, lambda k: tc(k, None)):.2f}** | " +
      " | ".join(f"**{mean_ratio(PAPER, lambda k: tc(k, name)):.2f}**" for name, _ in COSTS) + " | |")
    w("")

    w("**Migration unit sweep** (multi range, 16 GB/s, 2 MB pages): time normalised to the 1 KB unit.\n")
    w("| kernel | class | " + " | ".join(f"{u // 1024 if u >= 1024 else u}{' KB' if u >= 1024 else ' B'}" for u in units) + " |")
    w("|---|---|" + "---|" * len(units))
    for title, kernels in SETS:
        w(f"| *{title}* | |" + " |" * len(units))
        for k in kernels:
            base = res[("unit", 1024, k)]["us"]
            w(f"| {k} | {cls(k)} | " + " | ".join(f"{res[('unit', u, k)]['us'] / base:.2f}" for u in units) + " |")
    w("")
    w("**TLB miss rates** (ideal mode so that faults do not interfere; 256-entry fully associative "
      "L1 TLB per SM as in the paper's TLB experiment, behind it the shared 512-entry L2 TLB):\n")
    w("| kernel | L1 TLB miss rate 4 KB | L1 TLB miss rate 2 MB | page walks 4 KB | page walks 2 MB |")
    w("|---|---|---|---|---|")
    for title, kernels in SETS:
        w(f"| *{title}* | | | | |")
        l1 = {4096: [], 2097152: []}
        for k in kernels:
            st = {p: res[("tlb", p, k)]["stats"] for p in (4096, 2097152)}
            for p in l1:
                l1[p].append(st[p]["gpu.l1_tlb.miss_rate"])
            w(f"| {k} | {l1[4096][-1] * 100:.1f}% | {l1[2097152][-1] * 100:.1f}% | {st[4096]['gpu.gmmu.walks']:.0f} | "
              f"{st[2097152]['gpu.gmmu.walks']:.0f} |")
        w(f"| **mean** | **{statistics.mean(l1[4096]) * 100:.1f}%** | **{statistics.mean(l1[2097152]) * 100:.1f}%** | | |")
    w("")
    w("**Fault latency sweep** (16 GB/s, 2 MB pages): mean over the kernels of time normalised to 20 µs.\n")
    w("| kernels | mechanism | 20 µs | 30 µs | 40 µs | 50 µs |")
    w("|---|---|---|---|---|---|")
    for title, kernels in SETS:
        for m in ("whole_page", "multi_range"):
            cells = [statistics.mean(res[("lat", lat, m, k)]["us"] / res[("lat", 20, m, k)]["us"] for k in kernels)
                     for lat in (20, 30, 40, 50)]
            w(f"| {title} | {LABEL[m]} | " + " | ".join(f"{c:.3f}" for c in cells) + " |")
    w("")
    w("**Oversubscription** (whole page, 64 KB pages, tree prefetcher, age-based LRU, 64 KB eviction "
      "granularity since the footprints are a few MB, 16 GB/s): time to the end of the last kernel "
      "normalised to 100 % capacity; evictions; MB written back device-to-host; time both DMA engines "
      "were busy at once.\n")
    w("| kernel | footprint (64 KB pages) | 75 % | 50 % | evictions 75 % / 50 % | MB written back 50 % | engine overlap 50 % |")
    w("|---|---|---|---|---|---|---|")
    for k in OVERSUB:
        base = res[("over", 1.0, k)]
        st75, st50 = res[("over", 0.75, k)]["stats"], res[("over", 0.5, k)]["stats"]
        w(f"| {k} | {base['stats']['gpu.gmmu.capacity_pages']:.0f} | {res[('over', 0.75, k)]['us'] / base['us']:.2f} | "
          f"{res[('over', 0.5, k)]['us'] / base['us']:.2f} | {st75['gpu.gmmu.evictions']:.0f} / {st50['gpu.gmmu.evictions']:.0f} | "
          f"{st50['gpu.gmmu.bytes_written_back'] / 1e6:.2f} | {st50['gpu.pcie.overlap_ps'] * 1e-6:.1f} µs |")
    if a.figures:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import plot
        for bw in (16, 32):
            rows = [{"kernel": k, "mechanism": LABEL[m], "time": res[("main", bw, k, m)]["us"]}
                    for k in KERNELS for m in MODES]
            plot.bar_plot(rows, os.path.join(a.figures, f"uvm-migration-{bw}gbps"), "time", "kernel", ["mechanism"],
                          baseline=LABEL["device"], logy=True,
                          title=f"2 MB pages, PCIe {bw} GB/s: time normalised to programmer copy (lower is better)",
                          ylabel="time / programmer copy (log scale)")
    text = "\n".join(out) + "\n"
    if a.update:
        doc = open(a.update).read()
        begin, end = "<!-- uvm-validation:begin -->\n", "<!-- uvm-validation:end -->"
        i, j = doc.index(begin) + len(begin), doc.index(end)
        open(a.update, "w").write(doc[:i] + text + doc[j:])
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
