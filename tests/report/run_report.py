#!/usr/bin/env python3
"""End-to-end tests of fg-report over a small mixed corpus (inputs/).

Usage: run_report.py BIN_DIR WORK_DIR CASE

Expected values are worked out here independently of the site: totals as
the sum of fg-convert --to collapsed, the top functions as fg-top --format
csv ranks them, the gate's verdicts by hand from the folded inputs (base
total 100, new 125; lex 40% -> 56% of the total). Prints FAIL lines and
exits 1 on a mismatch.
"""

import csv
import gzip
import io
import json
import os
import pty
import re
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
INPUTS = os.path.join(HERE, "inputs")
MIXED = os.path.join(INPUTS, "mixed")
MANIFESTS = os.path.join(INPUTS, "manifest")
GOOD = ["basic.folded", "heap.pb.gz", "jeprof-m1.dot", "lock.jfr.gz", "small.heap", "total_host.json",
        "xss.folded"]
FORMATS = {"basic": "collapsed", "heap": "pprof", "jeprof-m1": "jeprof-dot", "lock": "jfr",
           "small": "jemalloc", "total_host": "json", "xss": "collapsed"}
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL: " + what)


def run(tool, args, env=None, stdin=None):
    return subprocess.run([os.path.join(BIN, tool)] + args, input=stdin, capture_output=True,
                          env=dict(os.environ, **(env or {})), timeout=300)


def site_files(site):
    found = []
    for root, _, files in os.walk(site):
        found += [os.path.relpath(os.path.join(root, f), site) for f in files]
    return sorted(found)


def report(args, out, env=None, stdin=None):
    shutil.rmtree(out, ignore_errors=True)
    return run("fg-report", args + ["-o", out], env, stdin)


def summary(site):
    with open(os.path.join(site, "summary.json"), encoding="utf-8") as f:
        return json.load(f)


def collapsed_total(path):
    out = run("fg-convert", ["--to", "collapsed", "-q", path]).stdout.decode()
    return sum(float(line.rsplit(" ", 1)[1]) for line in out.splitlines() if line)


def top3(path):
    rows = list(csv.reader(io.StringIO(run("fg-top", ["--format", "csv", "-q", path]).stdout.decode())))[1:]
    names = [r[5].removesuffix(" (inline)").removesuffix(" (partial-inline)") for r in rows if float(r[0]) != 0]
    return names[:3]


def case_mixed():
    """Every format, a truncated and an empty input: facts, files, status 1."""
    out = os.path.join(WORK, "mixed")
    inputs = [os.path.join(MIXED, f) for f in GOOD + ["truncated.folded.gz", "empty.folded"]]
    r = report(inputs, out)
    check(r.returncode == 1, f"exit status {r.returncode}, expected 1 (two inputs fail)")
    s = summary(out)
    check(s["schema_version"] == 1, "schema_version 1")
    check((s["profiles_count"], s["failed"], s["regressed"]) == (9, 2, 0), "counts 9, 2 failed, 0 regressed")
    by_name = {p["name"]: p for p in s["profiles"]}
    check([p["path"] for p in s["profiles"]] == inputs, "profiles in input order")
    for name, p in by_name.items():
        if name in FORMATS:
            check(p["status"] == "ok" and p["format"] == FORMATS[name], f"{name}: ok, {FORMATS[name]}")
            total = p["values"][p["default_value"]]["total"]
            check(abs(total - collapsed_total(p["path"])) < 1e-9, f"{name}: total {total} = collapsed sum")
            check([t["name"].removesuffix(" (inline)") for t in p["top"]] == top3(p["path"]), f"{name}: top 3 as fg-top")
    for name in ("lock", "heap", "basic"):
        info = run("fg-convert", ["--info", "-q", by_name[name]["path"]]).stdout.decode()
        known = [int(l.split(":")[1]) for l in info.splitlines() if l.startswith("duration ns:")]
        check(by_name[name]["duration_ns"] == (known[0] if known else 0), f"{name}: duration as fg-convert --info")
    check(by_name["lock"]["duration_ns"] > 0, "lock: a JFR recording has a duration")
    truncated, empty = by_name["truncated"], by_name["empty"]
    check(truncated["status"] == "error" and truncated["error"].startswith(inputs[-2] + ": truncated gzip"),
          f"truncated: error with file and position ({truncated.get('error')})")
    check(empty["status"] == "error" and empty["error"].startswith(inputs[-1] + ": ") and "is 0" in empty["error"],
          f"empty: error naming the file ({empty.get('error')})")
    heap_values = [v["type"] for v in by_name["heap"]["values"]]
    check(heap_values == ["alloc_objects", "alloc_space", "inuse_objects", "inuse_space"], "heap: 4 columns")
    expected = ["index.html", "junit.xml", "summary.json", "summary.md"]
    for name in FORMATS:
        n = len(by_name[name]["values"])
        expected += [f"p/{name}/index.html", f"p/{name}/fg-report-page.txt"] + [f"p/{name}/{v}-{i}.{e}" for i in range(n)
                                                 for v, e in (("flame", "html"), ("top", "txt"),
                                                              ("callgraph", "svg"), ("icicle", "svg"),
                                                              ("reversed", "svg"))]
    expected += [f"p/{name}/threads-{i}.txt" for name in ("lock", "small")  # thread labels
                 for i in range(len(by_name[name]["values"]))]
    check(site_files(out) == sorted(expected), f"the site's files: {site_files(out)}")
    check(not [f for f in os.listdir(WORK) if ".tmp-" in f], "no temporary folder left")
    for page in ["index.html", "p/xss/index.html"]:
        with open(os.path.join(out, page), encoding="utf-8") as f:
            text = f.read()
        check(text.count("<script") == 2 and "<img" not in text and "</script><script>" not in text,
              f"{page}: names stay data (two script elements, no markup from names)")
    with open(os.path.join(out, "junit.xml"), encoding="utf-8") as f:
        junit = f.read()
    check('tests="9" failures="0" errors="2"' in junit, "junit.xml: 9 tests, 2 errors")
    with open(os.path.join(out, "summary.md"), encoding="utf-8") as f:
        md = f.read()
    check(md.startswith("## fg-report: 9 profiles, 2 failed, 0 regressed\n"), "summary.md header")
    check("&lt;script&gt;" in md and "<script>" not in md, "summary.md: names escaped")


def case_jobs():
    """The same site, byte for byte, at --jobs 1 and 2 (threaded paths forced),
    and with every call graph laid out in a worker process."""
    inputs = [os.path.join(MIXED, f) for f in GOOD + ["truncated.folded.gz"]]
    one, two = os.path.join(WORK, "jobs1"), os.path.join(WORK, "jobs2")
    r1 = report(["--jobs", "1"] + inputs, one)
    r2 = report(["--jobs", "2"] + inputs, two, env={"FG_PARALLEL_MIN": "0"})
    check(r1.returncode == r2.returncode == 1, "both runs exit 1")
    check(site_files(one) == site_files(two), "the same files")
    slash = os.path.join(WORK, "slash")
    r = report(["--jobs", "1"] + inputs, slash + "/")
    check(r.returncode == 1 and site_files(slash) == site_files(one), "-o DIR/: the same site, at DIR")
    r = report(["--jobs", "1"] + inputs, slash + "/")  # again: replaces the earlier report
    check(r.returncode == 1 and site_files(slash) == site_files(one), "-o DIR/ again: replaced whole")
    check(not [f for f in os.listdir(WORK) if ".tmp-" in f or ".old-" in f], "no temporary folder left")
    # Every call graph laid out by a worker process (fg-report --graphviz-worker).
    workers = os.path.join(WORK, "workers")
    r3 = report(["--jobs", "2"] + inputs, workers, env={"FG_PARALLEL_MIN": "0", "FG_LAYOUT_WORKERS": "always"})
    check(r3.returncode == 1 and site_files(workers) == site_files(one), "layout workers: the same files")
    check(any(f.endswith(".svg") and "callgraph-" in f for f in site_files(one)), "call graph pages drawn")
    for other in (two, workers):
        for f in site_files(one):
            with open(os.path.join(one, f), "rb") as a, open(os.path.join(other, f), "rb") as b:
                check(a.read() == b.read(), f"{f}: the same bytes in {os.path.basename(other)}")


