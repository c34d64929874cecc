#include "fg/diagnostics.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using fg::Diagnostics;
using fg::SourcePosition;

TEST_CASE("warnings are printed up to a limit, then counted") {
  std::vector<std::string> printed;
  Diagnostics d(
      false, [&](const std::string& m) { printed.push_back(m); }, 2);
  for (int i = 1; i <= 5; ++i) d.warn(SourcePosition::text("a.folded", i, 3), "bad line", "no count");
  d.warn("unknown event", "3 events of unknown type");
  CHECK(d.count() == 6);
  CHECK(d.count("bad line") == 5);
  REQUIRE(printed.size() == 3);
  CHECK(printed[0] == "a.folded:1:3: no count");
  CHECK(printed[2] == "3 events of unknown type");
  auto summary = d.summary();
  REQUIRE(summary.size() == 1);
  CHECK(summary[0] == "5 warnings of kind 'bad line' (first at a.folded:1:3), 3 not shown");
}

TEST_CASE("strict turns the first warning into an error") {
  Diagnostics d(true);
  CHECK_THROWS_WITH_AS(d.warn(SourcePosition::text("a.folded", 4, 1), "bad line", "no count"),
                       "a.folded:4:1: no count", fg::ParseError);
  CHECK_THROWS_AS(d.warn("x", "whole-file problem"), fg::Error);
}

TEST_CASE("binary positions print as offsets") {
  CHECK(SourcePosition::binary("p.pb", 0x1a2b).to_string() == "p.pb: offset 0x1a2b");
  CHECK(SourcePosition::text("", 3).to_string() == "<input>:3");
}
