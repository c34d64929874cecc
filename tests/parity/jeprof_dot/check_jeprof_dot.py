#!/usr/bin/env python3
"""jeprof DOT round trip: fg-convert reads a jeprof --dot call graph and
writes it back as a call graph; its nodes and edge weights must be jeprof's
(see README.md).

usage: check_jeprof_dot.py FG_CONVERT DOT_FILE

Nodes (name, flat, cum) come from fg's --to top-csv (integers in the
column's unit), edges from fg's --to dot (their tooltips name caller and
callee), both with --node-fraction 0 --edge-fraction 0 and no node limit.
fg's names are turned into jeprof's label form (white space and "::" become
line breaks) and compared with the labels. A value passes when it is within
half a unit of jeprof's last digit (0.05 MB, 0.5 objects) of jeprof's,
widened by fg's own printing precision for edge weights (two decimals in
the unit the DOT writer chose).

A graph without negative values must also unfold (--to collapsed) into
stacks without negative values.

fg's call graph views of a jeprof DOT draw the graph as recorded (the
graph is kept beside the stacks unfolded from it), so every node and
edge, self-edges (f -> f) included, must come back. Not compared, and
printed: fg's frames for what jeprof dropped ("[callers dropped by jeprof]",
"[callees dropped by jeprof]"), which only the unfolded stacks have.
"""
import re
import subprocess
import sys

SYNTHETIC = ("[callers dropped by jeprof]", "[callees dropped by jeprof]")
UNITS = {"B": 1, "kB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30, "TB": 1 << 40}
FLAGS = ["--node-fraction", "0", "--edge-fraction", "0", "--node-count", "1000000"]


def run(*argv):
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        sys.exit("FAIL: %s exited %d: %s" % (" ".join(argv), p.returncode, p.stderr.decode()))
    return p.stdout.decode()


def jeprof_label(name):
    """jeprof's PrintDot: white space runs, then '::', become '\\n'."""
    return re.sub(r"\s+", r"\\n", name).replace("::", r"\n")


def read_jeprof(path):
    text = open(path).read()
    unit = re.search(r"Total (\S+): ", text).group(1)
    ids, nodes, edges = {}, {}, {}
    for m in re.finditer(r'^N(\d+) \[label="(.*)\\n([-0-9.]+) \([^)]*\)(?:\\rof ([-0-9.]+) \([^)]*\))?\\r"', text, re.M):
        flat = float(m.group(3))
        cum = float(m.group(4)) if m.group(4) is not None else flat
        ids[m.group(1)] = m.group(2)
        nodes[m.group(2)] = (flat, cum)
    for m in re.finditer(r"^N(\d+) -> N(\d+) \[label=([-0-9.]+),", text, re.M):
        key = (ids[m.group(1)], ids[m.group(2)])
        edges[key] = edges.get(key, 0) + float(m.group(3))
    return unit, nodes, edges


def read_fg(fg, path, scale):
    nodes = {}
    csv = run(fg, "-q", "--from", "jeprof-dot", "--to", "top-csv", *FLAGS, path).splitlines()
    for line in csv[1:]:
        flat, _, _, cum, _, name = line.split(",", 5)
        nodes[name.strip('"')] = (int(flat) / scale, int(cum) / scale)
    edges, precision = {}, {}
    dot = run(fg, "-q", "--from", "jeprof-dot", "--to", "dot", *FLAGS, path)
    for m in re.finditer(r'^N\d+ -> N\d+ \[.* tooltip="(.*) -> (.*) \(([-0-9.]+)([A-Za-z]*)\)" labeltooltip', dot, re.M):
        factor = UNITS.get(m.group(4), 1)
        edges[(m.group(1), m.group(2))] = float(m.group(3)) * factor / scale
        precision[(m.group(1), m.group(2))] = 0.005 * factor / scale
    return nodes, edges, precision


def main():
    fg, path = sys.argv[1], sys.argv[2]
    unit, j_nodes, j_edges = read_jeprof(path)
    scale = 1 << 20 if unit == "MB" else 1
    # jeprof prints MB rounded ("%.1f") but counts truncated ("%d"): a count
    # n stands for a value in [n, n+1).
    half = 0.05 if unit == "MB" else 1.0
    f_nodes, f_edges, precision = read_fg(fg, path, scale)
    failures, notes = [], []
    by_label = {}
    for name, values in f_nodes.items():
        if name in SYNTHETIC:
            notes.append("not a function, not compared: %s flat %.3f cum %.3f" % (name, *values))
            continue
        by_label[jeprof_label(name)] = values
    for label, (flat, cum) in sorted(j_nodes.items()):
        got = by_label.pop(label, None)
        if got is None:
            if flat != 0 or cum != 0:
                failures.append("node %s: missing in fg" % label)
            continue
        for what, want, have in (("flat", flat, got[0]), ("cum", cum, got[1])):
            if abs(want - have) > half + 1e-9:
                failures.append("node %s: %s %g in jeprof, %.4f in fg" % (label, what, want, have))
    for label in sorted(by_label):
        failures.append("node %s: only in fg" % label)
    f_by_label = {}
    for (a, b), w in f_edges.items():
        if a in SYNTHETIC or b in SYNTHETIC:
            notes.append("edge of a dropped-by-jeprof frame, not compared: %s -> %s %.3f" % (a, b, w))
            continue
        f_by_label[(jeprof_label(a), jeprof_label(b))] = (w, precision[(a, b)])
    for (a, b), want in sorted(j_edges.items()):
        have, prec = f_by_label.pop((a, b), (0.0, 0.0))
        if abs(want - have) > half + prec + 1e-9:
            failures.append("edge %s -> %s: %g in jeprof, %.4f in fg" % (a, b, want, have))
    for (a, b), (w, _) in sorted(f_by_label.items()):
        if abs(w) > half:
            failures.append("edge %s -> %s: %.4f only in fg" % (a, b, w))
    # A graph of no negative values unfolds into stacks of no negative
    # values: the flame graph writers refuse those (rounding carried from
    # one stack to the next once made a -1).
    if all(v >= 0 for values in j_nodes.values() for v in values):
        folded = run(fg, "-q", "--from", "jeprof-dot", "--to", "collapsed", path).splitlines()
        negative = [line for line in folded if line.rsplit(" ", 1)[1].startswith("-")]
        failures += ["unfolded stack with a negative value: " + line for line in negative]
    for n in notes:
        print("note: " + n)
    for f in failures:
        print("FAIL: " + f)
    print("%d nodes, %d edges; %d differences" % (len(j_nodes), len(j_edges), len(failures)))
    sys.exit(1 if failures else 0)


main()
