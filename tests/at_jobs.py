#!/usr/bin/env python3
"""Runs a test command at one job and again at several, for tests whose
runner checks fg's output (the parity suite): both runs must pass.

usage: at_jobs.py COMMAND [ARG...]

The first run has FG_JOBS=1 (everything on the calling thread); the second
FG_JOBS=4 and FG_PARALLEL_MIN=0, so that even small inputs take the
threaded paths of fg/parallel.h. The runners hold fg's output to fixed
reference outputs, so two passing runs gave the same output. Exits with the
first failing run's status (its output is printed as it comes), else 0.
"""
import os
import subprocess
import sys

JOB_RUNS = [("FG_JOBS=1", {"FG_JOBS": "1"}),
            ("FG_JOBS=4 FG_PARALLEL_MIN=0", {"FG_JOBS": "4", "FG_PARALLEL_MIN": "0"})]


def main():
    command = sys.argv[1:]
    if not command:
        sys.exit(__doc__)
    for label, jobs_env in JOB_RUNS:
        print("== %s" % label, flush=True)
        status = subprocess.run(command, env=dict(os.environ, **jobs_env), check=False).returncode
        if status != 0:
            print("FAIL with %s (status %d)" % (label, status), flush=True)
            return status
    return 0


if __name__ == "__main__":
    sys.exit(main())
