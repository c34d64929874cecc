#!/usr/bin/env python3
"""Mutation campaign: damaged inputs of every kind through fg-convert.

For each input kind it takes seed files, makes MUTANTS damaged copies of
them (bit flips, bytes set to boundary values, truncation, deleted,
duplicated and inserted ranges, varints and lengths pushed to their
maximum, splices of two seeds; gzipped seeds are mutated inflated and
gzipped again half the time), and converts each to one output format in
turn (svg, html, collapsed, pprof, top, dot, json). Each run gets a wall
limit; its exit status, signal, sanitizer report, CPU time and peak RSS
(getrusage of the child) are recorded.

A run is counted as
  ok        exit 0 (a mutant may still be a valid profile)
  refused   exit 1 with an error that names the input file
  unnamed   exit 1 whose error does not name the file (a defect)
  crash     a signal, a sanitizer report, or an exit status other than 0/1
  hang      killed at the wall limit
and the table printed at the end (markdown) has one row per kind: mutants,
each count, the worst peak RSS and the slowest run. Crashing and hanging
mutants are kept in OUT/kept/ with the command that ran them.

  bench/mutants.py --fg build-fuzz/tools/fg-convert --mutants 200 --out /tmp/mut

Runs under an ASan+UBSan build (scripts/fuzz.sh --build-only fg-convert)
find memory errors too; the sanitizer options make every report fail the
run with exit status 86. Deterministic for a given --seed.
"""

import argparse
import glob
import gzip
import os
import random
import shutil
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Seeds per kind, as globs under the source tree (small files only).
SEEDS = {
    "collapsed": ["samples/*.folded", "tests/golden/inputs/*.folded", "tests/data/deepflow/*.folded"],
    "pprof": ["tests/golden/inputs/*.pb*", "tests/parity/pprof/*.pb.gz"],
    "jemalloc": ["tests/golden/inputs/*.heap", "tests/parity/jemalloc/dumps/*.heap.gz"],
    "jeprof-dot": ["tests/golden/inputs/*.dot", "tests/parity/jeprof_dot/ref/*.dot"],
    "jfr": ["tests/golden/inputs/*.jfr*"],
    "json": ["tests/data/deepflow/*.json", "tests/golden/inputs/*.json"],
    "svg": ["tests/parity/flamegraph/*.svg"],
    "html": ["tests/golden/expected/html-*.stdout"],
}
OUTPUTS = ["svg", "html", "collapsed", "pprof", "top", "dot", "json"]
MAX_SEED = 512 * 1024
CRASH_STATUS = 86


def seeds_of(kind):
    found = []
    for pattern in SEEDS[kind]:
        for path in sorted(glob.glob(os.path.join(ROOT, pattern))):
            if os.path.getsize(path) <= MAX_SEED:
                found.append(path)
    return found


def inflated(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        try:
            return gzip.decompress(data), True
        except (OSError, EOFError):
            pass
    return data, False


def mutate(rng, data, other):
    """One or a few damaging edits of data (bytes); other is a second seed."""
    data = bytearray(data)
    for _ in range(rng.choice([1, 1, 1, 2, 3, 8])):
        n = len(data)
        op = rng.randrange(9)
        pos = rng.randrange(n) if n else 0
        if op == 0 and n:  # flip a bit
            data[pos] ^= 1 << rng.randrange(8)
        elif op == 1 and n:  # a boundary byte
            data[pos] = rng.choice([0, 0x7F, 0x80, 0xFF, 0x0A, 0x3B, 0x22])
        elif op == 2:  # truncate
            del data[pos:]
        elif op == 3 and n:  # delete a range
            del data[pos:pos + rng.randrange(1, 64)]
        elif op == 4 and n:  # duplicate a range
            piece = data[pos:pos + rng.randrange(1, 256)]
            data[pos:pos] = piece * rng.choice([1, 2, 16])
        elif op == 5:  # insert random bytes
            data[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 16)))
        elif op == 6:  # a maximal varint or length (protobuf, JFR)
            data[pos:pos] = rng.choice([b"\xff" * 9 + b"\x01", b"\x80" * 10, b"\xff\xff\xff\x7f", b"\x00"])
        elif op == 7:  # a big decimal number (text formats)
            data[pos:pos] = rng.choice([b"99999999999999999999", b"-1", b"1e308", b"nan", b"4294967296"])
        elif op == 8 and other:  # splice with another seed
            cut = rng.randrange(len(other) + 1)
            data = data[:pos] + bytearray(other[cut:])
    return bytes(data)


