#!/usr/bin/env python3
"""A tool started with no input while standard input is a terminal prints
its usage and exits 2 instead of waiting for a profile to be typed
(issue 32, point 15).

usage: terminal_stdin.py BIN_DIR
"""
import os
import pty
import subprocess
import sys

TOOLS = ("fg-convert", "fg-diff", "fg-filter", "fg-top")


def check(bin_dir, tool):
    master, slave = pty.openpty()
    try:
        p = subprocess.Popen([os.path.join(bin_dir, tool)], stdin=slave, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
        try:
            out, err = p.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            p.kill()
            p.communicate()
            return "%s: still waiting for standard input after 60 s" % tool
    finally:
        os.close(slave)
        os.close(master)
    if p.returncode != 2:
        return "%s: exit status %d, expected 2" % (tool, p.returncode)
    if ("Usage: %s" % tool).encode() not in err:
        return "%s: no usage on standard error: %r" % (tool, err[:200])
    if out:
        return "%s: wrote to standard output: %r" % (tool, out[:200])
    return None


def main():
    failures = [f for f in (check(sys.argv[1], t) for t in TOOLS) if f]
    for f in failures:
        print("FAIL", f)
    if not failures:
        print("ok: %d tools" % len(TOOLS))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
