#!/usr/bin/env python3
"""Benchmark fg-convert beside `go tool pprof` on one pprof profile.

For each task both tools do the same work on the same file, in one run of
this script: the folded stacks (fg --to collapsed, pprof -traces), the top
table (fg --to top, pprof -top -nodecount=100000), the call graph (fg --to
dot, pprof -dot). Outputs go to /dev/null. The two tools' runs alternate (fg, pprof,
fg, ...; the one with fewer runs stops first), so that a slow spell of a
loaded machine falls on both. Prints the median wall time, CPU time (user +
sys of the child) and peak RSS of each, and the ratios.

  bench/bench_pprof.py --fg build/tools/fg-convert PROFILE.pb.gz [--runs 3] [--pprof-runs 1]

The large benchmark profile is made by a small Go program built against
Debian's golang-github-google-pprof-dev (the real pprof encoder), with 450,000
distinct stacks: `bigpprof -stacks 450000 -seed 1 -out big.pb.gz` (37 MB
gzipped, 54 MB inflated).
"""
import argparse
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_flamegraph import run_once  # noqa: E402  (one way to measure a child)

TASKS = [
    ("folded stacks", ["--to", "collapsed"], ["-traces"]),
    ("top table", ["--to", "top"], ["-top", "-nodecount=100000"]),
    ("DOT graph", ["--to", "dot"], ["-dot"]),
]


def measure(commands):
    """Runs each command of `commands` [(argv, runs)] in alternated rounds
    (a slow spell of the machine falls on all of them), returning per command
    the median wall and CPU seconds and the largest peak RSS (MiB)."""
    results = [[] for _ in commands]
    for i in range(max(runs for _, runs in commands)):
        for (argv, runs), out in zip(commands, results):
            if i >= runs:
                continue
            r = run_once(argv, None, 0)
            if r["rc"] != 0:
                sys.exit("failed: %s\n%s" % (" ".join(argv), r["stderr"]))
            out.append(r)
    return [(statistics.median(r["wall_s"] for r in rs),
             statistics.median(r["cpu_s"] for r in rs),
             max(r["rss_kib"] for r in rs) / 1024) for rs in results]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fg", required=True)
    ap.add_argument("--go", default="go")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--pprof-runs", type=int, default=1)
    ap.add_argument("profile")
    a = ap.parse_args()
    env_home = tempfile.mkdtemp()
    os.environ.setdefault("PPROF_TMPDIR", env_home)
    print("%-14s %-16s %9s %9s %12s   %s" % ("task", "tool", "wall s", "cpu s", "peak MiB", "command"))
    for name, fg_args, pprof_args in TASKS:
        fg_cmd = [a.fg, a.profile, *fg_args]
        pp_cmd = [a.go, "tool", "pprof", *pprof_args, a.profile]
        f, p = measure([(fg_cmd, a.runs), (pp_cmd, a.pprof_runs)])
        print("%-14s %-16s %9.2f %9.2f %12.0f   %s" % (name, "fg-convert", *f, " ".join(fg_cmd)), flush=True)
        print("%-14s %-16s %9.2f %9.2f %12.0f   %s" % (name, "go tool pprof", *p, " ".join(pp_cmd)))
        print("%-14s fg is %.1fx faster (wall), %.1fx (CPU), with %.2fx the memory"
              % ("", p[0] / f[0], p[1] / f[1], f[2] / p[2]), flush=True)


if __name__ == "__main__":
    main()
