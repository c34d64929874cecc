#!/usr/bin/env python3
"""JFR parity: fg-convert's collapsed output against async-profiler's converter.

usage: check_jfr.py FG_CONVERT CASE

CASE is a row of cases.tsv: a recording (recordings/*.jfr.gz, gzipped here;
fg reads gzip by its magic bytes) and the converter's options, whose output
(`jfrconv OPTIONS -o collapsed`, ref/*.collapsed.gz) must equal fg's
`--to collapsed` output line for line after sorting: the converter prints
its lines in HashMap order, and fg merges equal lines, so both sides are
compared as sorted lists. The recording is also read inflated, as a plain
(mapped) file, which must give the same output. Known differences are listed in known_failures.tsv
with their reason: such a case passes while it still differs (printing the
reason) and fails once it agrees, so that the list cannot go stale.
"""
import gzip
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def table(name):
    rows = {}
    with open(os.path.join(HERE, name)) as f:
        for line in f:
            if line.startswith('#') or not line.strip():
                continue
            cols = line.rstrip('\n').split('\t')
            rows[cols[0]] = cols[1:]
    return rows


# The converter's option names that fg spells otherwise: its --threads is
# fg's --threads frame (a filter every fg tool shares), its --from/--to are
# --time-from/--time-to (fg's --from/--to name formats).
FG_SPELLING = {'--threads': ['--threads', 'frame'], '--from': ['--time-from'], '--to': ['--time-to']}


def fg_options(converter_options):
    out = []
    for o in converter_options:
        out += FG_SPELLING.get(o, [o])
    return out


def main():
    fg, case = sys.argv[1], sys.argv[2]
    recording, options, reference = table('cases.tsv')[case][:3]
    known = table('known_failures.tsv').get(case)
    argv = [fg, '--to', 'collapsed', '-q']
    if options != '-':
        argv += fg_options(options.split())
    argv.append(os.path.join(HERE, 'recordings', recording))
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        sys.exit('FAIL: %s exited %d: %s' % (' '.join(argv), p.returncode, p.stderr.decode()))
    # The same recording as a plain file is read in place (mapped, a large
    # chunk's pages dropped and released as it is read), not as a stream:
    # the output must be the same bytes.
    with tempfile.NamedTemporaryFile(suffix='.jfr') as plain:
        with gzip.open(argv[-1], 'rb') as f:
            shutil.copyfileobj(f, plain)
        plain.flush()
        mapped = subprocess.run(argv[:-1] + [plain.name], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if mapped.returncode != 0 or mapped.stdout != p.stdout:
        sys.exit('FAIL: %s read as a plain file differs from the gzipped stream (exit %d)'
                 % (case, mapped.returncode))
    ours = sorted(p.stdout.decode().splitlines())
    with gzip.open(os.path.join(HERE, 'ref', reference), 'rt') as f:
        theirs = sorted(f.read().splitlines())
    if ours == theirs:
        if known:
            sys.exit('FAIL: %s now agrees with the converter; remove it from known_failures.tsv' % case)
        print('ok: %s: %d lines agree' % (case, len(ours)))
        return
    only_ours = sorted(set(ours) - set(theirs))
    only_theirs = sorted(set(theirs) - set(ours))
    report = ['%s: %d lines from fg, %d from the converter; %d only in fg, %d only in the converter'
              % (case, len(ours), len(theirs), len(only_ours), len(only_theirs))]
    report += ['  fg only:        ' + l[-300:] for l in only_ours[:5]]
    report += ['  converter only: ' + l[-300:] for l in only_theirs[:5]]
    if known:
        print('known failure (%s):\n%s' % (known[0], '\n'.join(report)))
        return
    sys.exit('FAIL: ' + '\n'.join(report))


if __name__ == '__main__':
    main()
