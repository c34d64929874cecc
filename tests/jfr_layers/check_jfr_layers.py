#!/usr/bin/env python3
"""Holds the fast JFR reader to the reference reader (formats/jfr/
reference_reader.h) on one recording, for every option set of the JFR
reader: fg-convert's output (--to dump and --to collapsed), its notes and
warnings (stderr) and its exit status must be the same bytes.

usage: check_jfr_layers.py FG_CONVERT RECORDING

The reference reader runs once per option set (FG_JFR_REFERENCE=1; it has
one thread, so the job count changes nothing); the fast reader runs at
FG_JOBS=1 and again at FG_JOBS=4 with FG_PARALLEL_MIN=0, which puts even a
small recording on its threaded paths. Exits 1 naming each difference.
"""
import difflib
import os
import subprocess
import sys

# Every option of the JFR reader (tools/common/cli.cpp jfr_options, and the
# filter options the reader applies itself), alone and in the combinations
# whose paths differ: labels or not (dump keeps them, collapsed does not),
# thread frames, stand-in tiers (not with --threads or --leak), time order.
OPTION_SETS = [
    [],
    ["--cpu"],
    ["--wall"],
    ["--alloc"],
    ["--alloc", "--total"],
    ["--alloc", "--threads"],
    ["--live"],
    ["--nativemem"],
    ["--nativemem", "--leak"],
    ["--lock"],
    ["--lock", "--total", "--threads"],
    ["--nativelock"],
    ["--threads"],
    ["--state", "runnable"],
    ["--state", "sleeping,park"],
    ["--wall", "--threads"],
    ["--lines"],
    ["--bci"],
    ["--lines", "--bci", "--threads"],
    ["--lines", "--granularity", "line"],
    ["--simple", "--dot", "--norm"],
    ["--time-from", "2s", "--time-to", "-2s"],
    ["--alloc", "--time-from", "1s"],
    ["--leak"],
]

OUTPUTS = ["dump", "collapsed"]

FAST_RUNS = [("FG_JOBS=1", {"FG_JOBS": "1"}),
             ("FG_JOBS=4 FG_PARALLEL_MIN=0", {"FG_JOBS": "4", "FG_PARALLEL_MIN": "0"})]


def run(fg, args, env):
    env = dict(os.environ, TZ="UTC", **env)
    p = subprocess.run([fg] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, check=False)
    return p.returncode, p.stdout, p.stderr


def differences(want, got):
    """What differs between two (status, stdout, stderr) results."""
    out = []
    for name, a, b in zip(("status", "stdout", "stderr"), want, got):
        if a == b:
            continue
        if name == "status":
            out.append("  status %d (reference) vs %d (fast)" % (a, b))
            continue
        lines = difflib.unified_diff(a.decode(errors="replace").splitlines(),
                                     b.decode(errors="replace").splitlines(),
                                     "reference", "fast", lineterm="", n=1)
        out.append("  %s:\n    " % name + "\n    ".join(list(lines)[:20]))
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    fg, recording = sys.argv[1], sys.argv[2]
    env = dict(os.environ)
    env.pop("FG_JFR_REFERENCE", None)
    os.environ.clear()
    os.environ.update(env)
    failures = 0
    runs = 0
    for options in OPTION_SETS:
        for output in OUTPUTS:
            args = ["--to", output] + options + [recording]
            want = run(fg, args, {"FG_JFR_REFERENCE": "1", "FG_JOBS": "1"})
            for label, jobs in FAST_RUNS:
                got = run(fg, args, jobs)
                runs += 1
                diff = differences(want, got)
                if diff:
                    failures += 1
                    print("DIFFERS with %s: fg-convert %s\n%s" % (label, " ".join(args), "\n".join(diff)))
    print("%d passed, %d failed" % (runs - failures, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
