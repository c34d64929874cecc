#!/usr/bin/env python3
"""Hostile inputs (issue 36, point 5): each case generates its input at test
time, runs one fg tool on it and checks that the run ends by itself with
the expected status: 0, 1 (bad data, with a "file:position: message"
error) or 2 (a usage error), within the case's CPU time and with its peak
resident memory under the case's bound (both from
getrusage(RUSAGE_CHILDREN): the tool is the only child this process
waits for). CPU time, not elapsed time, is bounded, so that a loaded
machine does not fail a case; elapsed time only stops a hang.

The bounds are generous: they catch a quadratic walk, an expansion by the
sum of path lengths or an unbounded string in Graphviz, which are orders
of magnitude beyond them.

usage: run_hostile.py BIN_DIR CASE      (run_hostile.py --list: the cases)
"""
import gzip
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

CASES = {}
# A sanitizer build (scripts/test.sh) is slower and bigger: FG_HOSTILE_SLACK
# multiplies both bounds, as in bombs/bomb.py.
SLACK = float(os.environ.get("FG_HOSTILE_SLACK", "1"))


def case(name, status, seconds=10, rss_mb=400, stderr=None, stdout=os.devnull):
    """Registers a case: a function (workdir) -> argv (tool first) that
    writes its inputs into workdir. `stderr` is a regex the standard error
    must contain (search, not match); standard output goes to `stdout`."""

    def register(make):
        CASES[name] = (make, status, seconds * SLACK, rss_mb * SLACK, stderr, stdout)
        return make

    return register


# An error naming the input and a position in it: file:line[:col]: or
# file: offset 0x...: (DESIGN.md, Errors).
POSITION = r"error: [^\n]*(\.\w+:\d+(:\d+)?|: offset 0x[0-9a-f]+): [^\n]*"


def write(workdir, name, data):
    path = os.path.join(workdir, name)
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())
    return path


# ---- protobuf, enough for pprof's profile.proto -------------------------


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def field(number, value):
    """A varint field (int) or a length-delimited one (bytes)."""
    if isinstance(value, int):
        return varint(number << 3) + varint(value)
    return varint(number << 3 | 2) + varint(len(value)) + value


def pprof_inline_chain(depth):
    """One sample at one location holding `depth` inlined lines, each its
    own function: a stack `depth` frames deep in 4 bytes of input per frame."""
    strings = [b"", b"samples", b"count"] + [b"f%d" % i for i in range(depth)]
    p = bytearray(field(1, field(1, 1) + field(2, 2)))  # sample_type samples/count
    p += field(2, field(1, 1) + field(2, 1))  # sample: location 1, value 1
    lines = b"".join(field(4, field(1, i + 1)) for i in range(depth))
    p += field(4, field(1, 1) + lines)  # location 1
    for i in range(depth):
        p += field(5, field(1, i + 1) + field(2, i + 3))  # function i+1 named f<i>
    for s in strings:
        p += field(6, s)
    return bytes(p)


# ---- DeepFlow ProfileTracing JSON ---------------------------------------


def deepflow(nodes):
    """nodes: (name, id, parent, self, total) tuples."""
    rows = [
        {"profile_location_str": n, "node_id": i, "parent_node_id": p, "self_value": s, "total_value": t}
        for n, i, p, s, t in nodes
    ]
    return json.dumps({"OPT_STATUS": "SUCCESS", "DESCRIPTION": "", "result": rows})


def deepflow_chain(depth):
    """A chain `depth` nodes deep with a self value on every node: as
    stacks, depth*(depth+1)/2 frames."""
    nodes = [("root", "r", "-1", 0, depth)]
    for i in range(depth):
        nodes.append(("f%d" % i, "n%d" % i, "n%d" % (i - 1) if i else "r", 1, depth - i))
    return deepflow(nodes)


def deep_folded(depth):
    return ";".join("f%d" % (i % 1000) for i in range(depth)) + " 1\n"


# ---- deep chains: every output of every tree-shaped input ---------------

DEEP = 200_000
for to in ("html", "svg", "json", "dump", "pprof", "collapsed", "top", "dot"):

    @case("deep-folded-" + to, 0)
    def _deep_folded(d, to=to):
        return ["fg-convert", "--to", to, "-o", os.path.join(d, "out"), write(d, "deep.folded", deep_folded(DEEP))]


