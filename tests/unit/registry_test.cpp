#include "formats/registry.h"

#include <doctest/doctest.h>

#include "fg/error.h"

using namespace fg;
using namespace fg::formats;

TEST_CASE("every format is listed once with a reader or a writer") {
  for (const Format& f : all_formats()) {
    CHECK((f.read || f.write || f.write_diff));
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
                       "x.bin: unrecognised input format; name one with --from (see --list-formats)", Error);
  auto empty = Input::from_bytes("e", "");
  CHECK_THROWS_WITH_AS(detect_input_format(*empty, std::nullopt), "e: empty input", Error);
  CHECK(detect_input_format(*unknown, std::string("collapsed")).name == "collapsed");
  CHECK_THROWS_WITH_AS(detect_input_format(*unknown, std::string("top")),
                       "--from top: fg cannot read this format", UsageError);
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

TEST_CASE("input detection: a first line longer than the sniffing window is still judged whole") {
  // Deep Java and Rust stacks make folded lines of many KiB.
  for (std::size_t frames : {300, 5000, 100000}) {
    std::string line;
    for (std::size_t i = 0; i < frames; ++i) line += "com.example.Frame" + std::to_string(i) + ".call;";
    line += "leaf 7\n";
    REQUIRE(line.size() > 4096);
    for (bool mappable : {false, true}) {
      auto in = Input::from_bytes("<stdin>", line + "a;b 1\n", kDefaultMaxInflated, mappable);
      CHECK(detect_input_format(*in, std::nullopt).name == "collapsed");
      auto one = Input::from_bytes("x", line, kDefaultMaxInflated, mappable);
      CHECK(detect_input_format(*one, std::nullopt).name == "collapsed");
    }
  }
  // Text that is not a stack stays unrecognised, however long its line.
  auto prose = Input::from_bytes("x.txt", std::string(10000, 'x') + "\n");
  CHECK_THROWS_WITH_AS(detect_input_format(*prose, std::nullopt),
                       "x.txt: unrecognised input format; name one with --from (see --list-formats)", Error);
}

TEST_CASE("input detection: blank input is empty input, as an empty one is") {
  for (const std::string& blank :
       std::vector<std::string>{"", "\n", "\n\n  \n", "\r\n\t\r\n", std::string(10000, '\n')}) {
    CAPTURE(blank.size());
    auto in = Input::from_bytes("<stdin>", blank);
    CHECK_THROWS_WITH_AS(detect_input_format(*in, std::nullopt),
                         blank.empty() ? "<stdin>: empty input" : "<stdin>: empty input (only blank lines)",
                         Error);
    // A name that says collapsed reads as collapsed (no stacks), as an empty .folded file does.
    auto named = Input::from_bytes("x.folded", blank);
    CHECK(detect_input_format(*named, std::nullopt).name == "collapsed");
  }
}
