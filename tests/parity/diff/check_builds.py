#!/usr/bin/env python3
"""fg-diff across two builds of one program draws what it draws for the
programs' collapsed forms: frames match by function name, whatever their
binary, mapping or source file.

usage: check_builds.py FG_DIFF FG_CONVERT PAIR FORMAT
    PAIR   corpus:  cpu.pb.gz -> cpu2.pb.gz (two builds: the binary and the
                    source paths differ)
           rebuilt: cpu.pb.gz -> the same profile with every mapping and
                    source file renamed (made here, see rebuild())
           jfr:     two async-profiler recordings of one Java program
                    (lambda class addresses and thread labels differ;
                    ../jfr/recordings)
    FORMAT svg, html, json, dot or callgraph-svg

The reference is fg-diff of `fg-convert --to collapsed` of each input. What
the collapsed form cannot carry is set aside, nothing else: the unit (SVG
and HTML are drawn with --countname samples), the sources and unit fields
of the HTML page's data and the frame kinds that have no folded annotation
(a JVM's C++ frames read back as native), and in call graphs the label (tag) boxes and the
space pprof leaves for them (minlen), and every number's unit (nodes and
edges are compared by name with their colours, sizes and styles; all nodes
are shown, as the tag boxes take from pprof's node budget).
"""
import gzip
import html
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PPROF = os.path.join(HERE, "..", "pprof")
JFR = os.path.join(HERE, "..", "jfr", "recordings")


# --- A second build of a pprof profile --------------------------------------
# Protocol buffers, as far as profile.proto needs: fields of wire types 0
# (varint), 1 (64-bit), 2 (length-delimited) and 5 (32-bit).

def varint(data, i):
    shift = value = 0
    while True:
        b = data[i]
        i += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if b < 0x80:
            return value, i


def encode_varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def fields(data):
    """(field number, wire type, raw field bytes, payload) for each field."""
    i = 0
    while i < len(data):
        start = i
        key, i = varint(data, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            payload, i = varint(data, i)
        elif wire == 1:
            payload, i = data[i:i + 8], i + 8
        elif wire == 5:
            payload, i = data[i:i + 4], i + 4
        elif wire == 2:
            n, i = varint(data, i)
            payload, i = data[i:i + n], i + n
        else:
            sys.exit("rebuild: unexpected wire type %d" % wire)
        yield number, wire, data[start:i], payload


def rebuild(src, dst):
    """Writes `src` as another build would name it: each mapping's file
    (Mapping.filename, field 5 of Profile.mapping = 3) and each function's
    source file (Function.filename, field 4 of Profile.function = 5) moved
    under /opt/rebuilt/ with "-v2" added; names, lines and samples as they
    were."""
    data = gzip.open(src).read()
    paths = set()
    for number, _, _, payload in fields(data):
        if number == 3:
            paths |= {v for n, w, _, v in fields(payload) if n == 5 and w == 0}
        elif number == 5:
            paths |= {v for n, w, _, v in fields(payload) if n == 4 and w == 0}
    paths.discard(0)
    out = bytearray()
    index = 0
    for number, _, raw, payload in fields(data):
        if number != 6:
            out += raw
            continue
        if index in paths:
            payload = ("/opt/rebuilt" + payload.decode() + "-v2").encode()
        out += encode_varint(6 << 3 | 2) + encode_varint(len(payload)) + payload
        index += 1
    if not paths:
        sys.exit("rebuild: %s names no file to rename" % src)
    with gzip.open(dst, "wb") as f:
        f.write(bytes(out))


# --- Outputs, without what a collapsed form cannot carry --------------------

def run(argv):
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(os.environ, TZ="UTC"))
    if p.returncode != 0:
        sys.exit("FAIL: %s exited %d: %s" % (" ".join(argv), p.returncode, p.stderr.decode()))
    return p.stdout.decode()


def html_page(text):
    m = re.search(r'(<script type="application/json" id="fg-data">)(.*?)(</script>)', text, re.S)
    data = json.loads(m.group(2))
    for key in ("type", "unit", "countName", "sources"):
        data.pop(key, None)
    # Kinds a folded line has no annotation for (C++ in a JVM, a library's
    # code: FrameKind 6 and 8) read back as native (0).
    data["nameKinds"] = [0 if k in (6, 8) else k for k in data.get("nameKinds", [])]
    return text[:m.start(2)] + json.dumps(data, sort_keys=True) + text[m.end(2):]


