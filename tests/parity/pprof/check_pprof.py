#!/usr/bin/env python3
"""pprof parity and round trips, with the real fg-convert.

usage: check_pprof.py FG_CONVERT raw CASE      per-stack totals vs go tool pprof -raw
       check_pprof.py FG_CONVERT go-tool-pprof PROFILE
           go tool pprof -raw on fg's rewrite of PROFILE lists the same samples
           (every value column, stack and label) as on PROFILE (ref/*.raw.txt)
       check_pprof.py FG_CONVERT top CASE     fg's top table vs go tool pprof -top
       check_pprof.py FG_CONVERT dot CASE     fg's DOT call graph vs go tool pprof -dot
       check_pprof.py FG_CONVERT fg-top CASE  fg-top (beside FG_CONVERT) with filters vs pprof -top
       check_pprof.py FG_CONVERT callgraph-svg PROFILE
           --to callgraph-svg is well-formed SVG drawing every node and edge
           of --to dot, with the node texts
       check_pprof.py FG_CONVERT difference PROFILE
           a difference profile (go tool pprof -proto -diff_base BASE NEW) is
           read as BASE and NEW: its collapsed form is fg-diff --absolute
           --to collapsed BASE NEW (fg-diff beside FG_CONVERT; the two inputs
           are named in the README), and its SVG and HTML flame graphs draw
           no negative geometry
       check_pprof.py FG_CONVERT roundtrip PROFILE
           pprof -> fg -> pprof -> fg: the two dumps are identical (but for the
           source line), and the written file is gzipped profile.proto
"""
import collections
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def run(*argv):
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        sys.exit("FAIL: %s exited %d: %s" % (" ".join(argv), p.returncode, p.stderr.decode()))
    return p.stdout


def folded(text, strip):
    stacks = collections.Counter()
    for line in text.splitlines():
        if not line:
            continue
        stack, count = line.rsplit(" ", 1)
        if strip:  # fg annotates inlined frames "_[i]"; pprof -raw does not
            stack = ";".join(re.sub(r"_\[[kjiw]\]$", "", f) for f in stack.split(";"))
        stacks[stack] += int(count)
    return {k: v for k, v in stacks.items() if v}


def run_utc(argv):
    """argv's output with TZ=UTC (pprof's headers print local times); exits on failure."""
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(os.environ, TZ="UTC"))
    if p.returncode != 0:
        sys.exit("FAIL: %s exited %d: %s" % (argv[0], p.returncode, p.stderr.decode()))
    return p.stdout.decode()


def same_lines(mine, want):
    """True when equal; else prints the first differing line and the counts."""
    if mine == want:
        return True
    for i, (a, b) in enumerate(zip(mine, want)):
        if a != b:
            print("line %d:\n  fg:    %s\n  pprof: %s" % (i + 1, a, b))
            break
    print("FAIL: %d lines from fg, %d from pprof" % (len(mine), len(want)))
    return False


def find_case(tsv, case):
    """The columns after the name of CASE's line in TSV."""
    for line in open(os.path.join(HERE, tsv)):
        if line.startswith("#") or not line.strip():
            continue
        columns = line.rstrip("\n").split("\t")
        if columns[0] == case:
            return columns[1:]
    sys.exit("no case %s in %s" % (case, tsv))


def raw(fg, case):
    profile, value, ref = find_case("cases.tsv", case)
    out = run(fg, os.path.join(HERE, profile), "--to", "collapsed", "--value", value)
    mine = folded(out.decode(), True)
    want = folded(open(os.path.join(HERE, ref)).read(), False)
    if mine != want:
        for k in sorted(set(mine) | set(want)):
            if mine.get(k) != want.get(k):
                print("differs: %s: fg %s, pprof %s" % (k[:160], mine.get(k), want.get(k)))
        return 1
    print("%s: %d stacks, total %d, equal" % (case, len(mine), sum(mine.values())))
    return 0


def roundtrip(fg, profile):
    src = os.path.join(HERE, profile)
    with tempfile.TemporaryDirectory() as tmp:
        written = os.path.join(tmp, "again.pb.gz")
        run(fg, src, "-o", written)
        with open(written, "rb") as f:
            if f.read(2) != b"\x1f\x8b":
                print("FAIL: the written profile is not gzipped")
                return 1
        first = run(fg, src, "--to", "dump").decode().splitlines()
        second = run(fg, written, "--to", "dump").decode().splitlines()
    strip = lambda lines: [l for l in lines if not l.startswith("source: ")]
    if strip(first) != strip(second):
        for a, b in zip(strip(first), strip(second)):
            if a != b:
                print("first dump:  %s\nsecond dump: %s" % (a[:300], b[:300]))
                break
        print("FAIL: %s changed in a round trip (%d vs %d lines)" % (profile, len(first), len(second)))
        return 1
    print("%s: %d dump lines identical after pprof -> fg -> pprof -> fg" % (profile, len(first)))
    return 0


