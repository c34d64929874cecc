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
  zlib1g-dev
  doctest-dev
  libsimdjson-dev
  libdw-dev libelf-dev
  libjemalloc-dev  # jeprof and libjemalloc, for bench/bench_jemalloc.py
  golang-go
)

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi

export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${packages[@]}"
