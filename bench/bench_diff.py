#!/usr/bin/env python3
"""Benchmark fg-diff: what a diff costs beside reading its two inputs.

On a pair of folded files made by gen_folded.py (the same workload with a
seed shift: ~15% of the stacks changed, a few gone or new; 100 MB each by
default, cached in bench/data), in one run of this script:

  read A, read B   fg-convert --to collapsed A (and B), to /dev/null
  diff, folded     fg-diff --to collapsed A B (two-count form), to /dev/null
  diff, SVG        fg-diff A B (differential flame graph), to /dev/null
  difffolded.pl    perl difffolded.pl A B, when --difffolded names it

Prints the median wall time, CPU time and peak RSS of each, and the diff's
cost as a multiple of reading both inputs (the target is at most 1.5).

  bench/bench_diff.py --fg-convert build/tools/fg-convert --fg-diff build/tools/fg-diff \\
      [--size 100M] [--runs 3] [--difffolded PATH/difffolded.pl]
"""
import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bench_flamegraph import warm_page_cache  # noqa: E402
from bench_pprof import measure  # noqa: E402


def ensure_pair(data_dir, size):
    a = os.path.join(data_dir, "diff-a-%s.folded" % size)
    b = os.path.join(data_dir, "diff-b-%s.folded" % size)
    if not (os.path.isfile(a) and os.path.isfile(b)):
        os.makedirs(data_dir, exist_ok=True)
        subprocess.run([sys.executable, os.path.join(HERE, "gen_folded.py"), "diff", "--seed", "7", "--size", size,
                        "-o", a, "--out2", b], check=True)
    return a, b


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fg-convert", required=True)
    ap.add_argument("--fg-diff", required=True)
    ap.add_argument("--difffolded")
    ap.add_argument("--size", default="100M")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--data", default=os.path.join(HERE, "data"))
    a = ap.parse_args()
    base, new = ensure_pair(a.data, a.size)
    for p in (base, new):
        warm_page_cache(p)
    mib = (os.path.getsize(base) + os.path.getsize(new)) / (1 << 20)
    print("inputs: %s, %s (%.1f MiB together)" % (base, new, mib))
    print("%-16s %9s %9s %10s   %s" % ("task", "wall s", "cpu s", "peak MiB", "command"))
    rows = {}
    tasks = [
        ("read A", [a.fg_convert, "--to", "collapsed", base], a.runs),
        ("read B", [a.fg_convert, "--to", "collapsed", new], a.runs),
        ("diff, folded", [a.fg_diff, "--to", "collapsed", base, new], a.runs),
        ("diff, SVG", [a.fg_diff, base, new], a.runs),
    ]
    if a.difffolded:
        tasks.append(("difffolded.pl", ["perl", a.difffolded, base, new], 1))
    for name, cmd, runs in tasks:
        rows[name] = measure(cmd, runs)
        print("%-16s %9.2f %9.2f %10.0f   %s" % (name, *rows[name], " ".join(cmd)))
    both = rows["read A"][0] + rows["read B"][0]
    for name in ("diff, folded", "diff, SVG"):
        print("%-16s %.2fx the time of reading both inputs (%.0f MiB/s of input)" %
              (name, rows[name][0] / both, mib / rows[name][0]))
    if a.difffolded:
        print("%-16s fg-diff (folded) is %.1fx faster" % ("", rows["difffolded.pl"][0] / rows["diff, folded"][0]))


if __name__ == "__main__":
    main()