def case_inputs():
    """A folder is searched by content (README.txt and the empty file are no
    profiles), in sorted order, and - reads paths from standard input."""
    folder = os.path.join(WORK, "folder")
    r = report([MIXED], folder)
    check(r.returncode == 1, f"folder: exit 1 (the truncated gzip), got {r.returncode}")
    paths = [p["path"] for p in summary(folder)["profiles"]]
    expected = sorted(os.path.join(MIXED, f) for f in GOOD + ["truncated.folded.gz"])
    check(paths == expected, f"folder: the profiles by content, sorted: {paths}")
    listed = os.path.join(WORK, "listed")
    r = report(["-"], listed, stdin=("\n".join(expected) + "\n").encode())
    check(r.returncode == 1 and [p["path"] for p in summary(listed)["profiles"]] == expected,
          "-: the paths on standard input")
    # Beside profiles, the files a collection of them holds: a manifest (TSV,
    # JSON), notes ending in numbers, JFR settings (XML). No reader
    # recognises them (at most a maybe: any JSON, any XML, text with numbers
    # at line ends): skipped, and counted once. A recognised but broken file
    # (a truncated gzip, a JFR recording cut after its header) still fails.
    mixed = os.path.join(WORK, "collection")
    shutil.rmtree(mixed, ignore_errors=True)
    os.makedirs(os.path.join(mixed, "notes"))
    shutil.copy(os.path.join(MIXED, "basic.folded"), mixed)
    shutil.copy(os.path.join(MIXED, "truncated.folded.gz"), mixed)
    shutil.copy(os.path.join(MANIFESTS, "hosts.tsv"), mixed)
    shutil.copy(os.path.join(MANIFESTS, "more.json"), os.path.join(mixed, "notes"))
    with open(os.path.join(mixed, "notes", "README"), "w", encoding="utf-8") as f:
        f.write("Profiles of release 2\n\nTaken at load 80 on hosts 1 to 3; see the wiki.\n")
    with open(os.path.join(mixed, "profile.jfc"), "w", encoding="utf-8") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<configuration version="2.0" label="Profiling">\n'
                '  <event name="jdk.ExecutionSample">\n    <setting name="period">10 ms</setting>\n'
                '  </event>\n</configuration>\n')
    with open(os.path.join(mixed, "cut.jfr"), "wb") as f:
        f.write(b"FLR\0\0\x02\0\0" + bytes(24))
    folder = os.path.join(WORK, "collection-site")
    r = report([mixed], folder)
    err = r.stderr.decode()
    got = {p["path"]: p["status"] for p in summary(folder)["profiles"]}
    want = {os.path.join(mixed, f): s for f, s in (("basic.folded", "ok"), ("cut.jfr", "error"),
                                                   ("truncated.folded.gz", "error"))}
    check(r.returncode == 1 and got == want, f"a collection: its profiles, the broken ones failed ({got})")
    check(err.count("fg-report: note: skipped 4 files in folders that no format recognises by content") == 1,
          f"a collection: the files skipped, counted once ({err!r})")
    r = report([os.path.join(mixed, "hosts.tsv"), os.path.join(mixed, "basic.folded")], folder)
    got = {p["name"]: p["status"] for p in summary(folder)["profiles"]}
    check(r.returncode == 1 and got == {"hosts.tsv": "error", "basic": "ok"} and "skipped" not in r.stderr.decode(),
          f"a file named on the command line is an input, whatever it holds ({got})")


def case_fleet():
    """A fleet's profiles share file names across folders: a profile found
    in a folder is named by its path relative to that folder (less its
    extensions), so that mirrored baseline folders pair by name."""
    fleet = os.path.join(WORK, "fleet")
    shutil.rmtree(fleet, ignore_errors=True)
    totals = {("old", "host1"): 100, ("old", "host2"): 50, ("new", "host1"): 100, ("new", "host2"): 80}
    for (side, host), n in totals.items():
        os.makedirs(os.path.join(fleet, side, host))
        with open(os.path.join(fleet, side, host, "cpu.folded"), "w", encoding="utf-8") as f:
            f.write(f"main;work {n}\n")
    shutil.copy(os.path.join(MIXED, "basic.folded"), os.path.join(fleet, "new"))
    out = os.path.join(WORK, "fleet-site")
    r = report(["--baseline", os.path.join(fleet, "old"), "--fail-if", "total>+10%", os.path.join(fleet, "new")],
               out)
    check(r.returncode == 3, f"exit 3 (host2: 50 -> 80), got {r.returncode}: {r.stderr.decode().strip()}")
    profiles = summary(out)["profiles"] if os.path.exists(os.path.join(out, "summary.json")) else []
    names = [(p["name"], p["page"]) for p in profiles]
    check(names == [("basic", "p/basic/index.html"), ("host1/cpu", "p/host1_cpu/index.html"),
                    ("host2/cpu", "p/host2_cpu/index.html")], f"names relative to the folder: {names}")
    pairs = {p["name"]: (p.get("baseline", {}).get("path"), p.get("baseline", {}).get("base_total"), p["status"])
             for p in profiles}
    check(pairs.get("host1/cpu") == (os.path.join(fleet, "old", "host1", "cpu.folded"), 100, "ok") and
          pairs.get("host2/cpu") == (os.path.join(fleet, "old", "host2", "cpu.folded"), 50, "regressed") and
          pairs.get("basic") == (None, None, "ok"), f"mirrored folders pair by name: {pairs}")
    r = report(["--baseline", os.path.join(fleet, "old"), os.path.join(fleet, "new", "host1", "cpu.folded")], out)
    check(r.returncode == 0 and "baseline" not in summary(out)["profiles"][0],
          "a file named on the command line keeps its file name (cpu): no baseline of that name")
    # Only the extensions of profile files end a name: the releases of one
    # service (svc.v1, svc.v2), a host's domain name and flamegraph.pl's
    # renderings of one profile (go_cpu.default.svg, go_cpu.inverted.svg)
    # keep their dots and stay apart (a name up to its first dot made them
    # one name).
    dotted = os.path.join(WORK, "dotted")
    shutil.rmtree(dotted, ignore_errors=True)
    os.makedirs(dotted)
    for name in ("svc.v1.folded", "svc.v2.folded.gz", "db1.example.com.pb.gz", "heap.jfr", ".hidden.folded"):
        data = b"main;work 1\n"
        if name.endswith(".gz"):
            data = gzip.compress(data)
        with open(os.path.join(dotted, name), "wb") as f:
            f.write(data)
    out = os.path.join(WORK, "dotted-site")
    report(["--baseline", os.path.join(dotted, "svc.v1.folded"), dotted], out)
    names = sorted(p["name"] for p in summary(out)["profiles"])
    check(names == [".hidden", "db1.example.com", "heap", "svc.v1", "svc.v2"],
          f"names keep their dots, less the profile extensions at their end: {names}")


