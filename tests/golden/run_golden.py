#!/usr/bin/env python3
"""End-to-end golden runs of the real fg binaries.

Each line of cases.txt is `NAME | ARGS | STDIN`: the tool and its arguments
(split like a shell would, run with inputs/ as the working directory so the
file names in messages are stable) and an optional file for standard input.
The expected standard output, standard error and exit status are in
expected/NAME.{stdout,stderr,status}. An argument `-o OUT` whose run fails
must leave no OUT behind; that is checked too.

usage: run_golden.py BIN_DIR CASE        run one case
       FG_UPDATE_GOLDEN=1 run_golden.py BIN_DIR CASE   rewrite its expected files
"""
import os
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def cases():
    with open(os.path.join(HERE, "cases.txt"), encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            name, args, stdin = (p.strip() for p in (line.split("|") + ["", ""])[:3])
            yield name, args, stdin


def run(bin_dir, name, args, stdin):
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
                           env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TZ": "UTC"})
        stdout = p.stdout
        leftovers = sorted(os.listdir(tmp))
        if out_file is not None and p.returncode == 0:
            with open(out_file, "rb") as f:
                stdout = f.read()
        elif leftovers:
            return None, "failed run left files behind: %s" % leftovers
        stderr = p.stderr.replace(bin_dir.encode() + b"/", b"")
        return (stdout, stderr, str(p.returncode).encode() + b"\n"), None


def main():
    bin_dir, wanted = os.path.abspath(sys.argv[1]), sys.argv[2]
    update = os.environ.get("FG_UPDATE_GOLDEN") == "1"
    for name, args, stdin in cases():
        if name != wanted:
            continue
        got, err = run(bin_dir, name, args, stdin)
        if err:
            print("FAIL %s: %s" % (name, err))
            return 1
        failed = False
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
                failed = True
                print("FAIL %s: %s differs from %s" % (name, suffix, path))
                if suffix != "stdout" or len(data) < 4000:
                    print("--- got:\n%s" % data.decode("utf-8", "replace"))
        print("%s %s" % ("updated" if update else "FAIL" if failed else "ok", name))
        return 1 if failed else 0
    print("no case %s" % wanted)
    return 1


if __name__ == "__main__":
    sys.exit(main())
