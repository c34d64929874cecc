#!/usr/bin/env python3
"""A lock-only JFR recording named by a path that is a FIFO (what a shell's
<(...) gives): fg-convert draws a lock-only recording from its one kind by
reading the file again, which a pipe cannot do. It must say which option to
use, as for standard input, and neither read the drained pipe again (an
"empty input" error) nor wait on it for ever."""
import os
import subprocess
import sys
import tempfile
import threading

tools = sys.argv[1]
recording = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "golden", "inputs", "lock.jfr.gz")

with tempfile.TemporaryDirectory() as tmp:
    fifo = os.path.join(tmp, "lock.jfr.gz")
    os.mkfifo(fifo)

    def feed():
        with open(recording, "rb") as src, open(fifo, "wb") as dst:
            dst.write(src.read())

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    try:
        run = subprocess.run([os.path.join(tools, "fg-convert"), "--to", "collapsed", fifo],
                             capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        sys.exit("FAIL: fg-convert waited on the FIFO for over 60 s")
    if "empty input" in run.stderr:
        sys.exit("FAIL: the drained FIFO was read again:\n" + run.stderr)
    if "--lock" not in run.stderr:
        sys.exit("FAIL: no note naming --lock:\n" + run.stderr)
    # With the option named, the same FIFO draws the lock events.
    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    run = subprocess.run([os.path.join(tools, "fg-convert"), "--lock", "--to", "collapsed", fifo],
                         capture_output=True, text=True, timeout=60)
    if run.returncode != 0 or not run.stdout.strip():
        sys.exit("FAIL: --lock on the FIFO: exit %d\n%s" % (run.returncode, run.stderr))
print("ok: a lock-only recording through a FIFO names --lock and is not read twice")
