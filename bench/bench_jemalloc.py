#!/usr/bin/env python3
"""Benchmark fg-convert beside jeprof on one jemalloc heap dump.

Both tools make the folded stacks of the same dump, symbolized from the same
binaries, in one run of this script: `fg-convert --to collapsed` and
`jeprof --collapsed` (the jeprof of Debian's libjemalloc-dev). Prints the
median wall time, CPU time and peak RSS of each, the input's throughput
through fg, and the ratio of the median wall times.

  bench/bench_jemalloc.py --fg build/tools/fg-convert --binary BIN DUMP [--runs 5] [--jeprof-runs 3]

BIN is the dump's executable (jeprof needs it named; fg reads it from the
dump's MAPPED_LIBRARIES). The large dump of issue 5 comes from the corpus
program (shared/corpus/programs/jemalloc: jemwork.cc, shapes.cc, built as its
build.sh does, into any directory), run from a directory of its own:

  MALLOC_CONF=prof:true,lg_prof_sample:0 \\
      LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2 BIN big 100000

which writes jeprof.<pid>.0.m0.heap (75,002 address stacks, 24.5 MB, with
Debian 12's libjemalloc 5.3.0).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_pprof import measure  # noqa: E402  (median wall and CPU, peak RSS of N runs)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fg", required=True)
    ap.add_argument("--jeprof", default="jeprof")
    ap.add_argument("--binary", required=True, help="the dump's executable, for jeprof")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--jeprof-runs", type=int, default=3)
    ap.add_argument("dump")
    a = ap.parse_args()
    with open(a.dump, "rb") as f:  # into the page cache before timing
        size = len(f.read())
    fg_cmd = [a.fg, "--to", "collapsed", a.dump]
    je_cmd = [a.jeprof, "--collapsed", a.binary, a.dump]
    f = measure(fg_cmd, a.runs)
    j = measure(je_cmd, a.jeprof_runs)
    print("input: %s, %.1f MB" % (a.dump, size / 1e6))
    print("%-12s %6s %9s %9s %12s %9s   %s" % ("tool", "runs", "wall s", "cpu s", "peak MiB", "MB/s", "command"))
    print("%-12s %6d %9.2f %9.2f %12.0f %9.0f   %s" % ("fg-convert", a.runs, *f, size / 1e6 / f[0], " ".join(fg_cmd)))
    print("%-12s %6d %9.2f %9.2f %12.0f %9.1f   %s" % ("jeprof", a.jeprof_runs, *j, size / 1e6 / j[0], " ".join(je_cmd)))
    print("fg-convert is %.0fx faster (median wall time), with %.2fx the peak memory" % (j[0] / f[0], f[2] / j[2]))


if __name__ == "__main__":
    main()
