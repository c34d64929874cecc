// Fractional counts written by formats that store whole numbers (pprof,
// DeepFlow's JSON): totals keep their nearest whole number.
#include "fg/whole_units.h"

#include <doctest/doctest.h>

#include <sstream>

#include "fg/builder.h"
#include "formats/pprof/pprof.h"
#include "test_util.h"

namespace fg {

namespace {

// Each sample's value, in reading order.
std::vector<std::int64_t> column(const Profile& p, std::size_t c = 0) {
  std::vector<std::int64_t> out;
  for (std::size_t i = 0; i < p.sample_count(); ++i) out.push_back(p.values(i)[c]);
  return out;
}

}  // namespace

TEST_CASE("whole units: a total of 335.2 stays 335, where rounding each line gives 337") {
  Profile p = test::folded("main;parse 0.5\nmain;parse;lex 0.5\nmain;run 0.5\nmain;run;work 333.7\n");
  REQUIRE(p.value_types()[0].decimals == 1);
  REQUIRE(p.totals()[0] == 3352);
  std::size_t changed = 0;
  Profile w = whole_units(p, &changed);
  CHECK(w.value_types()[0].decimals == 0);
  CHECK(changed == 4);
  CHECK(w.totals()[0] == 335);
  // Floors 0, 0, 0, 333; two units more, to the largest remainders: .7 then
  // the first .5 (earlier samples first among equals).
  CHECK(column(w) == std::vector<std::int64_t>{1, 0, 0, 334});
  CHECK(test::collapsed(w) == "main;parse 1\nmain;run;work 334\n");
}

TEST_CASE("whole units: halves round the total up, negative values floor, whole columns stay") {
  CHECK(whole_units(test::folded("a 0.5\n")).totals()[0] == 1);
  CHECK(whole_units(test::folded("a 0.25\nb 0.25\n")).totals()[0] == 1);  // 0.5: up
  CHECK(whole_units(test::folded("a 0.2\nb 0.2\n")).totals()[0] == 0);
  // Each column on its own: base 1.5 -> 2, new 0.25 -> 0.
  Profile two = test::folded("a 1.5 0\nb 0 0.25\n");
  CHECK(whole_units(two).totals() == std::vector<std::int64_t>{2, 0});
  // Negative values (a delta view) floor: -1.5 and 0.2 are -2 rem .5 and 0
  // rem .2; the total -1.3 rounds to -1, so the .5 gets the unit.
  ProfileBuilder b(std::vector<ValueType>{{"samples", "count", ValueRole::kPlain, 1}});
  b.add_sample(std::vector<FrameId>{b.frame("a")}, std::vector<std::int64_t>{-15});
  b.add_sample(std::vector<FrameId>{b.frame("b")}, std::vector<std::int64_t>{2});
  Profile w = whole_units(std::move(b).finish());
  CHECK(column(w) == std::vector<std::int64_t>{-1, 0});
  Profile whole = test::folded("a 3\nb 4\n");
  CHECK_FALSE(has_fractions(whole));
  CHECK(column(whole_units(whole)) == column(whole));
}

TEST_CASE("whole units: pprof gets whole numbers with one warning, the total is kept") {
  Profile p = test::folded("main;parse 0.5\nmain;parse;lex 0.5\nmain;run 0.5\nmain;run;work 333.7\n");
  std::vector<std::string> warnings;
  Diagnostics d(
      false, [&](const std::string& m) { warnings.push_back(m); }, 100);
  std::ostringstream out;
  formats::pprof::write(p, formats::WriteOptions{}, out, d);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].find("pprof stores whole numbers") != std::string::npos);
  CHECK(warnings[0].find("335.2 -> 335") != std::string::npos);
  Profile back = test::read_as("pprof", out.str(), nullptr, true, "t.pb");
  CHECK(back.totals()[0] == 335);
  CHECK(test::collapsed(back) == "main;parse 1\nmain;run;work 334\n");
}

}  // namespace fg
