#!/usr/bin/env bash
# First command of the README: installs every dependency from Debian's
# packages, builds fg (Release) and renders the samples into flame graphs and
# a sample report (build/samples/report/index.html).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build "$root/build"
"$root/scripts/render-samples.sh" "$root/build"
