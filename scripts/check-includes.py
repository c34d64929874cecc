#!/usr/bin/env python3
"""Checks that the layers include one way: tools/ -> formats/ -> libanalysis/.

A file in a format folder (formats/<fmt>/) may include its own folder,
formats/common/, the format interface headers at the top of formats/
(format.h, input.h, options.h, writer_needs.h, gzip.h), libanalysis (fg/...)
and system headers; never another format's headers, nor formats/registry.h
or formats/output.h or formats/plan.h (the registry sits above every format,
and so does fg-report's batch, formats/batch_*.h). formats/common
and the interface headers include no format folder either, and libanalysis
includes nothing of formats/ or tools/, nor a POSIX header (<sys/mman.h>,
<unistd.h>, ...): it is the standard library only; what needs the system
(huge pages, files) lives in formats/.

Usage: check-includes.py [ROOT]   (ROOT: the source tree, default: this one)
       check-includes.py --self-test
Prints one line per offending include, file:line: what, and exits 1.
The CMake build enforces the same for format folders (formats/CMakeLists.txt
gives each one an include root with only what it may use); this check
names the file and line, and also covers what the build cannot see.
"""

import os
import re
import sys
import tempfile

INTERFACE_HEADERS = {"format.h", "input.h", "options.h", "writer_needs.h", "gzip.h"}
SOURCE_SUFFIXES = (".h", ".cpp", ".cc", ".hpp")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
SYSTEM_INCLUDE = re.compile(r'^\s*#\s*include\s*<([^>]+)>')
POSIX_HEADERS = {"unistd.h", "fcntl.h", "pthread.h", "dlfcn.h", "dirent.h", "signal.h", "poll.h"}
RULE = ("a format may include its own folder, formats/common/, formats/{" +
        ",".join(sorted(INTERFACE_HEADERS)) + "} and libanalysis (fg/)")


def format_folders(root):
    """The folders under formats/ that hold one format each (not common/)."""
    base = os.path.join(root, "formats")
    return {d for d in os.listdir(base) if os.path.isdir(os.path.join(base, d)) and d != "common"}


def sources(root, top):
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(SOURCE_SUFFIXES):
                path = os.path.join(dirpath, name)
                yield os.path.relpath(path, root).replace(os.sep, "/")


def includes(root, path, pattern=INCLUDE):
    with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            m = pattern.match(line)
            if m:
                yield number, m.group(1)


def format_problem(own, target, folders):
    """Why a file of format folder `own` (None: formats/common or an interface
    header) may not include `target`, or None when it may."""
    parts = target.split("/")
    if ".." in parts:
        return "a relative include (..) of " + target
    if parts[0] == "formats":
        if len(parts) == 2:
            if parts[1] in INTERFACE_HEADERS:
                return None
            return "includes " + target + ", which only the registry and the tools use"
        if parts[1] == "common" or parts[1] == own:
            return None
        return "includes " + target + ", a header of format " + parts[1]
    # Generated headers are named by folder ("pprof/profile.pb.h").
    if len(parts) > 1 and parts[0] in folders and parts[0] != own:
        return "includes " + target + ", a header of format " + parts[0]
    return None


def check(root):
    folders = format_folders(root)
    problems = []
    for path in sources(root, "formats"):
        parts = path.split("/")
        stem = parts[1].rsplit(".", 1)[0] if len(parts) == 2 else ""
        if stem in ("registry", "output", "plan") or stem.startswith("batch_"):
            continue  # the registry (and plan() and fg-report's batch, over its rows) links every format
        # Interface headers and formats/common follow the rule with no folder of their own.
        own = parts[1] if len(parts) > 2 and parts[1] != "common" else None
        for number, target in includes(root, path):
            why = format_problem(own, target, folders)
            if why:
                problems.append(f"{path}:{number}: {why}; {RULE}")
    for path in sources(root, "libanalysis"):
        for number, target in includes(root, path):
            if target.split("/")[0] in ("formats", "tools"):
                problems.append(f"{path}:{number}: libanalysis includes {target}; it includes only fg/ and "
                                "the standard library")
        for number, target in includes(root, path, SYSTEM_INCLUDE):
            if target.startswith(("sys/", "linux/", "asm/")) or target in POSIX_HEADERS:
                problems.append(f"{path}:{number}: libanalysis includes <{target}>, a system header; it is "
                                "the standard library only (system calls live in formats/)")
    return problems


def self_test():
    """The check fails on an injected sideways include and passes without it."""
    with tempfile.TemporaryDirectory() as root:
        def write(path, text):
            os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
            with open(os.path.join(root, path), "w") as f:
                f.write(text)
        write("formats/format.h", '#include "formats/input.h"\n')
        write("formats/registry.cpp", '#include "formats/svg/svg.h"\n#include "formats/top/top.h"\n')
        write("formats/common/json.h", '#include "fg/profile.h"\n')
        write("formats/svg/svg.h", '#include "formats/format.h"\n#include "formats/common/json.h"\n')
        write("formats/top/top.cpp", '#include "formats/top/top.h"\n#include "fg/call_graph.h"\n')
        write("libanalysis/src/a.cpp", '#include "fg/a.h"\n#include <vector>\n')
        expect(check(root) == [], "a clean tree passes")
        cases = [
            ("formats/top/top.cpp", '#include "formats/svg/svg.h"\n', "a header of format svg"),
            ("formats/top/top.cpp", '#include "formats/registry.h"\n', "only the registry and the tools"),
            ("formats/top/top.cpp", '#include "../svg/svg.h"\n', "relative include"),
            ("formats/top/top.cpp", '#include "svg/profile.pb.h"\n', "a header of format svg"),
            ("formats/common/json.h", '#include "formats/top/top.h"\n', "a header of format top"),
            ("formats/format.h", '#include "formats/svg/svg.h"\n', "a header of format svg"),
            ("libanalysis/src/a.cpp", '#include "formats/format.h"\n', "libanalysis includes"),
            ("libanalysis/src/a.cpp", '#include <sys/mman.h>\n', "a system header"),
        ]
        for path, line, words in cases:
            with open(os.path.join(root, path)) as f:
                before = f.read()
            write(path, before + line)
            found = check(root)
            expect(len(found) == 1 and path + ":" in found[0] and words in found[0],
                   f"{line.strip()} in {path} is reported ({found})")
            write(path, before)
    print("check-includes self-test: ok")
    return 0


def expect(ok, what):
    if not ok:
        print("check-includes self-test failed: " + what, file=sys.stderr)
        sys.exit(1)


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    problems = check(root)
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
