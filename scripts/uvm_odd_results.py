#!/usr/bin/env python3
"""Measures the three unified-memory results that look wrong (issue 24) and writes the tables of
docs/unified-memory.md's section "Results that look wrong, explained" (between the markers
<!-- odd-results:begin --> and <!-- odd-results:end -->).

Usage: scripts/uvm_odd_results.py [--bin build/stacksim] [--write | --check]
Without --write the tables are printed; --write also saves the measurements in
docs/data/odd-results.json, which --check renders from (scripts/doc_tables_check.py). About 20 runs of the `etc` preset, a minute or two."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from doc_section import load_data, save_data, update_or_check  # noqa: E402

NAME = "odd-results"

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MANAGED = ["--set", "uvm.mode=managed"]


def run(binary, args):
    """Runs `stacksim run etc ARGS` and returns (stats, summary) as dicts."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r")
        cmd = [binary, "run", "etc", "--quiet", "--out", out] + args
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(f"uvm_odd_results: {' '.join(cmd)} failed:\n{r.stderr}")
        with open(os.path.join(out, "stats.json")) as f:
            stats = {k: v["value"] for k, v in json.load(f).items()}
        with open(os.path.join(out, "summary.json")) as f:
            summary = json.load(f)
    return stats, summary


def mb(x):
    return f"{x / 1e6:.2f}"


CAPACITIES = ["1.0", "0.75", "0.5", "0.25", "0.1", "0.02"]
LATENCIES = [0, 1000, 5000, 20000]
KEYS = ["gpu.cycles", "gpu.gmmu.capacity_pages", "gpu.pcie.h2d.bytes", "gpu.gmmu.bytes_prefetched",
        "gpu.gmmu.bytes_migrated", "gpu.gmmu.evictions", "gpu.pcie.engine0.utilization", "gpu.gmmu.faults.far",
        "gpu.gmmu.replays", "gpu.gmmu.bytes_written_back"]


def compression_cases():
    half = ["--workload", "stream:65536"] + MANAGED + ["--set", "uvm.capacity_fraction=0.5"]
    ratio1 = ["--set", "uvm.compression.forced_ratio=1"]
    free = ["--set", "uvm.compression.decompression_latency=0", "--set", "uvm.compression.metadata_miss_latency=0"]
    return [
        ("ETC off, no compression", half),
        ("ETC manual, compression at ratio 1 (the issue's run)",
         half + ["--set", 'uvm.etc.mode="manual"', "--set", "uvm.etc.compression=true"] + ratio1),
        ("ETC manual, nothing switched on", half + ["--set", 'uvm.etc.mode="manual"']),
        ("ETC off, compression at ratio 1 without its latencies",
         half + ["--set", "uvm.compression.enabled=true"] + ratio1 + free),
    ]


def measure(binary):
    """The stats the tables show, from every run (saved as docs/data/odd-results.json)."""
    pick = lambda s: {k: s.get(k, 0) for k in KEYS}
    data = {"capacity": [], "latency": [], "compression": []}
    for frac in CAPACITIES:
        s, _ = run(binary, ["--workload", "stream:65536"] + MANAGED + ["--set", f"uvm.capacity_fraction={frac}"])
        data["capacity"].append([frac, pick(s)])
    for ns in LATENCIES:
        s, _ = run(binary, ["--workload", "atax:128"] + MANAGED +
                   ["--set", "uvm.capacity_fraction=0.5", "--set", f"uvm.fault_latency_ns={ns}"])
        data["latency"].append([ns, pick(s)])
    for label, args in compression_cases():
        s, _ = run(binary, args)
        data["compression"].append([label, pick(s)])
    # An application that starts only after stream:65536 has finished leaves it nothing to share.
    _, summary = run(binary, ["--app", "stream:65536", "--app", "vecadd:64@5000us"] + MANAGED +
                     ["--set", "uvm.capacity_fraction=0.5"])
    app = summary["applications"][0]
    data["late_app"] = {"alone_us": app["alone_turnaround_us"], "with_us": app["turnaround_us"]}
    return data


def capacity_table(data):
    rows = ["| capacity_fraction | cycles | GPU frames | H2D MB | of it prefetched MB | demand MB | evictions | "
            "H2D engine busy |", "|---|---|---|---|---|---|---|---|"]
    for frac, s in data["capacity"]:
        rows.append(f"| {frac} | {s['gpu.cycles']:,.0f} | {s['gpu.gmmu.capacity_pages']:.0f} | "
                    f"{mb(s['gpu.pcie.h2d.bytes'])} | {mb(s['gpu.gmmu.bytes_prefetched'])} | "
                    f"{mb(s['gpu.gmmu.bytes_migrated'])} | {s['gpu.gmmu.evictions']:.0f} | "
                    f"{100 * s['gpu.pcie.engine0.utilization']:.0f} % |")
    return "\n".join(rows)


def latency_table(data):
    rows = ["| fault_latency_ns | cycles | GPU frames | far faults | evictions | requests replayed |",
            "|---|---|---|---|---|---|"]
    for ns, s in data["latency"]:
        rows.append(f"| {ns} | {s['gpu.cycles']:,.0f} | {s['gpu.gmmu.capacity_pages']:.0f} | "
                    f"{s['gpu.gmmu.faults.far']:.0f} | {s['gpu.gmmu.evictions']:.0f} | {s['gpu.gmmu.replays']:.0f} |")
    return "\n".join(rows)


def compression_table(data):
    rows = ["| run (stream:65536 at 0.5) | cycles | evictions | far faults | MB written back |", "|---|---|---|---|---|"]
    for label, s in data["compression"]:
        rows.append(f"| {label} | {s['gpu.cycles']:,.0f} | {s['gpu.gmmu.evictions']:.0f} | "
                    f"{s['gpu.gmmu.faults.far']:.0f} | {mb(s['gpu.gmmu.bytes_written_back'])} |")
    rows.append("")
    rows.append("| stream:65536 at 0.5 | turnaround µs |")
    rows.append("|---|---|")
    rows.append(f"| alone | {data['late_app']['alone_us']:.1f} |")
    rows.append(f"| with a second application that starts at 5,000 µs, after it ended | {data['late_app']['with_us']:.1f} |")
    return "\n".join(rows)


def render(data):
    text = "\n\n".join([
        "**Less memory, faster (stream):**\n\n" + capacity_table(data),
        "**Zero fault latency, slower (atax):**\n\n" + latency_table(data),
        "**Compression that saves nothing, faster:**\n\n" + compression_table(data),
    ])
    return "<!-- written by scripts/uvm_odd_results.py; do not edit -->\n" + text


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "stacksim"))
    ap.add_argument("--write", action="store_true", help="write docs/unified-memory.md's section")
    ap.add_argument("--check", action="store_true", help="compare the section with docs/data/odd-results.json")
    a = ap.parse_args()
    doc = os.path.join(ROOT, "docs", "unified-memory.md")
    if a.check:
        update_or_check(doc, NAME, render(load_data(NAME)), True)
        return
    data = measure(a.bin)
    if a.write:
        save_data(NAME, data)
        update_or_check(doc, NAME, render(data), False)
    else:
        print(render(data))


if __name__ == "__main__":
    main()