ATTR = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|\S+)')


def strip_value(text):
    """A DOT tooltip "name (value)" without its value."""
    return re.sub(r' \([^()]*\)"?$', "", text.strip('"'))


def dot_graph(text):
    names, nodes, edges = {}, {}, {}
    for line in text.splitlines():
        m = re.match(r"(N\d+) \[(.*)\]$", line)
        if m:  # a function's node (tag boxes are N1_0, ...)
            a = dict(ATTR.findall(m.group(2)))
            names[m.group(1)] = strip_value(a["tooltip"])
            nodes[names[m.group(1)]] = {k: v for k, v in a.items() if k not in ("label", "tooltip", "id")}
            continue
        m = re.match(r"(N\d+) -> (N\d+) \[(.*)\]$", line)
        if m:
            a = dict(ATTR.findall(m.group(3)))
            edges[names[m.group(1)], names[m.group(2)]] = {
                k: v for k, v in a.items() if k not in ("label", "tooltip", "labeltooltip", "minlen")}
    return nodes, edges


def callgraph_svg(text):
    nodes, edges, titles = {}, {}, {}
    for m in re.finditer(r'<g id="(node\d+|edge\d+)" class="(node|edge)">\s*<title>([^<]*)</title>\s*'
                         r'<g id="a_\w+"><a xlink:title="(.*?)">\s*<(?:polygon|path) fill="([^"]*)" stroke="([^"]*)"',
                         text, re.S):
        _, kind, title, tip, fill, stroke = m.groups()
        title = html.unescape(title)
        if kind == "node":
            if re.fullmatch(r"N\d+", title):
                titles[title] = strip_value(html.unescape(tip))
                nodes[titles[title]] = (fill, stroke)
        else:
            a, b = title.split("->")
            if a in titles and b in titles:
                edges[titles[a], titles[b]] = stroke
    return nodes, edges


FORMATS = {
    "svg": (["--countname", "samples"], lambda t: t),
    "html": (["--countname", "samples"], html_page),
    "json": ([], lambda t: t),
    "dot": (["--node-count", "100000"], dot_graph),
    "callgraph-svg": (["--node-count", "100000"], callgraph_svg),
}


def main(fg_diff, fg_convert, pair, fmt):
    with tempfile.TemporaryDirectory() as tmp:
        base = os.path.join(PPROF, "cpu.pb.gz")
        if pair == "corpus":
            new = os.path.join(PPROF, "cpu2.pb.gz")
        elif pair == "jfr":
            base = os.path.join(JFR, "cpu-recursion.ap-cpu.jfr.gz")
            new = os.path.join(JFR, "cpu-recursion-mixB.ap-cpu.jfr.gz")
        else:
            new = os.path.join(tmp, "rebuilt.pb.gz")
            rebuild(base, new)
        folded = []
        for i, path in enumerate((base, new)):
            folded.append(os.path.join(tmp, "%d.folded" % i))
            run([fg_convert, "-q", "--to", "collapsed", path, "-o", folded[-1]])
        args, view = FORMATS[fmt]
        mine = view(run([fg_diff, "-q", "--to", fmt, *args, base, new]))
        want = view(run([fg_diff, "--to", fmt, *args, *folded]))
    if mine == want:
        print("%s %s: fg-diff of the profiles equals fg-diff of their collapsed forms" % (pair, fmt))
        return 0
    if isinstance(mine, str):
        a, b = mine.splitlines(), want.splitlines()
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                print("line %d:\n  profiles:  %s\n  collapsed: %s" % (i + 1, x[:300], y[:300]))
                break
        print("FAIL: %d lines from the profiles, %d from their collapsed forms" % (len(a), len(b)))
    else:
        for part, x, y in zip(("node", "edge"), mine, want):
            for k in sorted(set(x) | set(y), key=str)[:10]:
                if x.get(k) != y.get(k):
                    print("%s %s:\n  profiles:  %s\n  collapsed: %s" % (part, k, x.get(k), y.get(k)))
        print("FAIL: %s graphs differ" % fmt)
    return 1


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:5]))
