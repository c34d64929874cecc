#include "formats/flamegraph_in/flamegraph_in.h"

#include <doctest/doctest.h>

#include <string>

#include "fg/error.h"
#include "test_util.h"

using namespace fg;
using namespace fg::formats;

namespace {

// The parts of an async-profiler page the reader looks at, around `script`.
std::string ap_page(const std::string& script, const std::string& title = "Flame Graph") {
  return "<!DOCTYPE html>\n<html lang='en'>\n<head>\n</head>\n<body>\n<h1>" + title + "</h1>\n<script>\n" +
         script + "</script></body></html>\n";
}

// A 3.x/4.x page: name table and frame lines.
std::string ap3_page(const std::string& decls, const std::string& cpool, const std::string& frames) {
  return ap_page(decls + "\tfunction unpack(cpool) {}\n\nconst cpool = [\n" + cpool +
                 "\n];\n\nunpack(cpool);\n\n" + frames + "\nsearch();\n");
}

Profile read_page(const std::string& text, std::vector<std::string>* notes = nullptr) {
  ReadOptions o;
  o.note = [notes](const std::string& n) {
    if (notes) notes->push_back(n);
  };
  return flamegraph_in::read_async_profiler_page(text, "t.html", o);
}

std::string error_of(const std::string& text) {
  try {
    read_page(text);
  } catch (const ParseError& e) {
    return e.what();
  }
  return "no error";
}

const std::string kCpool = "'all',\n' a',\n'!b',\n' c'";  // all, a, ab, c

}  // namespace

TEST_CASE("async-profiler 3.x/4.x page: packed names, u/n/f frames, kinds, units and title") {
  // all 10 = a[jit] 6 (ab[kernel] 2, c 3) + c 4; key = entry << 3 | type.
  const std::string page = ap3_page("\tlet inverted = false;\n\tconst units = 'bytes';\n", kCpool,
                                    "n(3,10)\nu(9,6)\nu(21,2)\nn(27,3)\nf(27,1,6,4)\n");
  CHECK(flamegraph_in::sniff_html(page, "x") == Sniff::kYes);
  Profile p = read_page(page);
  CHECK(p.value_types()[0] == ValueType{"space", "bytes"});
  CHECK(test::collapsed(p) == "a_[j] 1\na_[j];ab_[k] 2\na_[j];c 3\nc 4\n");
  CHECK(p.metadata().source_format == "html");
  CHECK(p.metadata().properties[0] == std::pair<std::string, std::string>{"title", "Flame Graph"});
}

TEST_CASE("async-profiler page: a missing width is the previous frame's; types 0, 2 and 6 are tiers") {
  Profile p = read_page(ap3_page("", kCpool, "n(3,9)\nu(8)\nu(18,3)\nn(30)\nn(21)\n"));
  // a[interpreted] 9: ab[inlined] 3, c[C1] 3, ab[kernel] 3.
  CHECK(test::collapsed(p) == "a_[0];ab_[i] 3\na_[0];ab_[k] 3\na_[0];c_[1] 3\n");
}

TEST_CASE("async-profiler 4.4+ diff page: d= gives the base column") {
  std::vector<std::string> notes;
  // Root and a (native) unchanged, ab new, c one less than in the base.
  Profile p = read_page(
      ap3_page("\tconst maxdiff = 4;\n", kCpool, "d=0\nn(3,10)\nu(11,6)\nd=U\nu(19,6)\nd=-1\nf(27,1,6,4)\n"),
      &notes);
  REQUIRE(p.value_count() == 2);
  CHECK(p.value_types()[0].role == ValueRole::kBase);
  CHECK(test::collapsed(p) == "a;ab 0 6\nc 5 4\n");
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].find("differential page") != std::string::npos);
  // A difference larger than the frame's self would make a negative base.
  CHECK(error_of(ap3_page("\tconst maxdiff = 4;\n", kCpool, "n(3,10)\nd=4\nu(11,10)\nd=0\nu(19,10)\n")) ==
        "t.html:22:1: the frame's difference from the base (d=4) is more than its self value 0");
}

