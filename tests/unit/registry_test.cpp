#include <doctest/doctest.h>

#include "fg/error.h"
#include "formats/registry.h"

using namespace fg;
using namespace fg::formats;

TEST_CASE("every format is listed once with a reader or a writer") {
  for (const Format& f : all_formats()) {
    CHECK((f.read || f.write));
    CHECK(find_format(f.name) == &f);
  }
  CHECK(find_format("nope") == nullptr);
}

TEST_CASE("input detection: content first, then extension, --from overrides") {
  auto in = Input::from_bytes("x.data", "a;b 1\n");
  CHECK(detect_input_format(*in, std::nullopt).name == "collapsed");
  auto odd = Input::from_bytes("x.folded", "garbage without counts\n");
  CHECK(detect_input_format(*odd, std::nullopt).name == "collapsed");
  auto unknown = Input::from_bytes("x.bin", "garbage without counts\n");
  CHECK_THROWS_WITH_AS(detect_input_format(*unknown, std::nullopt),
                       "x.bin: unrecognised input format; name one with --from (see --list-formats)",
                       Error);
  auto empty = Input::from_bytes("e", "");
  CHECK_THROWS_WITH_AS(detect_input_format(*empty, std::nullopt), "e: empty input", Error);
  CHECK(detect_input_format(*unknown, std::string("collapsed")).name == "collapsed");
  CHECK_THROWS_WITH_AS(detect_input_format(*unknown, std::string("svg")),
                       "--from svg: fg cannot read this format", UsageError);
  CHECK_THROWS_WITH_AS(detect_input_format(*unknown, std::string("xyz")),
                       "--from xyz: unknown format (see --list-formats)", UsageError);
}

TEST_CASE("output format: --to, else the extension, else svg") {
  CHECK(choose_output_format(std::nullopt, "out.folded").name == "collapsed");
  CHECK(choose_output_format(std::nullopt, "out.svg").name == "svg");
  CHECK(choose_output_format(std::nullopt, "-").name == "svg");
  CHECK(choose_output_format(std::string("dump"), "out.svg").name == "dump");
  CHECK_THROWS_WITH_AS(choose_output_format(std::nullopt, "out.xyz"),
                       "-o out.xyz: no format fg writes has the extension .xyz; name one with --to "
                       "(see --list-formats)",
                       UsageError);
  // A device, or a name without an extension, gets the fallback (#32.12).
  CHECK(choose_output_format(std::nullopt, "/dev/null").name == "svg");
  CHECK(choose_output_format(std::nullopt, "/dev/null", "collapsed").name == "collapsed");
  CHECK(choose_output_format(std::nullopt, "dir.d/profile").name == "svg");
}
