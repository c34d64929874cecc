// Times each phase of collapsed -> flame graph SVG on one file, in process:
// reading, the call tree, the SVG (written to a discarding stream), with the
// peak RSS after each phase. Times are CPU seconds, the fastest of the runs. For finding where the time and
// memory go; bench_flamegraph.py measures the real binary beside flamegraph.pl.
//
// usage: flamegraph_perftest FILE.folded [RUNS]
#include <algorithm>
#include <cstdio>
#include <ostream>
#include <vector>

#include "fg/call_tree.h"
#include "fg/diagnostics.h"
#include "formats/collapsed/collapsed.h"
#include "formats/common/huge_pages.h"
#include "formats/input.h"
#include "formats/svg/flamegraph.h"
#include "perftest_util.h"

using fg::bench::NullBuffer;
using fg::bench::peak_rss_mb;
inline double now() { return fg::bench::cpu_seconds(); }

int main(int argc, char** argv) {
  fg::formats::use_huge_pages();  // as the tools do
  if (argc < 2) {
    std::fprintf(stderr, "usage: flamegraph_perftest FILE.folded [RUNS]\n");
    return 2;
  }
  int runs = argc > 2 ? std::atoi(argv[2]) : 5;
  std::vector<double> read_s, tree_s, svg_s;
  std::uint64_t bytes = 0;
  for (int r = 0; r < runs; ++r) {
    fg::Diagnostics d;
    double t0 = now();
    auto in = fg::formats::Input::open(argv[1]);
    fg::Profile p = fg::formats::collapsed::read(*in, {}, d);
    bytes = in->offset();
    double t1 = now();
    long rss_read = peak_rss_mb();
    fg::CallTree tree(p);
    double t2 = now();
    NullBuffer nb;
    std::ostream null(&nb);
    fg::formats::svg::write_flamegraph(p, {}, null, d);
    double t3 = now();
    read_s.push_back(t1 - t0);
    tree_s.push_back(t2 - t1);
    svg_s.push_back(t3 - t2);
    if (r == 0)
      std::printf("stacks %zu, samples %zu, frames %zu; peak RSS after read %ld MB, at end %ld MB\n",
                  p.stack_count(), p.sample_count(), p.frame_count(), rss_read, peak_rss_mb());
  }
  // The fastest run: on a shared machine every disturbance only adds time.
  auto median = [](std::vector<double> v) { return *std::min_element(v.begin(), v.end()); };
  double mb = static_cast<double>(bytes) / 1e6;
  std::printf("read   %.3f s  %.0f MB/s\n", median(read_s), mb / median(read_s));
  std::printf("tree   %.3f s  (a CallTree alone; the SVG writer builds its own)\n", median(tree_s));
  std::printf("svg    %.3f s  (tree + layout + SVG to a discarding stream)\n", median(svg_s));
  std::printf("read+svg %.3f s  %.0f MB/s\n", median(read_s) + median(svg_s),
              mb / (median(read_s) + median(svg_s)));
  return 0;
}
