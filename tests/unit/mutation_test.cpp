// Deterministic mutation testing of every reader and writer: valid inputs
// with random damage (flipped, inserted and deleted bytes, separators in
// odd places, truncation, gzip) must give a profile or an fg::Error, never a
// crash or another exception. The libFuzzer target (tests/fuzz) does the
// same open-ended; this runs in every ctest.
#include <doctest/doctest.h>
#include <zlib.h>

#include <random>
#include <string>
#include <vector>

#include "fuzz/fuzz_one.h"

namespace {

std::string gzip(const std::string& data) {
  z_stream zs{};
  deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&zs, data.size()) + 32, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

std::string mutate(std::string s, std::mt19937& rng) {
  static const char kSpecial[] = ";; \t\n\r0123456789._[]kjiw<>&\"'\xff\x00";
  std::uniform_int_distribution<int> op(0, 5), count(1, 8);
  for (int n = count(rng); n > 0; --n) {
    std::size_t at = s.empty() ? 0 : std::uniform_int_distribution<std::size_t>(0, s.size() - 1)(rng);
    char c = kSpecial[std::uniform_int_distribution<std::size_t>(0, sizeof kSpecial - 1)(rng)];
    switch (op(rng)) {
      case 0: if (!s.empty()) s[at] = c; break;
      case 1: s.insert(at, 1, c); break;
      case 2: if (!s.empty()) s.erase(at, 1 + at % 7); break;
      case 3: s.resize(at); break;
      case 4: if (!s.empty()) s[at] = static_cast<char>(rng()); break;
      default: s.insert(at, std::string(1 + at % 40, c)); break;
    }
  }
  return s;
}

}  // namespace

TEST_CASE("damaged inputs give a profile or an error, never a crash") {
  const std::vector<std::string> seeds = {
      "main;a;b 3\nmain;a 2\nmain;c 5\n",
      "main;a;b 5 7\nmain;c 0 2\n",
      "java;Foo.bar_[j];Foo.baz_[i];sys_read_[k] 1\nperf;x_[w] 1\n",
      "a b c;d e 12\r\n\r\n;x 1\n 4\n",
      std::string(3000, 'f') + ";g 1\n",
  };
  std::mt19937 rng(20261121);
  int cases = 0;
  for (int round = 0; round < 400; ++round) {
    for (const std::string& seed : seeds) {
      std::string damaged = mutate(seed, rng);
      fg::fuzz::fuzz_one(damaged);
      if (round % 10 == 0) fg::fuzz::fuzz_one(gzip(damaged));
      if (round % 10 == 5) {
        std::string z = gzip(damaged);
        fg::fuzz::fuzz_one(mutate(z, rng));
      }
      ++cases;
    }
  }
  CHECK(cases == 2000);
}
