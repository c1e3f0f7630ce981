#!/usr/bin/env python3
"""Checks that every generated table in docs/ is what its script renders from the measurements it
recorded in docs/data/ (no simulation runs). Exits 1 naming the first stale section.

Each entry: a script and the arguments that make it render from docs/data/ and compare (--check).
A script whose table lives in docs/ between <!-- NAME:begin/end --> markers belongs here."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHECKS = [
    ["etc_table.py"],
    ["etc_large.py"],
    ["h100_traces.py"],
    ["accelsim_validation.py"],
    ["noc_zero_load.py"],
    ["gpu_interconnect_table.py"],
    ["noc_validation.py"],
    ["booksim_compare.py"],
    ["noc_tables.py"],
    ["pep_validation.py"],
    ["pep_validation.py", "--section", "pep-short-cta"],
    ["patent_validation.py"],
    ["uvm_validation.py"],
    ["uvm_odd_results.py"],
    ["start_phase_sweep.py"],
    ["seed_headlines.py"],
]


def main():
    failed = 0
    for script, *args in CHECKS:
        r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", script), *args, "--check"],
                           cwd=ROOT, capture_output=True, text=True)
        out = (r.stdout + r.stderr).strip()
        print(out if out else f"{script}: no output")
        if r.returncode != 0:
            failed += 1
    print(f"{len(CHECKS)} generated sections checked, {failed} stale")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
