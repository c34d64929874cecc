#!/usr/bin/env python3
"""Benchmark fg-convert (and optionally flamegraph.pl, inferno) on collapsed -> SVG.

The tools convert the same folded-stack inputs to a flame graph SVG in one
run of this script; for every (input, tool) pair it reports the median wall
time, the throughput (input size / median), the child's peak RSS and that RSS
as a fraction of the input size, and, for each reference tool given
(flamegraph.pl, inferno's inferno-flamegraph), how many times faster
fg-convert is.

--sink file (the default) times each tool writing its SVG to a temporary
file.  --sink null times it writing the SVG to /dev/null (fg-convert as
`fg-convert INPUT --to svg -o -`), so that the timing measures the converter
and not the file system; each tool then first gets one untimed run of the
same command with its output to a temporary file, which is checked (and its
size recorded) as the timed runs are with --sink file.

The inputs are written once by gen_folded.py (next to this script) into the
data directory (default bench/data, git-ignored) and reused afterwards.

Examples
  bench/bench_flamegraph.py --fg build/tools/fg-convert
  bench/bench_flamegraph.py --fg build/tools/fg-convert \\
      --flamegraph-pl ~/FlameGraph/flamegraph.pl --runs 5 --pl-runs 1 \\
      --inputs profile,deep --json results.json
  bench/bench_flamegraph.py --fg build/tools/fg-convert \\
      --inferno ~/inferno/target/release/inferno-flamegraph --inputs deep \\
      --sink null

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


def command(tool, input_path, out, sink):
    """(argv, stdout_path, shown) of one conversion.

    sink "file": the SVG goes to the file `out`; sink "null": to standard
    output, which is /dev/null when stdout_path is None (the timed runs) or
    `out` (the untimed check run).
    """
    if tool["kind"] == "fg":
        if sink == "file":
            argv = [tool["path"], input_path, "-o", out]
            return argv, None, shlex.join(argv)
        argv = [tool["path"], input_path, "--to", "svg", "-o", "-"]
    elif tool["kind"] == "pl":
        argv = [tool["perl"], tool["path"], input_path]
    else:  # inferno
        argv = [tool["path"], input_path]
    if sink == "file":
        return argv, out, shlex.join(argv) + " > " + shlex.quote(out)
    return argv, None, shlex.join(argv) + " > /dev/null"


def run_problem(r, timeout):
    if r["timed_out"]:
        return "timed out after %g s" % timeout
    if r["rc"] != 0:
        return "exit status %d" % r["rc"]
    return None


def log_stderr(stderr):
    if stderr.strip():
        log("    stderr: " + stderr.strip()[-1000:].replace("\n", "\n    "))


def check_run(argv, out, shown, label, timeout):
    """The untimed run of --sink null: argv's stdout to `out`, then check_svg."""
    if os.path.exists(out):
        os.unlink(out)
    r = run_once(argv, out, timeout)
    svg_size, problem = check_svg(out)
    problem = run_problem(r, timeout) or problem
    if os.path.exists(out):
        os.unlink(out)
    stderr = r.pop("stderr")
    chk = {"command": shown, "wall_s": r["wall_s"], "rc": r["rc"],
           "svg_bytes": svg_size, "error": problem}
    if problem:
        chk["stderr_tail"] = stderr[-2000:]
    log("  %-13s check run (untimed, output to a file): %.2f s wall, "
        "%.1f MiB SVG%s" % (label, r["wall_s"], svg_size / MIB,
                            "  FAILED: " + problem if problem else ""))
    if problem:
        log_stderr(stderr)
    return chk


