#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include "fg/builder.h"
#include "fg/call_tree.h"
#include "fg/error.h"
#include "fg/merge.h"
#include "test_util.h"

using namespace fg;

TEST_CASE("collapsed: stacks, counts and names with spaces") {
  Profile p = test::folded("main;do work;std::map<int, int>::find(int const&) 7\nmain 3\n");
  REQUIRE(p.value_count() == 1);
  CHECK(p.value_types()[0] == ValueType{"samples", "count"});
  CHECK(p.metadata().source_format == "collapsed");
  CHECK(test::dump_samples(p) ==
        "samples: 2\n"
        "main | 3\n"
        "main;do work;std::map<int, int>::find(int const&) | 7\n");
}

TEST_CASE("collapsed: CRLF, blank lines, trailing blanks and no final newline") {
  std::vector<std::string> warnings;
  Profile p = test::folded("\r\na;b 1\r\n\n   \na;b 2  \na;c 4", &warnings);
  CHECK(warnings.empty());
  CHECK(test::collapsed(p) == "a;b 3\na;c 4\n");
}

TEST_CASE("collapsed: annotations become frame kinds and come back as suffixes") {
  Profile p = test::folded("java;Foo.bar_[j];Foo.baz_[i];sys_read_[k] 1\nperf;x_[w] 1\nodd_[x] 1\n");
  CHECK(test::dump_samples(p) ==
        "samples: 3\n"
        "java;Foo.bar [jit];Foo.baz [inlined];sys_read [kernel] | 1\n"
        "odd_[x] | 1\n"
        "perf;x [waker] | 1\n");
  CHECK(test::collapsed(p) == "java;Foo.bar_[j];Foo.baz_[i];sys_read_[k] 1\nodd_[x] 1\nperf;x_[w] 1\n");
}

TEST_CASE("collapsed: the two-count form reads into base and new columns") {
  Profile p = test::folded("a;b 5 7\na;c 0 2\n");
  REQUIRE(p.value_count() == 2);
  CHECK(p.value_types()[0].role == ValueRole::kBase);
  CHECK(p.value_types()[1].role == ValueRole::kNew);
  CHECK(p.totals() == std::vector<std::int64_t>{5, 9});
  CHECK(test::collapsed(p) == "a;b 5 7\na;c 0 2\n");
}

TEST_CASE("collapsed: bad lines are warnings with file:line:column") {
  std::vector<std::string> w;
  Profile p = test::folded("a;b 1\nno count here\na;b 99999999999999999999\na;b 2\n7\na;b 1.5\n", &w);
  REQUIRE(w.size() == 3);
  CHECK(w[0] == "t.folded:2:14: expected a count at the end of the line");
  CHECK(w[1] == "t.folded:3:5: count does not fit in 64 bits");
  CHECK(w[2] == "t.folded:5:2: expected a count at the end of the line");
  CHECK(test::collapsed(p) == "a;b 4.5\n");  // a fractional count is a count
}

TEST_CASE("collapsed: a one-count line in a two-count file is a warning") {
  std::vector<std::string> w;
  Profile p = test::folded("a 1 2\nb 3\n", &w);
  REQUIRE(w.size() == 1);
  CHECK(w[0] == "t.folded:2:3: expected two counts (before and after), as in the file's first line");
}

TEST_CASE("collapsed: --strict makes a bad line an error") {
  CHECK_THROWS_WITH_AS(test::folded("a 1\nbroken\n", nullptr, true),
                       "t.folded:2:7: expected a count at the end of the line", ParseError);
}

TEST_CASE("collapsed: trailing separators and empty frames follow flamegraph.pl") {
  Profile p = test::folded("a;b;; 1\n;x 2\n");
  CHECK(test::collapsed(p) == ";x 2\na;b 1\n");
}

TEST_CASE("collapsed: the stack ends one blank before the count, as flamegraph.pl splits it") {
  // flamegraph.pl's /^(.*)\s+?(\d+(?:\.\d*)?)$/ takes exactly one blank
  // before the count: any other trailing blank is part of the last frame,
  // and a frame of blanks is a frame.
  Profile p = test::folded("std::_Function_handler<bool  1001001\na;  3\nb;c\t\t2\nd;e 1\n");
  CHECK(test::dump_samples(p) ==
        "samples: 4\n"
        "a;  | 3\n"
        "b;c\\x09 | 2\n"
        "d;e | 1\n"
        "std::_Function_handler<bool  | 1001001\n");
  CHECK(test::collapsed(p) == "a;  3\nb;c\t 2\nd;e 1\nstd::_Function_handler<bool  1001001\n");
}

