#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# A bounded fuzz loop over `stacksim plot`'s input validation (scripts/plot.py), in-process.
"""Feeds N mutated inputs (timeline JSON, --samples CSV, results.csv with plan.json, curve.csv,
and option lists) to plot.py's main() and fails on anything but exit 0 or 2 with one line:
a traceback, another exit code, or a message of several lines. Drawing is replaced by a stub
(matplotlib takes ~0.2 s a figure; the validation is what bad input reaches), except for the
first --render inputs, drawn for real. libFuzzer cannot drive Python in-process, hence a loop.

    plot_fuzz.py N [--seed S] [--render K] [--seconds T]   (scripts/fuzz.sh runs it; exit 1 on a
        finding; --seconds: stop after T seconds even before N inputs)
"""
import io
import json
import os
import random
import sys
import tempfile
import time
import contextlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plot  # noqa: E402


class _Drawn(Exception):
    """Raised by the drawing stub: the input passed validation."""


def _stub():
    raise _Drawn()


TIMELINE = {"traceEvents": [
    {"name": "vecadd", "cat": "kernel", "ph": "X", "ts": 10, "dur": 500, "pid": 0, "tid": 0},
    {"name": "vecadd CTA 0", "cat": "cta", "ph": "X", "ts": 12, "dur": 300, "pid": 1, "tid": 1000},
    {"name": "ld.global", "cat": "issue", "ph": "X", "ts": 20, "dur": 1, "pid": 1, "tid": 0},
    {"name": "memory dependency", "cat": "stall", "ph": "X", "ts": 21, "dur": 40, "pid": 1, "tid": 0},
    {"name": "ipc", "ph": "C", "ts": 100, "pid": 0, "tid": 0, "args": {"value": 1.5}},
]}
SAMPLES = "cycle,ipc,l1_hit_rate\n0,0.5,\n1000,1.25,0.5\n2000,2,0.75\n"
RESULTS = ("point,hash,status,config,workload,size,seed,gpu.sm.warp_scheduler,cycles,ipc\n"
           "0,a,done,small,vecadd,64,1,lrr,100,1.5\n1,b,done,small,vecadd,64,2,gto,90,1.6\n"
           "2,c,done,big,vecadd,64,1,lrr,80,1.7\n3,d,done,big,vecadd,64,2,gto,70,1.8\n")
PLAN = {"columns": ["config", "workload", "size", "seed", "gpu.sm.warp_scheduler"]}
CURVE = "offered,accepted,packet_latency,saturated\n0.1,0.1,20,0\n0.2,0.2,25,0\n0.3,0.25,90,1\n"
ODD = ["", "nan", "inf", "-inf", "NaN", "1e400", "-1", "0", "null", "true", "\xff", "\x00", "x" * 5000,
       "3e8", "9007199254740993", "[]", "{}", "\"s\"", "1.5", "$x$", "\\", "\n", ",", "\"", "1e-400"]


def mutate_text(rng, text):
    data = bytearray(text.encode("utf-8"))
    for _ in range(rng.randint(1, 8)):
        op = rng.randrange(6)
        at = rng.randrange(len(data) + 1)
        if op == 0 and data:
            del data[at % len(data)]
        elif op == 1:
            data[at:at] = bytes([rng.randrange(256)])
        elif op == 2:
            data[at:at] = rng.choice(ODD).encode("utf-8", "surrogateescape")
        elif op == 3 and data:
            a, b = sorted((rng.randrange(len(data)), rng.randrange(len(data))))
            data[at:at] = data[a:b][:2000]
        elif op == 4:
            data[at:at] = rng.choice([b",", b"\n", b"\"", b":", b"{", b"}", b"[", b"]", b"0"])
        else:
            data = data[:at]
    return bytes(data)


def mutate_json(rng, doc):
    doc = json.loads(json.dumps(doc))
    events = doc["traceEvents"]
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(5)
        if op == 0 and events:
            e = rng.choice(events)
            if isinstance(e, dict):
                key = rng.choice(["ts", "dur", "pid", "tid", "name", "cat", "ph"])
                e[key] = rng.choice([None, float("nan"), float("inf"), -1, 3e8, 2 ** 70, "x", [], {}, True, 1.5,
                                     "X", "kernel", "\udcff" if False else "\u00ff", 0])
        elif op == 1:
            events.append(rng.choice([1, "x", None, [], {"ph": "X"}, dict(TIMELINE["traceEvents"][0])]))
        elif op == 2 and events:
            events.pop(rng.randrange(len(events)))
        elif op == 3:
            e = dict(TIMELINE["traceEvents"][rng.randrange(4)])
            e["ts"] = rng.choice([0, 1, 1e6, 3e8, 1e15])
            e["dur"] = rng.choice([0, 1, 1e6, 3e8])
            events.append(e)
        else:
            doc = rng.choice([doc, {"traceEvents": {}}, [], 5, {"traceEvents": None}])
            if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
                break
            events = doc["traceEvents"]
    return json.dumps(doc, allow_nan=True).encode("utf-8")