def measure(tool, label, input_path, runs, out_dir, timeout, sink="file"):
    """Run one tool `runs` times on input_path; returns a result dict."""
    out = os.path.join(out_dir, "%s.%s.svg" % (os.path.basename(input_path), label))
    argv, stdout_path, shown = command(tool, input_path, out, sink)
    res = {"tool": label, "command": shown, "sink": sink, "runs": []}
    if sink == "null":
        chk = check_run(argv, out, shlex.join(argv) + " > " + shlex.quote(out),
                        label, timeout)
        res["check"] = chk
        if chk["error"]:
            res["ok"] = False
            res["error"] = "check run: " + chk["error"]
            return res
    for i in range(runs):
        if os.path.exists(out):
            os.unlink(out)
        r = run_once(argv, stdout_path, timeout)
        if sink == "file":
            svg_size, problem = check_svg(out)
        else:
            svg_size, problem = res["check"]["svg_bytes"], None
        problem = run_problem(r, timeout) or problem
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
            log_stderr(stderr)
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
    p.add_argument("--inferno", metavar="PATH",
                   help="path to inferno's inferno-flamegraph binary (optional; "
                   "not part of the project: point this at your own build)")
    p.add_argument("--inferno-runs", type=int, default=3,
                   help="inferno-flamegraph runs per input (default 3)")
    p.add_argument("--sink", choices=("file", "null"), default="file",
                   help="where the timed runs write the SVG: 'file' (a temporary "
                   "file, checked after every run; the default) or 'null' "
                   "(/dev/null, after one untimed checked run to a file)")
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
    if a.runs < 1 or a.pl_runs < 1 or a.inferno_runs < 1:
        p.error("--runs, --pl-runs and --inferno-runs must be at least 1")
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
    inferno = None
    if a.inferno:
        inferno = os.path.abspath(a.inferno)
        if not os.access(inferno, os.X_OK) or os.path.isdir(inferno):
            p.error("--inferno %s is not an executable file" % a.inferno)
        tools.append(("inferno", {"kind": "inferno", "path": inferno}, a.inferno_runs))
    refs = [label for label, _, _ in tools[1:]]  # the tools fg-convert is compared to
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
                r = measure(tool, label, path, runs, out_dir, a.timeout, a.sink)
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
    print("collapsed -> SVG, sink %s  (MiB = 2^20 bytes; median of the runs; "
          "peak RSS = max over the runs)" % a.sink)
    if a.sink == "null":
        print("(timed runs write the SVG to /dev/null; each tool's output was "
              "checked in one untimed run to a file first)")
    else:
        print("(timed runs write the SVG to a temporary file, checked after each run)")
    if any(r.get("peak_rss_at_floor") for r in results):
        print("('<=': the child's peak RSS did not exceed this script's own RSS, "
              "which Linux reports as the child's floor)")
    print(fmt_table(rows, ["input", "size MiB", "tool", "ok runs", "median s",
                           "cpu s", "MiB/s", "peak RSS MiB", "RSS/input"],
                    ["<", ">", "<", ">", ">", ">", ">", ">", ">"]))

    ratios = {ref: {} for ref in refs}  # reference tool -> input -> ratio
    if refs:
        print()
        for name in names:
            by = {r["tool"]: r for r in results if r["input"] == name}
            f = by.get("fg-convert", {})
            for ref in refs:
                q = by.get(ref, {})
                if "median_s" in f and "median_s" in q:
                    ratios[ref][name] = q["median_s"] / f["median_s"]
                    print("%-9s fg-convert is %.1fx faster than %s "
                          "(%.3f s vs %.3f s), peak RSS %.1f vs %.1f MiB"
                          % (name, ratios[ref][name], ref, f["median_s"], q["median_s"],
                             f["peak_rss_kib"] / 1024, q["peak_rss_kib"] / 1024))
                else:
                    print("%-9s no speed ratio against %s (a tool failed)" % (name, ref))

    print()
    if a.sink == "null":
        print("commands timed (before them, each command ran once untimed with "
              "its output to a temporary file, which was checked):")
    else:
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
               "inferno": inferno,
               "sink": a.sink,
               "machine": {"node": platform.node(), "platform": platform.platform(),
                           "cpus": os.cpu_count(), "pinned_cpu": a.cpu},
               "runs": a.runs, "pl_runs": a.pl_runs, "inferno_runs": a.inferno_runs,
               "results": results,
               "speedup_vs_flamegraph_pl": ratios.get("flamegraph.pl", {}),
               "speedup_vs_inferno": ratios.get("inferno", {})}
        for r in doc["results"]:
            r["command"] = r["command"].replace(out_dir, "$TMP")
            if "check" in r:
                r["check"]["command"] = r["check"]["command"].replace(out_dir, "$TMP")
        with open(a.json, "w") as f:
            json.dump(doc, f, indent=2)
            f.write("\n")
        log("wrote %s" % a.json)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