def run_one(cmd, timeout, err_path):
    """(status, hung, cpu_s, maxrss_kib, stderr) of one run, from its own rusage."""
    env = dict(os.environ)
    env.setdefault("ASAN_OPTIONS", f"detect_leaks=0:exitcode={CRASH_STATUS}")
    env.setdefault("UBSAN_OPTIONS", f"halt_on_error=1:exitcode={CRASH_STATUS}")
    with open(err_path, "wb") as err_file:
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err_file, env=env,
                                start_new_session=True)
    deadline = time.monotonic() + timeout
    hung = False
    while True:
        pid, wait_status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > deadline:
            hung = True
            os.killpg(proc.pid, signal.SIGKILL)
            pid, wait_status, usage = os.wait4(proc.pid, 0)
            break
        time.sleep(0.005)
    proc.returncode = os.waitstatus_to_exitcode(wait_status)  # Popen must not reap it again
    with open(err_path, "rb") as f:
        err = f.read().decode("utf-8", "replace")
    return proc.returncode, hung, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, err


def classify(status, hung, err, path):
    if hung:
        return "hang"
    if status == 0:
        return "ok"
    if status == 1 and "Sanitizer" not in err and "runtime error" not in err:
        return "refused" if os.path.basename(path) in err else "unnamed"
    return "crash"


def campaign(args, kind, rng, rows):
    seeds = seeds_of(kind)
    if not seeds:
        print(f"mutants.py: no seeds for {kind}", file=sys.stderr)
        return
    datas = [inflated(s) for s in seeds]
    work = os.path.join(args.out, "work")
    kept = os.path.join(args.out, "kept")
    os.makedirs(work, exist_ok=True)
    os.makedirs(kept, exist_ok=True)
    counts = {k: 0 for k in ("ok", "refused", "unnamed", "crash", "hang")}
    worst_rss, worst_cpu = 0, 0.0
    for i in range(args.mutants):
        data, was_gzip = datas[rng.randrange(len(datas))]
        other = datas[rng.randrange(len(datas))][0]
        mutant = mutate(rng, data, other)
        if was_gzip and rng.random() < 0.5:
            mutant = gzip.compress(mutant, mtime=0)
        path = os.path.join(work, f"{kind}-{i}")
        with open(path, "wb") as f:
            f.write(mutant)
        out = OUTPUTS[i % len(OUTPUTS)]
        cmd = [args.fg, "--from", kind, "--to", out, path, "-o", os.path.join(work, "out")]
        status, hung, cpu, rss, err = run_one(cmd, args.timeout, os.path.join(work, "stderr"))
        worst_cpu = max(worst_cpu, cpu)
        worst_rss = max(worst_rss, rss)
        verdict = classify(status, hung, err, path)
        counts[verdict] += 1
        if verdict in ("crash", "hang", "unnamed"):
            keep = os.path.join(kept, f"{kind}-{i}-{verdict}")
            shutil.copy(path, keep)
            with open(keep + ".txt", "w") as f:
                f.write(" ".join(cmd) + f"\nstatus {status}\n" + err[-4000:])
    rows.append((kind, args.mutants, counts, worst_rss, worst_cpu))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fg", required=True, help="fg-convert to run")
    parser.add_argument("--mutants", type=int, default=200, help="mutants per kind")
    parser.add_argument("--kinds", default=",".join(SEEDS), help="comma-separated input kinds")
    parser.add_argument("--timeout", type=float, default=60, help="wall limit per run, seconds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", required=True, help="work folder (mutants, kept crashes)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    rows = []
    failed = False
    for kind in args.kinds.split(","):
        campaign(args, kind, rng, rows)
        kind_row = rows[-1] if rows and rows[-1][0] == kind else None
        if kind_row:
            c = kind_row[2]
            print(f"mutants.py: {kind}: {c}", file=sys.stderr, flush=True)
            failed |= c["crash"] > 0 or c["hang"] > 0 or c["unnamed"] > 0
    print("| input kind | mutants | exit 0 | refused (exit 1, file named) | unnamed | crashes | hangs "
          "| worst peak RSS MiB | slowest CPU s |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for kind, n, c, rss, cpu in rows:
        print(f"| {kind} | {n} | {c['ok']} | {c['refused']} | {c['unnamed']} | {c['crash']} | {c['hang']} "
              f"| {rss / 1024:.0f} | {cpu:.2f} |")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
