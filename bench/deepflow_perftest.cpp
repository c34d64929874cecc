// Times the DeepFlow JSON reader and the node/parent JSON writer on one
// file, in process: reading a response into the model, then writing it back
// as JSON (to a discarding stream), with the peak RSS after each. Times are
// CPU seconds (user + system, steadier than wall time on a shared machine),
// the fastest of the runs. bench_deepflow.py measures the real binary.
//
// usage: deepflow_perftest RESPONSE.json [RUNS]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ostream>
#include <vector>

#include "fg/diagnostics.h"
#include "formats/common/huge_pages.h"
#include "formats/deepflow/deepflow.h"
#include "formats/input.h"
#include "perftest_util.h"

using fg::bench::NullBuffer;
using fg::bench::peak_rss_mb;

int main(int argc, char** argv) {
  fg::formats::use_huge_pages();  // as the tools do
  if (argc < 2) {
    std::fprintf(stderr, "usage: deepflow_perftest RESPONSE.json [RUNS]\n");
    return 2;
  }
  const int runs = argc > 2 ? std::atoi(argv[2]) : 5;
  std::vector<double> read_s, write_s;
  std::uint64_t bytes = 0;
  long read_rss = 0;
  for (int r = 0; r < runs; ++r) {
    fg::Diagnostics d;
    double t0 = fg::bench::cpu_seconds();
    auto in = fg::formats::Input::open(argv[1]);
    fg::Profile p = fg::formats::deepflow::read(*in, {}, d);
    bytes = in->offset();
    double t1 = fg::bench::cpu_seconds();
    read_rss = std::max(read_rss, peak_rss_mb());
    NullBuffer null;
    std::ostream out(&null);
    fg::formats::WriteOptions w;
    w.json.envelope = true;
    fg::formats::deepflow::write(p, w, out, d);
    double t2 = fg::bench::cpu_seconds();
    read_s.push_back(t1 - t0);
    write_s.push_back(t2 - t1);
  }
  const double mib = static_cast<double>(bytes) / (1 << 20);
  const double r = *std::min_element(read_s.begin(), read_s.end());
  const double w = *std::min_element(write_s.begin(), write_s.end());
  std::printf("input %.1f MiB\n", mib);
  std::printf("read   %.3f s cpu  %6.0f MiB/s  peak RSS %ld MiB\n", r, mib / r, read_rss);
  std::printf("write  %.3f s cpu  %6.0f MiB/s of input  peak RSS %ld MiB\n", w, mib / w, peak_rss_mb());
  return 0;
}
