#!/usr/bin/env bash
# Checks that C++ sources are laid out as .clang-format says. With a git
# revision, only the files changed since it (what a change touches);
# without, every tracked source. Names the files that differ and exits 1.
# To fix them: clang-format -i FILE...
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -gt 0 ]; then
  mapfile -t files < <(git diff --name-only --diff-filter=d "$1" -- '*.cpp' '*.h')
else
  mapfile -t files < <(git ls-files -- '*.cpp' '*.h')
fi
[ ${#files[@]} -eq 0 ] && exit 0
if ! out=$(printf '%s\0' "${files[@]}" | xargs -0 -n 16 -P 2 clang-format --dry-run -Werror 2>&1); then
  printf '%s\n' "$out" | grep -o '^[^:]*\.\(cpp\|h\):' | sort -u | sed 's/:$//; s/^/not formatted (clang-format -i): /'
  exit 1
fi
