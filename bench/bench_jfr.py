#!/usr/bin/env python3
"""Benchmark fg-convert beside async-profiler's JFR converter on one recording.

Both tools do the same work on the same file in one run of this script:
JFR -> collapsed stacks (fg --to collapsed; converter -o collapsed) and
JFR -> flame graph (fg's SVG; the converter's HTML). Prints the median wall
time, CPU time, throughput and peak RSS of each, and the ratios; the two
collapsed outputs are checked to agree (as sorted lines). The two tools run
in alternated rounds (fg, converter, fg, converter, ...; fg alone once the
converter's runs are done), so a slow spell of the machine falls on both.

  bench/bench_jfr.py --fg build/tools/fg-convert --converter CLASSPATH RECORDING [--copies N]

CLASSPATH is async-profiler's converter: jfr-converter.jar (its jfrconv
launcher appends it), or the classes compiled from its sources
(`javac -d classes $(find src/converter -name '*.java')`, plus src/res for
HTML); it runs as `java -Xss2M -cp CLASSPATH one.convert.Main`, as jfrconv
does. Without --converter only fg-convert is measured.

--copies N concatenates N copies of RECORDING into bench/data/ (a JFR file
is a sequence of independent chunks, so this is a valid N-chunk recording):
e.g. 125 copies of tests/parity/jfr's cpu-recursion.ap-cpu recording make a
209 MB file with 3.6 million samples.
"""
import argparse
import gzip
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_flamegraph import run_once  # noqa: E402  (one way to measure a child)

HERE = os.path.dirname(os.path.abspath(__file__))


def run_checked(argv, out_path):
    r = run_once(argv, None, 0)
    if r["rc"] != 0 or not os.path.getsize(out_path):
        sys.exit("failed: %s\n%s" % (" ".join(argv), r["stderr"]))
    return r


def summary(results):
    """Median wall time, median CPU time and largest peak RSS (MiB) of runs."""
    return (statistics.median(r["wall_s"] for r in results),
            statistics.median(r["cpu_s"] for r in results),
            max(r["rss_kib"] for r in results) / 1024)


def measure_alternated(fg_cmd, fg_out, fg_runs, conv_cmd, conv_out, conv_runs):
    """Runs both tools in alternated rounds (fg, then the converter), so that
    a slow spell of the machine falls on both; returns each tool's runs and
    the ratios converter/fg of the rounds that ran both."""
    fg, conv, ratios = [], [], []
    for i in range(max(fg_runs, conv_runs if conv_cmd else 0)):
        f = run_checked(fg_cmd, fg_out) if i < fg_runs else None
        c = run_checked(conv_cmd, conv_out) if conv_cmd and i < conv_runs else None
        if f:
            fg.append(f)
        if c:
            conv.append(c)
        if f and c:
            ratios.append(c["wall_s"] / f["wall_s"])
    return fg, conv, ratios


def prepare(recording, copies, data_dir):
    """The recording, inflated and concatenated `copies` times into data_dir."""
    base = os.path.basename(recording).removesuffix(".gz")
    if copies <= 1 and not recording.endswith(".gz"):
        return recording
    os.makedirs(data_dir, exist_ok=True)
    path = os.path.join(data_dir, "%s.x%d.jfr" % (base.removesuffix(".jfr"), copies))
    if not os.path.exists(path):
        opener = gzip.open if recording.endswith(".gz") else open
        with opener(recording, "rb") as f:
            one = f.read()
        with open(path + ".tmp", "wb") as out:
            for _ in range(max(copies, 1)):
                out.write(one)
        os.rename(path + ".tmp", path)
    return path


def same_lines(a, b):
    """Whether two files hold the same lines in any order. Sorted by sort(1),
    into files, not in this process: a child inherits its parent's peak RSS at exec,
    so reading large outputs here would inflate every later measurement."""
    env = dict(os.environ, LC_ALL="C")
    for path in (a, b):
        subprocess.run(["sort", "-o", path + ".sorted", path], env=env, check=True)
    return subprocess.run(["cmp", "-s", a + ".sorted", b + ".sorted"]).returncode == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fg", required=True)
    ap.add_argument("--converter", help="classpath of async-profiler's converter (jar or classes directory)")
    ap.add_argument("--java", default="java")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--converter-runs", type=int, default=1)
    ap.add_argument("--copies", type=int, default=1)
    ap.add_argument("--data", default=os.path.join(HERE, "data"))
    ap.add_argument("--options", default="", help="event options for both tools, e.g. '--alloc --total'")
    ap.add_argument("--out-dir", help="where both tools write their outputs (a temporary directory by default); "
                    "a memory file system such as /dev/shm keeps the disk's noise out of the figures")
    ap.add_argument("recording")
    a = ap.parse_args()
    path = prepare(a.recording, a.copies, a.data)
    size_mb = os.path.getsize(path) / 1e6
    opts = a.options.split()
    tmp = tempfile.mkdtemp(dir=a.out_dir)
    print("input: %s (%.1f MB)" % (path, size_mb))
    print("%-10s %-12s %8s %8s %8s %10s   %s" % ("task", "tool", "wall s", "cpu s", "MB/s", "peak MiB", "command"))
    try:
        for task, fg_to, conv_to in (("collapsed", "collapsed", "collapsed"), ("graph", "svg", "html")):
            fg_out = os.path.join(tmp, "fg." + fg_to)
            fg_cmd = [a.fg, "-q", "--to", fg_to, *opts, path, "-o", fg_out]
            conv_out = os.path.join(tmp, "conv." + conv_to)
            conv_cmd = None
            if a.converter:
                conv_cmd = [a.java, "-Xss2M", "-cp", a.converter, "one.convert.Main", *opts, "-o", conv_to,
                            path, conv_out]
            fg_runs, conv_runs, ratios = measure_alternated(fg_cmd, fg_out, a.runs, conv_cmd, conv_out,
                                                           a.converter_runs)
            f = summary(fg_runs)
            print("%-10s %-12s %8.2f %8.2f %8.0f %10.0f   %s" % (task, "fg-convert", f[0], f[1], size_mb / f[0], f[2],
                                                           " ".join(fg_cmd)))
            if not conv_cmd:
                continue
            c = summary(conv_runs)
            print("%-10s %-12s %8.2f %8.2f %8.0f %10.0f   %s" % (task, "converter", c[0], c[1], size_mb / c[0], c[2],
                                                           " ".join(conv_cmd)))
            print("%-10s fg is %.1fx faster (ratio of the medians; %.1fx to %.1fx in the %d rounds that ran both) "
                  "with %.2fx the memory" % ("", c[0] / f[0], min(ratios), max(ratios), len(ratios), f[2] / c[2]))
            if task == "collapsed" and not same_lines(fg_out, conv_out):
                sys.exit("the collapsed outputs differ")
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
