// fg-report's manifests (TSV and JSON) and the profile text a shard's part
// carries for its group merges (#35.1, #35.4).
#include "formats/batch_manifest.h"

#include <doctest/doctest.h>

#include <sstream>

#include "fg/builder.h"
#include "fg/dump.h"
#include "fg/error.h"
#include "formats/batch_part.h"

using namespace fg;
using namespace fg::formats;

namespace {

std::string error_of(const std::string& file, const std::string& text) {
  try {
    parse_manifest(file, text);
  } catch (const ParseError& e) {
    return e.what();
  }
  return "";
}

std::string dump(const Profile& p) {
  std::ostringstream out;
  dump_profile(p, out);
  return out.str();
}

}  // namespace

TEST_CASE("manifest: TSV columns, labels and paths relative to its folder") {
  const auto e = parse_manifest("m/hosts.tsv",
                                "# fleet\npath\tname\tgroup\thost\tbaseline\n"
                                "a.folded\tweb-1\tweb\th1\tbase/a.folded\r\n\n/abs/b.pb\t\t\th2\t\n");
  REQUIRE(e.size() == 2);
  CHECK(e[0].path == "m/a.folded");
  CHECK(e[0].name == "web-1");
  CHECK(e[0].group == "web");
  CHECK(e[0].baseline == "m/base/a.folded");
  CHECK(e[0].labels == std::vector<ReportLabel>{{"host", "h1"}});
  CHECK(e[1].path == "/abs/b.pb");
  CHECK(e[1].name.empty());
  CHECK(e[1].group.empty());
  CHECK(e[1].baseline.empty());
  CHECK(e[1].labels == std::vector<ReportLabel>{{"host", "h2"}});
}

TEST_CASE("manifest: JSON keys, a labels object, extra keys as labels") {
  const auto e =
      parse_manifest("m.json",
                     " [{\"path\": \"a\", \"group\": \"g\", \"labels\": {\"host\": \"h\"}, \"v\": \"1\"},"
                     " {\"path\": \"b\", \"baseline\": \"c\"}]");
  REQUIRE(e.size() == 2);
  CHECK(e[0].path == "a");
  CHECK(e[0].group == "g");
  CHECK(e[0].labels == std::vector<ReportLabel>{{"host", "h"}, {"v", "1"}});
  CHECK(e[1].baseline == "c");
}

TEST_CASE("manifest: errors name the file and line") {
  CHECK(error_of("m.tsv", "name\tgroup\nx\ty\n") ==
        "m.tsv:1: the header has no 'path' column (columns are separated by tabs)");
  CHECK(error_of("m.tsv", "path\tname\na\tb\nc\n") == "m.tsv:3: 1 fields, but the header names 2 columns");
  CHECK(error_of("m.tsv", "path\tname\n\tb\n") == "m.tsv:2: no path");
  CHECK(error_of("m.tsv", "path\tpath\n") == "m.tsv:1: the header names column 'path' twice or not at all");
  CHECK(error_of("m.tsv", "") == "m.tsv:1: no header line (expected 'path' ...)");
  CHECK(error_of("m.json", "[\n {\"path\": \"a\"},\n {\"name\": \"b\"}\n]") ==
        "m.json:3:2: an entry without a path");
  CHECK(error_of("m.json", "[\n {\"path\": 3}\n]") == "m.json:2:11: 'path': expected a string");
  CHECK(error_of("m.json", "[\n 5\n]") ==
        "m.json:2:2: expected an object (path, name, group, baseline, labels)");
}