def case_baseline():
    """A baseline pair that trips the gate: exit 3, junit failures, verdicts."""
    out = os.path.join(WORK, "baseline")
    new = os.path.join(INPUTS, "new")
    gate = ["--fail-if", "total>+5%", "--fail-if", "total<-50%", "--fail-if", "function:lex>+10%"]
    r = report(["--baseline", os.path.join(INPUTS, "base")] + gate + [new], out)
    check(r.returncode == 3, f"exit status {r.returncode}, expected 3")
    by_name = {p["name"]: p for p in summary(out)["profiles"]}
    svc, other = by_name["svc"]["baseline"], by_name["other"]["baseline"]
    check((svc["base_total"], svc["new_total"]) == (100, 125), "svc: totals 100 -> 125")
    check([g["tripped"] for g in svc["gate"]] == [True, False, True], f"svc: verdicts {svc['gate']}")
    check([g["tripped"] for g in other["gate"]] == [False, False, False], "other: holds")
    check(by_name["svc"]["status"] == "regressed" and by_name["other"]["status"] == "ok", "statuses")
    check("p/svc/diff.svg" in site_files(out) and "p/svc/delta.txt" in site_files(out), "diff views")
    with open(os.path.join(out, "junit.xml"), encoding="utf-8") as f:
        junit = f.read()
    check('tests="8" failures="2" errors="0"' in junit, "junit.xml: 2 reads + 6 conditions, 2 failures")
    ref = run("fg-diff", ["--fail-if", "total>+5%", "--to", "report", os.path.join(INPUTS, "base", "svc.folded"),
                          os.path.join(new, "svc.folded")])
    check(ref.returncode == 3, "fg-diff agrees: total>+5% trips")
    one = os.path.join(WORK, "one-baseline")
    r = report(["--baseline", os.path.join(INPUTS, "base", "other.folded"), "--fail-if", "total>+5%", new], one)
    check(r.returncode == 3, "one baseline for all: svc (125 vs 10) trips")
    bad = os.path.join(MIXED, "truncated.folded.gz")
    r = report(["--baseline", bad, new], one)
    errors = [p["baseline"].get("error", "") for p in summary(one)["profiles"]]
    check(r.returncode == 1 and all(e.startswith(bad + ": truncated gzip") for e in errors) and len(errors) == 2,
          f"a bad baseline for all: each pair fails with its error ({errors})")


def case_shards():
    """Shards 1/3, 2/3, 3/3 merged (in any order) equal the unsharded site,
    byte for byte, also with a manifest's groups; a missing or repeated
    shard is an error and no site."""
    inputs = [os.path.join(MIXED, f) for f in GOOD + ["truncated.folded.gz"]]
    base = ["--baseline", os.path.join(INPUTS, "base", "svc.folded"), "--fail-if", "total>+5%"]
    whole = os.path.join(WORK, "whole")
    r = report(base + inputs + [os.path.join(INPUTS, "new", "svc.folded")], whole)
    check(r.returncode == 1, f"unsharded: exit 1, got {r.returncode}")
    parts = []
    for i in (1, 2, 3):
        parts.append(os.path.join(WORK, f"part{i}"))
        report(["--shard", f"{i}/3"] + base + inputs + [os.path.join(INPUTS, "new", "svc.folded")], parts[-1])
    merged = os.path.join(WORK, "merged")
    r = report(["merge", parts[2], parts[0], parts[1]], merged)
    check(r.returncode == 1, f"merge: exit 1 as the unsharded run, got {r.returncode}")
    check(site_files(whole) == site_files(merged), "merged: the same files")
    for f in site_files(whole):
        with open(os.path.join(whole, f), "rb") as a, open(os.path.join(merged, f), "rb") as b:
            check(a.read() == b.read(), f"merged {f}: the same bytes")
    # With a manifest's groups: each part carries its partial group merges,
    # merged in shard order into group pages equal to the unsharded ones.
    grouped = ["--manifest", os.path.join(MANIFESTS, "hosts.tsv"), "--manifest", os.path.join(MANIFESTS, "more.json"),
               os.path.join(MIXED, "basic.folded")]
    whole = os.path.join(WORK, "whole-groups")
    r = report(grouped, whole)
    check(r.returncode == 0 and "g/web/flame-0.html" in site_files(whole), f"groups unsharded: exit {r.returncode}")
    gparts = []
    for i in (1, 2, 3):
        gparts.append(os.path.join(WORK, f"gpart{i}"))
        r = report(["--shard", f"{i}/3"] + grouped, gparts[-1])
        check(r.returncode == 0, f"groups shard {i}/3: exit {r.returncode}")
    check(any(f.startswith("merges/") for f in site_files(gparts[0])), "a part carries its group merges")
    merged = os.path.join(WORK, "merged-groups")
    r = report(["merge", gparts[1], gparts[2], gparts[0]], merged)
    check(r.returncode == 0 and site_files(whole) == site_files(merged), f"groups merged: the same files ({r.returncode})")
    for f in site_files(whole):
        with open(os.path.join(whole, f), "rb") as a, open(os.path.join(merged, f), "rb") as b:
            check(a.read() == b.read(), f"groups merged {f}: the same bytes")
    for args, what in (([parts[0], parts[1]], "shard 3/3 is missing"), ([parts[0], parts[0], parts[1], parts[2]],
                                                                         "shard 1 again")):
        out = os.path.join(WORK, "bad-merge")
        r = report(["merge"] + args, out)
        check(r.returncode == 1 and what in r.stderr.decode() and not os.path.exists(out), f"merge: {what}")


def same_site(site, other, what):
    """Checks that `other` has the files of `site`, byte for byte."""
    check(site_files(site) == site_files(other), f"{what}: the same files")
    for f in set(site_files(site)) & set(site_files(other)):
        with open(os.path.join(site, f), "rb") as a, open(os.path.join(other, f), "rb") as b:
            check(a.read() == b.read(), f"{what}: {f} the same bytes")