for to in ("html", "svg", "json", "dump", "pprof"):

    @case("deep-pprof-inline-" + to, 0)
    def _deep_inline(d, to=to):
        return ["fg-convert", "--to", to, "-o", os.path.join(d, "out"), write(d, "inline.pb", pprof_inline_chain(DEEP))]


CHAIN = 20_000
for to in ("html", "svg", "json"):

    @case("deep-deepflow-" + to, 0)
    def _deep_deepflow(d, to=to):
        return ["fg-convert", "--to", to, "-o", os.path.join(d, "out"), write(d, "chain.json", deepflow_chain(CHAIN))]


# Call graphs (top tables, DOT) count a function once per sample, as a walk
# up each sample's stack would, in passes over the stack tree: 100,000
# steps here, not the 5e9 of the samples' paths (20 s to minutes walked).
CALL_CHAIN = 100_000
for to in ("top", "dot", "callgraph-svg"):

    @case("deep-deepflow-" + to, 0, seconds=5)
    def _deep_deepflow_graph(d, to=to):
        chain = write(d, "chain.json", deepflow_chain(CALL_CHAIN))
        return ["fg-convert", "--to", to, "-o", os.path.join(d, "out"), chain]


@case("deep-deepflow-fg-top", 0, seconds=5)
def _deep_deepflow_fg_top(d):
    return ["fg-top", "--node-count", "5", write(d, "chain.json", deepflow_chain(CALL_CHAIN))]


@case("deep-deepflow-fg-diff", 0, seconds=5)
def _deep_deepflow_fg_diff(d):
    chain = write(d, "chain.json", deepflow_chain(CALL_CHAIN))
    return ["fg-diff", "--to", "top", "-o", os.path.join(d, "out"), chain, chain]


# Views and filters worked out node by node from the parent's, never by a
# walk up each sample's path (5e9 steps here: minutes).
for name, args in (
    ("flamechart", ["--to", "svg", "--flamechart"]),
    ("focus", ["--to", "svg", "--focus", "f", "--hide", "f7", "--show-from", "f1", "--prune-from", "f9"]),
    ("filters", ["--to", "svg", "--ignore", "x", "--skip", "3", "--collapse-recursion", "--max-depth", "90000"]),
    ("min-percent", ["--to", "svg", "--min-percent", "0.0001"]),
):

    @case("deep-deepflow-" + name, 0, seconds=5)
    def _deep_deepflow_view(d, args=args):
        chain = write(d, "chain.json", deepflow_chain(CALL_CHAIN))
        return ["fg-convert"] + args + ["-o", os.path.join(d, "out"), chain]


@case("deep-deepflow-fg-filter", 0, seconds=5)
def _deep_deepflow_fg_filter(d):
    chain = write(d, "chain.json", deepflow_chain(CALL_CHAIN))
    return ["fg-filter", "--focus", "f", "--threads", "frame", "-o", os.path.join(d, "out.json"), chain]


# A reversed stack shares no prefix with its parent's: reversing a chain
# spells out every path, so it is refused as collapsed output is.
for name, args in (("reverse", ["--to", "svg", "--reverse"]), ("invert", ["--to", "svg", "--invert"])):

    @case("deep-deepflow-" + name, 1, seconds=5, stderr=r"error: \S*chain\.json: reversing the stacks [^\n]* would spell out 200010000 frames")
    def _deep_deepflow_reversed(d, args=args):
        return ["fg-convert"] + args + ["-o", os.path.join(d, "out"), write(d, "chain.json", deepflow_chain(CHAIN))]


@case("deep-deepflow-include", 1, seconds=5, stderr=r"error: \S*chain\.json: --include and --exclude [^\n]* would spell out 200010000 frames")
def _deep_deepflow_include(d):
    return ["fg-convert", "--to", "svg", "--include", "f", "-o", os.path.join(d, "out"), write(d, "chain.json", deepflow_chain(CHAIN))]


# Formats that spell out every stack whole would write 200 M frames: refused
# at once, nothing written.
for to in ("collapsed", "dump", "pprof"):

    @case("deep-deepflow-" + to, 1, stderr=r"error: \S*chain\.json: " + to + " output would spell out 200010000 frames")
    def _deep_deepflow_expanded(d, to=to):
        return ["fg-convert", "--to", to, "-o", os.path.join(d, "out"), write(d, "chain.json", deepflow_chain(CHAIN))]


