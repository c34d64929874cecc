#!/usr/bin/env python3
"""fg-filter --include/--exclude against grep-style selection of lines.

usage: check_grep.py FG_FILTER FOLDED

For each pattern below, `fg-filter --include RE FOLDED` must print exactly the
lines of FOLDED whose stack (the line without its count) matches RE, as
`grep -E` would select them, and `--exclude RE` exactly the others; several
--include patterns select the lines matching any. Lines are compared after
sorting (fg-filter writes folded stacks in flamegraph.pl's order).
"""
import re
import subprocess
import sys

PATTERNS = ["runtime", r"^main\.main", r"flate\.\(\*compressor\)", "sha256;", r"(fib|isOdd)$", "nomatch"]


def lines(text):
    return sorted(l for l in text.splitlines() if l)


def main():
    fg, folded = sys.argv[1:3]
    source = lines(open(folded).read())
    failures = 0

    def check(args, want, what):
        nonlocal failures
        p = subprocess.run([fg, *args, folded], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        got = lines(p.stdout.decode()) if p.returncode == 0 else ["exit %d: %s" % (p.returncode, p.stderr.decode())]
        if got != sorted(want):
            failures += 1
            print("FAIL %s: fg %d lines, grep %d" % (what, len(got), len(want)))
        else:
            print("%s: %d lines, as grep" % (what, len(want)))

    stack = lambda l: l.rsplit(" ", 1)[0]
    for pat in PATTERNS:
        rx = re.compile(pat)
        check(["--include", pat], [l for l in source if rx.search(stack(l))], "--include " + pat)
        check(["--exclude", pat], [l for l in source if not rx.search(stack(l))], "--exclude " + pat)
    a, b = re.compile(PATTERNS[1]), re.compile(PATTERNS[3])
    check(["--include", PATTERNS[1], "--include", PATTERNS[3]],
          [l for l in source if a.search(stack(l)) or b.search(stack(l))], "two --include")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
