// Memory bounds on hostile input (issue 36): the longest line, the most a
// whole-buffer reader holds, and --max-memory's sizes.
#include <doctest/doctest.h>

#include <string>

#include "common/memory_limit.h"
#include "fg/diagnostics.h"
#include "fg/error.h"
#include "formats/gzip.h"
#include "formats/input.h"
#include "formats/registry.h"

using namespace fg;
using fg::formats::Input;

namespace {

// `bytes` read as `format`, streamed or (in_place) as a mapped file is.
void read_as(const char* format, std::string bytes, bool in_place) {
  Diagnostics diagnostics;
  auto in = Input::from_bytes("t", std::move(bytes), formats::kDefaultMaxInflated, in_place);
  formats::find_format(format)->read(*in, formats::ReadOptions{}, diagnostics);
}

}  // namespace

TEST_CASE("a line past 64 MiB is refused at its line, streamed or in place") {
  const std::string line(formats::kMaxLineBytes + 1, 'a');
  for (bool in_place : {false, true}) {
    CAPTURE(in_place);
    CHECK_THROWS_WITH_AS(
        read_as("collapsed", "main;a 1\n" + line + " 1\n", in_place),
        "t:2:67108865: a line longer than 64 MiB, the most fg reads; refusing (not a profile?)", ParseError);
    CHECK_THROWS_WITH_AS(
        read_as("jemalloc", "heap_v2/524288\n" + line + "\n", in_place),
        "t:2:67108865: a line longer than 64 MiB, the most fg reads; refusing (not a profile?)", ParseError);
    // Without a line break at the end too (the last, partial line).
    CHECK_THROWS_WITH_AS(
        read_as("collapsed", line, in_place),
        "t:1:67108865: a line longer than 64 MiB, the most fg reads; refusing (not a profile?)", ParseError);
  }
  // A line of just 64 MiB is read (a 64 MiB frame name, one sample).
  std::string longest(formats::kMaxLineBytes - 2, 'f');
  CHECK_NOTHROW(read_as("collapsed", longest + " 1\n", false));
}

TEST_CASE("read_all holds at most set_max_whole() bytes, gzip past it is refused before it is inflated") {
  const std::string text(5000, 'x');
  auto plain = Input::from_bytes("p", text);
  plain->set_max_whole(1000);
  CHECK_THROWS_WITH_AS(
      formats::read_all(*plain),
      "p: offset 0x3e8: more than 1000 bytes to hold in memory (half of --max-memory); refusing", ParseError);
  // The trailer says 5000 bytes: refused by it (libdeflate is not asked).
  auto zipped = Input::from_bytes("z", formats::gzip_compress(text));
  zipped->set_max_whole(1000);
  CHECK_THROWS_WITH_AS(
      formats::read_all(*zipped),
      "z: offset 0x3e8: more than 1000 bytes to hold in memory (half of --max-memory); refusing "
      "(a gzip bomb?)",
      ParseError);
  // A format's own limit, named as such; at the limit, all is read.
  auto pb = Input::from_bytes("pb", text);
  CHECK_THROWS_WITH_AS(
      formats::read_all(*pb, {4999, "the format's largest"}),
      "pb: offset 0x1387: more than 4999 bytes to hold in memory (the format's largest); refusing",
      ParseError);
  auto exact = Input::from_bytes("e", formats::gzip_compress(text));
  exact->set_max_whole(5000);
  CHECK(formats::read_all(*exact).view() == text);
  // --max-inflated below the budget keeps its message.
  auto bomb = Input::from_bytes("b.gz", formats::gzip_compress(text), 1000);
  CHECK_THROWS_WITH_AS(formats::read_all(*bomb),
                       "b.gz: inflates to more than 1000 bytes; refusing (a gzip bomb?)", Error);
}

