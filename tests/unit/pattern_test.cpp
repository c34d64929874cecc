#include "fg/pattern.h"

#include <doctest/doctest.h>

#include <string>

using namespace fg;

namespace {

Pattern compiled(const std::string& text) {
  std::string why;
  std::optional<Pattern> p = Pattern::compile(text, why);
  REQUIRE_MESSAGE(p, why);
  return *p;
}

std::string error_of(const std::string& text) {
  std::string why;
  CHECK_FALSE(Pattern::compile(text, why));
  return why;
}

}  // namespace

TEST_CASE("pattern: searched anywhere, RE2's syntax as Go's regexp") {
  CHECK(compiled("parse").search("main.parse.go"));
  CHECK_FALSE(compiled("^parse").search("main.parse"));
  CHECK(compiled("(?i)PARSE$").search("main.Parse"));
  CHECK(compiled("\\pL+\\.").search("é."));  // Unicode classes: subjects are UTF-8
  CHECK(compiled("^.$").search("é"));        // '.' is a character, not a byte
  CHECK(compiled("(?P<name>a)b").search("ab"));
  CHECK(compiled("").search("anything"));
  CHECK(compiled("a|b").text() == "a|b");
}

TEST_CASE("pattern: linear time, no subject limit") {
  // A backtracking matcher takes 2^30 steps here, or recurses per
  // character of the long subject and overflows the stack.
  CHECK_FALSE(compiled("(a*)*b").search(std::string(30, 'a')));
  CHECK_FALSE(compiled("(a|aa)+$x").search(std::string(40, 'a')));
  CHECK(compiled("(a|b)*c").search(std::string(100000, 'a') + "c"));
  CHECK_FALSE(compiled("(a|b)*c").search(std::string(100000, 'a')));
  const std::string frame = std::string(9000, 'a') + "b";  // 9,001 bytes
  CHECK(compiled("a+b$").search(frame));
  CHECK(compiled("ab$").search(frame));
  CHECK(compiled("^a{1000}").search(frame));
}

TEST_CASE("pattern: errors give RE2's message, and name what RE2 lacks") {
  CHECK(error_of("a(b") == "missing ): a(b");
  CHECK(error_of("[a") == "missing ]: [a");
  CHECK(error_of("(a)\\1") == "invalid escape sequence: \\1 (RE2 has no backreferences)");
  CHECK(error_of("a(?=b)") == "invalid perl operator: (?= (RE2 has no lookahead)");
  CHECK(error_of("a(?!b)") == "invalid perl operator: (?! (RE2 has no lookahead)");
  CHECK(error_of("(?<=a)b") == "invalid perl operator: (?< (RE2 has no lookbehind)");
  CHECK(error_of("(?<!a)b") == "invalid perl operator: (?< (RE2 has no lookbehind)");
  CHECK(error_of("(?<n>a)") == "invalid perl operator: (?< (a named group is written (?P<name>...))");
}

TEST_CASE("pattern: replace_all with ECMAScript's $ escapes, matches as Go's ReplaceAllString") {
  CHECK(compiled("a(b)?").replace_all("xaby ax", "[$1]") == "x[b]y []x");
  CHECK(compiled("o").replace_all("foo", "0") == "f00");
  CHECK(compiled("(\\w+)@(\\w+)").replace_all("me@host", "$2 $1 $& $$ $x $") == "host me me@host $ $x $");
  CHECK(compiled("-").replace_all("a-b-c", "<$`|$'>") == "a<a|b-c>b<b|c>c");
  // $nn takes two digits when there are; a group the pattern lacks is empty.
  CHECK(compiled("(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)").replace_all("abcdefghij", "$10,$1,$11") == "j,a,");
  // ^ anchors at the start of the name, not where the last match ended.
  CHECK(compiled("^a").replace_all("aaa", "b") == "baa");
  // Empty matches: one per position, but none right after a match (Go's rule).
  CHECK(compiled("x*").replace_all("axxb", "-") == "-a-b-");
  CHECK(compiled("").replace_all("é", "-") == "-é-");  // steps over a whole character
  CHECK(compiled("z").replace_all("abc", "-") == "abc");
}
