// Hostile input and hostile surroundings (issue 36): names that would forge
// table rows or spreadsheet formulas, strings too long for Graphviz, trees
// whose stacks spelled out whole explode, and output files that must keep
// what they replace.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "fg/call_graph.h"
#include "fg/error.h"
#include "formats/common/graphviz_session.h"
#include "formats/common/table_text.h"
#include "formats/output.h"
#include "formats/registry.h"
#include "test_util.h"

using namespace fg;

namespace {

// A DeepFlow response of one root and the named children, self 1 each.
std::string deepflow_json(const std::vector<std::string>& escaped_names) {
  std::string rows = R"({"profile_location_str": "svc", "node_id": "r", "parent_node_id": "-1", )"
                     R"("self_value": 0, "total_value": )" +
                     std::to_string(escaped_names.size()) + "}";
  for (std::size_t i = 0; i < escaped_names.size(); ++i)
    rows += R"(, {"profile_location_str": ")" + escaped_names[i] + R"(", "node_id": "n)" + std::to_string(i) +
            R"(", "parent_node_id": "r", "self_value": 1, "total_value": 1})";
  return R"({"OPT_STATUS": "SUCCESS", "DESCRIPTION": "", "result": [)" + rows + "]}";
}

std::string written(const Profile& p, const std::string& format, formats::WriteOptions o = {}) {
  std::ostringstream out;
  Diagnostics d(false, nullptr);
  formats::find_format(format)->write(p, o, out, d);
  return out.str();
}

std::string file_text(const std::filesystem::path& path) {
  std::ifstream f(path);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

struct TempDir {
  std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("fg-hostile-" + std::to_string(::getpid()));
  TempDir() { std::filesystem::create_directories(path); }
  ~TempDir() { std::filesystem::remove_all(path); }
};

void write_via_output(const std::string& path, const std::string& text) {
  formats::Output out(path, false);
  out.stream() << text;
  out.commit();
}

}  // namespace

TEST_CASE("table text: control characters cannot start a row, CSV formulas are neutralised (#36.6)") {
  CHECK(formats::text_cell("main") == "main");
  CHECK(formats::text_cell("a\nb\rc\td") == "a\\nb\\rc\\td");
  CHECK(formats::text_cell(std::string("a\0b\x1b[31m\x7f", 9)) == "a\\x00b\\x1b[31m\\x7f");
  CHECK(formats::text_cell("C:\\path \xc3\xa9") == "C:\\path \xc3\xa9");  // backslashes and UTF-8 kept
  for (const char* formula : {"=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"})
    CHECK(formats::csv_text_field(formula).starts_with(std::string(formula)[0] == '\r' ? "\"'" : "'"));
  CHECK(formats::csv_text_field("=HYPERLINK(\"x\",\"y\")") == "\"'=HYPERLINK(\"\"x\"\",\"\"y\"\")\"");
  CHECK(formats::csv_text_field("main") == "main");
  CHECK(formats::csv_text_field("a,b") == "\"a,b\"");
}

TEST_CASE("top tables: a newline in a name does not forge a row (#36.6)") {
  // As pprof -top prints it, the name would run onto a line of its own.
  const Profile p =
      test::read_as("json", deepflow_json({"evil\\n   99999 100% 100%  99999 100%  forged", "=cmd"}), nullptr,
                    false, "evil.json");
  const std::string text = written(p, "top");
  CHECK(text.find("\n   99999") == std::string::npos);
  CHECK(text.find("evil\\n   99999 100% 100%  99999 100%  forged\n") != std::string::npos);
  const std::string csv = written(p, "top-csv");
  CHECK(csv.find(",'=cmd\n") != std::string::npos);
  CHECK(csv.find(",evil\n") == std::string::npos);
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 4);  // the header, two rows, one quoted line break
}

TEST_CASE("graphviz: strings are cut to a bound before Graphviz parses them (#36.5)") {
  CHECK(formats::bounded_dot("digraph { a -> b [label=\"short\"]; }", 8) ==
        "digraph { a -> b [label=\"short\"]; }");
  CHECK(formats::bounded_dot("n [label=\"0123456789\"];", 5) == "n [label=\"0123 [... 5 bytes cut] 9\"];");
  // Escapes and UTF-8 sequences are never split; comments are left alone.
  CHECK(formats::bounded_dot("\"ab\\\"cd\"", 3) == "\"ab [... 4 bytes cut]\"");
  CHECK(formats::bounded_dot("\"a\xc3\xa9\xc3\xa9\"", 2) == "\"a [... 4 bytes cut]\"");
  CHECK(formats::bounded_dot("// \"0123456789\n/* \"0123456789 */", 4) ==
        "// \"0123456789\n/* \"0123456789 */");
  CHECK(formats::bounded_dot("abcdefgh -> <<b>0123456789</b>>", 4) ==
        "\"[8 bytes cut]\" -> \"[19 bytes cut]\"");
  CHECK(formats::bounded_dot("\"unterminated 0123456789", 4) == "\"unt [... 19 bytes cut] 9");
}

