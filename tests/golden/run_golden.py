#!/usr/bin/env python3
"""End-to-end golden runs of the real fg binaries.

Each line of cases.txt is `NAME | ARGS | STDIN`: the tool and its arguments
(split like a shell would, run with inputs/ as the working directory so the
file names in messages are stable) and an optional file for standard input.
The expected standard output, standard error and exit status are in
expected/NAME.{stdout,stderr,status}. An argument `-o OUT` whose run fails
must leave no OUT behind; that is checked too.

Each case runs twice, under each environment of JOB_RUNS: on one thread,
then on four with FG_PARALLEL_MIN=0, so that even these small inputs take
the threaded paths (fg/parallel.h); both runs must give the expected bytes.

usage: run_golden.py BIN_DIR CASE        run one case
       FG_UPDATE_GOLDEN=1 run_golden.py BIN_DIR CASE   rewrite its expected files
"""
import os
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

# The environments each case runs under (a label for messages, variables).
JOB_RUNS = [("FG_JOBS=1", {"FG_JOBS": "1"}),
            ("FG_JOBS=4 FG_PARALLEL_MIN=0", {"FG_JOBS": "4", "FG_PARALLEL_MIN": "0"})]


def cases():
    with open(os.path.join(HERE, "cases.txt"), encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            name, args, stdin = (p.strip() for p in (line.split("|") + ["", ""])[:3])
            yield name, args, stdin


def run(bin_dir, name, args, stdin, jobs_env):
    argv = shlex.split(args)
    argv[0] = os.path.join(bin_dir, argv[0])
    with tempfile.TemporaryDirectory() as tmp:
        # "-o OUT" is written into a scratch directory, then read back.
        out_file = None
        if "-o" in argv:
            i = argv.index("-o")
            out_file = os.path.join(tmp, argv[i + 1])
            argv[i + 1] = out_file
        stdin_f = open(os.path.join(HERE, "inputs", stdin), "rb") if stdin else subprocess.DEVNULL
        p = subprocess.run(argv, cwd=os.path.join(HERE, "inputs"), stdin=stdin_f,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           env=dict({"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TZ": "UTC"}, **jobs_env))
        stdout = p.stdout
        leftovers = sorted(os.listdir(tmp))
        if out_file is not None and p.returncode == 0:
            with open(out_file, "rb") as f:
                stdout = f.read()
        elif leftovers:
            return None, "failed run left files behind: %s" % leftovers
        stderr = p.stderr.replace(bin_dir.encode() + b"/", b"")
        return (stdout, stderr, str(p.returncode).encode() + b"\n"), None


def compare(name, label, got, update):
    """Whether `got` (stdout, stderr, status) is the expected; with
    `update`, writes it as the expected instead."""
    ok = True
    for suffix, data in zip(("stdout", "stderr", "status"), got):
        path = os.path.join(HERE, "expected", "%s.%s" % (name, suffix))
        if update:
            with open(path, "wb") as f:
                f.write(data)
            continue
        try:
            with open(path, "rb") as f:
                want = f.read()
        except FileNotFoundError:
            want = None
        if want != data:
            ok = False
            print("FAIL %s (%s): %s differs from %s" % (name, label, suffix, path))
            if suffix != "stdout" or len(data) < 4000:
                print("--- got:\n%s" % data.decode("utf-8", "replace"))
    return ok


def main():
    bin_dir, wanted = os.path.abspath(sys.argv[1]), sys.argv[2]
    update = os.environ.get("FG_UPDATE_GOLDEN") == "1"
    for name, args, stdin in cases():
        if name != wanted:
            continue
        failed = False
        for i, (label, jobs_env) in enumerate(JOB_RUNS):
            got, err = run(bin_dir, name, args, stdin, jobs_env)
            if err:
                print("FAIL %s (%s): %s" % (name, label, err))
                return 1
            # The first run writes the expected files; the others must agree.
            failed |= not compare(name, label, got, update and i == 0)
        print("%s %s" % ("FAIL" if failed else "updated" if update else "ok", name))
        return 1 if failed else 0
    print("no case %s" % wanted)
    return 1


if __name__ == "__main__":
    sys.exit(main())
