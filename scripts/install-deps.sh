#!/usr/bin/env bash
# Installs every build and test dependency of fg from Debian's packages.
# Safe to run again: apt-get skips what is already installed.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config python3
  libboost-program-options-dev
  libpugixml-dev
  libprotobuf-dev protobuf-compiler
  libgraphviz-dev graphviz
  zlib1g-dev libdeflate-dev
  doctest-dev
  libsimdjson-dev
  libre2-dev  # regular expressions (filters, --fail-if, readers)
  nettle-dev  # SHA-1 of DeepFlow node ids
  libdw-dev libelf-dev
  libjemalloc-dev  # jeprof and libjemalloc, for bench/bench_jemalloc.py
  golang-go
  clang-format git  # scripts/check-format.sh (tests/style)
  clang libclang-rt-dev  # libFuzzer and the sanitizers' runtimes (scripts/fuzz.sh)
  chromium nodejs  # the HTML flame graph's browser tests (tests/browser)
  slurm-wlm munge  # a one-node cluster runs fg-report's shards (tests/report/slurm)
)

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi

export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${packages[@]}"

# Debian ships npm apart from nodejs; NodeSource's nodejs includes it (and
# conflicts with Debian's npm package), so install it only when missing.
command -v npm >/dev/null || $sudo apt-get install -y -qq --no-install-recommends npm

# playwright-core for tests/browser, pinned by its package-lock.json and
# installed beside the tests; it drives Debian's chromium (no browser download).
here="$(cd "$(dirname "$0")/.." && pwd)"
(cd "$here/tests/browser" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund)
