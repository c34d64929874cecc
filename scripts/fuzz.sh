#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan+UBSan) into build-fuzz and runs
# each for SECONDS (default 60): one fast read-only target per reader,
# seeded from tests/fuzz/corpus/<format> (kept in the tree: add inputs that
# found a crash or new coverage worth keeping), samples/ and tests/data.
# New inputs go to build-fuzz/corpus/<format>, crashes to
# build-fuzz/crashes/ (never into the source tree); a crash fails the run:
# make it a test (tests/fuzz/corpus/<format> and a unit or golden case).
#   scripts/fuzz.sh [SECONDS] [FORMAT...]      e.g. scripts/fuzz.sh 3600 pprof
#   scripts/fuzz.sh --build-only [TARGET...]   the targets too, and no run
#                                              (scripts/test.sh's ASan build)
# Inputs are small (max_len_of: a few KiB per format, past which a mutant
# only costs time): seeds larger than that are left out; the kept corpus
# holds small ones derived from them (-merge=1 with the same -max_len).
# Exits 0 with a message when clang++ is missing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build_only=() only_build=
if [ "${1:-}" = --build-only ]; then
  shift
  build_only=("$@") only_build=1
  set --
fi
seconds=${1:-60}
shift || true
formats=("$@")
[ ${#formats[@]} -gt 0 ] || formats=(collapsed pprof jemalloc jeprof-dot jfr json svg html)
if ! command -v clang++ >/dev/null; then
  echo "fuzz.sh: no clang++; the fuzz targets are not built"
  exit 0
fi
out="$root/build-fuzz"
# Configured once (a minute on a loaded machine); cmake --build configures
# again when a CMakeLists.txt changes.
if ! grep -qs '^FG_FUZZ:BOOL=ON' "$out/CMakeCache.txt"; then
  CXX=clang++ cmake -S "$root" -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=None "-DCMAKE_CXX_FLAGS=-O1 -g" \
    -DFG_FUZZ=ON -DFG_BUILD_TESTS=ON >/dev/null
fi
targets=("${build_only[@]}")
for f in "${formats[@]}"; do targets+=("fg_fuzz_read_${f//-/_}"); done
cmake --build "$out" --target "${targets[@]}"
[ -z "$only_build" ] || exit 0

# Which seeds each reader starts from (gzip inflated: the fuzzer mutates
# the format's bytes, not deflate's).
seeds_of() {
  case $1 in
    collapsed) ls "$root"/samples/*.folded "$root"/tests/data/deepflow/*.folded "$root"/tests/golden/inputs/*.folded ;;
    pprof) ls "$root"/tests/golden/inputs/*.pb* "$root"/tests/parity/pprof/*.pb.gz "$root"/tests/parity/pprof/pprof_testdata/*.pb.gz ;;
    jemalloc) ls "$root"/tests/golden/inputs/*.heap "$root"/tests/parity/jemalloc/dumps/*.heap.gz ;;
    jeprof-dot) ls "$root"/tests/golden/inputs/*.dot "$root"/tests/parity/jeprof_dot/ref/*.dot ;;
    # Real recordings are larger than max_len (left out); the kept corpus
    # has small ones (tests/unit/jfr_writer.h's) and their mutants.
    jfr) ls "$root"/tests/golden/inputs/*.jfr* "$root"/tests/parity/jfr/recordings/cpu-recursion.ap-itimer.jfr.gz ;;
    json) ls "$root"/tests/data/deepflow/*.json "$root"/tests/golden/inputs/*.json ;;
    svg) ls "$root"/tests/parity/flamegraph/*.svg "$root"/tests/golden/expected/*svg*.stdout ;;
    html) ls "$root"/tests/parity/aphtml/pages/*/*.html.gz "$root"/tests/golden/expected/html-*.stdout ;;
  esac
}

# The largest input each target is given, in bytes: enough for a few
# dozen stacks (a JFR chunk with its metadata, a page with its script),
# small enough that one execution takes about a millisecond.
max_len_of() {
  case $1 in
    collapsed) echo 4096 ;;
    jeprof-dot | svg | html) echo 8192 ;;
    *) echo 16384 ;;
  esac
}

# A smaller quarantine than ASan's 256 MB: each execution allocates a few
# MB at most, so 16 MB still holds a freed block for the whole execution
# (use after free is caught), while fresh pages for every allocation (page
# faults, zeroing) had doubled the time of an execution.
export ASAN_OPTIONS="detect_leaks=1:quarantine_size_mb=16"
export LSAN_OPTIONS="suppressions=$root/tests/sanitizers/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
mkdir -p "$out/crashes"
status=0
for f in "${formats[@]}"; do
  corpus="$out/corpus/$f" seeds="$out/seeds/$f" kept="$root/tests/fuzz/corpus/$f"
  max_len=$(max_len_of "$f")
  rm -rf "$seeds"
  mkdir -p "$corpus" "$seeds"
  # One process per seed (a minute for all on a loaded machine with four).
  for s in $(seeds_of "$f"); do
    # Named by the path: two releases' pages share a file name.
    name=${s#"$root"/} name=${name//\//_}
    gzip -dcf "$s" >"$seeds/$name" 2>/dev/null || cp "$s" "$seeds/$name"
  done
  find "$seeds" -type f -size +"$max_len"c -delete
  dict=()
  [ -f "$root/tests/fuzz/dict/$f.dict" ] && dict=("-dict=$root/tests/fuzz/dict/$f.dict")
  echo "fuzz.sh: fg_fuzz_read_${f//-/_} for $seconds s"
  # The first folder gets the new inputs; the others are only read.
  # -timeout is wall time: on a loaded machine (load 16 on 2 cores, nice)
  # a kept jeprof-dot input of 0.3 s CPU took 11 s and failed at 10.
  dirs=("$corpus" "$seeds")
  [ -d "$kept" ] && dirs+=("$kept")
  if ! "$out/tests/fg_fuzz_read_${f//-/_}" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 \
    -max_len="$max_len" -print_final_stats=1 -artifact_prefix="$out/crashes/$f-" "${dict[@]}" \
    "${dirs[@]}" 2>"$out/fuzz-$f.log"; then
    status=1
    tail -40 "$out/fuzz-$f.log"
  fi
  grep -E "stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb" "$out/fuzz-$f.log" |
    sed "s/^/fuzz.sh: $f /"
done
exit $status
