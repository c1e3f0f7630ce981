#!/usr/bin/env python3
"""Regenerates docs/validation.md's H100 section: the three real sm_90 traces on `h100-pcie`.

Runs `stacksim run PRESET --trace ...` on each trace in ../shared/traces/accelsim-h100 (Rodinia
b+tree and backprop, an FFMA microbenchmark, recorded on an H100 PCIe) on `h100-pcie` (the card
they come from) and `h100` (SXM5), once with the launch latency set to 0 (kernel cycles only) and
once with the preset's, and sets the result beside the `gt` number two of them carry (a measured
time of unknown unit) read both as nanoseconds and as core cycles.
With --update FILE the measurements are saved in docs/data/h100-traces.json and the text between
<!-- h100-traces:begin --> and <!-- h100-traces:end --> is replaced; --check renders from that file,
runs nothing and needs no ../shared (scripts/doc_tables_check.py).
Usage: scripts/h100_traces.py [--bin build/stacksim] [--shared ../shared] [--update docs/validation.md | --check]
"""
import json
import os
import subprocess
import tempfile

from doc_section import trace_section_main

NAME = "h100-traces"
TRACES = [("btree_h100", "Rodinia b+tree (`-size 1000 -block 128`)"),
          ("ffma4096_h100", "FFMA microbenchmark (4096 CTAs × 16 threads)"),
          ("backprop_h100", "Rodinia backprop (`-size 128 -block 32`)")]
PRESETS = ["h100-pcie", "h100"]
PCIE_MHZ = 1755.0  # h100-pcie's core clock (max boost)


def stacksim(binary, kernelslist, preset, sets=()):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        cmd = [binary, "run", preset, "--trace", kernelslist, "--quiet", "--out", out]
        for s in sets:
            cmd += ["--set", s]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        summary = json.load(open(os.path.join(out, "summary.json")))
    return {"kernel_cycles": summary["kernel_cycles"], "kernels": len(summary["kernels"]),
            "warp_insts": summary["warp_instructions"], "simulated_ns": summary["simulated_seconds"] * 1e9,
            "per_kernel": [k["cycles"] for k in summary["kernels"]]}


def measure(binary, shared):
    data = {}
    for trace, _ in TRACES:
        d = os.path.join(shared, "traces", "accelsim-h100", trace)
        gt = os.path.join(d, "gt")
        row = {"gt": float(open(gt).read().split()[0]) if os.path.exists(gt) else None}
        for p in PRESETS:
            row[p] = stacksim(binary, os.path.join(d, "kernelslist.g"), p, ["host.launch_latency_us=0"])
            row[p + "+launch"] = stacksim(binary, os.path.join(d, "kernelslist.g"), p)
        data[trace] = row
    return data


def render(data):
    out = ["<!-- doc-test: needs ../shared/traces/accelsim-h100 -->",
           f"<!-- doc-test: expect ({data['btree_h100']['h100-pcie']['kernel_cycles']} in kernels) -->",
           "```sh",
           "build/stacksim run h100-pcie --trace ../shared/traces/accelsim-h100/btree_h100/kernelslist.g "
           "--set host.launch_latency_us=0",
           "```",
           "",
           "Written by `scripts/h100_traces.py --update docs/validation.md`. Cycles are core cycles of the "
           "kernels alone (launch latency 0); \"end to end\" adds the preset's 2.5 µs launch latency per kernel. "
           f"`gt` read as ns is converted to cycles at {PCIE_MHZ:.0f} MHz, read as cycles to µs at the same clock.",
           "",
           "| trace | kernels | warp instructions | `h100-pcie` cycles | µs | end to end µs | `h100` cycles | "
           "`gt` | `gt` as ns = cycles | `gt` as cycles = µs | stacksim / `gt` (ns; cycles) |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    for trace, label in TRACES:
        r = data[trace]
        p, s, e = r["h100-pcie"], r["h100"], r["h100-pcie+launch"]
        us = p["kernel_cycles"] / PCIE_MHZ
        if r["gt"] is None:
            gt_cols = "— | — | — | —"
        else:
            g = r["gt"]
            gt_cols = (f"{g:.0f} | {g * PCIE_MHZ / 1000:.0f} | {g / PCIE_MHZ:.2f} | "
                       f"{p['kernel_cycles'] / (g * PCIE_MHZ / 1000):.2f}; {p['kernel_cycles'] / g:.2f}")
        out.append(f"| {label} | {p['kernels']} | {p['warp_insts']} | {p['kernel_cycles']} | {us:.2f} | "
                   f"{e['simulated_ns'] / 1000:.2f} | {s['kernel_cycles']} | {gt_cols} |")
    return "\n".join(out)


def main():
    trace_section_main(NAME, measure, render, __doc__.splitlines()[0])


if __name__ == "__main__":
    main()
