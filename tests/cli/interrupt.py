#!/usr/bin/env python3
"""An interrupted run leaves neither its temporary nor a partial output
(issue 32, point 8).

For each of SIGTERM, SIGINT and SIGHUP: starts fg-convert on a generated
collapsed profile large enough that writing its flame graph takes a while,
waits until the temporary beside the output (OUT.tmp-XXXXXX) exists, sends
the signal, and checks that the tool died of it, that the temporary is
gone and that no output file exists. When the run ends before the
temporary is seen (a fast machine), the input is made larger and the run
repeated, so the signal always lands while the temporary is being written.

usage: interrupt.py BIN_DIR
"""
import os
import signal
import subprocess
import sys
import tempfile
import time


def write_input(path, stacks):
    # Distinct deep stacks: every one is a frame of its own in the SVG.
    with open(path, "w", encoding="ascii") as f:
        for i in range(stacks):
            f.write("main;serve_%d;handle_%d;parse_%d;lex_%d %d\n" % (i % 97, i % 1009, i, i, 1 + i % 7))


def default_signals():
    # The tool only installs its handler where the action is the default; a
    # parent that ignores these (nohup, a background job) must not matter here.
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)


def attempt(tool, workdir, sig, stacks):
    """None when the check passed, "again" when the run ended too soon,
    else a failure message."""
    src = os.path.join(workdir, "in.folded")
    write_input(src, stacks)
    out = os.path.join(workdir, "out.svg")
    p = subprocess.Popen([tool, "--minwidth", "0", src, "-o", out], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, preexec_fn=default_signals)
    temp_seen = False
    while p.poll() is None:
        if any(n.startswith("out.svg.tmp-") for n in os.listdir(workdir)):
            temp_seen = True
            time.sleep(0.02)  # let it write a little of the file
            p.send_signal(sig)
            break
        time.sleep(0.001)
    _, err = p.communicate(timeout=120)
    left = sorted(n for n in os.listdir(workdir) if n != "in.folded")
    if not temp_seen or p.returncode == 0:
        for n in left:
            os.unlink(os.path.join(workdir, n))
        return "again"
    if p.returncode != -sig:
        return "%s: exit status %d, expected death by the signal; stderr: %r" % (sig.name, p.returncode, err[-300:])
    if left:
        return "%s: files left behind: %s" % (sig.name, left)
    return None


def main():
    tool = os.path.join(sys.argv[1], "fg-convert")
    failures = []
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        stacks = 100000
        with tempfile.TemporaryDirectory() as workdir:
            for _ in range(5):
                result = attempt(tool, workdir, sig, stacks)
                if result != "again":
                    break
                stacks *= 2
            if result == "again":
                result = "%s: never caught the run while its temporary existed" % sig.name
        if result:
            failures.append(result)
        else:
            print("ok: %s removed the temporary (%d stacks)" % (sig.name, stacks))
    for f in failures:
        print("FAIL", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
