#!/usr/bin/env python3
"""Benchmark fg-convert on DeepFlow ProfileTracing JSON (node/parent JSON).

Makes a ~100 MB response once (cached in --data): folded stacks from
gen_folded.py, turned into DeepFlow's envelope by fg-convert itself
(--to json --json-envelope, the same bytes and node ids DeepFlow writes).
Then times, --runs times each:

  JSON -> collapsed   fg-convert --to collapsed RESPONSE.json
  collapsed -> JSON   fg-convert --to json --json-envelope STACKS.folded

and prints the median wall time, CPU time (user + system), throughput of
the input over both (MiB/s), and peak RSS. On a machine shared with other
work, the CPU figure is the steadier one.

  bench/bench_deepflow.py --fg build/tools/fg-convert [--size 36M] [--runs 5]
"""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_pprof import measure  # noqa: E402  (median wall, median CPU, peak RSS of runs)

HERE = os.path.dirname(os.path.abspath(__file__))


def make_inputs(fg, data, size, seed):
    os.makedirs(data, exist_ok=True)
    folded = os.path.join(data, "deepflow-%s.folded" % size)
    response = os.path.join(data, "deepflow-%s.json" % size)
    if not os.path.exists(folded):
        subprocess.run([sys.executable, os.path.join(HERE, "gen_folded.py"), "profile", "--seed", str(seed),
                        "--size", size, "-o", folded], check=True)
    if not os.path.exists(response):
        subprocess.run([fg, "--to", "json", "--json-envelope", "--root-name", "bench", folded, "-o", response],
                       check=True)
    return folded, response


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fg", required=True, help="the fg-convert binary")
    ap.add_argument("--data", default=os.path.join(HERE, "data"))
    ap.add_argument("--size", default="36M", help="size of the folded input (36M gives a ~100 MB response)")
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    folded, response = make_inputs(a.fg, a.data, a.size, a.seed)
    tasks = [
        ("JSON -> collapsed", response, [a.fg, "--to", "collapsed", response, "-o", os.devnull]),
        ("collapsed -> JSON", folded, [a.fg, "--to", "json", "--json-envelope", folded, "-o", os.devnull]),
    ]
    print("%-18s %9s %8s %8s %10s %10s %9s   %s" %
          ("task", "input MiB", "wall s", "cpu s", "MiB/s wall", "MiB/s cpu", "peak MiB", "command"))
    for name, path, argv in tasks:
        mib = os.path.getsize(path) / 2**20
        wall, cpu, rss = measure(argv, a.runs)
        print("%-18s %9.1f %8.3f %8.3f %10.0f %10.0f %9.0f   %s" %
              (name, mib, wall, cpu, mib / wall, mib / cpu, rss, " ".join(argv)))


if __name__ == "__main__":
    main()