# ---- links that do not form a tree --------------------------------------


@case("deepflow-cycle", 1, stderr=POSITION + "parent_node_id links form a cycle")
def _deepflow_cycle(d):
    nodes = [("root", "r", "-1", 0, 2), ("a", "a", "b", 1, 1), ("b", "b", "a", 1, 1)]
    return ["fg-convert", "--to", "dump", write(d, "cycle.json", deepflow(nodes))]


@case("deepflow-long-cycle", 1, stderr=POSITION + "parent_node_id links form a cycle")
def _deepflow_long_cycle(d):
    n = 100_000
    nodes = [("root", "r", "-1", 0, 0)] + [("f", "n%d" % i, "n%d" % ((i + 1) % n), 1, 1) for i in range(n)]
    return ["fg-convert", "--to", "dump", write(d, "cycle.json", deepflow(nodes))]


@case("deepflow-self-parent", 1, stderr=POSITION + "its own parent")
def _deepflow_self_parent(d):
    nodes = [("root", "r", "-1", 0, 1), ("a", "a", "a", 1, 1)]
    return ["fg-convert", "--to", "dump", write(d, "self.json", deepflow(nodes))]


# ---- names: invalid UTF-8, NUL, control characters ----------------------


for to in ("svg", "html", "json", "top", "dot", "pprof"):

    @case("names-bad-utf8-" + to, 0)
    def _bad_utf8(d, to=to):
        data = b"main;\xff\xfe\xc0\x80;f\xed\xa0\x80 3\nmain;ok 1\n"
        return ["fg-convert", "--to", to, "-o", os.path.join(d, "out"), write(d, "utf8.folded", data)]


@case("names-nul-folded", 0)
def _nul_folded(d):
    # Drawn as U+FFFD: no NUL byte reaches the SVG (checked below).
    return ["fg-convert", "--to", "svg", "-o", os.path.join(d, "out"), write(d, "nul.folded", b"main;a\x00b 3\n")]


@case("names-nul-deepflow", 0)
def _nul_deepflow(d):
    nodes = [("root", "r", "-1", 0, 1), ("a\u0000b\u001b[31m\nforged 99", "a", "r", 1, 1)]
    return ["fg-convert", "--to", "top", "-o", os.path.join(d, "out"), write(d, "nul.json", deepflow(nodes))]


# ---- huge counts and sizes in length fields -----------------------------


@case("huge-count-folded", 0, stderr=r"warning: [^\n]*big\.folded:1:8: count does not fit in 64 bits")
def _huge_count(d):
    text = "main;a 99999999999999999999999\nmain;b 1\n"
    return ["fg-convert", "--to", "svg", "-o", os.path.join(d, "out"), write(d, "big.folded", text)]


@case("huge-sum-folded", 1, stderr=r"error: ")
def _huge_sum(d):
    return ["fg-convert", "--to", "svg", write(d, "sum.folded", "main;a 9223372036854775807\nmain;b 9223372036854775807\n")]


@case("pprof-huge-length", 1, stderr=POSITION)
def _pprof_huge_length(d):
    # A string_table entry claiming 2^62 bytes.
    data = field(1, field(1, 1) + field(2, 2)) + varint(6 << 3 | 2) + varint(1 << 62) + b"x"
    return ["fg-convert", "--from", "pprof", "--to", "dump", write(d, "len.pb", data)]


@case("pprof-huge-length-gz", 1, stderr=POSITION)
def _pprof_huge_length_gz(d):
    data = field(1, field(1, 1) + field(2, 2)) + varint(4 << 3 | 2) + varint((1 << 31) - 1) + b"x" * 100
    return ["fg-convert", "--to", "dump", write(d, "len.pb.gz", gzip.compress(data))]


@case("pprof-huge-index", 1, stderr=r"index\.pb: offset 0x16: function 0: name string index \d+ is out of range")
def _pprof_huge_index(d):
    # A function name pointing far past the string table.
    data = bytearray(field(1, field(1, 1) + field(2, 2)))
    data += field(2, field(1, 1) + field(2, 1))
    data += field(4, field(1, 1) + field(4, field(1, 1)))
    data += field(5, field(1, 1) + field(2, (1 << 62)))
    for s in (b"", b"samples", b"count"):
        data += field(6, s)
    return ["fg-convert", "--from", "pprof", "--to", "dump", write(d, "index.pb", bytes(data))]


