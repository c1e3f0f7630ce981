#!/usr/bin/env python3
"""Measures the three unified-memory results that look wrong (issue 24) and writes the tables of
docs/unified-memory.md's section "Results that look wrong, explained" (between the markers
<!-- odd-results:begin --> and <!-- odd-results:end -->).

Usage: scripts/uvm_odd_results.py [--bin build/stacksim] [--write]
Without --write the tables are printed. About 20 runs of the `etc` preset, a minute or two."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from doc_section import replace_section  # noqa: E402

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


def capacity_table(binary):
    rows = ["| capacity_fraction | cycles | GPU frames | H2D MB | of it prefetched MB | demand MB | evictions | "
            "H2D engine busy |", "|---|---|---|---|---|---|---|---|"]
    for frac in ["1.0", "0.75", "0.5", "0.25", "0.1", "0.02"]:
        s, _ = run(binary, ["--workload", "stream:65536"] + MANAGED + ["--set", f"uvm.capacity_fraction={frac}"])
        rows.append(f"| {frac} | {s['gpu.cycles']:,.0f} | {s['gpu.gmmu.capacity_pages']:.0f} | "
                    f"{mb(s['gpu.pcie.h2d.bytes'])} | {mb(s['gpu.gmmu.bytes_prefetched'])} | "
                    f"{mb(s['gpu.gmmu.bytes_migrated'])} | {s['gpu.gmmu.evictions']:.0f} | "
                    f"{100 * s['gpu.pcie.engine0.utilization']:.0f} % |")
    return "\n".join(rows)


def latency_table(binary):
    rows = ["| fault_latency_ns | cycles | GPU frames | far faults | evictions | requests replayed |",
            "|---|---|---|---|---|---|"]
    for ns in [0, 1000, 5000, 20000]:
        s, _ = run(binary, ["--workload", "atax:128"] + MANAGED +
                   ["--set", "uvm.capacity_fraction=0.5", "--set", f"uvm.fault_latency_ns={ns}"])
        rows.append(f"| {ns} | {s['gpu.cycles']:,.0f} | {s['gpu.gmmu.capacity_pages']:.0f} | "
                    f"{s['gpu.gmmu.faults.far']:.0f} | {s['gpu.gmmu.evictions']:.0f} | {s['gpu.gmmu.replays']:.0f} |")
    return "\n".join(rows)


def compression_table(binary):
    half = ["--workload", "stream:65536"] + MANAGED + ["--set", "uvm.capacity_fraction=0.5"]
    ratio1 = ["--set", "uvm.compression.forced_ratio=1"]
    free = ["--set", "uvm.compression.decompression_latency=0", "--set", "uvm.compression.metadata_miss_latency=0"]
    cases = [
        ("ETC off, no compression", half),
        ("ETC manual, compression at ratio 1 (the issue's run)",
         half + ["--set", 'uvm.etc.mode="manual"', "--set", "uvm.etc.compression=true"] + ratio1),
        ("ETC manual, nothing switched on", half + ["--set", 'uvm.etc.mode="manual"']),
        ("ETC off, compression at ratio 1 without its latencies",
         half + ["--set", "uvm.compression.enabled=true"] + ratio1 + free),
    ]
    rows = ["| run (stream:65536 at 0.5) | cycles | evictions | far faults | MB written back |", "|---|---|---|---|---|"]
    for label, args in cases:
        s, _ = run(binary, args)
        rows.append(f"| {label} | {s['gpu.cycles']:,.0f} | {s['gpu.gmmu.evictions']:.0f} | "
                    f"{s['gpu.gmmu.faults.far']:.0f} | {mb(s['gpu.gmmu.bytes_written_back'])} |")
    # An application that starts only after stream:65536 has finished leaves it nothing to share.
    _, summary = run(binary, ["--app", "stream:65536", "--app", "vecadd:64@5000us"] + MANAGED +
                     ["--set", "uvm.capacity_fraction=0.5"])
    app = summary["applications"][0]
    rows.append("")
    rows.append("| stream:65536 at 0.5 | turnaround µs |")
    rows.append("|---|---|")
    rows.append(f"| alone | {app['alone_turnaround_us']:.1f} |")
    rows.append(f"| with a second application that starts at 5,000 µs, after it ended | {app['turnaround_us']:.1f} |")
    return "\n".join(rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "stacksim"))
    ap.add_argument("--write", action="store_true", help="write docs/unified-memory.md's section")
    a = ap.parse_args()
    text = "\n\n".join([
        "**Less memory, faster (stream):**\n\n" + capacity_table(a.bin),
        "**Zero fault latency, slower (atax):**\n\n" + latency_table(a.bin),
        "**Compression that saves nothing, faster:**\n\n" + compression_table(a.bin),
    ])
    text = "<!-- written by scripts/uvm_odd_results.py; do not edit -->\n" + text
    if a.write:
        replace_section(os.path.join(ROOT, "docs", "unified-memory.md"), "odd-results", text)
    else:
        print(text)


if __name__ == "__main__":
    main()
