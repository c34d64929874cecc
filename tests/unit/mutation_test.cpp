// Deterministic mutation testing of every reader and writer: valid inputs
// with random damage (flipped, inserted and deleted bytes, separators in
// odd places, truncation, gzip) must give a profile or an fg::Error, never a
// crash or another exception. The libFuzzer target (tests/fuzz) does the
// same open-ended; this runs in every ctest.
#include <doctest/doctest.h>

#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "formats/gzip.h"
#include "fuzz/fuzz_jfr.h"
#include "fuzz/fuzz_one.h"
#include "jfr_writer.h"
#include "test_util.h"

namespace {

std::string gzip(const std::string& data) { return fg::formats::gzip_compress(data); }

std::string mutate(std::string s, std::mt19937& rng) {
  static const char kSpecial[] = ";; \t\n\r0123456789._[]kjiw<>&\"'\xff\x00";
  std::uniform_int_distribution<int> op(0, 5), count(1, 8);
  for (int n = count(rng); n > 0; --n) {
    std::size_t at = s.empty() ? 0 : std::uniform_int_distribution<std::size_t>(0, s.size() - 1)(rng);
    char c = kSpecial[std::uniform_int_distribution<std::size_t>(0, sizeof kSpecial - 1)(rng)];
    switch (op(rng)) {
      case 0:
        if (!s.empty()) s[at] = c;
        break;
      case 1:
        s.insert(at, 1, c);
        break;
      case 2:
        if (!s.empty()) s.erase(at, 1 + at % 7);
        break;
      case 3:
        s.resize(at);
        break;
      case 4:
        if (!s.empty()) s[at] = static_cast<char>(rng());
        break;
      default:
        s.insert(at, std::string(1 + at % 40, c));
        break;
    }
  }
  return s;
}

}  // namespace