TEST_CASE("collapsed: two counts are two only one blank apart, as flamegraph.pl reads them") {
  Profile two = test::folded("a;b  5 7\n");
  REQUIRE(two.value_count() == 2);
  CHECK(test::collapsed(two) == "a;b  5 7\n");
  Profile one = test::folded("a 1  2\n");
  REQUIRE(one.value_count() == 1);
  CHECK(test::dump_samples(one) == "samples: 1\na 1  | 2\n");
}

TEST_CASE("collapsed: frames of every length up to three words split at each semicolon") {
  // Separators are found a word (8 bytes) at a time: one at every position
  // in a word, and names with bytes that differ from ';' by one bit.
  std::string text, expected;
  for (int n = 1; n <= 24; ++n) {
    std::string name(static_cast<std::size_t>(n), static_cast<char>('a' + n % 26));
    name[name.size() / 2] = n % 2 ? ':' : '{';  // ';' ^ 1 and ';' ^ 0x40
    std::string line = "r;" + name + ";" + name + "x;z";
    text += line + " " + std::to_string(n) + "\n";
    expected += line + " " + std::to_string(n) + "\n";
  }
  Profile p = test::folded(text);
  CHECK(p.frame_count() == 2 + 2 * 24);
  // Sorted, as the writer sorts; every line kept its frames.
  std::vector<std::string> lines, want;
  std::string got = test::collapsed(p);
  for (std::size_t a = 0, b; (b = got.find('\n', a)) != std::string::npos; a = b + 1)
    lines.push_back(got.substr(a, b - a));
  for (std::size_t a = 0, b; (b = expected.find('\n', a)) != std::string::npos; a = b + 1)
    want.push_back(expected.substr(a, b - a));
  std::sort(want.begin(), want.end());
  CHECK(lines == want);
}

TEST_CASE("collapsed: a stack with no frames counts at the root") {
  Profile p = test::folded(" 4\na 1\n");
  CHECK(p.totals()[0] == 5);
  CHECK(test::collapsed(p) == " 4\na 1\n");
}

TEST_CASE("collapsed: lines sharing a prefix with the one before") {
  // Prefix reuse must respect frame boundaries: "ab" is not "a" + "b".
  Profile p = test::folded("x;ab;c 1\nx;a 2\nx;a;b 3\nx;ab 4\nx;ab;c 5\ny 6\nx;ab;c 7\n");
  CHECK(test::collapsed(p) == "x;a 2\nx;a;b 3\nx;ab 4\nx;ab;c 13\ny 6\n");
  CallTree t(p);
  CHECK(t.total(kRootStack, 0) == 28);
}

TEST_CASE("collapsed: a file larger than the read buffer, and a line longer than it") {
  std::string text, expect;
  std::vector<std::string> lines;
  for (int i = 0; i < 60000; ++i) {
    std::string stack =
        "root;mid" + std::to_string(i % 97) + ";" + std::string(80, 'f') + ";leaf" + std::to_string(i);
    text += stack + " 1\n";
    lines.push_back(stack + " 1");
  }
  std::string long_stack = "root";
  while (long_stack.size() < (9u << 20)) long_stack += ";frame" + std::to_string(long_stack.size() % 1000);
  text += long_stack + " 2\n";
  lines.push_back(long_stack + " 2");
  std::sort(lines.begin(), lines.end());
  for (const auto& l : lines) expect += l + "\n";
  Profile p = test::folded(text);
  CHECK(p.sample_count() == 60001);
  CHECK(test::collapsed(p) == expect);
}

TEST_CASE("collapsed writer: semicolons and newlines in names stay on one line") {
  ProfileBuilder b(std::vector<ValueType>{{"samples", "count"}});
  std::vector<std::int64_t> v{3};
  b.add_sample(std::vector<FrameId>{b.frame("a;b"), b.frame("multi\nline")}, v);
  Profile p = std::move(b).finish();
  CHECK(test::collapsed(p) == "a|b;multi line 3\n");
}

