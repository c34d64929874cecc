#!/usr/bin/env python3
"""Benchmark fg-report on a generated corpus, beside a loop of fg-convert.

  bench/bench_report.py --bin build/tools [--count 1000] [--rounds 3]
      [--largest 50000000] [--mix 10k:40,100k:30,1M:20,10M:10] [--data DIR]

Generates (once, into DIR/report-v3-COUNT-LARGEST[-MIX]/, DIR being
--data, bench/data by default) COUNT profiles: folded
stacks of three shapes (gen_folded.py's profile, deep and highcard), pprof
made from such folded stacks by fg-convert --to pprof, and JFR recordings
made by concatenating copies of tests/parity/jfr's recordings (a JFR file
is a sequence of independent chunks, as bench_jfr.py --copies does). Sizes
run from about 10 kB to --largest (50 MB): most profiles small, a few
large, the largest folded; --mix SIZE:WEIGHT,... sets the other sizes'
shares instead (sizes as 10k, 3M, 1.5M; weights relative). Every folded and pprof input is distinct (a
stack of its own); JFR inputs of one size repeat the same chunks.

Then measures, in alternated rounds (so a slow spell of the machine falls on
every configuration), with the median of each:

  report-j2   fg-report --jobs 2 CORPUS -o SITE
  report-j1   fg-report --jobs 1 CORPUS -o SITE
  pages-xargs the same pages (flame graph HTML, top table, call graph SVG
              per value type, as the site lists them) made by one fg-convert
              per page, run by xargs -P2
  once-xargs  one fg-convert --to html per input (each input read once),
              run by xargs -P2: the CPU floor of any report
  largest     fg-convert --to html of the largest input alone (peak RSS)

and prints wall time, CPU time (user + system of the process and its
children) and peak RSS of each, then the ratios the issue sets targets for.
"""
import argparse
import gzip
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_flamegraph import run_once  # noqa: E402  (one way to measure a child)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
RECORDINGS = os.path.join(ROOT, "tests", "parity", "jfr", "recordings")
JFR = ["lock-contention.ap-wall.jfr.gz", "cpu-recursion.ap-cpu.jfr.gz", "alloc-heavy.ap-alloc.jfr.gz"]
FOLDED_SHAPES = ["profile", "deep", "highcard"]
LADDER = [10_000, 30_000, 100_000, 300_000, 1_000_000, 3_000_000, 10_000_000, 50_000_000]
PAGES = (("flame", "html", "html"), ("top", "txt", "top"), ("callgraph", "svg", "callgraph-svg"))


def parse_mix(text):
    """--mix "10k:40,1M:5": [(bytes, weight)]; sizes in decimal k/M/G."""
    mix = []
    for item in text.split(","):
        size, _, weight = item.partition(":")
        m = re.fullmatch(r"(\d+(?:\.\d+)?)([kMG]?)", size.strip())
        if not m or not weight:
            raise argparse.ArgumentTypeError(f"--mix {item}: expected SIZE:WEIGHT, e.g. 100k:20")
        mix.append((int(float(m.group(1)) * {"": 1, "k": 10**3, "M": 10**6, "G": 10**9}[m.group(2)]),
                    float(weight)))
    return mix


def size_plan(count, largest, mix=None):
    """The size class of each profile: by default about 3x fewer profiles
    per 3x larger class (70% under 100 kB); else the shares of `mix`
    [(size, weight)]; the top class (one profile at `largest`) once."""
    if mix:
        ladder = sorted(s for s, _ in mix) + [largest]
        weights = [w for _, w in sorted(mix)]
    else:
        ladder = [s for s in LADDER if s < largest] + [largest]
        weights = [1 / (s ** 0.9) for s in ladder[:-1]]
    rest = count - 1
    plan = []
    for s, w in zip(ladder[:-1], weights):
        plan += [s] * round(rest * w / sum(weights))
    plan = (plan + [ladder[0]] * rest)[:rest] + [largest]
    return sorted(plan)


