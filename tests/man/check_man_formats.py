"""Checks that fg-convert's manual page describes every format fg reads.

Usage: check_man_formats.py FG_CONVERT MAN_PAGE

Runs FG_CONVERT --list-formats and looks, for each format whose READ
column says yes, for a `.SS <name>` subsection under the page's INPUT
FORMATS section. Prints each missing one and exits 1 when any is missing;
otherwise prints "N input formats documented" and exits 0.
"""

import re
import subprocess
import sys


def readable_formats(tool):
    text = subprocess.run([tool, "--list-formats"], stdout=subprocess.PIPE, check=True, text=True).stdout
    names = []
    for line in text.splitlines()[1:]:
        if not line.strip():
            break
        fields = line.split()
        if len(fields) >= 2 and fields[1] == "yes":
            names.append(fields[0])
    return names


def input_sections(page):
    with open(page, encoding="utf-8") as f:
        roff = f.read()
    m = re.search(r'^\.SH "INPUT FORMATS"\n(.*?)^\.SH ', roff, re.S | re.M)
    if not m:
        sys.exit(f"error: {page} has no INPUT FORMATS section")
    return {name.replace("\\-", "-") for name in re.findall(r"^\.SS (\S+)", m.group(1), re.M)}


def main():
    tool, page = sys.argv[1], sys.argv[2]
    names = readable_formats(tool)
    documented = input_sections(page)
    missing = [n for n in names if n not in documented]
    for n in missing:
        print(f"input format {n} has no .SS {n} under INPUT FORMATS in {page}")
    if missing or len(names) < 5:
        sys.exit(1)
    print(f"{len(names)} input formats documented")


if __name__ == "__main__":
    main()