def case_tree():
    """Four shards merged as a tree with merge --part, ((1,2),(3,4)) and
    (1,(2,3),4), equal the unsharded site and the flat merge byte for byte,
    with groups spread over shards, a failed input and a gate; a part merge
    repeats its shards' verdict; overlapping, repeated, non-adjacent parts
    and parts of another batch are refused, naming the part, leaving nothing."""
    args = ["--baseline", os.path.join(INPUTS, "base", "svc.folded"), "--fail-if", "total>+5%",
            "--manifest", os.path.join(MANIFESTS, "hosts.tsv"), "--manifest", os.path.join(MANIFESTS, "more.json"),
            os.path.join(MIXED, "basic.folded"), os.path.join(MIXED, "truncated.folded.gz"),
            os.path.join(INPUTS, "new", "svc.folded")]
    whole = os.path.join(WORK, "whole")
    r = report(args, whole)
    check(r.returncode == 1, f"unsharded: exit 1 (the truncated input), got {r.returncode}")
    # Inputs 0..8 (plain ones first, then the manifests') over 4 shards:
    # web (inputs 3, 4, 5) spans shards 4, 1, 2 and db (6, 7) shards 3, 4,
    # so every tree merges partial group merges.
    check(all(f"g/{g}/flame-0.html" in site_files(whole) for g in ("web", "db")), "unsharded: both groups")
    parts, codes, errs = {}, {}, {}
    for i in (1, 2, 3, 4):
        parts[i] = os.path.join(WORK, f"part{i}")
        r = report(["--shard", f"{i}/4"] + args, parts[i])
        codes[i], errs[i] = r.returncode, r.stderr.decode()
        check(codes[i] in (0, 1, 3), f"shard {i}/4: exit 0, 1 or 3, got {codes[i]}")

    def verdict(shards):  # the exit status a merge of these shards repeats
        return 1 if any(codes[i] == 1 for i in shards) else 3 if any(codes[i] == 3 for i in shards) else 0

    truncated = os.path.join(MIXED, "truncated.folded.gz")

    def said_once(err, shards, what):  # the failed input's message: in its shard's run only
        failing = [i for i in shards if codes[i] == 1]
        check("failed: " not in err and truncated not in err and
              (not failing or re.search(r"fg-report: \d+ profiles? failed \(as the runs that read them said\)", err)),
              f"{what}: the failure counted, its message not repeated ({err.strip()})")

    check(sum(e.count(truncated + ": truncated gzip") for e in errs.values()) == 1,
          f"the failed input's message: printed once, by its shard ({errs})")

    def merge_part(name, inputs, shards):
        out = os.path.join(WORK, name)
        r = report(["merge", "--part"] + inputs, out)
        check(r.returncode == verdict(shards), f"merge --part {name}: exit {verdict(shards)}, got {r.returncode} "
                                                f"({r.stderr.decode().strip()})")
        said_once(r.stderr.decode(), shards, f"merge --part {name}")
        return out

    p12 = merge_part("p12", [parts[2], parts[1]], (1, 2))  # any order of the inputs
    p34 = merge_part("p34", [parts[3], parts[4]], (3, 4))
    p23 = merge_part("p23", [parts[2], parts[3]], (2, 3))
    p1234 = merge_part("p1234", [p34, p12], (1, 2, 3, 4))
    with open(os.path.join(p12, "fg-report-part.txt"), encoding="utf-8") as f:
        check(f.read().split("\n")[1] == "shard 1\t4\t2", "p12: a part of shards 1 to 2 of 4")
    check(any(f.startswith("merges/") for f in site_files(p23)), "p23: carries its group merges")
    for name, inputs in (("flat", [parts[4], parts[3], parts[2], parts[1]]), ("tree-12-34", [p12, p34]),
                         ("tree-1-23-4", [parts[1], p23, parts[4]]), ("tree-1234", [p1234])):
        site = os.path.join(WORK, name)
        r = report(["merge"] + inputs, site)
        check(r.returncode == 1, f"merge {name}: exit 1 as the unsharded run, got {r.returncode}")
        said_once(r.stderr.decode(), (1, 2, 3, 4), f"merge {name}")
        same_site(whole, site, name)
    for args_, what in ((["--part", p12, p23], f"{p23}: shard 2 again (first in {p12})"),
                        ([p12, p23, parts[4]], f"{p23}: shard 2 again (first in {p12})"),
                        (["--part", parts[1], parts[1]], f"{parts[1]}: shard 1 again (first in {parts[1]})"),
                        (["--part", parts[1], parts[3]], f"{parts[3]}: does not follow {parts[1]}: shard 2/4 is missing"),
                        ([p12, parts[4]], "merge: shard 3/4 is missing"),
                        ([p34], "merge: shard 1/4 is missing")):
        out = os.path.join(WORK, "bad-merge")
        r = report(["merge"] + args_, out)
        err = r.stderr.decode()
        check(r.returncode == 1 and what in err and not os.path.exists(out), f"merge {args_}: {what} ({err.strip()})")
    other = os.path.join(WORK, "other-batch")
    report(["--shard", "2/3"] + args, other)
    r = report(["merge", "--part", parts[1], other], os.path.join(WORK, "bad-merge"))
    check(r.returncode == 1 and f"{other}: a part of another batch" in r.stderr.decode(),
          f"merge --part of another batch: refused ({r.stderr.decode().strip()})")
    r = report(["--part"] + args, os.path.join(WORK, "bad-merge"))
    check(r.returncode == 2 and "--part belongs to merge" in r.stderr.decode(), "--part without merge: usage, exit 2")


def deepflow_chain(depth):
    """A DeepFlow tree: a chain `depth` nodes deep with a self value on every
    node, which reversed spells out depth*(depth+1)/2 frames."""
    rows = [{"profile_location_str": "root", "node_id": "r", "parent_node_id": "-1", "self_value": 0,
             "total_value": depth}]
    for i in range(depth):
        rows.append({"profile_location_str": "f%d" % i, "node_id": "n%d" % i,
                     "parent_node_id": "n%d" % (i - 1) if i else "r", "self_value": 1, "total_value": depth - i})
    return json.dumps({"OPT_STATUS": "SUCCESS", "DESCRIPTION": "", "result": rows})


def case_views():
    """Each column's icicle and reversed views are fg-convert's --inverted
    and --reverse SVGs, byte for byte; a chain that reversing would spell
    out past fg's bounds (20,000 deep: 2e8 frames) loses only its reversed
    view, with a warning, and the run succeeds."""
    chain = os.path.join(WORK, "chain.json")
    with open(chain, "w", encoding="utf-8") as f:
        f.write(deepflow_chain(20_000))
    heap = os.path.join(MIXED, "heap.pb.gz")
    out = os.path.join(WORK, "views")
    r = report([heap, chain], out)
    check(r.returncode == 0, f"exit status {r.returncode}, expected 0 (a refused view is a warning)")
    by_name = {p["name"]: p for p in summary(out)["profiles"]}
    for i in range(4):
        for view, flag in (("icicle", "--inverted"), ("reversed", "--reverse")):
            ref = run("fg-convert", ["-q", "--to", "svg", flag, "--value", str(i), heap]).stdout
            with open(os.path.join(out, "p", "heap", f"{view}-{i}.svg"), "rb") as f:
                check(f.read() == ref, f"heap: {view}-{i}.svg as fg-convert --to svg {flag} --value {i}")
    c = by_name["chain"]
    check(c["status"] == "ok", f"chain: ok ({c.get('error')})")
    check("reversed-0.svg" not in c["files"] and "icicle-0.svg" in c["files"] and "flame-0.html" in c["files"],
          f"chain: every view but the reversed one ({c['files']})")
    check(any("reversed view" in w and "refusing past" in w for w in c["warnings"]),
          f"chain: the refusal is its warning ({c['warnings']})")
    check("reversed view" in r.stderr.decode(), "the warning on stderr")