TEST_CASE("damaged inputs give a profile or an error, never a crash") {
  std::vector<std::string> seeds = {
      "main;a;b 3\nmain;a 2\nmain;c 5\n",
      "main;a;b 5 7\nmain;c 0 2\n",
      "java;Foo.bar_[j];Foo.baz_[i];sys_read_[k] 1\nperf;x_[w] 1\n",
      "a b c;d e 12\r\n\r\n;x 1\n 4\n",
      std::string(3000, 'f') + ";g 1\n",
      // a jemalloc heap dump whose modules are nowhere (no file is opened)
      "heap_v2/524288\n  t*: 3: 96 [3: 96]\n  t0: 3: 96 [3: 96]\n"
      "@ 0x7f0000001010 0x55000000201f 0x550000002040\n  t*: 2: 64 [3: 96]\n  t0: 1: 32 [1: 32]\n"
      "  t3: 1: 32 [2: 64]\n@ 0x550000002001\n  t*: 1: 32 [1: 32]\n  t0: 1: 32 [1: 32]\n\n"
      "MAPPED_LIBRARIES:\n550000000000-550000001000 r--p 00000000 fe:00 7 /nonexistent/app\n"
      "550000001000-550000003000 r-xp 00001000 fe:00 7 /nonexistent/app\n"
      "7f0000000000-7f0000002000 r-xp 00009000 fe:00 9 /nonexistent/libjemalloc.so.2\n",
      // jeprof's DOT call graph, with a diamond, recursion and an inlined node
      fg::test::jeprof_diamond_dot(
          "N3 -> N3 [label=1.0, weight=100000, style=\"setlinewidth(2.000000)\"];\n"),
      // DeepFlow ProfileTracing JSON, nodes out of order
      "{\"OPT_STATUS\":\"SUCCESS\",\"DESCRIPTION\":\"\",\"result\":[{\"profile_location_str\":\"[k] r\","
      "\"node_id\":\"b\",\"parent_node_id\":\"a\",\"self_value\":3,\"total_value\":3},"
      "{\"profile_location_str\":\"app\",\"node_id\":\"\",\"parent_node_id\":\"-1\",\"self_value\":0,"
      "\"total_value\":5},{\"profile_location_str\":\"[t] main\",\"node_id\":\"a\",\"parent_node_id\":\"\","
      "\"self_value\":2,\"total_value\":5}],\"debug\":null}",
  };
  // async-profiler pages of each generation and a flamegraph.pl SVG:
  // damage lands in levels, widths, keys, quotes and the name table.
  seeds.push_back(
      "<!DOCTYPE html>\n<h1>T</h1>\n<script>\n\tfunction f(level, left, width, type, title) {\n\t}\n"
      "f(0,0,5,4,'all')\nf(1,0,3,0,'x\\'y')\nf(2,0,1,2,'k')\nf(1,3,2,3,'C::m')\nrender();\n</script>\n");
  seeds.push_back(
      "<!DOCTYPE html>\n<script>\n\tfunction f(level, left, width, type, title, inln, c1, int) {\n\t}\n"
      "f(0,0,14,3,'all')\nf(1,0,14,2,'Foo.bar',7,4,1)\nf(2,0,2,3,'a\\\\b')\nrender();\n</script>\n");
  seeds.push_back(
      "<!DOCTYPE html>\n<script>\n\tconst maxdiff = 4;\n\tlet inverted = true;\nconst cpool = [\n'all',\n' "
      "a',\n"
      "'!b',\n' "
      "c'\n];\nunpack(cpool);\n\nd=0\nn(3,10)\nu(11,6)\nd=U\nu(19,6)\nd=-1\nf(27,1,6,4)\n\nsearch();\n"
      "</script>\n");
  seeds.push_back(
      "<?xml version=\"1.0\"?>\n<svg>\n<!-- Flame graph -->\n<g id=\"frames\">\n"
      "<g><title>all (1,361 samples, 100%)</title><rect x=\"10.0\" y=\"69\" width=\"1180.0\"/></g>\n"
      "<g><title>a&lt;b (1,000 samples, 73.48%)</title><rect x=\"10.0\" y=\"53\" width=\"867.0\"/></g>\n"
      "<g><title>c (300 samples, 22.04%; +1.00%)</title><rect x=\"110.0\" y=\"37\" width=\"260.0\"/></g>\n"
      "</g>\n</svg>\n");
  // fg's own page, drawn from a diff profile.
  {
    fg::Profile p = fg::test::folded("main;a;b 5 7\nmain;c_[k] 0 2\n");
    std::ostringstream out;
    fg::Diagnostics d;
    fg::formats::find_format("html")->write(p, fg::formats::WriteOptions{}, out, d);
    seeds.push_back(out.str());
  }
  // A profile.proto message (inflated), written by fg from a folded profile
  // with labels-free stacks: the protobuf reader's seed.
  {
    fg::Profile p = fg::test::folded("main;a;b 3\nmain;a 2\nmain;c_[k] 5\n");
    std::ostringstream out;
    fg::Diagnostics d;
    fg::formats::find_format("pprof")->write(p, fg::formats::WriteOptions{}, out, d);
    auto in = fg::formats::Input::from_bytes("seed", out.str());
    seeds.push_back(std::string(fg::formats::read_all(*in).view()));
  }
  // A JFR recording (metadata, two chained checkpoints, events): the JFR
  // reader's seed; damage lands in sizes, offsets, counts and pool keys.
  seeds.push_back(fg::test::jfr::synthetic_jfr());
  std::mt19937 rng(20261121);
  int cases = 0;
  for (int round = 0; round < 400; ++round) {
    for (const std::string& seed : seeds) {
      std::string damaged = mutate(seed, rng);
      fg::fuzz::fuzz_one(damaged, round % 2 == 1);  // streamed, then in place
      if (round % 10 == 0) fg::fuzz::fuzz_one(gzip(damaged));
      if (round % 10 == 5) {
        std::string z = gzip(damaged);
        fg::fuzz::fuzz_one(mutate(z, rng));
      }
      ++cases;
    }
  }
  CHECK(cases == 6000);
}

TEST_CASE("damaged JFR recordings read with every option set give a profile or an error") {
  // fuzz_jfr() takes the options from the last byte: each of the 256 sets
  // on the recording as written and damaged, with threads in several
  // states, locks, allocations and a tree of traces in three frame kinds.
  fg::test::jfr::SynthOptions o;
  o.more_samples = {{1, 1}, {2, 2}, {1, 2}, {2, 1}};
  o.more_states = {5, 6, 7, 5};
  o.more_locks = {10, 20};
  o.line_twin = true;
  o.binary_traces = 20;
  const std::string seed = fg::test::jfr::synthetic_jfr(o);
  std::mt19937 rng(20261126);
  int damaged_read = 0, damaged_refused = 0;
  for (int options = 0; options < 256; ++options) {
    std::string whole = seed + static_cast<char>(options);
    // Undamaged, every set reads but --state runnable,sleeping (bits 6
    // and 0), a state this recording has no name for: a usage error.
    const bool unknown_state = (options & 64) && (options & 1);
    CHECK_MESSAGE(fg::fuzz::fuzz_jfr(whole) == (unknown_state ? 0 : 2), "options byte " << options);
    for (int round = 0; round < 2; ++round) {
      std::string bytes = mutate(seed, rng) + static_cast<char>(options);
      const int read = fg::fuzz::fuzz_jfr(bytes);
      damaged_read += read;
      damaged_refused += 2 - read;
    }
  }
  CHECK(damaged_read > 0);
  CHECK(damaged_refused > 0);
}
