#!/usr/bin/env python3
"""async-profiler HTML parity: fg-convert reading a page back against the
converter reading it back.

usage: check_aphtml.py FG_CONVERT RELEASE

Checks every case of cases.tsv whose name starts with RELEASE. A case is: a page drawn by async-profiler's converter
(pages/<release>/, gzipped; fg reads gzip by its magic bytes), the
collapsed stacks async-profiler 4.5's converter reads back from it
(`jfrconv page.html out.collapsed`, ref/), and the stacks the page was drawn
from (source/). Checks, comparing sorted lines (the converter prints in
HashMap order):

- exact: fg's `--to collapsed` lines equal the converter's. The converter
  cannot read 2.x pages: a 2.8-2.10 page is held to the converter's reading
  of the 3.0 page drawn from the same stacks (same type codes and merging);
- nosuffix (2.5-2.7 pages, which know no interpreted/C1 kinds and draw a
  Java frame's tiers as separate frames): the same with the `_[x]` kind
  suffixes taken off both sides and equal stacks summed;
- diff (4.4+ differential pages): fg's new column equals the converter's
  output, and fg's base column equals the base stacks the page was drawn
  against (kind suffixes aside: the base file has none);
- always: fg's total equals the total of the stacks the page was drawn
  from, so what a pruned page (--minwidth) no longer draws stays in the
  root's self (a line with an empty stack, which the converter drops).
"""
import collections
import gzip
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SUFFIX = re.compile(r'_\[[ij01k]\](?=;|$)')


def case_rows(release):
    with open(os.path.join(HERE, 'cases.tsv')) as f:
        rows = [line.rstrip('\n').split('\t') for line in f if not line.startswith('#')]
    return [row for row in rows if row[0].startswith(release + '.')]


def stacks(lines, column=-1, strip=False, counts=1):
    """stack -> count (of the given column, from the end) of lines ending
    in `counts` counts, zero counts dropped."""
    out = collections.Counter()
    for line in lines:
        if not line:
            continue
        fields = line.split(' ')
        stack = ' '.join(fields[:-counts])
        if strip:
            stack = SUFFIX.sub('', stack)
        out[stack] += int(fields[column])
    return {k: v for k, v in out.items() if v}


def read_gz(*path):
    with gzip.open(os.path.join(HERE, *path), 'rt', encoding='utf-8') as f:
        return f.read().splitlines()


class Mismatch(Exception):
    pass


def fail(message, want, got):
    lines = [message]
    for k in sorted(set(want) | set(got)):
        if want.get(k) != got.get(k):
            lines.append(f'  {k[-120:]}: converter {want.get(k)}, fg {got.get(k)}')
    raise Mismatch('\n'.join(lines[:20]))


def check(fg_convert, case, page, ref, source, mode):
    run = subprocess.run([fg_convert, os.path.join(HERE, 'pages', page), '--to', 'collapsed'],
                         capture_output=True, text=True, encoding='utf-8')
    if run.returncode != 0:
        raise Mismatch(f'{case}: fg-convert failed ({run.returncode}): {run.stderr}')
    lines = run.stdout.splitlines()
    diff = mode == 'diff'
    counts = 2 if diff else 1
    got = stacks(lines, counts=counts)
    root = got.pop('', 0)  # the root's self: what pruning left undrawn
    want = stacks(read_gz('ref', ref))
    if mode == 'nosuffix':
        got, want = stacks(lines, strip=True), stacks(read_gz('ref', ref), strip=True)
        got.pop('', 0)
    if got != want:
        fail(f'{case}: fg differs from the converter', want, got)
    if diff:
        base_got = stacks(lines, column=-2, strip=True, counts=2)
        base_want = stacks(read_gz('source', source.replace('.current.', '.base.')), strip=True)
        drawn = {k: v for k, v in base_want.items() if k in base_got}
        if base_got != drawn:
            fail(f'{case}: fg base column differs from the base stacks', drawn, base_got)
    total = sum(int(line.split(' ')[-1]) for line in read_gz('source', source) if line)
    if sum(got.values()) + root != total:
        raise Mismatch(f'{case}: fg total {sum(got.values()) + root} != {total}, the total drawn from')
    print(f'{case}: {len(want)} stacks agree ({mode}); root self {root}')


def main():
    fg_convert, release = sys.argv[1], sys.argv[2]
    rows = case_rows(release)
    if not rows:
        sys.exit(f'no case of {release} in cases.tsv')
    failed = 0
    for row in rows:
        try:
            check(fg_convert, *row)
        except Mismatch as e:
            print(e)
            failed += 1
    sys.exit(f'{failed} of {len(rows)} cases differ' if failed else 0)


if __name__ == '__main__':
    main()