TEST_CASE("a gzip of zeros read as a whole-buffer format fails at its first bytes") {
  const std::string zeros = formats::gzip_compress(std::string(1 << 20, '\0'));
  CHECK_THROWS_WITH_AS(read_as("pprof", zeros, false), "t: offset 0x0: field number 0 in Profile",
                       ParseError);
  CHECK_THROWS_WITH_AS(read_as("jeprof-dot", zeros, false), "t: offset 0x0: a NUL byte: not a DOT graph",
                       ParseError);
  CHECK_THROWS_WITH_AS(read_as("json", zeros, false),
                       "t:1:1: expected DeepFlow's response object or a list of nodes", ParseError);
  CHECK_THROWS_WITH_AS(read_as("json", formats::gzip_compress("\n  x"), false),
                       "t:2:3: expected DeepFlow's response object or a list of nodes", ParseError);
}

TEST_CASE("JSON read whole is refused at its first control character, as it arrives (#36)") {
  const std::string header = "{\"OPT_STATUS\": \"SUCCESS\",\n  \"result\": [\"";  // line 2 has 14 bytes
  const std::string message = ": malformed JSON: a control character, which no JSON document holds";
  // Inflated at once (a small member), and streamed (past 64 MiB, read in
  // parts): the zeros' first byte is named, line 2 column 15.
  for (std::size_t zeros : {std::size_t{1000}, std::size_t{80} << 20}) {
    CAPTURE(zeros);
    CHECK_THROWS_WITH_AS(read_as("json", formats::gzip_compress(header + std::string(zeros, '\0')), false),
                         ("t:2:15" + message).c_str(), ParseError);
  }
  // Piped, in parts of 4 MiB: a byte past the first part, on line 3.
  const std::string blanks = "[\n\t\r\n" + std::string(9 << 20, ' ');
  CHECK_THROWS_WITH_AS(read_as("json", blanks + "\x01]", false),
                       ("t:3:" + std::to_string((9 << 20) + 1) + message).c_str(), ParseError);
  // Tab, line feed and carriage return are blanks, read as ever.
  const std::string doc =
      "{\"OPT_STATUS\": \"SUCCESS\",\t\r\n\"result\": [{\"profile_location_str\": \"root\", \"node_id\": "
      "\"r\", "
      "\"parent_node_id\": \"-1\", \"self_value\": 0, \"total_value\": 5},\r\n\t{\"profile_location_str\": "
      "\"main\", \"node_id\": \"a\", \"parent_node_id\": \"r\", \"self_value\": 5, \"total_value\": 5}]}";
  CHECK_NOTHROW(read_as("json", formats::gzip_compress(doc), false));
  CHECK_NOTHROW(read_as("json", doc, false));
}

TEST_CASE("--max-memory sizes: bytes or K, M, G, T, nothing else") {
  CHECK(cli::parse_memory_size("4096", "--max-memory ") == 4096);
  CHECK(cli::parse_memory_size("8G", "--max-memory ") == std::uint64_t{8} << 30);
  CHECK(cli::parse_memory_size("512MiB", "--max-memory ") == std::uint64_t{512} << 20);
  CHECK(cli::parse_memory_size("3kb", "--max-memory ") == 3072);
  CHECK(cli::parse_memory_size("1T", "--max-memory ") == std::uint64_t{1} << 40);
  for (const char* bad : {"0", "-1", "", "G", "1.5G", "12Q", "1 G", "99999999999999999999", "17179869184G"})
    CHECK_THROWS_WITH_AS(
        cli::parse_memory_size(bad, "--max-memory "),
        ("--max-memory " + std::string(bad) +
         ": expected a size of at least 1 byte: a whole number of bytes, or with K, M, G or T")
            .c_str(),
        UsageError);
  CHECK(cli::memory_limit_from(std::nullopt, "2M") == std::uint64_t{2} << 20);
  CHECK(cli::memory_limit_from(std::string("1K"), "2M") == 1024);
  CHECK(cli::memory_limit_from(std::nullopt, nullptr) > 0);
  CHECK_THROWS_AS(cli::memory_limit_from(std::nullopt, "lots"), UsageError);
}