def run_on_terminal(args):
    """fg-report with standard error a pseudo-terminal: (status, seconds, what it wrote there)."""
    master, slave = pty.openpty()
    start = time.monotonic()
    p = subprocess.Popen([os.path.join(BIN, "fg-report")] + args, stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    out = b""
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the last writer is gone
            break
        if not data:
            break
        out += data
    os.close(master)
    return p.wait(timeout=300), time.monotonic() - start, out.decode()


def case_progress():
    """On a terminal, a progress line rewritten with \r, throttled, erased
    at the end, notes on lines of their own; with -q or off a terminal,
    none of it."""
    out = os.path.join(WORK, "progress")
    shutil.rmtree(out, ignore_errors=True)
    status, seconds, err = run_on_terminal(["--jobs", "1", MIXED, "-o", out])
    check(status == 1, f"terminal: exit 1 (the truncated gzip), got {status}")
    bars = re.findall(r"\rfg-report: (\d+)/8 profiles, (\d+) failed\x1b\[K", err)
    check(len(bars) >= 1, f"terminal: a progress line ({err!r})")
    check(len(bars) <= seconds / 0.1 + 1, f"terminal: at most 10 a second ({len(bars)} in {seconds:.2f} s)")
    check(all(0 < int(d) <= 8 and int(f) <= 1 for d, f in bars), f"terminal: counts {bars}")
    last = err.rfind("profiles, ")
    check(err.find("\r\x1b[K", last) > last, "terminal: the line erased at the end")
    check("fg-report: warning:" in err[last:], "terminal: the warnings after it")
    notes = [m.start() for m in re.finditer("fg-report: note:", err)]
    check(notes and all(i == 0 or err[i - 1] == "\n" or err[i - 3:i] == "\x1b[K" for i in notes),
          f"terminal: each note on a line of its own ({err!r})")
    status, _, err = run_on_terminal(["-q", "--jobs", "1", MIXED, "-o", out])
    check(status == 1 and "profiles," not in err and "\r" not in err.replace("\r\n", ""), f"-q: no progress ({err!r})")
    r = report(["--jobs", "1", MIXED], out)
    plain = r.stderr.decode()
    check(r.returncode == 1 and "profiles," not in plain and "\r" not in plain and "\x1b" not in plain,
          f"not a terminal: no progress ({plain!r})")


def case_failfast():
    """--fail-fast: the first failure stops the run (a FIFO after it is
    never opened), exit 1, no site written, an earlier site kept whole;
    --keep-going, the default, lists it and goes on."""
    fifo = os.path.join(WORK, "never.folded")
    if os.path.exists(fifo):
        os.remove(fifo)
    os.mkfifo(fifo)
    out = os.path.join(WORK, "failfast")
    basic, bad = os.path.join(MIXED, "basic.folded"), os.path.join(MIXED, "truncated.folded.gz")
    r = report([basic], out)
    check(r.returncode == 0, f"a first site: exit 0, got {r.returncode}")
    before = {f: open(os.path.join(out, f), "rb").read() for f in site_files(out)}
    # --jobs 1 does the second input first (then the first): the FIFO would
    # block the run if it were opened after the failure.
    r = run("fg-report", ["--jobs", "1", "--fail-fast", fifo, bad, "-o", out])
    err = r.stderr.decode()
    check(r.returncode == 1, f"--fail-fast: exit 1, got {r.returncode}")
    check("failed: " + bad + ": truncated gzip" in err and "--fail-fast" in err and "no site written" in err,
          f"--fail-fast: the failure and the stop on stderr ({err!r})")
    after = {f: open(os.path.join(out, f), "rb").read() for f in site_files(out)}
    check(after == before, "--fail-fast: the earlier site kept, byte for byte")
    check(not [f for f in os.listdir(WORK) if f.startswith("failfast.")], "--fail-fast: no temporary left")
    os.remove(fifo)
    r = report(["--keep-going", bad, basic], out)
    s = summary(out)
    check(r.returncode == 1 and [p["status"] for p in s["profiles"]] == ["error", "ok"],
          "--keep-going: the failure listed, the others done")
    r = report(["--fail-fast", basic, os.path.join(MIXED, "heap.pb.gz")], out)
    check(r.returncode == 0 and summary(out)["profiles_count"] == 2, "--fail-fast, nothing fails: the site")
    r = run("fg-report", ["--fail-fast", "--keep-going", basic, "-o", out])
    check(r.returncode == 2 and "choose one" in r.stderr.decode(), "--fail-fast --keep-going: exit 2")


def case_threads():
    """A JFR recording's page has the busiest threads of each column: the
    sums by thread of fg-convert --threads (the thread as the root frame),
    largest first; a profile without thread labels has none."""
    lock, basic = os.path.join(MIXED, "lock.jfr.gz"), os.path.join(MIXED, "basic.folded")
    out = os.path.join(WORK, "threads")
    r = report([lock, basic], out)
    check(r.returncode == 0, f"exit status {r.returncode}")
    by_name = {p["name"]: p for p in summary(out)["profiles"]}
    check(not [f for f in by_name["basic"]["files"] if f.startswith("threads-")], "basic: no thread table")
    values = by_name["lock"]["values"]
    check(len(values) == 2, f"lock: two columns ({values})")
    for i, v in enumerate(values):
        sums = {}
        for line in run("fg-convert", ["-q", "--threads", "--to", "collapsed", "--value", str(i), lock]).stdout.decode().splitlines():
            stack, n = line.rsplit(" ", 1)
            thread = re.sub(r" tid=\d+\]$", "", stack.split(";")[0]).removeprefix("[")
            sums[thread] = sums.get(thread, 0) + int(n)
        expected = sorted(sums.items(), key=lambda kv: (-kv[1], kv[0]))
        with open(os.path.join(out, "p", "lock", f"threads-{i}.txt"), encoding="utf-8") as f:
            lines = f.read().splitlines()
        check(lines[0] == f"Busiest threads by {v['type']} ({v['unit']}), of {v['total']} in all", f"header {lines[0]}")
        rows = [l.split(None, 3) for l in lines[2:]]
        got = [(r[3], int(r[0])) for r in rows]
        check(got == expected, f"lock column {i}: threads {got}, expected {expected}")
        share = [float(r[1].rstrip("%")) for r in rows]
        check(all(abs(s - 100.0 * n / v["total"]) < 0.006 for s, (_, n) in zip(share, got)), f"shares {share}")


def tree(site):
    """{file: (bytes, inode)} of a site."""
    out = {}
    for f in site_files(site):
        with open(os.path.join(site, f), "rb") as fh:
            out[f] = (fh.read(), os.stat(os.path.join(site, f)).st_ino)
    return out


def case_reuse():
    """A re-run over unchanged inputs and options takes the pages from the
    earlier site (hard links: the same inodes) and writes the same bytes as
    a fresh run; a changed input, baseline or option draws again; shards
    reuse their own parts and still merge into the unsharded site."""
    inputs_dir = os.path.join(WORK, "reuse-inputs")
    shutil.rmtree(inputs_dir, ignore_errors=True)
    shutil.copytree(MIXED, inputs_dir)
    base = ["--baseline", os.path.join(INPUTS, "base", "svc.folded"), "--fail-if", "total>+5%"]
    svc = os.path.join(WORK, "reuse-inputs", "svc.folded")
    shutil.copy(os.path.join(INPUTS, "new", "svc.folded"), svc)
    out, fresh = os.path.join(WORK, "reuse"), os.path.join(WORK, "reuse-fresh")
    r = report(base + [inputs_dir], out)
    check(r.returncode == 1, f"first run: exit 1, got {r.returncode}")
    first = tree(out)
    # A page whose input or comparison failed is drawn again each time.
    good = [p["page"].removesuffix("index.html") for p in summary(out)["profiles"] if p["status"] != "error"]
    check(len(good) >= 4 and "p/basic/" in good, f"pages without failure: {good}")
    r = run("fg-report", base + [inputs_dir, "-o", out])
    check(r.returncode == 1 and f"reused {len(good)} unchanged pages" in r.stderr.decode(),
          f"re-run: {len(good)} pages reused ({r.stderr.decode()[-300:]!r})")
    again = tree(out)
    check({f: b for f, (b, _) in again.items()} == {f: b for f, (b, _) in first.items()}, "re-run: the same bytes")
    for f, (_, ino) in again.items():
        if f.startswith(tuple(good)) and not f.endswith("/index.html") and not f.endswith("fg-report-page.txt"):
            check(ino == first[f][1], f"re-run: {f} reused (same inode)")
    with open(os.path.join(inputs_dir, "basic.folded"), "a", encoding="utf-8") as f:
        f.write("main;changed 7\n")
    r = run("fg-report", base + [inputs_dir, "-o", out])
    check(f"reused {len(good) - 1} unchanged pages" in r.stderr.decode(), "one input changed: the others reused")
    changed = tree(out)
    report(base + [inputs_dir], fresh)
    check({f: b for f, (b, _) in changed.items()} == {f: b for f, (b, _) in tree(fresh).items()},
          "one input changed: the same bytes as a fresh run")
    differ = sorted(f for f in changed if f.startswith("p/") and changed[f][0] != again.get(f, (None,))[0])
    check(differ and all(f.startswith("p/basic/") for f in differ), f"one input changed: only its page differs ({differ})")
    check(all(changed[f][1] == again[f][1] for f in changed if f.startswith("p/svc/") and f.endswith(".svg")),
          "one input changed: the others reused")
    r = run("fg-report", base + ["--width", "800", inputs_dir, "-o", out])
    check("reused" not in r.stderr.decode(), "an option changed: nothing reused")
    r = run("fg-report", ["--baseline", os.path.join(INPUTS, "base", "other.folded"), inputs_dir, "-o", out])
    r = run("fg-report", ["--baseline", os.path.join(INPUTS, "base", "svc.folded"), inputs_dir, "-o", out])
    check("reused" not in r.stderr.decode(), "another baseline: nothing reused")
    parts = [os.path.join(WORK, f"reuse-part{i}") for i in (1, 2, 3)]
    reused = 0
    for rounds in (1, 2):
        for i, part in enumerate(parts, 1):
            if rounds == 1:
                shutil.rmtree(part, ignore_errors=True)
            r = run("fg-report", ["--shard", f"{i}/3"] + base + [inputs_dir, "-o", part])
            if rounds == 2:
                reused += sum(int(n) for n in re.findall(r"reused (\d+) unchanged pages", r.stderr.decode()))
    check(reused == len(good), f"shards again: each reuses its pages ({reused} of {len(good)})")
    merged = os.path.join(WORK, "reuse-merged")
    report(["merge"] + parts, merged)
    check({f: b for f, (b, _) in tree(merged).items()} == {f: b for f, (b, _) in tree(fresh).items()},
          "shards re-run and merged: the unsharded site, byte for byte")


RECORDINGS = os.path.join(HERE, "..", "parity", "jfr", "recordings")
VIEWS = (("flame", "html"), ("top", "txt"), ("callgraph", "svg"), ("icicle", "svg"), ("reversed", "svg"),
         ("threads", "txt"))


def kind_total(path, kind, column):
    """A kind's column total: the sum of fg-convert --KIND --to collapsed."""
    option = [] if kind == "samples" else ["--" + kind]
    out = run("fg-convert", option + ["--to", "collapsed", "-q", "--value", str(column), path]).stdout.decode()
    return sum(int(line.rsplit(" ", 1)[1]) for line in out.splitlines() if line)


def same_sites(a, b, what):
    check(site_files(a) == site_files(b), f"{what}: the same files")
    for f in site_files(a):
        with open(os.path.join(a, f), "rb") as x, open(os.path.join(b, f), "rb") as y:
            check(x.read() == y.read(), f"{what}: {f} the same bytes")


def case_kinds():
    """A JFR recording with samples, allocations and locks (the JDK's
    cpu-recursion: ExecutionSample 731, ObjectAllocationSample 3498,
    JavaMonitorEnter 3, as jfr summary counts them) gets pages of each
    kind, each flame graph fg-convert --KIND's; --alloc reads that kind
    only; a folded input's page keeps its bytes; a baseline pair compares
    and gates kind by kind; --jobs 1 = 2; shards merge into the same site;
    a re-run reuses every kind's pages."""
    jdk = os.path.join(RECORDINGS, "cpu-recursion.jdk.jfr.gz")
    mixb = os.path.join(RECORDINGS, "cpu-recursion-mixB.jdk.jfr.gz")  # samples 888, alloc 4274, no locks
    lock, basic = os.path.join(MIXED, "lock.jfr.gz"), os.path.join(MIXED, "basic.folded")
    out = os.path.join(WORK, "kinds")
    r = report([jdk, lock, basic], out)
    check(r.returncode == 0, f"exit status {r.returncode}")
    # The reader's note names no other kinds: they get pages; fg-convert's does.
    err = r.stderr.decode()
    check(f"{jdk}: samples counted from jdk.ExecutionSample" in err and "holds --" not in err,
          f"the reader's note, without the other kinds ({err!r})")
    err = run("fg-convert", ["--to", "collapsed", jdk]).stderr.decode()
    check("; the file also holds --alloc (jdk.ObjectAllocationSample 3498) --lock" in err,
          f"fg-convert: the note names the other kinds ({err!r})")
    by_name = {p["name"]: p for p in summary(out)["profiles"]}
    p = by_name["cpu-recursion.jdk"]
    check(p.get("kind") == "samples" and [k["kind"] for k in p.get("kinds", [])] == ["alloc", "lock"],
          f"cpu-recursion: samples, then alloc and lock ({p.get('kind')}, {p.get('kinds')})")
    check(by_name["lock"].get("kind") == "lock" and "kinds" not in by_name["lock"], "lock-only: one kind")
    check("kind" not in by_name["basic"] and "kinds" not in by_name["basic"], "folded: no kind")
    expected = []
    for k in [p] + p["kinds"]:
        kind = k.get("kind")
        prefix = "" if k is p else kind + "/"
        check(k["status"] == "ok" and len(k["values"]) == (1 if k is p else 2), f"{kind}: ok, its columns")
        for i, v in enumerate(k["values"]):
            check(v["total"] == kind_total(jdk, kind, i), f"{kind} column {i}: total {v['total']} = collapsed sum")
            option = [] if k is p else ["--" + kind]
            ref = run("fg-convert", option + ["-q", "--to", "html", "--value", str(i), jdk]).stdout
            with open(os.path.join(out, "p", "cpu-recursion_jdk", f"{prefix}flame-{i}.html"), "rb") as f:
                check(f.read() == ref, f"{prefix}flame-{i}.html = fg-convert {' '.join(option)} --to html --value {i}")
            ref = run("fg-convert", option + ["-q", "--to", "svg", "--inverted", "--value", str(i), jdk]).stdout
            with open(os.path.join(out, "p", "cpu-recursion_jdk", f"{prefix}icicle-{i}.svg"), "rb") as f:
                check(f.read() == ref, f"{prefix}icicle-{i}.svg = fg-convert {' '.join(option)} --inverted")
            expected += [f"{prefix}{v}-{i}.{e}" for v, e in VIEWS]
    check(sorted(p["files"] + [f for k in p["kinds"] for f in k["files"]]) == sorted(expected),
          f"cpu-recursion: every kind's views ({p['files']}, {[k['files'] for k in p['kinds']]})")
    check(all(os.path.exists(os.path.join(out, "p", "cpu-recursion_jdk", f)) for f in expected), "the files exist")
    alone = os.path.join(WORK, "kinds-basic")
    report([basic], alone)
    for f in site_files(os.path.join(alone, "p")):
        with open(os.path.join(alone, "p", f), "rb") as a, open(os.path.join(out, "p", f), "rb") as b:
            check(a.read() == b.read(), f"basic's {f}: the same bytes beside a recording of several kinds")
    with open(os.path.join(out, "summary.md"), encoding="utf-8") as f:
        md = f.read()
    check("| cpu-recursion.jdk | alloc | ok | 3498 count |" in md and "| cpu-recursion.jdk | lock | ok | 3 count |" in md,
          "summary.md: a row per kind")
    with open(os.path.join(out, "index.html"), encoding="utf-8") as f:
        check("['kinds'," in f.read(), "index.html: the kinds column")
    chosen = os.path.join(WORK, "kinds-alloc")
    r = report(["--alloc", jdk], chosen)
    q = summary(chosen)["profiles"][0]
    check(r.returncode == 0 and q.get("kind") == "alloc" and "kinds" not in q and
          not [f for f in site_files(chosen) if "/alloc/" in f or "/lock/" in f], f"--alloc: that kind only ({q})")
    # The baseline pair: samples 733 -> 888 (+21.15%), alloc 3498 -> 4274
    # (+22.18%) trip total>+5%; total>+25% holds; the baseline's locks have
    # no counterpart: a note.
    gated = os.path.join(WORK, "kinds-baseline")
    r = report(["--baseline", jdk, "--fail-if", "total>+5%", "--fail-if", "total>+25%", mixb], gated)
    check(r.returncode == 3, f"baseline: exit 3, got {r.returncode}")
    q = summary(gated)["profiles"][0]
    alloc = q["kinds"][0]
    check([k["kind"] for k in q["kinds"]] == ["alloc"], f"mixB: samples and alloc ({q['kinds']})")
    check((q["baseline"]["base_total"], q["baseline"]["new_total"]) == (733, 888), "samples: 733 -> 888")
    check((alloc["baseline"]["base_total"], alloc["baseline"]["new_total"]) == (3498, 4274), "alloc: 3498 -> 4274")
    check([g["tripped"] for g in alloc["baseline"]["gate"]] == [True, False], f"alloc: verdicts {alloc['baseline']}")
    check(q["status"] == "regressed" and alloc["status"] == "regressed", "statuses: regressed")
    check(any("holds lock events" in w for w in q["warnings"]), f"the baseline's lock kind: a note ({q['warnings']})")
    check("alloc/diff.svg" in alloc["files"] and "alloc/delta.txt" in alloc["files"], "alloc: its diff views")
    check("regression: cpu-recursion-mixB.jdk (alloc): total>+5%" in r.stderr.decode(), "stderr: the kind's regression")
    with open(os.path.join(gated, "junit.xml"), encoding="utf-8") as f:
        junit = f.read()
    check('tests="5" failures="2" errors="0"' in junit and 'name="alloc: total&gt;+5%"' in junit,
          "junit.xml: a read, two conditions per kind, two trips")
    rev = os.path.join(WORK, "kinds-reverse")
    r = report(["--baseline", mixb, jdk], rev)
    lock_kind = summary(rev)["profiles"][0]["kinds"][1]
    check(r.returncode == 0 and "baseline" not in lock_kind and
          any("holds no lock events" in w for w in lock_kind["warnings"]), f"lock, not in the baseline: a note")
    inputs = ["--baseline", jdk, "--fail-if", "total>+5%", mixb, jdk, lock, basic]
    one, two = os.path.join(WORK, "kinds-jobs1"), os.path.join(WORK, "kinds-jobs2")
    report(["--jobs", "1"] + inputs, one)
    report(["--jobs", "2"] + inputs, two, env={"FG_PARALLEL_MIN": "0"})
    same_sites(one, two, "--jobs 2")
    q = {p["name"]: p for p in summary(one)["profiles"]}["lock"]
    check((q["baseline"]["base_total"], q["baseline"]["new_total"]) == (3, 3094),
          f"lock-only: compared with the baseline's locks, not its samples ({q['baseline']})")
    parts = [os.path.join(WORK, f"kinds-part{i}") for i in (1, 2)]
    for i, part in enumerate(parts, 1):
        report(["--shard", f"{i}/2"] + inputs, part)
    merged = os.path.join(WORK, "kinds-merged")
    r = report(["merge"] + parts, merged)
    check(r.returncode == 3, f"merge: exit 3 as unsharded, got {r.returncode}")
    same_sites(one, merged, "shards merged")
    # A group of the two recordings: merged kind by kind (samples 733 + 888,
    # alloc 3498 + 4274, lock 3 + none), the same when sharded and merged.
    manifest = os.path.join(WORK, "kinds.tsv")
    with open(manifest, "w", encoding="utf-8") as f:
        f.write(f"path\tgroup\n{jdk}\tjava\n{mixb}\tjava\n{basic}\tfolded\n")
    grouped = os.path.join(WORK, "kinds-group")
    r = report(["--jobs", "1", "--manifest", manifest], grouped)
    g = summary(grouped).get("groups", [{}])[0]
    totals = [(k.get("kind"), k["values"][0]["total"]) for k in [g] + g.get("kinds", [])]
    check(r.returncode == 0 and totals == [("samples", 1621), ("alloc", 7772), ("lock", 3)],
          f"group java: merged per kind ({r.returncode}, {totals})")
    check(all(os.path.exists(os.path.join(grouped, "g", "java", f)) for k in g.get("kinds", []) for f in k["files"])
          and "alloc/flame-1.html" in g["kinds"][0]["files"], "group java: each kind's views")
    gparts = [os.path.join(WORK, f"kinds-gpart{i}") for i in (1, 2)]
    for i, part in enumerate(gparts, 1):
        report(["--shard", f"{i}/2", "--manifest", manifest], part)
    merged = os.path.join(WORK, "kinds-gmerged")
    r = report(["merge", gparts[1], gparts[0]], merged)
    same_sites(grouped, merged, "group shards merged")
    r = run("fg-report", ["--jobs", "1"] + inputs + ["-o", one])
    check("reused 4 unchanged pages" in r.stderr.decode(), f"re-run: reused ({r.stderr.decode()[-200:]!r})")
    same_sites(one, two, "re-run")
    first = os.stat(os.path.join(two, "p", "cpu-recursion_jdk", "alloc", "flame-0.html")).st_ino
    r = run("fg-report", ["--jobs", "1"] + inputs + ["-o", two])
    check(os.stat(os.path.join(two, "p", "cpu-recursion_jdk", "alloc", "flame-0.html")).st_ino == first,
          "re-run: a kind's file reused (the same inode)")


def case_cpuwall():
    """async-profiler's cpu and wall-clock samples in one recording (combo:
    event=cpu,wall=20ms; jfr summary: jdk.ExecutionSample 2881,
    profiler.WallClockSample 14660 events) are two kinds, cpu and wall, each
    with the pages fg-convert --cpu / --wall draws, before alloc and lock;
    none mixes them. A JDK recording keeps its one samples kind (case_kinds)."""
    combo = os.path.join(RECORDINGS, "combo.ap-cpu-alloc-lock-wall.jfr.gz")
    out = os.path.join(WORK, "cpuwall")
    r = report([combo], out)
    check(r.returncode == 0, f"exit status {r.returncode}: {r.stderr.decode()}")
    # The default events' note (what they counted) is of no page: cpu and wall are read apart.
    check("samples counted from" not in r.stderr.decode(), f"no note on the mixed samples: {r.stderr.decode()}")
    p = summary(out)["profiles"][0]
    kinds = [p.get("kind")] + [k["kind"] for k in p.get("kinds", [])]
    check(kinds == ["cpu", "wall", "alloc", "lock"], f"kinds cpu, wall, alloc, lock ({kinds})")
    if kinds != ["cpu", "wall", "alloc", "lock"]:
        return
    cpu, wall = p, p["kinds"][0]
    check([(v["type"], v["total"]) for v in cpu["values"]] == [("cpu", 2881)],
          f"cpu: one sample per jdk.ExecutionSample event ({cpu['values']})")
    wall_total = wall["values"][0]["total"]
    check(wall["values"][0]["type"] == "wall" and wall_total == kind_total(combo, "wall", 0),
          f"wall: fg-convert --wall's total ({wall['values']})")
    check(2881 + wall_total == kind_total(combo, "samples", 0), "cpu + wall: the default events' total")
    for prefix, option in (("", "--cpu"), ("wall/", "--wall")):
        ref = run("fg-convert", [option, "-q", "--to", "html", combo]).stdout
        with open(os.path.join(out, "p", "combo_ap-cpu-alloc-lock-wall", f"{prefix}flame-0.html"), "rb") as f:
            check(f.read() == ref, f"{prefix}flame-0.html = fg-convert {option} --to html")
    check(not [f for f in site_files(out) if "/samples/" in f], "no page of the mixed samples")
    with open(os.path.join(out, "summary.md"), encoding="utf-8") as f:
        md = f.read()
    check("| combo.ap-cpu-alloc-lock-wall | cpu | ok | 2881 count |" in md and f"| combo.ap-cpu-alloc-lock-wall | wall | ok | {wall_total} count |" in md,
          "summary.md: a row for cpu and for wall")


def case_failure():
    """Usage errors and failures leave no site; an existing folder that is
    no report is refused; an interrupted run leaves nothing."""
    missing = os.path.join(WORK, "no-such-dir", "site")
    r = run("fg-report", [os.path.join(MIXED, "basic.folded"), "-o", missing])
    check(r.returncode == 1 and not os.path.exists(os.path.dirname(missing)), "no parent: exit 1, nothing made")
    other = os.path.join(WORK, "not-a-report")
    shutil.rmtree(other, ignore_errors=True)
    os.makedirs(other)
    open(os.path.join(other, "keep.txt"), "w").close()
    r = run("fg-report", [os.path.join(MIXED, "basic.folded"), "-o", other])
    check(r.returncode == 2 and os.listdir(other) == ["keep.txt"], "a folder that is no report: exit 2, kept")
    r = run("fg-report", ["--fail-if", "total>+5%", os.path.join(MIXED, "basic.folded"), "-o", other])
    check(r.returncode == 2, "--fail-if without --baseline: exit 2")
    fifo = os.path.join(WORK, "fifo.folded")
    if os.path.exists(fifo):
        os.remove(fifo)
    os.mkfifo(fifo)
    site = os.path.join(WORK, "interrupted")
    shutil.rmtree(site, ignore_errors=True)
    p = subprocess.Popen([os.path.join(BIN, "fg-report"), "--jobs", "1", os.path.join(MIXED, "basic.folded"),
                          fifo, "-o", site], stderr=subprocess.PIPE)
    time.sleep(1.0)  # basic's pages written; blocked opening the FIFO
    p.send_signal(signal.SIGINT)
    p.wait(timeout=60)
    check(p.returncode == -signal.SIGINT, f"ended by SIGINT (status {p.returncode})")
    left = [f for f in os.listdir(WORK) if f.startswith("interrupted")]
    check(left == [], f"interrupted: no site, no temporary ({left})")



def group_report(out, jobs="1", env=None):
    return report(["--jobs", jobs, "--manifest", os.path.join(MANIFESTS, "hosts.tsv"), "--manifest",
                   os.path.join(MANIFESTS, "more.json"), os.path.join(MIXED, "small.heap")], out, env)


def case_manifest():
    """TSV and JSON manifests: names, groups, labels, baselines and paths
    relative to the manifest; group pages whose totals are the sums of their
    members' (fg-convert --to collapsed of each); bad manifests name
    file:line; --jobs 1 and 2 agree."""
    out = os.path.join(WORK, "manifest")
    r = group_report(out)
    check(r.returncode == 0, f"exit status {r.returncode}, expected 0 ({r.stderr.decode()})")
    s = summary(out)
    names = [p["name"] for p in s["profiles"]]
    check(names == ["small", "web-1", "web-2", "heap-1", "db-1", "db-2", "lock"],
          f"plain inputs first, then each manifest's entries in order, named by it: {names}")
    by_name = {p["name"]: p for p in s["profiles"]}
    check(by_name["web-1"]["path"] == os.path.join(MANIFESTS, "../mixed/basic.folded"),
          f"a relative path resolves against the manifest's folder: {by_name['web-1']['path']}")
    check(all(p["status"] == "ok" for p in s["profiles"]), "every input read")
    check(by_name["web-2"]["labels"] == {"host": "host-b", "service": "front"}, "TSV: other columns are labels")
    check(by_name["db-2"]["labels"] == {"host": "host-d", "service": "store"}, "JSON: a labels object")
    check(by_name["lock"]["labels"] == {"version": "1.2"} and "group" not in by_name["lock"],
          "JSON: an extra key is a label; no name: the file's; no group: none")
    check("group" not in by_name["small"] and "labels" not in by_name["small"], "a plain input: no group, no labels")
    check([by_name[n].get("group") for n in ("web-1", "web-2", "heap-1", "db-1", "db-2")] ==
          ["web", "web", "web", "db", "db"], "groups as the manifests say")
    # Baselines from the manifests, crossed on purpose (pairing by name would
    # pair neither): db-1 (new/svc, 125) with base/other (10), db-2 (new/other,
    # 10) with base/svc (100).
    db1, db2 = by_name["db-1"]["baseline"], by_name["db-2"]["baseline"]
    check(db1["path"] == os.path.join(MANIFESTS, "../base/other.folded") and
          (db1["base_total"], db1["new_total"]) == (10, 125), f"db-1: the manifest's baseline ({db1})")
    check(db2["path"] == os.path.join(MANIFESTS, "../base/svc.folded") and
          (db2["base_total"], db2["new_total"]) == (100, 10), f"db-2: the manifest's baseline ({db2})")
    check("baseline" not in by_name["web-1"], "no baseline column value: no comparison")
    groups = {g["name"]: g for g in s.get("groups", [])}
    check(list(groups) == ["web", "db"], f"groups in order of first appearance: {list(groups)}")
    members = {"web": ["web-1", "web-2"], "db": ["db-1", "db-2"]}
    for name, g in groups.items():
        expected = sum(collapsed_total(by_name[m]["path"]) for m in members[name])
        total = g["values"][g["default_value"]]["total"]
        check(abs(total - expected) < 1e-9, f"group {name}: total {total} = the members' collapsed sum {expected}")
        check(g["page"] == f"g/{name}/index.html", f"group {name}: its page")
        for f in ["index.html", "flame-0.html", "top-0.txt", "callgraph-0.svg"]:
            check(os.path.exists(os.path.join(out, "g", name, f)), f"group {name}: {f}")
    check(groups["web"]["members"] == ["web-1", "web-2", "heap-1"], "web: its members, in input order")
    check(groups["web"]["warnings"] == ["heap-1: its default value is inuse_space/bytes, not the group's "
                                        "samples/count; not merged"], f"web: heap-1 left out ({groups['web']['warnings']})")
    check(groups["db"]["warnings"] == [], "db: every member merged")
    with open(os.path.join(out, "g", "web", "top-0.txt"), encoding="utf-8") as f:
        check("parse" in f.read(), "web's top table: its functions")
    with open(os.path.join(out, "junit.xml"), encoding="utf-8") as f:
        junit = f.read()
    check('classname="web.web-1"' in junit and 'classname="small"' in junit, "junit.xml: group.name as classname")
    with open(os.path.join(out, "summary.md"), encoding="utf-8") as f:
        md = f.read()
    check("| web-1 | web | ok |" in md and "| db | 2 | 135 count |" in md, "summary.md: groups")
    with open(os.path.join(out, "index.html"), encoding="utf-8") as f:
        index = f.read()
    check("['group', p => p.group || '']" in index and index.count("<script") == 3, "index.html: the group column")
    two = os.path.join(WORK, "manifest-jobs2")
    r = group_report(two, "2", {"FG_PARALLEL_MIN": "0"})
    check(r.returncode == 0 and site_files(out) == site_files(two), "--jobs 2: the same files")
    for f in site_files(out):
        with open(os.path.join(out, f), "rb") as a, open(os.path.join(two, f), "rb") as b:
            check(a.read() == b.read(), f"--jobs 2: {f} the same bytes")
    for text, where in (("path\tname\n../mixed/basic.folded\ta\n\n../mixed/xss.folded\n", "bad.tsv:4: "),
                        ("name\tgroup\nx\ty\n", "bad.tsv:1: "),
                        ('[\n  {"path": "a.folded"},\n  {"name": "x"}\n]\n', "bad.json:3:"),
                        ('[\n  {"path": "a.folded", "host": 3}\n]\n', "bad.json:2:"),
                        ('[\n  {"path": "a.folded"\n', "bad.json:")):
        bad = os.path.join(WORK, "bad.json" if text.startswith("[") else "bad.tsv")
        with open(bad, "w", encoding="utf-8") as f:
            f.write(text)
        site = os.path.join(WORK, "bad-manifest")
        r = report(["--manifest", bad], site)
        err = r.stderr.decode()
        check(r.returncode == 1 and ("error: " + os.path.join(WORK, where)) in err and not os.path.exists(site),
              f"a bad manifest: exit 1, names {where} ({r.returncode}: {err.strip()})")


if __name__ == "__main__":
    BIN, WORK, CASE = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(WORK, exist_ok=True)
    globals()["case_" + CASE]()
    if failures:
        sys.exit(1)
    print("ok")
