#!/usr/bin/env python3
"""Benchmark fg-convert (and optionally flamegraph.pl) on collapsed -> SVG.

Both tools convert the same folded-stack inputs to a flame graph SVG in one
run of this script; for every (input, tool) pair it reports the median wall
time, the throughput (input size / median), the child's peak RSS and that RSS
as a fraction of the input size, and, when flamegraph.pl is given, how many
times faster fg-convert is.

The inputs are written once by gen_folded.py (next to this script) into the
data directory (default bench/data, git-ignored) and reused afterwards.

Examples
  bench/bench_flamegraph.py --fg build/tools/fg-convert
  bench/bench_flamegraph.py --fg build/tools/fg-convert \\
      --flamegraph-pl ~/FlameGraph/flamegraph.pl --runs 5 --pl-runs 1 \\
      --inputs profile,deep --json results.json

Standard library only.  Peak RSS comes from os.wait4()'s rusage (ru_maxrss,
KiB on Linux) of the converting process itself (no shell in between).
"""
import argparse
import datetime
import json
import os
import platform
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
GEN = os.path.join(HERE, "gen_folded.py")
MIB = 1 << 20

# name -> (file name, gen_folded.py arguments)
INPUTS = {
    "profile": ("profile-100M.folded", ["profile", "--seed", "2", "--size", "100M"]),
    "deep": ("deep.folded", ["deep", "--seed", "4", "--size", "40M"]),
    "highcard": ("highcard-1M.folded", ["highcard", "--seed", "5", "--count", "1000000"]),
}


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def ensure_input(name, data_dir):
    """Path of the input `name`, generating it first if it is not cached."""
    fname, gen_args = INPUTS[name]
    path = os.path.join(data_dir, fname)
    if os.path.isfile(path) and os.path.getsize(path) > 0:
        return path
    os.makedirs(data_dir, exist_ok=True)
    tmp = path + ".partial"
    cmd = [sys.executable, GEN] + gen_args + ["-o", tmp]
    log("generating %s: %s" % (fname, shlex.join(cmd)))
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True)
    os.replace(tmp, path)  # only complete files are ever cached
    log("  done in %.1f s" % (time.perf_counter() - t0))
    return path


def warm_page_cache(path):
    """Read the file once so no timed run pays for the disk."""
    buf = bytearray(MIB)  # small: this process's RSS is the RSS floor
    with open(path, "rb", buffering=0) as f:
        while f.readinto(buf):
            pass


def run_once(argv, stdout_path, timeout):
    """Run argv once; returns a dict with wall, cpu, rss_kib, rc, stderr."""
    with tempfile.TemporaryFile() as err, \
            (open(stdout_path, "wb") if stdout_path else open(os.devnull, "wb")) as out:
        # The child starts as a (v)fork of this process, and Linux carries the
        # parent's peak RSS into the child's ru_maxrss at exec: values at or
        # below this floor only say "no more than the floor".
        floor = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        t0 = time.perf_counter()
        p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        timer = None
        timed_out = []
        if timeout:
            def kill():
                timed_out.append(True)
                try:
                    os.kill(p.pid, 9)
                except ProcessLookupError:
                    pass
            timer = threading.Timer(timeout, kill)
            timer.start()
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
        if timer:
            timer.cancel()
        p.returncode = os.waitstatus_to_exitcode(status)  # we reaped it
        err.seek(0)
        stderr = err.read().decode("utf-8", "replace")
    return {"wall_s": wall, "cpu_s": ru.ru_utime + ru.ru_stime,
            "rss_kib": ru.ru_maxrss, "rss_floor_kib": floor, "rc": p.returncode,
            "timed_out": bool(timed_out), "stderr": stderr}


def check_svg(path):
    """A cheap sanity check of the output: non-empty and ends in </svg>."""
    try:
        size = os.path.getsize(path)
        with open(path, "rb") as f:
            f.seek(max(0, size - 64))
            tail = f.read()
    except OSError as e:
        return 0, "no output (%s)" % e
    if size == 0:
        return 0, "empty output"
    if b"</svg>" not in tail:
        return size, "output does not end with </svg>"
    return size, None


