#!/usr/bin/env bash
# Checks that no source under tools/ names a format: the tools choose
# writers and readers through the registry (formats/registry.cpp) and
# plan(), never by name. The names are the registry's own: those
# `fg-convert --list-formats` prints (formats and aliases) and the rows it
# does not list (`.name = "..."` in the registry). A string literal equal
# to one of them in a tool's source fails the check, naming file and line.
# Usage: check-format-names.sh FG_CONVERT [TOOLS_DIR] [REGISTRY_CPP]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
fg_convert=${1:?usage: check-format-names.sh FG_CONVERT [TOOLS_DIR] [REGISTRY_CPP]}
tools=${2:-$root/tools}
registry=${3:-$root/formats/registry.cpp}

listing=$("$fg_convert" --list-formats)
# The table's first column, up to the blank line; then each alias line's
# aliases ("svg     flamegraph, flame").
mapfile -t names < <(
  printf '%s\n' "$listing" | awk '
    NR == 1 { next }
    /^$/ { table = 1; next }
    /^ALIASES/ { next }
    !table { print $1; next }
    { $1 = ""; n = split($0, a, ","); for (i = 1; i <= n; i++) { gsub(/ /, "", a[i]); print a[i] } }'
  grep -o '\.name = "[^"]*"' "$registry" | sed 's/^\.name = "//; s/"$//')
mapfile -t names < <(printf '%s\n' "${names[@]}" | grep -v '^$' | sort -u)
if [ ${#names[@]} -lt 5 ]; then
  echo "check-format-names: found only ${#names[@]} format names; is $fg_convert the fg-convert binary?" >&2
  exit 2
fi
pattern="\"($(printf '%s|' "${names[@]}" | sed 's/|$//; s/[.]/\\./g'))\""
# Option declarations ("dot", po::bool_switch(...), "top",
# number_value("top", ...)) name options, not formats: they are left out
# before matching.
hits=$(find "$tools" \( -name '*.cpp' -o -name '*.h' \) -print0 | sort -z |
  xargs -0 perl -ne 'BEGIN { $re = shift } s/"[^"]*",\s*(?:fg::cli::)?(?:po::\w+|number_value\("[^"]*")//g;
    print "$ARGV:$.: $_" if /$re/; close ARGV if eof' "$pattern")
if [ -n "$hits" ]; then
  printf '%s\n' "$hits" | sed 's/^/names a format (choose it through the registry or plan()): /'
  exit 1
fi
