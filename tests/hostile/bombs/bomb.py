#!/usr/bin/env python3
"""One gzip bomb through fg-convert: it must end by itself, soon, with exit
status 1, an error naming the file and a position, and a peak RSS far below
what the bomb inflates to (getrusage of the child).

    bomb.py BIN_DIR WORK_DIR FORMAT KIND [default-memory]

KIND: zeros (a gzip of 1 GiB of zeros, read --from FORMAT), or header (the
format's first bytes, then the zeros: the reader gets past its first check).
The zeros are one gzip member made once into WORK_DIR (1 MiB), a bomb is
gzip(header) followed by it: gzip input may hold several members.
With default-memory, the run is given no --max-memory (OPTIONS below): its
default, a share of physical memory, may be gigabytes."""
import os
import re
import sys
import time
import zlib

ZEROS = 1 << 30  # inflated bytes of the zeros member
# A sanitizer build (scripts/test.sh) is slower and bigger: FG_HOSTILE_SLACK
# multiplies both bounds.
SLACK = float(os.environ.get("FG_HOSTILE_SLACK", "1"))
MAX_SECONDS = 60 * SLACK  # on a loaded two-core machine; a bounded run takes < 10
MAX_RSS_MB = 320 * SLACK  # the longest line (64 MiB) twice, and the program

# The first bytes of each format, enough for its reader to go on reading.
HEADERS = {
    "collapsed": b"main;a 1\nmain;b ",
    "jemalloc": b"heap_v2/524288\n  t*: 1: 2 [0: 0]\n@ 0x1",
    "pprof": b"\x0a\x02\x08\x01\x0a",
    "jeprof-dot": b'digraph "x" {\nnode [shape=box];\nN1 [label="',
    "jfr": b"FLR\x00\x00\x02\x00\x00",
    "json": b'{"OPT_STATUS": "SUCCESS", "DATA": ["',
    "svg": b'<?xml version="1.0"?>\n<svg version="1.1" width="1200" height="66"><g><title>main (1 samples, 100%)</title><rect x="10" y="33" width="1180" height="15"/>\n<g><title>',
    "html": b"<!DOCTYPE html>\n<html><body><canvas id='canvas'></canvas>\n<script>\nconst cpool = [\n'all',\n'",
}
# What else the run is given: a whole-buffer reader holds what it reads,
# so its budget (half of --max-memory) is what bounds it.
OPTIONS = {f: ["--max-memory", "256M"] for f in ("pprof", "jeprof-dot", "json", "svg", "html")}


def gzip_member(data, level=9):
    c = zlib.compressobj(level, zlib.DEFLATED, 31)
    return c.compress(data) + c.flush()


def zeros_member(work):
    path = os.path.join(work, "zeros.gz")
    if not os.path.exists(path):
        c = zlib.compressobj(9, zlib.DEFLATED, 31)
        chunk = bytes(1 << 20)
        parts = [c.compress(chunk) for _ in range(ZEROS >> 20)]
        parts.append(c.flush())
        tmp = path + ".%d" % os.getpid()
        with open(tmp, "wb") as f:
            f.write(b"".join(parts))
        os.replace(tmp, path)  # tests may make it at once: the last one wins, same bytes
    with open(path, "rb") as f:
        return f.read()


def run(argv, err_path, timeout):
    """(exit status, seconds, peak RSS in MiB, stderr) of one run."""
    pid = os.fork()
    if pid == 0:
        fd = os.open(err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(fd, 2)
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.execv(argv[0], argv)
    start = time.monotonic()
    while True:
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() - start > timeout:
            os.kill(pid, 9)
            done, status, usage = os.wait4(pid, 0)
            break
        time.sleep(0.02)
    with open(err_path, encoding="utf-8", errors="replace") as f:
        err = f.read()
    return os.waitstatus_to_exitcode(status), time.monotonic() - start, usage.ru_maxrss / 1024, err


def main():
    bin_dir, work, fmt, kind = sys.argv[1:5]
    default_memory = sys.argv[5:] == ["default-memory"]
    options = [] if default_memory else OPTIONS.get(fmt, [])
    os.makedirs(work, exist_ok=True)
    header = HEADERS[fmt] if kind == "header" else b""
    name = "%s-%s%s.gz" % (fmt, kind, "-default-memory" if default_memory else "")
    path = os.path.join(work, name)
    with open(path, "wb") as f:
        f.write((gzip_member(header) if header else b"") + zeros_member(work))
    out = os.path.join(work, name + ".dump")
    argv = [os.path.join(bin_dir, "fg-convert"), "--from", fmt, *options, path,
            "--to", "dump", "-o", out]
    status, seconds, rss, err = run(argv, path + ".err", MAX_SECONDS)
    print("%s %s: exit %d, %.2f s, peak RSS %.1f MiB\n%s" % (fmt, kind, status, seconds, rss, err))
    problems = []
    if status != 1:
        problems.append("exit status %d, expected 1" % status)
    # file:line:column: or file: offset 0x...: (the position), then a message
    if not re.search(r"fg-convert: error: .*%s(:\d+:\d+|: offset 0x[0-9a-f]+): \S" % re.escape(name), err):
        problems.append("no error naming the file and a position")
    if seconds > MAX_SECONDS:
        problems.append("still running after %.0f s" % MAX_SECONDS)
    if rss > MAX_RSS_MB:
        problems.append("peak RSS %.0f MiB, over %.0f MiB" % (rss, MAX_RSS_MB))
    if os.path.exists(out):
        problems.append("an output file was left behind")
    for p in problems:
        print("FAIL: " + p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
