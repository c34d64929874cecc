#!/usr/bin/env bash
# Second command of the README (and what CI runs): builds fg with its tests
# and runs the whole suite under ctest. Then, with FG_SANITIZERS=1:
# - a build with AddressSanitizer and UndefinedBehaviorSanitizer (-O1 -g)
#   runs the unit, golden (the damaged inputs of samples/bad among them) and
#   hostile-input suites. With clang++ this is build-fuzz, the build that
#   also holds the libFuzzer targets (scripts/fuzz.sh); without it, GCC's
#   build-asan.
# - a build with ThreadSanitizer runs the golden cases, each of which also
#   runs on four threads with FG_PARALLEL_MIN=0 (the threaded readers and
#   writers).
# With FG_FUZZ_SECONDS=N, scripts/fuzz.sh then runs each fuzz target for N
# seconds (when clang++ is there). .ci/run sets both (20 s a target).
# Each stage prints the time it ended at and the CPU seconds of all it ran
# so far.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tools=(fg-convert fg-diff fg-filter fg-top fg-report)
stamp() {  # the wall time, and the CPU seconds of the children waited for
  local f
  read -ra f <<<"$(cut -d')' -f2 /proc/$$/stat)"
  echo "test.sh: $1 after $((SECONDS / 60)) min $((SECONDS % 60)) s, $(((f[13] + f[14]) / $(getconf CLK_TCK))) CPU s"
}

cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFG_BUILD_TESTS=ON
cmake --build "$root/build"
ctest --test-dir "$root/build" --output-on-failure -j2
stamp "the Release suite passed"

# Every report fails the run: UBSan's halt_on_error, and LeakSanitizer
# quiet only for the caches of tests/sanitizers/lsan.supp.
export ASAN_OPTIONS="detect_leaks=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export LSAN_OPTIONS="suppressions=$root/tests/sanitizers/lsan.supp:print_suppressions=0"
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1"
sanitized() {  # build dir, cmake options...: a -O1 -g build with the tests
  local dir=$1
  shift
  cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=None "-DCMAKE_CXX_FLAGS=-O1 -g" -DFG_BUILD_TESTS=ON "$@"
}
if [ "${FG_SANITIZERS:-0}" = 1 ]; then
  if command -v clang++ >/dev/null; then
    asan="$root/build-fuzz"
    "$root/scripts/fuzz.sh" --build-only "${tools[@]}" fg_unit_tests
  else
    asan="$root/build-asan"
    sanitized "$asan" -DFG_SANITIZE=ON
    cmake --build "$asan" --target "${tools[@]}" fg_unit_tests
  fi
  FG_HOSTILE_SLACK=4 ctest --test-dir "$asan" --output-on-failure -j2 -R '^(unit|golden|hostile)\.'
  stamp "the ASan+UBSan suites passed"
fi
if [ -n "${FG_FUZZ_SECONDS:-}" ]; then
  "$root/scripts/fuzz.sh" "$FG_FUZZ_SECONDS"
  stamp "the fuzz runs ended"
fi
if [ "${FG_SANITIZERS:-0}" = 1 ]; then
  sanitized "$root/build-tsan" -DFG_TSAN=ON
  cmake --build "$root/build-tsan" --target "${tools[@]}"
  ctest --test-dir "$root/build-tsan" --output-on-failure -j2 -R '^golden\.'
  stamp "the TSan golden runs passed"
fi