TEST_CASE("expansion: a chain spelled out whole is refused by collapsed, dump and pprof (#36.3)") {
  CHECK(expanded_frames(test::folded("a;b;c 1\na;b 1\na;b 2\nx 1\n")) == 3 + 2 + 1);
  // A chain N deep with a sample at every node: N stacks, N(N+1)/2 frames.
  const std::size_t n = 30'000;
  std::string json = R"({"OPT_STATUS": "SUCCESS", "DESCRIPTION": "", "result": [)"
                     R"({"profile_location_str": "r", "node_id": "n0", "parent_node_id": "-1", )"
                     R"("self_value": 0, "total_value": )" +
                     std::to_string(n) + "}";
  for (std::size_t i = 1; i <= n; ++i)
    json += R"(, {"profile_location_str": "f", "node_id": "n)" + std::to_string(i) +
            R"(", "parent_node_id": "n)" + std::to_string(i - 1) + R"(", "self_value": 1, "total_value": )" +
            std::to_string(n + 1 - i) + "}";
  json += "]}";
  const Profile chain = test::read_as("json", json, nullptr, false, "chain.json");
  CHECK(expanded_frames(chain) == n * (n + 1) / 2);
  for (const char* format : {"collapsed", "dump", "pprof"})
    CHECK_THROWS_WITH_AS(written(chain, format),
                         doctest::Contains(("chain.json: " + std::string(format) +
                                            " output would spell out 450015000 frames for 30000 call paths")
                                               .c_str()),
                         Error);
  CHECK(written(chain, "json").size() < 200 * n);  // the tree itself
  CHECK_NOTHROW(check_expansion(test::folded("a;b;c 1\n"), "collapsed"));
}

TEST_CASE("fractions: nan and out-of-range cut-offs are usage errors, never a wild cast (#36.7)") {
  CHECK(fraction_cutoff(1000, 0.25, "--node-fraction") == 250);
  CHECK(fraction_cutoff(-1000, 0.25, "--node-fraction") == 250);
  CHECK(fraction_cutoff(INT64_MAX, 1, "--node-fraction") == INT64_MAX);
  CHECK_THROWS_WITH_AS(fraction_cutoff(1000, std::nan(""), "--node-fraction"),
                       "--node-fraction nan: expected a fraction from 0 to 1", UsageError);
  formats::WriteOptions o;
  o.node_fraction = std::nan("");
  CHECK_THROWS_AS(written(test::folded("a 1\n"), "top", o), UsageError);
  CHECK_THROWS_AS(written(test::folded("a 1\n"), "dot", o), UsageError);
}

TEST_CASE("output files keep the mode, owner and links of what they replace (#36.9)") {
  TempDir dir;
  const std::string file = (dir.path / "out.svg").string();
  { std::ofstream(file) << "old"; }
  ::chmod(file.c_str(), 0600);
  write_via_output(file, "new");
  struct stat st;
  REQUIRE(::stat(file.c_str(), &st) == 0);
  CHECK((st.st_mode & 07777) == 0600);
  CHECK(file_text(file) == "new");
  if (::geteuid() == 0) {  // only root can give a file away
    REQUIRE(::chown(file.c_str(), 4321, 4321) == 0);
    write_via_output(file, "owned");
    REQUIRE(::stat(file.c_str(), &st) == 0);
    CHECK(st.st_uid == 4321);
    CHECK(st.st_gid == 4321);
  }

  // A hard link names the new content too: written in place.
  const std::string other = (dir.path / "other.svg").string();
  REQUIRE(::link(file.c_str(), other.c_str()) == 0);
  write_via_output(file, "newer");
  CHECK(file_text(other) == "newer");
  REQUIRE(::stat(file.c_str(), &st) == 0);
  CHECK(st.st_nlink == 2);

  // A dangling symbolic link: its target is created, the link stays.
  const auto link = dir.path / "link.svg";
  std::filesystem::create_symlink("target.svg", link);
  write_via_output(link.string(), "through");
  CHECK(std::filesystem::is_symlink(link));
  CHECK(file_text(dir.path / "target.svg") == "through");
  CHECK(std::distance(std::filesystem::directory_iterator(dir.path), {}) == 4);  // no temporary left
}

TEST_CASE("output files: a name of 254 bytes works, the temporary's name is cut to fit (#36.9)") {
  TempDir dir;
  const std::string name(254, 'n');
  write_via_output((dir.path / name).string(), "long");
  CHECK(file_text(dir.path / name) == "long");
  CHECK(std::distance(std::filesystem::directory_iterator(dir.path), {}) == 1);
}

TEST_CASE("output files: a device that cannot take the output is named, with the reason (#36.9)") {
  formats::Output out("/dev/full", false);
  out.stream() << std::string(1 << 21, 'x');
  CHECK_THROWS_WITH_AS(out.commit(), "/dev/full: write failed: No space left on device", Error);
}
