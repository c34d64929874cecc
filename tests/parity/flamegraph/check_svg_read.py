#!/usr/bin/env python3
"""Reading flamegraph.pl's SVGs back: fg-convert SVG --to collapsed against
the folded stacks each SVG was drawn from.

usage: check_svg_read.py FG_CONVERT [DIR [--minwidth-percent]]

DIR (default: this script's folder) holds cases.tsv and its files; inputs
may be gzipped (.gz). --minwidth-percent: the SVGs' --minwidth is a
percentage of the total (inferno's), not pixels (flamegraph.pl's).

For every case of cases.tsv (the SVGs flamegraph.pl drew for the parity
test), builds the call tree of the folded input as flamegraph.pl drew it
(stacks reversed for --reverse; the last count of a two-count diff line,
which sets a differential graph's widths) and the call tree of what fg read
back from the SVG, and checks:

- every frame fg read is a frame of the input, with the same total;
- every frame of the input wide enough to be drawn (total at least
  --minwidth pixels, 0.1 by default, at the SVG's width) was read, and none
  narrower: so where nothing was pruned the stacks are exactly the input's,
  and with pruning the drawn frames are, each parent keeping its total
  (what it no longer draws is in its self);
- the totals agree;
- fg's note on pruning (when it gives one) has the figures the input
  gives: the narrowest drawn frame, the sum of the self (as drawn) of the
  root and of each frame with drawn frames on it, and the total; and fg
  gives one exactly when the narrowest frame is wider than the greatest
  common divisor of the drawn widths and that sum is not 0 (flame charts,
  whose drawn frames are not the merged tree's, are not judged).

Frames exactly at the pruning threshold are not judged (the drawing's
rounding decides them). Kind suffixes are not compared: flamegraph.pl
and inferno draw names without them. Two facts of the references are known and
checked as such (KNOWN below).
"""
import collections
import math
import gzip
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SUFFIX = re.compile(r'_\[[kwij01]\]$')

# Cases whose reference is not the whole input, and why.
KNOWN = {
    # flamegraph.pl keys frames by name;depth;end: a 0-sample frame overwrote
    # a 2-sample runtime.mallocgc at depth 17 (see README.md), so the frame
    # above it lies on nothing; fg leaves it out with a warning.
    'diff_go_cpu_reverse_inputs.negate': 'lost',
    # flamegraph.pl rounds fractional counts in titles ("%.0f"): children
    # may outgrow their parent; fg clamps them with a warning.
    'fractional_counts.default': 'rounded',
}


def tree(lines, reverse=False, counts=1, strip=False):
    """path (tuple of frames) -> total, for every prefix of every stack;
    lines end in `counts` counts, the last one taken."""
    totals = collections.Counter()
    for line in lines:
        if not line.strip():
            continue
        fields = line.rstrip('\n').split(' ')
        count = float(fields[-1])
        stack = ' '.join(fields[:-counts])
        frames = [SUFFIX.sub('', f) for f in stack.split(';')] if stack else []
        if strip:
            frames = [f.strip() for f in frames]
        if reverse:
            frames.reverse()
        totals[()] += count
        for i in range(len(frames)):
            totals[tuple(frames[:i + 1])] += count
    return totals


PRUNING = re.compile(r'narrowest drawn one \(([0-9.]+)\).*At most ([0-9.]+) of ([0-9.]+) \(')


def pruning_problem(want, min_total, stderr):
    """What fg's pruning note should say, from the input's frames wide
    enough to be drawn, against what it said; None when they agree."""
    drawn = {p: t for p, t in want.items() if not p or t >= min_total}
    self_of_parents = collections.Counter()
    for p, t in drawn.items():
        if p:
            self_of_parents[p[:-1]] -= t
    bound = sum(drawn[p] + minus for p, minus in self_of_parents.items())
    widths = [int(t) for p, t in drawn.items()]
    narrowest = min((t for p, t in drawn.items() if p), default=0)
    expected = (narrowest > math.gcd(*widths) and bound > 0) and (narrowest, bound, drawn[()])
    m = PRUNING.search(stderr)
    got = m and tuple(float(g) for g in m.groups())
    if bool(got) != bool(expected) or (got and got != tuple(float(v) for v in expected)):
        return f'pruning note: expected {expected or "none"}, fg said {got or "none"}'
    return None


def options_of(field):
    opts = {}
    for o in filter(None, field.split('|')):
        name, _, value = o.partition('=')
        opts[name] = value
    return opts


def check(fg_convert, here, case, input_name, svg, options, minwidth_percent=False):
    opts = options_of(options)
    opener = gzip.open if input_name.endswith('.gz') else open
    with opener(os.path.join(here, input_name), 'rt', encoding='utf-8') as f:
        input_lines = f.read().splitlines()
    blank = KNOWN.get(case) == 'blank'
    want = tree(input_lines, reverse='--reverse' in opts, counts=2 if input_name.startswith('diff') else 1,
                strip=blank)
    run = subprocess.run([fg_convert, os.path.join(here, svg), '--to', 'collapsed'],
                         capture_output=True, text=True, encoding='utf-8')
    if run.returncode != 0:
        return f'{case}: fg-convert failed: {run.stderr}'
    got = tree(run.stdout.splitlines(), strip=blank)
    if KNOWN.get(case) == 'rounded':
        return None if abs(got[()] - round(want[()])) <= 1 else f'{case}: total {got[()]} != {want[()]}'
    total = want[()]
    width = float(opts.get('--width', 1200)) - 20
    if minwidth_percent:
        min_total = float(opts.get('--minwidth', 0.01)) * total / 100
    else:
        min_total = float(opts.get('--minwidth', 0.1)) * total / width
    problems = []
    for path, t in got.items():
        if path and abs(want.get(path, -1) - t) > 1e-6:
            problems.append(f'read {";".join(path)[-100:]} = {t}, input has {want.get(path)}')
    lost = [p for p in want if p and p not in got and want[p] > min_total * 1.001]
    if KNOWN.get(case) == 'lost':
        lost = [p for p in lost if 'runtime.heapBitsSetType' not in p and 'runtime.mallocgc' not in p[-1:]]
    problems += [f'not read: {";".join(p)[-100:]} = {want[p]}' for p in lost]
    problems += [f'read though narrower than minwidth: {";".join(p)[-100:]}' for p in got
                 if p and want.get(p, 0) < min_total * 0.999]
    if abs(got[()] - total) > 1e-6:
        problems.append(f'total {got[()]} != {total}')
    if '--flamechart' not in opts and not KNOWN.get(case):
        problems += filter(None, [pruning_problem(want, min_total, run.stderr)])
    if problems:
        return f'{case}:\n  ' + '\n  '.join(problems[:15])
    print(f'{case}: {sum(1 for p in got if p)} frames agree')
    return None


def main():
    fg_convert = sys.argv[1]
    here = sys.argv[2] if len(sys.argv) > 2 else HERE
    minwidth_percent = '--minwidth-percent' in sys.argv[3:]
    failed = []
    with open(os.path.join(here, 'cases.tsv'), encoding='utf-8') as f:
        for line in f:
            if line.startswith('#') or not line.strip():
                continue
            case, input_name, svg, options = line.rstrip('\n').split('\t')[:4]
            problem = check(fg_convert, here, case, input_name, svg, options, minwidth_percent)
            if problem:
                failed.append(problem)
                print(problem)
    sys.exit(f'{len(failed)} cases differ' if failed else 0)


if __name__ == '__main__':
    main()