def base_folded(pool, shape, size):
    """A folded file of one shape and size, generated once by gen_folded.py."""
    path = os.path.join(pool, f"{shape}-{size}.folded")
    if not os.path.exists(path):
        # highcard takes a number of stacks (about 400 bytes each), not a size
        amount = ["--count", str(max(size // 400, 10))] if shape == "highcard" else ["--size", str(size)]
        args = [shape, "--seed", str(size % 1000 + 1)] + amount + ["-o", path + ".tmp"]
        subprocess.run([sys.executable, os.path.join(HERE, "gen_folded.py")] + args, check=True,
                       stderr=subprocess.DEVNULL)
        os.rename(path + ".tmp", path)
    return path


def make_folded(pool, i, size, out):
    # deep and highcard shapes stay small (their generators are slow); large
    # inputs are the profile shape.
    shape = FOLDED_SHAPES[(i // 3) % 3] if size <= 1_000_000 else "profile"
    with open(base_folded(pool, shape, size), "rb") as f, open(out, "wb") as o:
        shutil.copyfileobj(f, o)
        o.write(b"bench_report;profile_%d 1\n" % i)


def make_jfr(size, i, out):
    recording = os.path.join(RECORDINGS, JFR[(i // 3) % len(JFR)])  # every third input is JFR
    with gzip.open(recording, "rb") as f:
        one = f.read()
    with open(out, "wb") as o:
        for _ in range(max(1, round(size / len(one)))):
            o.write(one)


def make_corpus(bin_dir, data, count, largest, mix=None, mix_text=""):
    """Writes the corpus into data/report-v3-COUNT-LARGEST[-MIX] (kept for the next run)."""
    suffix = "-" + re.sub(r"[^0-9A-Za-z.]+", "_", mix_text) if mix else ""
    corpus = os.path.join(data, f"report-v3-{count}-{largest}{suffix}")
    if os.path.exists(os.path.join(corpus, ".done")):
        return corpus
    pool = os.path.join(data, "report-pool")
    os.makedirs(pool, exist_ok=True)
    shutil.rmtree(corpus, ignore_errors=True)
    os.makedirs(corpus)
    convert = os.path.join(bin_dir, "fg-convert")
    for i, size in enumerate(size_plan(count, largest, mix)):
        kind = "folded" if size == largest else \
            "jfr" if i % 3 == 2 and size >= 100_000 else "pprof" if i % 3 == 1 else "folded"
        name = os.path.join(corpus, f"p{i:05d}")
        if kind == "jfr":
            make_jfr(size, i, name + ".jfr")
        elif kind == "pprof":
            make_folded(pool, i, size, name + ".tmp.folded")
            subprocess.run([convert, "-q", "--to", "pprof", name + ".tmp.folded", "-o", name + ".pb.gz"], check=True)
            os.remove(name + ".tmp.folded")
        else:
            make_folded(pool, i, size, name + ".folded")
    open(os.path.join(corpus, ".done"), "w").close()
    return corpus


def page_commands(site, pages):
    """One fg-convert per page of the site, as xargs -L1 lines."""
    with open(os.path.join(site, "summary.json"), encoding="utf-8") as f:
        summary = json.load(f)
    lines = []
    for p in summary["profiles"]:
        for i in range(len(p.get("values", []))):
            for stem, ext, to in PAGES:
                out = os.path.join(pages, f"{p['name']}.{stem}-{i}.{ext}")
                lines.append(" ".join(shlex.quote(a) for a in ["-q", "--value", str(i), "--to", to, p["path"],
                                                                  "-o", out]))
    return lines


def xargs(convert, lines, list_path):
    with open(list_path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return ["sh", "-c", 'exec xargs -P 2 -L 1 "$0" < "$1"', convert, list_path]


def measure(name, argv, results):
    r = run_once(argv, None, 0)
    if r["rc"] not in (0, 1):  # 1: an input failed, still a whole site
        sys.exit(f"{name} failed (exit {r['rc']}): {' '.join(argv)}\n{r['stderr'][-2000:]}")
    results.setdefault(name, []).append(r)
    return r


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True, help="the build's tools folder (fg-report, fg-convert)")
    ap.add_argument("--count", type=int, default=1000, help="profiles in the corpus (default 1000)")
    ap.add_argument("--largest", type=int, default=50_000_000, help="bytes of the largest input (default 50 MB)")
    ap.add_argument("--mix", default="", help="SIZE:WEIGHT,... the shares of the other sizes "
                    "(default: 3x fewer per 3x larger, from 10k)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--data", default=os.path.join(HERE, "data"), help="where the corpus is kept")
    ap.add_argument("--out-dir", help="where outputs go (a temporary folder by default)")
    a = ap.parse_args()
    report, convert = os.path.join(a.bin, "fg-report"), os.path.join(a.bin, "fg-convert")
    corpus = make_corpus(a.bin, a.data, a.count, a.largest, parse_mix(a.mix) if a.mix else None, a.mix)
    inputs = sorted(os.path.join(corpus, f) for f in os.listdir(corpus) if not f.startswith("."))
    sizes = [os.path.getsize(f) for f in inputs]
    largest = inputs[sizes.index(max(sizes))]
    kinds = {}
    for f in inputs:
        kinds[f.split(".", 1)[1]] = kinds.get(f.split(".", 1)[1], 0) + 1
    print(f"corpus: {corpus}: {len(inputs)} profiles {kinds}, {sum(sizes) / 1e6:.1f} MB, "
          f"{min(sizes) / 1e3:.0f} kB to {max(sizes) / 1e6:.1f} MB", flush=True)
    tmp = tempfile.mkdtemp(dir=a.out_dir)
    try:
        site = lambda n: os.path.join(tmp, n)  # noqa: E731
        run_once([report, "-q", "--jobs", "2", corpus, "-o", site("warm")], None, 0)  # page cache, page list
        pages_dir = os.path.join(tmp, "pages")
        os.makedirs(pages_dir)
        page_list = page_commands(site("warm"), pages_dir)
        once = [" ".join(shlex.quote(x) for x in ["-q", "--to", "html", f, "-o", os.path.join(pages_dir, "once.html")])
                for f in inputs]
        # A report's folder is removed before each of its runs: a re-run
        # over unchanged inputs reuses its pages, which is not the work
        # measured here.
        configs = [("report-j2", [report, "-q", "--jobs", "2", corpus, "-o", site("j2")], site("j2")),
                   ("pages-xargs", xargs(convert, page_list, os.path.join(tmp, "pages.txt")), None),
                   ("report-j1", [report, "-q", "--jobs", "1", corpus, "-o", site("j1")], site("j1")),
                   ("once-xargs", xargs(convert, once, os.path.join(tmp, "once.txt")), None),
                   ("largest", [convert, "-q", "--to", "html", largest, "-o", os.path.join(tmp, "largest.html")],
                    None)]
        results = {}
        for rnd in range(a.rounds):
            for name, argv, fresh in configs:
                if fresh:
                    shutil.rmtree(fresh, ignore_errors=True)
                r = measure(name, argv, results)
                print(f"  round {rnd + 1} {name:12s} {r['wall_s']:8.2f} s wall {r['cpu_s']:8.2f} s cpu "
                      f"{r['rss_kib'] / 1024:8.1f} MiB", flush=True)
        med = {n: (statistics.median(r["wall_s"] for r in rs), statistics.median(r["cpu_s"] for r in rs),
                   max(r["rss_kib"] for r in rs) / 1024) for n, rs in results.items()}
        print(f"\n{len(page_list)} pages; medians of {a.rounds} alternated rounds")
        print(f"{'config':12s} {'wall s':>9s} {'cpu s':>9s} {'peak MiB':>9s}")
        for n, (w, c, m) in med.items():
            print(f"{n:12s} {w:9.2f} {c:9.2f} {m:9.1f}")
        print(f"\nfg-report --jobs 2 vs the xargs -P2 loop of pages: {med['pages-xargs'][0] / med['report-j2'][0]:.2f}x "
              "faster (target >= 1)")
        print(f"fg-report --jobs 2 CPU / converting each input once: {med['report-j2'][1] / med['once-xargs'][1]:.2f} "
              "(target <= 1.2)")
        print(f"--jobs 2 vs --jobs 1: {med['report-j1'][0] / med['report-j2'][0]:.2f}x faster (target >= 1.8)")
        print(f"peak RSS / the largest input's conversion ({os.path.basename(largest)}): "
              f"{med['report-j2'][2] / med['largest'][2]:.2f} (target < 2)")
        for n, argv, _ in configs:
            print(f"  {n}: {' '.join(shlex.quote(x) for x in argv)}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
