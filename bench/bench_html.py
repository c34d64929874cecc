#!/usr/bin/env python3
"""Size and speed of the HTML flame graph (fg-convert --to html) against the
SVG of the same profile, in headless Chromium.

For a generated profile of about a million call-tree nodes it reports the
page's size (bytes per node), the time from navigation start until the
first frame is drawn (and painted), the search times of a few regular
expressions, and the same profile as SVG: the default SVG (frames under
0.1 px left out, as flamegraph.pl does) and the SVG of every frame
(--minwidth 0), each with its size and its load time in Chromium.

Targets (issue 9): at most 40 bytes per node, first draw within 2 s,
search within 200 ms.

usage: bench/bench_html.py --fg build/tools/fg-convert [--runs 3] [--data bench/data]
Needs tests/browser/node_modules (scripts/install-deps.sh) and /usr/bin/chromium.
"""

import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# gen_folded.py profile --seed 2 --size 78M: 75,322 stacks, 1,003,098 call-tree nodes
INPUT = ("profile-78M.folded", ["profile", "--seed", "2", "--size", "78M"])
PATTERNS = ["Thread", "^java/.*[Hh]ash", "a", "zzz-no-match"]


def convert(fg, args, out):
    start = time.perf_counter()
    subprocess.run([fg] + args + ["-o", out], check=True)
    return time.perf_counter() - start, os.path.getsize(out)


def browser(mode, page, runs, patterns=()):
    out = subprocess.run(["node", os.path.join(HERE, "html_timing.js"), mode, page, str(runs)] + list(patterns),
                         check=True, stdout=subprocess.PIPE, timeout=3600)
    return json.loads(out.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fg", required=True, help="fg-convert binary")
    ap.add_argument("--data", default=os.path.join(HERE, "data"), help="cache of generated inputs and outputs")
    ap.add_argument("--runs", type=int, default=3, help="page loads per measurement (median)")
    ap.add_argument("--skip-full-svg", action="store_true", help="do not load the SVG of every frame (slow)")
    a = ap.parse_args()
    os.makedirs(a.data, exist_ok=True)
    folded = os.path.join(a.data, INPUT[0])
    if not os.path.exists(folded):
        subprocess.run([sys.executable, os.path.join(HERE, "gen_folded.py")] + INPUT[1] + ["-o", folded], check=True)
    base = os.path.join(a.data, "bench-html")

    gen_html, size_html = convert(a.fg, ["--to", "html", folded], base + ".html")
    html = browser("html", base + ".html", a.runs, PATTERNS)
    nodes = html["nodes"]
    rows = [("html (every frame)", size_html, gen_html, html["painted"])]
    gen_svg, size_svg = convert(a.fg, ["--to", "svg", folded], base + ".svg")
    rows.append(("svg (default, frames >= 0.1 px)", size_svg, gen_svg, browser("svg", base + ".svg", a.runs)["load"]))
    gen_full, size_full = convert(a.fg, ["--to", "svg", "--minwidth", "0", folded], base + "-all.svg")
    full_load = None if a.skip_full_svg else browser("svg", base + "-all.svg", 1)["load"]
    rows.append(("svg (every frame, --minwidth 0)", size_full, gen_full, full_load))

    print(f"input: {folded} ({os.path.getsize(folded):,} bytes), {nodes:,} call-tree nodes; median of {a.runs} loads")
    print(f"{'output':34} {'bytes':>13} {'bytes/node':>10} {'fg-convert s':>12} {'Chromium ms':>12}")
    for name, size, gen, ms in rows:
        shown = "-" if ms is None else f"{ms:,.0f}"
        print(f"{name:34} {size:13,} {size / nodes:10.1f} {gen:12.2f} {shown:>12}")
    print(f"html: JSON parsed {html['parsed']:.0f} ms, tree built {html['built']:.0f} ms, "
          f"first draw {html['firstDraw']:.0f} ms, painted {html['painted']:.0f} ms (from navigation start)")
    for p, ms in html["search"].items():
        print(f"search {p!r}: {ms:.1f} ms")
    ok = size_html / nodes <= 40 and html["painted"] <= 2000 and max(html["search"].values()) <= 200
    print("targets (<= 40 bytes/node, first draw <= 2 s, search <= 200 ms):", "met" if ok else "NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
