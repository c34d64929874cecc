#!/usr/bin/env bash
# Renders every samples/*.folded (not samples/bad/) into flame graph SVGs with
# the fg-convert of a build tree, plus a few variants (icicle, reversed, the
# model dump) so the output can be looked at in a browser, and a sample
# report of them all with fg-report.
#
# usage: scripts/render-samples.sh BUILD_DIR
#
# Writes BUILD_DIR/samples/NAME.svg for each samples/NAME.folded, and
# go-cpu.icicle.svg, go-cpu.reverse.svg and go-cpu.dump, and the site
# BUILD_DIR/samples/report (index.html). Works from any current directory.
# The samples are all valid input, so they are read with --strict: a warning
# about any of them fails the script (and fg-report's exit status 1 too).
set -euo pipefail

usage() {
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
}

[ "$#" -eq 1 ] || usage
case "$1" in -h | --help) usage ;; esac

repo_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
samples_dir="$repo_dir/samples"

if [ ! -d "$1" ]; then
  echo "$0: $1: no such build directory" >&2
  exit 1
fi
build_dir="$(cd "$1" && pwd)"
fg_convert="$build_dir/tools/fg-convert"
fg_report="$build_dir/tools/fg-report"
for tool in "$fg_convert" "$fg_report"; do
  if [ ! -x "$tool" ]; then
    echo "$0: $tool not found; build it first: ninja -C $build_dir $(basename "$tool")" >&2
    exit 1
  fi
done

out_dir="$build_dir/samples"
mkdir -p "$out_dir"

# render INPUT OUTPUT [fg-convert options...]
render() {
  local input=$1 output=$2
  shift 2
  "$fg_convert" --strict "$@" "$input" -o "$output"
  echo "wrote $output"
}

shopt -s nullglob
inputs=("$samples_dir"/*.folded)
shopt -u nullglob
if [ "${#inputs[@]}" -eq 0 ]; then
  echo "$0: no samples in $samples_dir" >&2
  exit 1
fi

for input in "${inputs[@]}"; do
  name="$(basename "$input" .folded)"
  # Options of the default rendering of each sample; go-cpu-diff has two
  # counts per line, which fg-convert draws as a differential flame graph.
  case "$name" in
    go-cpu) options=("--title=Go CPU profile") ;;
    go-cpu-diff) options=("--title=Go CPU profile: differential (before -> after)") ;;
    go-heap-inuse) options=("--title=Go heap profile: in-use bytes" --colors=mem --countname=bytes) ;;
    java-annotated) options=("--title=JVM CPU profile (async-profiler style, annotated)" --colors=java) ;;
    names-with-spaces) options=("--title=Frame names with spaces and templates") ;;
    xss) options=("--title=Frame names that look like markup") ;;
    *) options=() ;;
  esac
  render "$input" "$out_dir/$name.svg" ${options[@]+"${options[@]}"}
done

go_cpu="$samples_dir/go-cpu.folded"
render "$go_cpu" "$out_dir/go-cpu.icicle.svg" --inverted "--title=Go CPU profile (icicle)"
render "$go_cpu" "$out_dir/go-cpu.reverse.svg" --reverse "--title=Go CPU profile (reversed: merged from the leaves)"
render "$go_cpu" "$out_dir/go-cpu.dump" --to dump

# The sample report: the same inputs (never samples/bad/, which is invalid
# on purpose), given as files so that the folder's search does not reach it.
"$fg_report" --strict "${inputs[@]}" -o "$out_dir/report"
echo "wrote $out_dir/report"

echo "open $out_dir/go-cpu.svg and $out_dir/report/index.html in a browser"
