#!/usr/bin/env python3
"""Benchmark fg-filter: filtering beside reading the same file unfiltered.

On the 100 MB folded profile of bench_flamegraph.py (bench/data, made on
first use), in one run of this script:

  read        fg-filter INPUT (folded stacks out, to /dev/null)
  filtered    fg-filter --include RE1 --hide RE2 INPUT (two regexes)
  focus       fg-filter --focus RE1 --ignore RE2 INPUT

Prints the median wall time, CPU time and peak RSS of each, and each
filter's cost as a multiple of the plain read (the target is at most 1.3).

  bench/bench_filter.py --fg-filter build/tools/fg-filter [--runs 3]
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bench_flamegraph import ensure_input, warm_page_cache  # noqa: E402
from bench_pprof import measure  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fg-filter", required=True)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--data", default=os.path.join(HERE, "data"))
    a = ap.parse_args()
    path = ensure_input("profile", a.data)
    warm_page_cache(path)
    mib = os.path.getsize(path) / (1 << 20)
    print("input: %s (%.1f MiB)" % (path, mib))
    print("%-10s %9s %9s %10s %9s   %s" % ("task", "wall s", "cpu s", "peak MiB", "MiB/s", "command"))
    tasks = [
        ("read", [a.fg_filter, path]),
        ("filtered", [a.fg_filter, "--include", "java\\.util", "--hide", "^(libc|__)", path]),
        ("focus", [a.fg_filter, "--focus", "Parser|parse", "--ignore", "GC|gc_", path]),
    ]
    rows = {}
    for name, cmd in tasks:
        rows[name] = measure(cmd, a.runs)
        print("%-10s %9.2f %9.2f %10.0f %9.0f   %s" % (name, *rows[name], mib / rows[name][0], " ".join(cmd)))
    for name in ("filtered", "focus"):
        print("%-10s %.2fx the time of the plain read" % (name, rows[name][0] / rows["read"][0]))


if __name__ == "__main__":
    main()