@case("deepflow-huge-value", 1, stderr=POSITION)
def _deepflow_huge_value(d):
    text = deepflow([("root", "r", "-1", 0, 1), ("a", "a", "r", 1, 1)]).replace('"self_value": 1', '"self_value": 1e400')
    return ["fg-convert", "--to", "dump", write(d, "value.json", text)]


@case("jemalloc-huge-count", 1, stderr=POSITION)
def _jemalloc_huge_count(d):
    text = (
        "heap_v2/524288\n"
        "  t*: 99999999999999999999999: 1 [1: 100]\n"
        "@ 0x1\n"
        "  t*: 1: 100 [0: 0]\n"
        "MAPPED_LIBRARIES:\n"
    )
    return ["fg-convert", "--to", "dump", write(d, "huge.heap", text)]


# ---- Graphviz only sees bounded strings (finding 5), jeprof Legend (1) --


def jeprof_dot(label_extra="", legend_extra=""):
    return (
        "digraph \"jeprof\" {\n"
        "node [width=0.375,height=0.25];\n"
        "Legend [shape=box,fontsize=24,shape=plaintext,label=\"/bin/app\\lTotal MB: 10.0" + legend_extra + "\\l"
        "Focusing on: 10.0 MB (100.0%)\\lDropped nodes with <= 0.1 abs(MB)\\l\"];\n"
        "N1 [label=\"main" + label_extra + "\\n10.0 (100.0%)\\r\",shape=box,fontsize=50.0];\n"
        "}\n"
    )


@case("jeprof-long-legend", 0)
def _jeprof_long_legend(d):
    # std::regex recursed once per character here (SIGSEGV at about 50 KB).
    return ["fg-convert", "--to", "dump", "-o", os.path.join(d, "out"), write(d, "legend.dot", jeprof_dot(legend_extra="\\l" + "x" * 50_000))]


@case("jeprof-long-label", 0)
def _jeprof_long_label(d):
    return ["fg-convert", "--to", "dump", "-o", os.path.join(d, "out"), write(d, "label.dot", jeprof_dot(label_extra="y" * 10_000_000))]


@case("callgraph-svg-long-name", 0)
def _callgraph_long_name(d):
    name = "z" * 10_000_000
    return ["fg-convert", "--to", "callgraph-svg", "-o", os.path.join(d, "out.svg"), write(d, "long.folded", "main;%s 5\nmain;b 3\n" % name)]


# ---- a dense call graph: Graphviz's layout bounded (issue 35) -----------
# bench/gen_folded.py's profile shape gives 80 nodes and 533 edges over
# about 100 ranks: minutes of dot layout before the graph was bounded.


def dense_folded(d):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))
    import gen_folded  # in this process: its CPU time is not the tool's

    path = os.path.join(d, "dense.folded")
    with open(os.devnull, "w") as quiet:
        stdout, sys.stdout = sys.stdout, quiet
        try:
            gen_folded.main(["profile", "--seed", "1", "--size", "300000", "-o", path])
        finally:
            sys.stdout = stdout
    return path


@case("dense-callgraph-svg", 0, seconds=5)
def _dense_callgraph(d):
    return ["fg-convert", "--to", "callgraph-svg", "-o", os.path.join(d, "out.svg"), dense_folded(d)]


@case("dense-callgraph-svg-all-nodes", 0, seconds=5)
def _dense_callgraph_all(d):
    return ["fg-convert", "--to", "callgraph-svg", "--node-count", "100000", "--node-fraction", "0",
            "--edge-fraction", "0", "-o", os.path.join(d, "out.svg"), dense_folded(d)]


@case("dense-report", 0, seconds=10)
def _dense_report(d):
    return ["fg-report", "-o", os.path.join(d, "site"), dense_folded(d)]


# ---- options: no wrap-around, no nan or inf (findings 7, 8) -------------

USAGE = r"error: --[a-z-]+ [^\n]*: expected "