TEST_CASE("part profile text: the round trip keeps every field a merge keeps") {
  ProfileBuilder b({{"samples", "count", ValueRole::kPlain, 2}, {"cpu", "nanoseconds"}});
  Metadata& m = b.metadata();
  m.source_format = "mixed";
  m.sources = {"a\tb.folded", "c\n.pb"};
  m.period_type = {"cpu", "nanoseconds"};
  m.period = 10000000;
  m.start_time_ns = 1700000000000000000;
  m.duration_ns = 5000000000;
  m.default_value = "cpu";
  m.comments = {"one\\two"};
  m.unfiltered_totals = {7, 9};
  m.filters = {"focus=main"};
  m.properties = {{"jvm", "17"}};
  const FunctionId f = b.function("Main.run", "_ZN4Main3runEv", "Main.java", 12);
  const FrameId run = b.frame(f, FrameKind::kJit, 40, 0x1234, b.intern("app.so"));
  const FrameId read = b.frame("read", FrameKind::kKernel);
  const FrameId inl = b.frame(b.function("inl"), FrameKind::kInlined, 3);
  const std::vector<FrameId> s1 = {run, read}, s2 = {run, inl};
  const std::vector<std::int64_t> v1 = {150, 20}, v2 = {-5, 1};
  b.add_sample(s1, v1, b.labels(std::vector<NamedLabel>{{"thread", "main"}, {"bytes", 64, "bytes"}}));
  b.add_sample(s2, v2, {}, 1700000000000000123);
  b.add_sample(s2, v2, {}, 1700000000000000123);  // timestamps: kept apart
  const Profile p = std::move(b).finish();
  const Profile back = parse_profile_part("part/merges/0.txt", profile_part_text(p));
  CHECK(dump(back) == dump(p));
  CHECK(back.metadata().sources == p.metadata().sources);
  CHECK(back.metadata().unfiltered_totals == p.metadata().unfiltered_totals);
  CHECK(back.metadata().filters == p.metadata().filters);
  CHECK(back.value_types() == p.value_types());
  CHECK(back.sample_count() == 3);
  CHECK(back.function(back.frame(back.stack(back.sample(0).stack).frame).function).start_line == 0);
  CHECK(back.str(back.function(back.frame(FrameId(0)).function).system_name) == "_ZN4Main3runEv");
  CHECK(back.frame(FrameId(0)).address == 0x1234);
  CHECK(profile_part_text(back) == profile_part_text(p));
}

TEST_CASE("part profile text: errors name the line") {
  CHECK_THROWS_WITH(
      parse_profile_part("x.txt", "fg-report profile 1\nvalue a\tb\t0\t0\nframe 3\t0\t0\t\t0\n"),
      "x.txt:3: an index beyond those defined");
  CHECK_THROWS_WITH(parse_profile_part("x.txt", "nope\n"),
                    "x.txt:1: not an fg-report profile (expected \"fg-report profile 1\")");
}

TEST_CASE("part facts: a recording's kinds of event keep their own facts") {
  ProfileFacts p;
  p.path = "x.jfr";
  p.name = p.page = "x";
  p.format = "jfr";
  p.kind = "samples";
  p.columns = {{"samples", "count", "7"}};
  p.files = {"flame-0.html"};
  ProfileFacts& alloc = p.kinds.emplace_back();
  alloc.path = p.path;
  alloc.kind = "alloc";
  alloc.columns = {{"alloc_objects", "count", "3"}, {"alloc_space", "bytes", "96"}};
  alloc.default_column = 1;
  alloc.files = {"alloc/flame-0.html", "alloc/diff.svg"};
  alloc.warnings = {"a warning of the alloc reading"};
  alloc.compared = true;
  alloc.comparison = {"base.jfr", "", 2, 3, "count", {{"total>+5%", "up by 50%"}}};
  p.kinds.push_back({});
  p.kinds.back().kind = "lock";
  const std::string text = part_text({1, 2, 4, {3}, {p}, {}});
  const PartFacts back = parse_part("part.txt", text);
  REQUIRE(back.profiles.size() == 1);
  const ProfileFacts& q = back.profiles[0];
  CHECK(q.kind == "samples");
  CHECK(q.files == std::vector<std::string>{"flame-0.html"});  // the kinds' lines do not reach it
  CHECK(q.warnings.empty());
  REQUIRE(q.kinds.size() == 2);
  CHECK(q.kinds[0].kind == "alloc");
  CHECK(q.kinds[0].default_column == 1);
  CHECK(q.kinds[0].files == std::vector<std::string>{"alloc/flame-0.html", "alloc/diff.svg"});
  CHECK(q.kinds[0].warnings == std::vector<std::string>{"a warning of the alloc reading"});
  CHECK(q.kinds[0].compared);
  CHECK(q.kinds[0].comparison.gate[0].tripped == "up by 50%");
  CHECK(q.kinds[1].kind == "lock");
  CHECK(part_text(back) == text);
  CHECK_THROWS_WITH(parse_part("part.txt", "fg-report part 1\nmore_kind alloc\n"),
                    "part.txt:2: a profile's field before its profile line");
}