TEST_CASE("collapsed writer: --value selects a column") {
  ProfileBuilder b({{"alloc_objects", "count"}, {"alloc_space", "bytes"}});
  std::vector<std::int64_t> v{2, 64};
  b.add_sample(std::vector<FrameId>{b.frame("f")}, v);
  Profile p = std::move(b).finish();
  CHECK(test::collapsed(p) == "f 64\n");
  formats::WriteOptions o;
  o.value = "alloc_objects";
  CHECK(test::collapsed(p, o) == "f 2\n");
}

TEST_CASE("collapsed: sniffing") {
  using formats::Sniff;
  CHECK(formats::collapsed::sniff("a;b 1\nc 2\n", "") == Sniff::kYes);
  CHECK(formats::collapsed::sniff("a;b 1\nc\n", "") == Sniff::kMaybe);
  CHECK(formats::collapsed::sniff("hello world\n", "") == Sniff::kNo);
  CHECK(formats::collapsed::sniff(std::string("a 1\n\0", 5), "") == Sniff::kNo);
}

TEST_CASE("collapsed: a mapped file reads exactly as a stream does") {
  // Files are parsed in place (memory-mapped) and release pages as they go;
  // standard input and gzip go through the read buffer. Same answer.
  std::string text;
  for (int i = 0; i < 200000; ++i)
    text += "root;mid" + std::to_string(i % 101) + ";" + std::string(40, 'g') + ";leaf" +
            std::to_string(i % 7919) + " " + std::to_string(i % 5 + 1) + "\n";
  text += "bad line without a count\nroot;last 3";  // and no final newline
  auto path =
      std::filesystem::temp_directory_path() / ("fg-mapped-" + std::to_string(::getpid()) + ".folded");
  {
    std::ofstream f(path, std::ios::binary);
    f << text;
  }
  std::vector<std::string> w_stream, w_mapped;
  Profile streamed = test::folded(text, &w_stream, false, path.string());
  Diagnostics d(
      false, [&](const std::string& m) { w_mapped.push_back(m); }, 100);
  auto in = formats::Input::open(path.string());
  Profile mapped = formats::collapsed::read(*in, formats::ReadOptions{}, d);
  std::filesystem::remove(path);
  CHECK(test::collapsed(mapped) == test::collapsed(streamed));
  CHECK(test::dump_samples(mapped) == test::dump_samples(streamed));
  CHECK(w_mapped == w_stream);
  REQUIRE(w_mapped.size() == 1);
  CHECK(w_mapped[0].find(":200001:") != std::string::npos);
}

TEST_CASE("collapsed: counts whose sum passes 64 bits are an error at their line") {
  CHECK_THROWS_WITH_AS(test::folded("a 9223372036854775807\nb 1\n"),
                       "t.folded:2: values add up to more than 2^63 - 1 (9223372036854775807), which fg "
                       "cannot total",
                       ParseError);
  CHECK_THROWS_AS(test::folded("a 4611686018427387904 4611686018427387904\n"), ParseError);
}

TEST_CASE("collapsed: empty frame names sort and draw") {
  Profile p = test::folded(";;x 1\n;y 2\n 3\n");
  CallTree t(p);
  CHECK(t.total(kRootStack, 0) == 6);
  CHECK(t.children(kRootStack).size() == 1);  // the empty name
}

namespace {
// Reads `text` (a tree large enough for the writer's threads: walk, print, write) and
// checks its collapsed output: every line of `want`, summed, in bytewise order.
void expect_sorted_sums(const std::string& text, const std::map<std::string, std::int64_t>& want) {
  Profile p = test::folded(text);
  REQUIRE(p.stack_count() >= 100000);
  std::string expected;
  for (const auto& [path, count] : want) expected += path + " " + std::to_string(count) + "\n";
  CHECK(test::collapsed(p) == expected);
}
}  // namespace