TEST_CASE("async-profiler 2.5-2.7 page: absolute f() lines, old type codes, only quotes escaped") {
  const std::string page = ap_page(
      "\tvar reverse = true;\n\tfunction f(level, left, width, type, title) {\n\t}\n"
      "f(0,0,5,4,'all')\nf(1,0,3,0,'x\\'y')\nf(2,0,1,2,'k\\z')\nf(1,3,2,3,'C::m')\nrender();\n");
  std::vector<std::string> notes;
  Profile p = read_page(page, &notes);
  CHECK(test::collapsed(p) == "C::m 2\nx'y_[j] 2\nx'y_[j];k\\z_[k] 1\n");
  REQUIRE(notes.size() == 1);
  CHECK(notes[0] ==
        "t.html: the page was drawn from reversed stacks (callee first); its tree is read as drawn");
}

TEST_CASE("async-profiler 2.8-2.10 page: tier counts after the title, backslashes escaped") {
  const std::string page = ap_page(
      "\tfunction f(level, left, width, type, title, inln, c1, int) {\n\t}\n"
      "f(0,0,14,3,'all')\nf(1,0,14,2,'Foo.bar',7,4,1)\nf(2,0,2,3,'a\\\\b')\nrender();\n");
  CHECK(test::collapsed(read_page(page)) == "Foo.bar_[i] 12\nFoo.bar_[i];a\\b 2\n");
}

TEST_CASE("async-profiler page: broken data is an error at its position") {
  const std::string head = "\tfunction f(level, left, width, type, title) {\n\t}\n";
  CHECK(
      error_of("<html><body>hello</body></html>") ==
      "t.html:1:1: not a flame graph page fg reads: no async-profiler (2.x to 4.x) frame data in its script");
  // Truncated: the file ends within the frame lines.
  std::string truncated = ap_page(head + "f(0,0,5,4,'all')\nf(1,0,3,0,'x')\n");
  truncated.resize(truncated.find("f(1,0,3") + 5);
  CHECK(error_of(truncated) == "t.html:11:1: expected f(level,left,width,type,'title')");
  std::string cut = ap_page(head + "f(0,0,5,4,'all')\nf(1,0,3,0,'x')\n");
  cut.resize(cut.find("</script>"));
  CHECK(error_of(cut) ==
        "t.html:12:1: the page ends inside its frame data (no </script> after it): truncated?");
  CHECK(error_of(ap_page(head + "f(0,0,5,4,'all')\nf(3,0,3,0,'x')\n")) ==
        "t.html:11:1: frame at level 3 follows one at level 0: a level may rise by one only");
  CHECK(error_of(ap_page(head + "f(0,0,5,4,'all')\nf(1,0,3,0,'x')\nf(1,3,3,0,'y')\n")) ==
        "t.html:12:1: frame 3 wide is wider than its parent has left (2)");
  CHECK(error_of(ap_page(head + "f(0,0,99999999999999999999,4,'all')\n")) ==
        "t.html:10:7: expected an integer that fits in 64 bits, found '99999999999999999999'");
  CHECK(error_of(ap_page(head + "f(0,0,5,9,'all')\n")) == "t.html:10:1: unknown frame type 9");
  CHECK(error_of(ap3_page("", kCpool, "n(3,10)\nu(800,6)\n")) ==
        "t.html:20:3: frame key 800 names no entry of the name table");
  CHECK(error_of(ap3_page("", "'all',\n'~x'", "n(3,10)\n")) ==
        "t.html:12:2: name table entry shares more characters with the one before than it has");
  std::string no_end = ap3_page("", kCpool, "n(3,10)\n");
  no_end.resize(no_end.find("' c'"));
  CHECK(error_of(no_end) == "t.html:14:1: the page ends inside its name table (no '];'): truncated?");
}