def one_case(rng, folder):
    """Writes one input and returns the plot argv for it."""
    kind = rng.randrange(4)
    out = ["--out", os.path.join(folder, "fig")]
    if kind == 0:
        path = os.path.join(folder, "t.json")
        data = mutate_json(rng, TIMELINE) if rng.random() < 0.6 else mutate_text(rng, json.dumps(TIMELINE))
        with open(path, "wb") as f:
            f.write(data)
        opts = rng.choice([[], ["--bin", rng.choice(["1", "0", "-5", "x", "1000", "99999999999"])],
                           ["--from", rng.choice(["0", "100", "-1", "nan", "x"]), "--to", rng.choice(["50", "1e20", "200"])],
                           ["--series", rng.choice(["ipc", "ctas", "stalls", "bogus"])]])
        return ["timeline", path] + opts + out
    if kind == 1:
        path = os.path.join(folder, "s.csv")
        with open(path, "wb") as f:
            f.write(mutate_text(rng, SAMPLES))
        opts = rng.choice([[], ["--series", rng.choice(["ipc", "nope", "ipc,l1_hit_rate", ","])],
                           ["--from", rng.choice(["500", "x", "inf"])]])
        return ["samples", path] + opts + out
    if kind == 2:
        path = os.path.join(folder, "results.csv")
        with open(path, "wb") as f:
            f.write(mutate_text(rng, RESULTS) if rng.random() < 0.7 else RESULTS.encode())
        with open(os.path.join(folder, "plan.json"), "wb") as f:
            f.write(mutate_text(rng, json.dumps(PLAN)) if rng.random() < 0.3 else json.dumps(PLAN).encode())
        opts = ["--stat", rng.choice(["cycles", "ipc", "nope", "config"])]
        opts += rng.choice([[], ["--x", "config"], ["--group", "gpu.sm.warp_scheduler"], ["--where", "config=small"],
                            ["--facet", "config"], ["--aggregate", "mean"], ["--where", "bad"], ["--aggregate", "max"],
                            ["--group", "gpu.sm.warp_scheduler", "--baseline", rng.choice(["lrr", "zzz"]), "--speedup"]])
        return ["bars", path] + opts + out
    path = os.path.join(folder, "curve.csv")
    with open(path, "wb") as f:
        f.write(mutate_text(rng, CURVE))
    opts = rng.choice([[], ["--ymax", rng.choice(["x", "nan", "100", "inf"])], ["--y", "nope"]])
    return ["latency", path] + opts + out


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__)
        return 2
    count = int(args[0])
    seed = int(args[args.index("--seed") + 1]) if "--seed" in args else 1
    render = int(args[args.index("--render") + 1]) if "--render" in args else 0
    seconds = float(args[args.index("--seconds") + 1]) if "--seconds" in args else None
    deadline = time.monotonic() + seconds if seconds else None
    rng = random.Random(seed)
    real = plot._pyplot
    accepted = refused = 0
    shm = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    with tempfile.TemporaryDirectory(dir=shm) as folder:
        done = 0
        for i in range(count):
            if deadline and i % 100 == 0 and time.monotonic() > deadline:
                break
            done += 1
            argv = ["--prog", "stacksim plot"] + one_case(rng, folder)
            plot._pyplot = real if i < render else _stub
            err = io.StringIO()
            try:
                with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                    rc = plot.main(argv)
            except _Drawn:
                rc = 0
            except Exception as e:  # noqa: BLE001 - a finding
                print(f"plot_fuzz: input {i}: {type(e).__name__}: {e}\nargv: {argv[2:]}", file=sys.stderr)
                return 1
            text = err.getvalue()
            if rc not in (0, 2) or (rc == 2 and text.count("\n") != 1):
                print(f"plot_fuzz: input {i}: exit {rc}, message {text!r}\nargv: {argv[2:]}", file=sys.stderr)
                return 1
            accepted += rc == 0
            refused += rc == 2
    print(f"plot_fuzz: {done} inputs ({min(render, done)} drawn): {accepted} accepted, {refused} refused with one line")
    return 0


if __name__ == "__main__":
    sys.exit(main())