def measure(tool, label, input_path, runs, out_dir, timeout):
    """Run one tool `runs` times on input_path; returns a result dict."""
    out = os.path.join(out_dir, "%s.%s.svg" % (os.path.basename(input_path), label))
    if tool["kind"] == "fg":
        argv = [tool["path"], input_path, "-o", out]
        stdout_path = None
        shown = shlex.join(argv)
    else:
        argv = [tool["perl"], tool["path"], input_path]
        stdout_path = out
        shown = shlex.join(argv) + " > " + shlex.quote(out)
    res = {"tool": label, "command": shown, "runs": []}
    for i in range(runs):
        if os.path.exists(out):
            os.unlink(out)
        r = run_once(argv, stdout_path, timeout)
        svg_size, problem = check_svg(out)
        if r["timed_out"]:
            problem = "timed out after %g s" % timeout
        elif r["rc"] != 0:
            problem = "exit status %d" % r["rc"]
        r["svg_bytes"] = svg_size
        r["error"] = problem
        stderr = r.pop("stderr")
        if problem:
            r["stderr_tail"] = stderr[-2000:]
        res["runs"].append(r)
        log("  %-13s run %d/%d: %7.2f s wall, %7.2f s cpu, %8.1f MiB rss%s" % (
            label, i + 1, runs, r["wall_s"], r["cpu_s"], r["rss_kib"] / 1024,
            "  FAILED: " + problem if problem else ""))
        if problem:
            if stderr.strip():
                log("    stderr: " + stderr.strip()[-1000:].replace("\n", "\n    "))
            break  # do not repeat a failing conversion
    if os.path.exists(out):
        os.unlink(out)
    ok = [r for r in res["runs"] if not r["error"]]
    res["ok"] = len(ok) == len(res["runs"]) and bool(ok)
    if ok:
        res["median_s"] = statistics.median(r["wall_s"] for r in ok)
        res["min_s"] = min(r["wall_s"] for r in ok)
        res["median_cpu_s"] = statistics.median(r["cpu_s"] for r in ok)
        res["peak_rss_kib"] = max(r["rss_kib"] for r in ok)
        # True when the peak is not above the spawn floor (see run_once).
        res["peak_rss_at_floor"] = res["peak_rss_kib"] <= max(
            r["rss_floor_kib"] for r in ok)
        res["svg_bytes"] = ok[-1]["svg_bytes"]
    return res


def fmt_table(rows, headers, aligns):
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h)
              for i, h in enumerate(headers)]
    def line(cells):
        return "  ".join(c.rjust(w) if a == ">" else c.ljust(w)
                         for c, w, a in zip(cells, widths, aligns)).rstrip()
    out = [line(headers), line(["-" * w for w in widths])]
    out += [line(r) for r in rows]
    return "\n".join(out)


