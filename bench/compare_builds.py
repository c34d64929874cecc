#!/usr/bin/env python3
"""Times the same commands with two builds of fg, side by side in one run.

For a change that must not cost speed (a refactoring, a new dependency):
every task runs with the `before` build's tools and the `after` build's in
alternated rounds (before, after, before, ...), so that a slow spell of the
machine falls on both. Prints per task the median wall time, the median
CPU time and the largest peak RSS of each build, and the after/before
ratio of the medians with the smallest and largest ratio of single rounds.
Outputs go to /dev/null; a run that fails stops the script (exit 1).

  bench/compare_builds.py --before OLD/build/tools --after build/tools \\
      --task 'fg-convert --to top big.pb.gz' --task 'fg-convert big.folded' [--rounds 5]

A task is a tool name (looked up in each build's directory) and its
arguments, split as a shell would split them.
"""
import argparse
import os
import shlex
import statistics
import subprocess
import sys
import time


def run_once(argv):
    """Wall seconds, CPU seconds and peak RSS (MiB) of one run."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"failed (exit {code}): {shlex.join(argv)}\n{err}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", required=True, help="directory of the old build's tools")
    ap.add_argument("--after", required=True, help="directory of the new build's tools")
    ap.add_argument("--task", action="append", required=True, help="'TOOL ARGS...' (repeatable)")
    ap.add_argument("--rounds", type=int, default=5)
    o = ap.parse_args()
    builds = {"before": o.before, "after": o.after}
    print(f"| task | before s | after s | after/before (min..max) | before CPU s | after CPU s "
          f"| before RSS MiB | after RSS MiB |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for task in o.task:
        words = shlex.split(task)
        times = {b: [] for b in builds}
        cpus = {b: [] for b in builds}
        rss = {b: 0.0 for b in builds}
        for _ in range(o.rounds):
            for b, d in builds.items():
                wall, cpu, peak = run_once([os.path.join(d, words[0])] + words[1:])
                times[b].append(wall)
                cpus[b].append(cpu)
                rss[b] = max(rss[b], peak)
        ratios = [a / b for a, b in zip(times["after"], times["before"])]
        med = {b: statistics.median(times[b]) for b in builds}
        print(f"| `{task}` | {med['before']:.3f} | {med['after']:.3f} | "
              f"{med['after'] / med['before']:.3f} ({min(ratios):.2f}..{max(ratios):.2f}) | "
              f"{statistics.median(cpus['before']):.3f} | {statistics.median(cpus['after']):.3f} | "
              f"{rss['before']:.0f} | {rss['after']:.0f} |", flush=True)


if __name__ == "__main__":
    main()
