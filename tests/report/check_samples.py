#!/usr/bin/env python3
"""scripts/render-samples.sh (the README's first command's last step) also
writes a sample report: BUILD/samples/report over samples/*.folded, every
profile read (--strict), nothing from samples/bad/, and says where to open it.

Usage: check_samples.py BIN_DIR WORK_DIR

WORK_DIR stands in for the build folder (its tools/ links to BIN_DIR's).
"""

import glob
import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main(bin_dir, work):
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "tools"))
    for tool in ("fg-convert", "fg-report"):
        os.symlink(os.path.join(bin_dir, tool), os.path.join(work, "tools", tool))
    failures = []
    for run in (1, 2):  # again: the earlier report is replaced
        r = subprocess.run([os.path.join(ROOT, "scripts", "render-samples.sh"), work], capture_output=True,
                           text=True, timeout=300)
        if r.returncode != 0:
            failures.append(f"run {run}: exit {r.returncode}: {r.stderr}")
            break
        site = os.path.join(work, "samples", "report")
        last = r.stdout.splitlines()[-1] if r.stdout else ""
        if os.path.join(site, "index.html") not in last:
            failures.append(f"run {run}: the last line does not say where to open the report: {last!r}")
        with open(os.path.join(site, "summary.json"), encoding="utf-8") as f:
            profiles = json.load(f)["profiles"]
        expected = sorted(glob.glob(os.path.join(ROOT, "samples", "*.folded")))
        paths = [p["path"] for p in profiles]
        if paths != expected or len(expected) < 5:
            failures.append(f"run {run}: the report's profiles {paths}, expected samples/*.folded {expected}")
        if [p["name"] for p in profiles if p["status"] != "ok"]:
            failures.append(f"run {run}: not all read: {[(p['name'], p['status']) for p in profiles]}")
        if not os.path.exists(os.path.join(site, "p", "go-cpu", "flame-0.html")):
            failures.append(f"run {run}: no flame graph page for go-cpu")
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else print("ok") or 0


if __name__ == "__main__":
    sys.exit(main(os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])))