def parse_raw(text):
    """The samples of `go tool pprof -raw` as a multiset of
    (values, stack of function names root first, labels)."""
    lines = text.split("\n")
    i = lines.index("Samples:") + 2
    samples = []
    while not lines[i].startswith("Locations"):
        line = lines[i]
        m = re.match(r"^\s*((?:-?\d+\s+)+)(-?\d+)?:((?:\s+\d+)*)\s*$", line)
        if m and ":" in line and not re.search(r"\S+:\[", line):
            head, ids = line.split(":", 1)
            samples.append([tuple(int(v) for v in head.split()), [int(x) for x in ids.split()], []])
        elif line.strip() and samples:
            samples[-1][2].extend(re.findall(r"(\S+?):\[([^\]]*)\]", line))
        i += 1
    i += 1
    locations, current = {}, None
    while i < len(lines) and not lines[i].startswith("Mappings"):
        m = re.match(r"^\s*(\d+): (0x[0-9a-f]+) M=(\d+) ?(.*)$", lines[i])
        if m:
            current = int(m.group(1))
            locations[current] = [m.group(4)] if m.group(4).strip() else [m.group(2)]
        elif lines[i].strip() and current is not None:
            locations[current].append(lines[i].strip())
        i += 1

    def name(entry):  # "<function> <file>:<line> s=<start>" -> "<function> <file>:<line>"
        return re.sub(r"\s+s=\d+$", "", entry)

    out = collections.Counter()
    for values, ids, labels in samples:
        stack = []
        for loc in reversed(ids):  # leaf first in the text
            stack.extend(name(e) for e in reversed(locations[loc]))
        out[(values, tuple(stack), tuple(sorted(labels)))] += 1
    return out


def gopprof(fg, profile):
    with tempfile.TemporaryDirectory() as tmp:
        written = os.path.join(tmp, "fg.pb.gz")
        run(fg, os.path.join(HERE, profile), "-o", written)
        env = dict(os.environ, HOME=tmp, PPROF_TMPDIR=tmp)
        p = subprocess.run(["go", "tool", "pprof", "-raw", written], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, env=env)
        if p.returncode != 0:
            print("FAIL: go tool pprof could not read fg's output: " + p.stderr.decode())
            return 1
        mine = parse_raw(p.stdout.decode())
    base = profile.split(".")[0]
    want = parse_raw(open(os.path.join(HERE, "ref", base + ".raw.txt")).read())
    if mine != want:
        for k in list((mine - want).keys())[:3]:
            print("only from fg's file: %s" % (k,))
        for k in list((want - mine).keys())[:3]:
            print("only from the original: %s" % (k,))
        return 1
    print("%s: go tool pprof -raw lists the same %d samples for fg's rewrite" % (profile, sum(mine.values())))
    return 0


def top(fg, case, tsv="top_cases.tsv"):
    profile, options, ref = find_case(tsv, case)
    args = [a for a in options.split("|") if a]
    if tsv == "filter_cases.tsv":  # through fg-top, beside fg-convert
        argv = [os.path.join(os.path.dirname(fg), "fg-top"), "--node-count", "100000", *args]
    else:
        argv = [fg, "--to", "top", *args]
    mine = run_utc([*argv, os.path.join(HERE, profile)]).splitlines()
    want = open(os.path.join(HERE, ref)).read().splitlines()
    if not same_lines(mine, want):
        return 1
    print("%s: %d lines identical to go tool pprof -top" % (case, len(mine)))
    return 0


def dot_lines(text, ours):
    """The lines of a DOT call graph with fg's deliberate differences from
    pprof normalised away: inlined edges are dashed in fg (asserted here),
    and the legend's link and dropped-edge count are left out."""
    out = []
    for line in text.splitlines():
        if "\\n (inline)" in line and ours:
            if ' style="dashed"' not in line and ' style="dotted"' not in line:
                sys.exit("FAIL: an inlined edge is not dashed: " + line)
            line = line.replace(' style="dashed"', "")
        if line.startswith("subgraph cluster_L"):
            line = line.replace("\\l\\lSee https://git.io/JfYMW for how to read the graph", "")
            line = re.sub(r"Dropped \d+ edges? \(freq <= [^)]*\)\\l", "", line)
        out.append(line)
    return out


