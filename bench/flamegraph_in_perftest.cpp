// Times reading flame graphs back (formats/flamegraph_in): an async-profiler
// HTML page, an SVG, or fg's own page, in process, with the peak RSS. Times
// are CPU seconds (user + system), the fastest of the runs; the reader is
// the one the registry's html or svg row uses, chosen by the extension.
//
// usage: flamegraph_in_perftest PAGE.html|GRAPH.svg [RUNS]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "fg/diagnostics.h"
#include "formats/common/huge_pages.h"
#include "formats/flamegraph_in/flamegraph_in.h"
#include "formats/input.h"
#include "perftest_util.h"

int main(int argc, char** argv) {
  fg::formats::use_huge_pages();  // as the tools do
  if (argc < 2) {
    std::fprintf(stderr, "usage: flamegraph_in_perftest PAGE.html|GRAPH.svg [RUNS]\n");
    return 2;
  }
  const std::string path = argv[1];
  const bool svg = path.ends_with(".svg");
  const int runs = argc > 2 ? std::atoi(argv[2]) : 5;
  std::vector<double> read_s;
  std::uint64_t bytes = 0;
  std::size_t stacks = 0;
  for (int r = 0; r < runs; ++r) {
    fg::Diagnostics d;
    const double t0 = fg::bench::cpu_seconds();
    auto in = fg::formats::Input::open(path);
    fg::Profile p = svg ? fg::formats::flamegraph_in::read_svg(*in, {}, d)
                        : fg::formats::flamegraph_in::read_html(*in, {}, d);
    read_s.push_back(fg::bench::cpu_seconds() - t0);
    bytes = in->offset();
    stacks = p.stack_count();
  }
  const double mib = static_cast<double>(bytes) / (1 << 20);
  std::sort(read_s.begin(), read_s.end());
  const double median = read_s[read_s.size() / 2];
  std::printf("input %.1f MiB, %zu stacks\n", mib, stacks);
  std::printf("read  median %.3f s cpu  %6.0f MiB/s  (fastest %.3f s)  peak RSS %ld MiB\n", median,
              mib / median, read_s.front(), fg::bench::peak_rss_mb());
  return 0;
}
