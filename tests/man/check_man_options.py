#!/usr/bin/env python3
"""Checks that a tool's manual page documents every option of its --help.

Usage: check_man_options.py TOOL_BINARY MAN_PAGE

Runs TOOL_BINARY --help, collects every long option (--name) and short
option (-x) the help text mentions, and looks for each, as a whole word, in
the roff source of MAN_PAGE (with roff's \\- read as -, font escapes and
comments removed). Prints each missing option and exits 1 when any is
missing, or when --help yields fewer than MIN_OPTIONS options (a guard
against parsing nothing); otherwise prints "N options documented" and
exits 0.
"""

import os
import re
import subprocess
import sys

MIN_OPTIONS = 10

# An option starts after nothing that could continue a word or an option
# ("fg-convert" holds no option) and ends where a name cannot continue.
_LONG = re.compile(r"(?<![A-Za-z0-9_-])--[A-Za-z0-9](?:[A-Za-z0-9_-]*[A-Za-z0-9_])?(?![A-Za-z0-9_])")
_SHORT = re.compile(r"(?<![A-Za-z0-9_-])-[A-Za-z0-9?](?![A-Za-z0-9_-])")


def help_options(tool):
    """The options that `tool --help` mentions, in order of first mention."""
    env = dict(os.environ, LC_ALL="C")
    try:
        proc = subprocess.run([tool, "--help"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              env=env, timeout=60, check=False)
    except (OSError, subprocess.SubprocessError) as e:
        sys.exit(f"error: cannot run {tool} --help: {e}")
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr.decode("utf-8", "replace"))
        sys.exit(f"error: {tool} --help exited with status {proc.returncode}")
    text = proc.stdout.decode("utf-8", "replace")
    found = []
    for line in text.splitlines():
        for m in sorted(list(_LONG.finditer(line)) + list(_SHORT.finditer(line)),
                        key=lambda m: m.start()):
            if m.group(0) not in found:
                found.append(m.group(0))
    return found


def man_text(path):
    """The roff source with comments and escapes that split words removed."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError as e:
        sys.exit(f"error: cannot read {path}: {e.strerror}")
    out = []
    for line in lines:
        if re.match(r"^[.'][ \t]*\\\"", line):  # a comment line
            continue
        line = line.replace("\\\\", "\x00")      # an escaped backslash is no escape
        line = re.sub(r'\\".*$', "", line)        # a trailing comment
        line = re.sub(r"\\f(?:\[[^\]]*\]|\(..|.)", "", line)  # font changes
        line = re.sub(r"\\[&%:c/,)|^]", "", line)  # zero-width escapes
        line = line.replace("\\-", "-").replace("\\(hy", "-").replace("\\(mi", "-")
        out.append(line.replace("\x00", "\\\\"))
    return "\n".join(out)


def documented(option, text):
    return re.search(r"(?<![A-Za-z0-9_-])" + re.escape(option) + r"(?![A-Za-z0-9_-])",
                     text) is not None


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: check_man_options.py TOOL_BINARY MAN_PAGE\n")
        return 2
    tool, page = argv[1], argv[2]
    options = help_options(tool)
    if len(options) < MIN_OPTIONS:
        print(f"error: {tool} --help yields only {len(options)} options "
              f"(at least {MIN_OPTIONS} expected): {' '.join(options) or 'none'}")
        return 1
    text = man_text(page)
    missing = [o for o in options if not documented(o, text)]
    for o in missing:
        print(f"missing from {page}: {o}")
    if missing:
        print(f"{len(missing)} of {len(options)} options not documented")
        return 1
    print(f"{len(options)} options documented")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