def main(argv=None):
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--fg", required=True, help="path to the fg-convert binary")
    p.add_argument("--flamegraph-pl", help="path to flamegraph.pl (optional; "
                   "not part of the project: point this at your own copy)")
    p.add_argument("--perl", default="perl", help="perl interpreter (default: perl)")
    p.add_argument("--data", default=os.path.join(HERE, "data"),
                   help="directory of the cached inputs (default: bench/data)")
    p.add_argument("--runs", type=int, default=5, help="fg-convert runs per input (default 5)")
    p.add_argument("--pl-runs", type=int, default=1,
                   help="flamegraph.pl runs per input (default 1; it is slow)")
    p.add_argument("--inputs", default="profile,deep,highcard",
                   help="comma list of: %s (default: all)" % ",".join(INPUTS))
    p.add_argument("--timeout", type=float, default=0,
                   help="kill a conversion after this many seconds (default: never)")
    p.add_argument("--cpu", type=int, default=None,
                   help="pin this script and the tools to one CPU (sched_setaffinity)")
    p.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    a = p.parse_args(argv)

    names = [n.strip() for n in a.inputs.split(",") if n.strip()]
    bad = [n for n in names if n not in INPUTS]
    if bad or not names:
        p.error("unknown input(s) %s; choose from %s" % (",".join(bad), ",".join(INPUTS)))
    if a.runs < 1 or a.pl_runs < 1:
        p.error("--runs and --pl-runs must be at least 1")
    fg = os.path.abspath(a.fg)
    if not os.access(fg, os.X_OK):
        p.error("--fg %s is not an executable file" % a.fg)
    tools = [("fg-convert", {"kind": "fg", "path": fg}, a.runs)]
    if a.flamegraph_pl:
        pl = os.path.abspath(a.flamegraph_pl)
        if not os.path.isfile(pl):
            p.error("--flamegraph-pl %s does not exist" % a.flamegraph_pl)
        tools.append(("flamegraph.pl", {"kind": "pl", "path": pl, "perl": a.perl},
                      a.pl_runs))
    if a.cpu is not None:
        os.sched_setaffinity(0, {a.cpu})  # inherited by the children

    try:
        fg_version = subprocess.run([fg, "--version"], capture_output=True, text=True,
                                    timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        fg_version = "?"

    results = []
    failed = False
    with tempfile.TemporaryDirectory(prefix="fg-bench-") as out_dir:
        for name in names:
            path = ensure_input(name, a.data)
            size = os.path.getsize(path)
            warm_page_cache(path)
            log("%s: %s (%.1f MiB)" % (name, path, size / MIB))
            for label, tool, runs in tools:
                r = measure(tool, label, path, runs, out_dir, a.timeout)
                r.update(input=name, path=path, input_bytes=size)
                failed |= not r["ok"]
                results.append(r)

    # ---- table ---------------------------------------------------------
    rows = []
    for r in results:
        mib = r["input_bytes"] / MIB
        if "median_s" in r:
            rss = r["peak_rss_kib"] / 1024
            le = "<=" if r["peak_rss_at_floor"] else ""
            rows.append([r["input"], "%.1f" % mib, r["tool"],
                         "%d/%d" % (len([x for x in r["runs"] if not x["error"]]),
                                    len(r["runs"])),
                         "%.3f" % r["median_s"], "%.3f" % r["median_cpu_s"],
                         "%.1f" % (mib / r["median_s"]), le + "%.1f" % rss,
                         le + "%.2f" % (rss / mib)])
        else:
            rows.append([r["input"], "%.1f" % mib, r["tool"], "0/%d" % len(r["runs"]),
                         "FAILED", "-", "-", "-", "-"])
    print()
    print("collapsed -> SVG  (MiB = 2^20 bytes; median of the runs; "
          "peak RSS = max over the runs)")
    if any(r.get("peak_rss_at_floor") for r in results):
        print("('<=': the child's peak RSS did not exceed this script's own RSS, "
              "which Linux reports as the child's floor)")
    print(fmt_table(rows, ["input", "size MiB", "tool", "ok runs", "median s",
                           "cpu s", "MiB/s", "peak RSS MiB", "RSS/input"],
                    ["<", ">", "<", ">", ">", ">", ">", ">", ">"]))

    ratios = {}
    if a.flamegraph_pl:
        print()
        for name in names:
            by = {r["tool"]: r for r in results if r["input"] == name}
            f, q = by.get("fg-convert", {}), by.get("flamegraph.pl", {})
            if "median_s" in f and "median_s" in q:
                ratios[name] = q["median_s"] / f["median_s"]
                print("%-9s fg-convert is %.1fx faster than flamegraph.pl "
                      "(%.3f s vs %.3f s), peak RSS %.1f vs %.1f MiB"
                      % (name, ratios[name], f["median_s"], q["median_s"],
                         f["peak_rss_kib"] / 1024, q["peak_rss_kib"] / 1024))
            else:
                print("%-9s no speed ratio (a tool failed)" % name)

    print()
    print("commands (OUT = a temporary file, removed afterwards):")
    seen = set()
    for r in results:
        cmd = r["command"].replace(out_dir, "$TMP")
        if cmd not in seen:
            seen.add(cmd)
            print("  " + cmd)
    print("fg-convert: %s (%s)" % (fg_version, fg))
    print("machine: %s, %s, %d CPUs%s" % (
        platform.node(), platform.platform(), os.cpu_count() or 0,
        ", pinned to CPU %d" % a.cpu if a.cpu is not None else ""))

    if a.json:
        doc = {"date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
               "fg_convert": {"path": fg, "version": fg_version},
               "flamegraph_pl": os.path.abspath(a.flamegraph_pl) if a.flamegraph_pl else None,
               "machine": {"node": platform.node(), "platform": platform.platform(),
                           "cpus": os.cpu_count(), "pinned_cpu": a.cpu},
               "runs": a.runs, "pl_runs": a.pl_runs,
               "results": results, "speedup_vs_flamegraph_pl": ratios}
        for r in doc["results"]:
            r["command"] = r["command"].replace(out_dir, "$TMP")
        with open(a.json, "w") as f:
            json.dump(doc, f, indent=2)
            f.write("\n")
        log("wrote %s" % a.json)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