TEST_CASE(
    "collapsed: a tree large enough to walk, print and write on three threads gives every line, summed and "
    "sorted") {
  // Names that are prefixes of each other and differ at ' ' and ';' order.
  const std::vector<std::string> names = {"a", "ab", "a.x", "a b", "b", "main", "main.run", "x", "x;", "zz"};
  test::Lcg next(7);
  std::map<std::string, std::int64_t> want;
  std::string text;
  for (int i = 0; i < 50000; ++i) {
    std::string path;
    for (std::size_t d = 0, depth = 1 + next() % 12; d < depth; ++d) {
      const std::string& n = names[next() % names.size()];
      if (n == "x;") continue;  // ';' splits it: no frame of its own
      path += (path.empty() ? "" : ";") + n;
    }
    const std::int64_t count = 1 + static_cast<std::int64_t>(next() % 5);
    text += path + " " + std::to_string(count) + "\n";
    want[path] += count;
  }
  expect_sorted_sums(text, want);
}

TEST_CASE("collapsed: deep stacks print whole runs of chains, with lines inside them and branches below") {
  // Paths hundreds of frames deep over names that are prefixes of each
  // other, many of them prefixes of other paths (a line in the middle of a
  // chain) or branching off deep: the writer takes runs of chain nodes in
  // one step, and must still print every line, summed, in bytewise order.
  const std::vector<std::string> names = {"a", "ab", "a.x", "a b", "main", "main.run"};
  test::Lcg next(3);
  std::vector<std::vector<std::string>> bases;
  for (int i = 0; i < 40; ++i) {
    std::vector<std::string> path;
    for (std::size_t d = 0, depth = 50 + next() % 400; d < depth; ++d)
      path.push_back(names[next() % names.size()]);
    bases.push_back(std::move(path));
  }
  std::map<std::string, std::int64_t> want;
  std::string text;
  for (int i = 0; i < 6000; ++i) {
    // A base path cut somewhere, then a tail of its own.
    const std::vector<std::string>& base = bases[next() % bases.size()];
    std::vector<std::string> path(base.begin(),
                                  base.begin() + static_cast<std::ptrdiff_t>(1 + next() % base.size()));
    for (std::size_t d = 0, tail = next() % 3 == 0 ? 0 : next() % 60; d < tail; ++d)
      path.push_back(names[next() % names.size()]);
    std::string line;
    for (const std::string& n : path) line += (line.empty() ? "" : ";") + n;
    const std::int64_t count = 1 + static_cast<std::int64_t>(next() % 5);
    text += line + " " + std::to_string(count) + "\n";
    want[line] += count;
  }
  expect_sorted_sums(text, want);
}

namespace {

// Collapsed text read as every tool reads it, warnings collected.
Profile folded_fractions(const std::string& text, std::vector<std::string>* warnings = nullptr) {
  Diagnostics d(
      false,
      [warnings](const std::string& m) {
        if (warnings) warnings->push_back(m);
      },
      100);
  auto in = formats::Input::from_bytes("t.folded", text);
  return formats::collapsed::read(*in, formats::ReadOptions{}, d);
}

}  // namespace

TEST_CASE("collapsed: fractional counts are kept exactly, as flamegraph.pl sums them") {
  std::string many;
  for (int i = 0; i < 67; ++i) many += "a;b 0.5\n";  // 33.5: rounding each line made it 67
  std::vector<std::string> w;
  Profile p = folded_fractions(many + "a;c 1.25\na;c 0.25\nd 3\ne 3.\n", &w);
  CHECK(w.empty());
  REQUIRE(p.value_count() == 1);
  CHECK(p.value_types()[0].decimals == 2);
  CHECK(p.totals() == std::vector<std::int64_t>{3350 + 150 + 300 + 300});
  CHECK(test::collapsed(p) == "a;b 33.5\na;c 1.5\nd 3\ne 3\n");
  // The decimals grow as longer fractions come, and round-trip.
  CHECK(test::collapsed(folded_fractions("a;b 0.5\n")) == "a;b 0.5\n");
  CHECK(test::collapsed(folded_fractions("a 1\nb 0.5\nc 0.125\nd 2.10\n")) == "a 1\nb 0.5\nc 0.125\nd 2.1\n");
  CHECK(test::collapsed(folded_fractions("a;b 0.5 1.25\n")) == "a;b 0.5 1.25\n");
  // More than nine digits after the point are rounded, with a warning.
  Profile fine = folded_fractions("a 0.1234567891\nb 0.0000000005\n", &w);
  REQUIRE(w.size() == 2);
  CHECK(w[0] == "t.folded:1:3: fractional count 0.1234567891 rounded to 0.123456789");
  CHECK(test::collapsed(fine) == "a 0.123456789\nb 0.000000001\n");
}

