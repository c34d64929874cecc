#!/usr/bin/env bash
# Second command of the README (and what CI runs): builds fg with its tests
# and runs the whole suite under ctest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFG_BUILD_TESTS=ON
cmake --build "$root/build"
ctest --test-dir "$root/build" --output-on-failure -j2