def option_case(name, tool, option, value):
    @case(name, 2, stderr=USAGE)
    def _option(d):
        inputs = [write(d, "a.folded", "main;a 3\nmain;b 1\n")]
        if tool == "fg-diff":
            inputs.append(inputs[0])
        return [tool, option, value, "-o", os.path.join(d, "out.svg")] + inputs


option_case("option-node-fraction-nan", "fg-convert", "--node-fraction", "nan")
option_case("option-edge-fraction-inf", "fg-convert", "--edge-fraction", "inf")
option_case("option-max-inflated-negative", "fg-convert", "--max-inflated", "-1")
option_case("option-height-huge", "fg-convert", "--height", "1e308")
option_case("option-width-negative", "fg-diff", "--width", "-1")
option_case("option-node-count-negative", "fg-top", "--node-count", "-1")
option_case("option-normalize-by-nan", "fg-diff", "--normalize-by", "nan")
option_case("option-min-delta-inf", "fg-diff", "--min-delta", "inf")
option_case("option-max-depth-negative", "fg-filter", "--max-depth", "-1")


@case("diff-normalize-by-huge", 1, stderr=r"error: a scaled value is too large")
def _normalize_huge(d):
    a = write(d, "a.folded", "main;a 3\nmain;b 1\n")
    return ["fg-diff", "--normalize-by", "1e30", "--to", "collapsed", a, a]


# ---- output that cannot be written (finding 9) ---------------------------

FULL = r"write failed: No space left on device"


@case("output-dev-full", 1, stderr=r"error: /dev/full: " + FULL)
def _dev_full(d):
    return ["fg-convert", "--to", "svg", "-o", "/dev/full", write(d, "a.folded", "main;a 3\n")]


@case("output-stdout-full", 1, stderr=r"error: standard output: " + FULL, stdout="/dev/full")
def _stdout_full(d):
    return ["fg-convert", "--to", "svg", write(d, "a.folded", "main;a 3\n")]


for flag in ("--help", "--list-formats", "--info"):

    @case("output-full" + flag, 1, stderr=r"error: standard output: " + FULL, stdout="/dev/full")
    def _info_full(d, flag=flag):
        return ["fg-convert", flag, write(d, "a.folded", "main;a 3\n")]


# ---- the runner ----------------------------------------------------------


def run(bin_dir, name):
    make, status, seconds, rss_mb, stderr_re, stdout = CASES[name]
    with tempfile.TemporaryDirectory(prefix="fg-hostile-") as d:
        argv = make(d)
        argv[0] = os.path.join(bin_dir, argv[0])
        start = time.monotonic()
        with open(stdout, "wb") as out:
            proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.PIPE)
        try:
            _, err = proc.communicate(timeout=max(120, 10 * seconds))
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            return "did not end within %d s" % max(120, 10 * seconds)
        elapsed = time.monotonic() - start
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu, peak_mb = usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024
        err = err.decode("utf-8", "replace")
        print("%s: status %d, %.2f s CPU (%.2f s elapsed), peak RSS %.0f MB" % (name, proc.returncode, cpu, elapsed, peak_mb))
        if err:
            print("stderr: " + err[:2000])
        problems = []
        if proc.returncode != status:
            problems.append("status %d, expected %d" % (proc.returncode, status))
        if cpu > seconds:
            problems.append("%.1f s of CPU time, over %d s" % (cpu, seconds))
        if peak_mb > rss_mb:
            problems.append("peak RSS %.0f MB over %d MB" % (peak_mb, rss_mb))
        if stderr_re and not re.search(stderr_re, err):
            problems.append("stderr does not match %r" % stderr_re)
        out = os.path.join(d, "out")
        if status != 0 and os.path.exists(out):
            problems.append("a failed run left an output file")
        if name.startswith("names-") and os.path.exists(out) and "pprof" not in name:
            with open(out, "rb") as f:
                if b"\x00" in f.read():
                    problems.append("a NUL byte reached the output")
        return "; ".join(problems) or None


def main():
    if sys.argv[1:] == ["--list"]:
        print("\n".join(CASES))
        return 0
    if len(sys.argv) != 3 or sys.argv[2] not in CASES:
        print(__doc__, file=sys.stderr)
        return 2
    problem = run(sys.argv[1], sys.argv[2])
    if problem:
        print("FAIL: " + problem)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