TEST_CASE("collapsed: merging fixed-point columns scales them to the most decimals") {
  std::vector<Profile> both;
  both.push_back(folded_fractions("a 0.5\n"));
  both.push_back(folded_fractions("a 2\nb 0.25\n"));
  Profile m = merge(both);
  REQUIRE(m.value_count() == 1);
  CHECK(m.value_types()[0].decimals == 2);
  CHECK(test::collapsed(m) == "a 2.5\nb 0.25\n");
}

namespace {
// A frame's text in a folded line, as the writer spells it: ';' becomes
// '|', line breaks spaces, and the kind's suffix follows.
std::string folded_text(const NamedFrame& f) {
  std::string t(f.name);
  for (char& c : t) {
    if (c == ';')
      c = '|';
    else if (c == '\n' || c == '\r')
      c = ' ';
  }
  return t + std::string(frame_kind_suffix(f.kind));
}

// Writes random stacks of `frames` and checks the lines against their
// bytewise order (by path + ' '), and, with `plain`, against a plain sort
// of the whole lines (the same order unless a path goes on with ' ' and a
// byte below the digits of a count, as "a" and "a " or "" and " " do).
void check_line_order(const std::vector<NamedFrame>& frames, bool plain) {
  ProfileBuilder b(std::vector<ValueType>{{"samples", "count"}});
  std::map<std::string, std::int64_t> sums;  // by path
  test::Lcg next(45);
  for (int i = 0; i < 3000; ++i) {
    std::vector<NamedFrame> stack;
    std::string path;
    for (std::size_t d = 0, depth = 1 + next() % 5; d < depth; ++d) {
      stack.push_back(frames[next() % frames.size()]);
      path += (d ? ";" : "") + folded_text(stack.back());
    }
    const std::int64_t count = 1 + static_cast<std::int64_t>(next() % 9);
    b.add_sample(stack, std::vector<std::int64_t>{count});
    sums[path] += count;
  }
  std::vector<std::pair<std::string, std::int64_t>> lines(sums.begin(), sums.end());
  std::sort(lines.begin(), lines.end(),
            [](const auto& x, const auto& y) { return x.first + ' ' < y.first + ' '; });
  std::string want;
  for (const auto& [path, count] : lines) want += path + " " + std::to_string(count) + "\n";
  const std::string got = test::collapsed(std::move(b).finish());
  CHECK(got == want);
  if (!plain) return;
  std::vector<std::string> split, sorted;
  for (std::size_t at = 0; at < got.size();) {
    const std::size_t nl = got.find('\n', at);
    split.push_back(got.substr(at, nl - at));
    at = nl + 1;
  }
  sorted = split;
  std::sort(sorted.begin(), sorted.end());
  CHECK(split == sorted);
}
}  // namespace

TEST_CASE("collapsed writer: ranked keys give the lines' bytewise order, prefixes, blanks and high bytes") {
  // Names that meet at every edge of the order: prefixes of each other,
  // ' ' (before ';'), bytes below ' ', ';' (written '|', so "a;b" and
  // "a|b" are one text), bytes from 0x80 up, the empty name, and kinds with
  // and without suffixes ("a" native and "a" cpp are one text).
  std::vector<NamedFrame> frames = {{""},
                                    {"a"},
                                    {"a", FrameKind::kCpp},
                                    {"a", FrameKind::kKernel},
                                    {"a_[k]"},
                                    {"a b"},
                                    {"a;b"},
                                    {"a|b"},
                                    {"a.b"},
                                    {"a\tb"},
                                    {"a\x01"},
                                    {"ab"},
                                    {";"},
                                    {"b"},
                                    {"\xc3\xa9"},
                                    {"\xff"},
                                    {"a\xff"},
                                    {"a\x80;x"},
                                    {"a\nb"},
                                    {"a\x7f"},
                                    {"~"},
                                    {"a:"},
                                    {"a<"}};
  SUBCASE("a plain sort of the lines") { check_line_order(frames, true); }
  SUBCASE("names that end in ' ', where only the paths' order holds") {
    frames.push_back({"a "});
    frames.push_back({" "});
    check_line_order(frames, false);
  }
}