def dot(fg, case):
    profile, options, ref = find_case("dot_cases.tsv", case)
    args = [a for a in options.split("|") if a]
    mine = dot_lines(run_utc([fg, "--to", "dot", *args, os.path.join(HERE, profile)]), True)
    want = dot_lines(open(os.path.join(HERE, ref)).read(), False)
    if not same_lines(mine, want):
        return 1
    nodes = sum(1 for l in mine if re.match(r"N\d+ \[label=", l))
    print("%s: %d lines (%d function nodes) identical to go tool pprof -dot" % (case, len(mine), nodes))
    return 0


def callgraph_svg(fg, profile):
    import xml.etree.ElementTree as ET
    src = os.path.join(HERE, profile)
    dot_text = run(fg, "--to", "dot", src).decode()
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "graph.svg")
        run(fg, "--to", "callgraph-svg", src, "-o", out)
        root = ET.parse(out).getroot()
    ns = "{http://www.w3.org/2000/svg}"
    drawn = {"node": {}, "edge": set()}
    for g in root.iter(ns + "g"):
        kind = g.get("class")
        if kind in drawn:
            title = g.find(ns + "title").text
            texts = [t.text for t in g.iter(ns + "text") if t.text]
            if kind == "node":
                drawn["node"][title] = texts
            else:
                drawn["edge"].add(title.replace("&#45;", "-"))
    nodes = re.findall(r"^(N\w+) \[label ?= ?\"([^\"]*)", dot_text, re.M)
    edges = set(re.findall(r"^(N\w+ -> N\w+) \[", dot_text, re.M))
    if set(drawn["node"]) - {t for t in drawn["node"] if " " in t or ":" in t} != {n for n, _ in nodes}:
        print("FAIL: the SVG draws nodes %s, the DOT has %s" % (sorted(drawn["node"])[:5], [n for n, _ in nodes][:5]))
        return 1
    if drawn["edge"] != {e.replace(" -> ", "->") for e in edges}:
        print("FAIL: the SVG's edges differ from the DOT's")
        return 1
    for name, label in nodes:  # every label line is drawn as a text of its node
        lines = [l for l in re.split(r"\\n", label) if l]
        if lines != drawn["node"][name]:
            print("FAIL: node %s: SVG texts %s, DOT label lines %s" % (name, drawn["node"][name], lines))
            return 1
    print("%s: %d nodes and %d edges drawn" % (profile, len(nodes), len(edges)))
    return 0


def flame_geometry_ok(svg_text):
    """True when every frame of the SVG lies inside the image: x >= 0,
    width >= 0, x + width <= the image's width (prints the first that does not)."""
    width = float(re.search(r'<svg [^>]*width="([0-9.]+)"', svg_text).group(1))
    rects = re.findall(r'<rect x="([-0-9.]+)" y="[-0-9.]+" width="([-0-9.]+)"', svg_text)
    for x, w in rects:
        if float(x) < 0 or float(w) < 0 or float(x) + float(w) > width + 0.05:
            print("FAIL: a frame at x=%s, width %s, in an image %g wide" % (x, w, width))
            return False
    return len(rects) > 0


def difference(fg, profile):
    src = os.path.join(HERE, profile)
    fg_diff = os.path.join(os.path.dirname(fg), "fg-diff")
    sides = [os.path.join(HERE, p) for p in ("cpu.pb.gz", "cpu2.pb.gz")]
    mine = sorted(run(fg, "-q", "--to", "collapsed", src).decode().splitlines())
    want = sorted(run(fg_diff, "--absolute", "--to", "collapsed", *sides).decode().splitlines())
    if not same_lines(mine, want):
        return 1
    svg = run(fg, "-q", "--to", "svg", src).decode()
    if "data-diff=" not in svg or not flame_geometry_ok(svg):
        print("FAIL: the SVG is no differential flame graph inside its image")
        return 1
    html = run(fg, "-q", "--to", "html", src).decode()
    data = html[html.index('id="fg-data">'):]
    if '"diff":true' not in data or re.search(r'"(nodes|base)":\[[^\]]*-\d', data):
        print("FAIL: the HTML page has no base column, or a negative value")
        return 1
    print("%s: %d two-count stacks as fg-diff's; SVG and HTML drawn without negative geometry" % (profile, len(mine)))
    return 0


if __name__ == "__main__":
    fg, mode, arg = sys.argv[1:4]
    modes = {"raw": raw, "go-tool-pprof": gopprof, "roundtrip": roundtrip, "top": top, "difference": difference, "dot": dot, "callgraph-svg": callgraph_svg,
             "fg-top": lambda fg, case: top(fg, case, "filter_cases.tsv")}
    sys.exit(modes[mode](fg, arg))
