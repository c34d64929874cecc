#!/usr/bin/env python3
"""Fails when a doctest case of fg_unit_tests cannot be run alone by ctest.

Usage: check_case_names.py FG_UNIT_TESTS

doctest_discover_tests() registers one ctest per case, named after it and
running it with --test-case=NAME. A ';' in the name splits it into two
CMake list items: two ctests, each with a filter that matches no case, so
both pass without running anything. This lists the cases and refuses such
names, so that no case silently drops out of the suite.
"""

import subprocess
import sys

listing = subprocess.run([sys.argv[1], "--list-test-cases", "--no-intro=true", "--no-version=true"],
                         capture_output=True, text=True, check=True).stdout
names = [line for line in listing.splitlines() if line and not line.startswith(("=", "[doctest]"))]
bad = [n for n in names if ";" in n]
for n in bad:
    print(f"FAIL: a test case name holds ';' and would never run under ctest: {n}")
if len(names) < 100:
    print(f"FAIL: only {len(names)} test cases listed; the listing's format may have changed")
    sys.exit(1)
sys.exit(1 if bad else 0)
