#!/usr/bin/env python3
"""fg-diff parity, with the real fg-diff.

usage: check_diff.py FG_DIFF collapsed NORMALIZE
           fg-diff --to collapsed [--absolute] BASE NEW equals difffolded.pl
           [-n] BASE NEW (line for line after sorting: difffolded.pl prints
           in hash order); NORMALIZE is "normalized" or "absolute"
       check_diff.py FG_DIFF pprof-top
           fg-diff --to top --absolute cpu.pb.gz cpu2.pb.gz (TZ=UTC) prints
           exactly what go tool pprof -top -nodecount=100000
           -diff_base=cpu.pb.gz cpu2.pb.gz printed (go 1.19)
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FLAME = os.path.join(HERE, "..", "flamegraph")
PPROF = os.path.join(HERE, "..", "pprof")


def run(argv):
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(os.environ, TZ="UTC"))
    if p.returncode != 0:
        sys.exit("FAIL: %s exited %d: %s" % (" ".join(argv), p.returncode, p.stderr.decode()))
    return p.stdout.decode()


def compare(mine, want, what):
    if mine == want:
        print("%s: %d lines identical" % (what, len(mine)))
        return 0
    for i, (a, b) in enumerate(zip(mine, want)):
        if a != b:
            print("line %d:\n  fg:        %s\n  reference: %s" % (i + 1, a, b))
            break
    print("FAIL: %s: %d lines from fg, %d in the reference" % (what, len(mine), len(want)))
    return 1


def collapsed(fg, mode):
    args = [] if mode == "normalized" else ["--absolute"]
    ref = "diff_go_cpu_norm.folded" if mode == "normalized" else "diff_go_cpu.folded"
    out = run([fg, "--to", "collapsed", *args, os.path.join(FLAME, "go_cpu.folded"), os.path.join(FLAME, "go_cpu2.folded")])
    mine = sorted(out.splitlines())
    want = sorted(open(os.path.join(FLAME, ref)).read().splitlines())
    return compare(mine, want, "difffolded.pl %s" % mode)


def pprof_top(fg):
    out = run([fg, "--to", "top", "--absolute", os.path.join(PPROF, "cpu.pb.gz"), os.path.join(PPROF, "cpu2.pb.gz")])
    want = open(os.path.join(HERE, "diff_cpu2_vs_cpu.top.txt")).read().splitlines()
    return compare(out.splitlines(), want, "go tool pprof -top -diff_base")


if __name__ == "__main__":
    fg, mode = sys.argv[1:3]
    if mode == "collapsed":
        sys.exit(collapsed(fg, sys.argv[3]))
    sys.exit(pprof_top(fg))
