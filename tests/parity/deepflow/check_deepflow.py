#!/usr/bin/env python3
"""Parity of fg's node/parent JSON with DeepFlow's ProfileTracing responses.

The responses in tests/data/deepflow were made from folded files by the
corpus' deepflow_from_folded.py, which reproduces DeepFlow's querier (node
ids, Go's JSON encoding, depth-first order with siblings sorted by name).

  check_deepflow.py FG_CONVERT to-collapsed CASE
      fg-convert --to collapsed RESPONSE equals the folded file (counts
      times the case's --value-scale), stack for stack.
  check_deepflow.py FG_CONVERT to-json CASE
      fg-convert --to json --json-envelope --root-name ROOT on the folded
      file (scaled) writes the response byte for byte, up to the envelope's
      "debug" key (after which fg adds its own keys).
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "data", "deepflow")


def case(name):
    with open(os.path.join(HERE, "cases.tsv"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            fields = line.rstrip("\n").split("\t")
            if fields[0] == name:
                return fields[1], fields[2], int(fields[3]), fields[4]
    sys.exit("no case " + name)


def stacks(text, scale=1):
    out = {}
    for line in text.splitlines():
        if not line.strip():
            continue
        stack, _, count = line.rpartition(" ")
        out[stack] = out.get(stack, 0) + int(count) * scale
    return out


def fg(binary, *args):
    p = subprocess.run([binary, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        sys.exit("fg-convert failed (%d): %s" % (p.returncode, p.stderr.decode("utf-8", "replace")))
    if p.stderr:
        sys.exit("fg-convert warned: " + p.stderr.decode("utf-8", "replace"))
    return p.stdout


def main():
    binary, mode, name = sys.argv[1:4]
    response, folded, scale, root = case(name)
    with open(os.path.join(DATA, folded), encoding="utf-8") as f:
        want = stacks(f.read(), scale)
    if mode == "to-collapsed":
        got = stacks(fg(binary, "--to", "collapsed", os.path.join(DATA, response)).decode("utf-8"))
        if got != want:
            for k in sorted(set(got) | set(want)):
                if got.get(k) != want.get(k):
                    print("stack %r: fg %s, folded %s" % (k, got.get(k), want.get(k)))
            return 1
    elif mode == "to-json":
        with tempfile.NamedTemporaryFile("w", suffix=".folded", encoding="utf-8") as tmp:
            tmp.writelines("%s %d\n" % (k, v) for k, v in want.items())
            tmp.flush()
            got = fg(binary, "--to", "json", "--json-envelope", "--root-name", root, tmp.name)
        with open(os.path.join(DATA, response), "rb") as f:
            expected = f.read()
        cut = expected.index(b',"debug"')
        if got[:cut] != expected[:cut]:
            at = next(i for i in range(cut) if i >= len(got) or got[i] != expected[i])
            print("first difference at byte %d:\n fg:       %r\n response: %r" %
                  (at, got[max(0, at - 60):at + 60], expected[max(0, at - 60):at + 60]))
            return 1
    else:
        sys.exit("unknown mode " + mode)
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
