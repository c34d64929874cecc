#include "formats/flamegraph_in/flamegraph_in.h"

#include <doctest/doctest.h>

#include <sstream>
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

TEST_CASE("async-profiler name table: an escaped shared-length character, escapes in the rest") {
  // The third entry shares 7 characters ('\'' is 32 + 7, written escaped)
  // with "abcdefgh" and adds X\y ('\\' escaped): "abcdefgX\y".
  const std::string page = ap3_page("", "'all',\n' abcdefgh',\n'\\'X\\\\y'", "n(3,10)\nu(11,4)\nn(19,6)\n");
  CHECK(test::collapsed(read_page(page)) == "abcdefgX\\y 6\nabcdefgh 4\n");
}

TEST_CASE("async-profiler page: a missing width is the previous frame's, types 0, 2 and 6 are tiers") {
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

namespace {

// A flamegraph.pl-style frame: title and rect, as its <g> holds them.
std::string svg_frame(const std::string& title, double x, double y, double w) {
  return "<g>\n<title>" + title + "</title><rect x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) +
         "\" width=\"" + std::to_string(w) + "\" height=\"15.0\" fill=\"rgb(1,2,3)\"/>\n</g>\n";
}

std::string svg_page(const std::string& frames) {
  return "<?xml version=\"1.0\" standalone=\"no\"?>\n<svg version=\"1.1\">\n<!-- Flame graph -->\n"
         "<text id=\"title\" x=\"600\" y=\"24\">Custom <title> & \"quotes\"</text>\n<g id=\"frames\">\n" +
         frames + "</g>\n</svg>\n";
}

Profile read_svg(const std::string& text, std::vector<std::string>* warnings = nullptr, bool strict = false) {
  Diagnostics d(strict, [warnings](const std::string& m) {
    if (warnings) warnings->push_back(m);
  });
  return flamegraph_in::read_svg_text(text, "t.svg", ReadOptions{}, d);
}

}  // namespace

TEST_CASE("flamegraph.pl SVG: titles give counts, rows and spans the nesting, in any element order") {
  // all 1,361 = main 1,000 (a&lt;b&gt; 600, c 300) + other 361; an unescaped
  // --title holding "<title>" is not a frame.
  const std::string svg = svg_page(svg_frame("c (300 samples, 22.04%)", 110.0, 37, 260.0) +
                                   svg_frame("all (1,361 samples, 100%)", 10.0, 69, 1180.0) +
                                   svg_frame("a&lt;b&gt; (600 samples, 44.09%)", 370.0, 37, 520.0) +
                                   svg_frame("main (1,000 samples, 73.48%)", 10.0, 53, 867.0) +
                                   svg_frame("other (361 samples, 26.52%)", 877.0, 53, 313.0));
  CHECK(flamegraph_in::sniff_svg(svg, "x") == Sniff::kYes);
  Profile p = read_svg(svg);
  CHECK(test::collapsed(p) == "main 100\nmain;a<b> 600\nmain;c 300\nother 361\n");
  CHECK(p.metadata().source_format == "svg");
  CHECK(p.metadata().properties[1] == std::pair<std::string, std::string>{"title", "Custom "});
}

TEST_CASE("flamegraph.pl SVG: an icicle reads the right way round, counts and kinds") {
  const std::string svg = svg_page(svg_frame("all (10 ns, 100%)", 10.0, 36, 1180.0) +
                                   svg_frame("sys_read_[k] (4 ns, 40.00%)", 10.0, 52, 472.0) +
                                   svg_frame("x (4 ns, 40.00%)", 10.0, 68, 472.0));
  Profile p = read_svg(svg);
  CHECK(p.value_types()[0] == ValueType{"time", "nanoseconds"});
  CHECK(test::collapsed(p) == " 6\nsys_read_[k];x 4\n");
}

TEST_CASE("flamegraph.pl SVG: a frame on nothing is left out, one too wide clamped, with warnings") {
  std::vector<std::string> warnings;
  const std::string svg = svg_page(svg_frame("all (10 samples, 100%)", 10.0, 69, 1180.0) +
                                   svg_frame("a (4 samples, 40.00%)", 10.0, 53, 472.0) +
                                   svg_frame("b (5 samples, 50.00%)", 10.0, 37, 472.0) +
                                   svg_frame("lost (2 samples, 20.00%)", 900.0, 37, 236.0) +
                                   svg_frame("on lost (1 samples, 10.00%)", 900.0, 21, 118.0));
  Profile p = read_svg(svg, &warnings);
  CHECK(test::collapsed(p) == " 6\na;b 4\n");
  REQUIRE(warnings.size() == 2);
  CHECK(warnings[0] ==
        "t.svg:13:1: frame 'b' of 5 is wider than what its parent has left (4): taken as that");
  CHECK(warnings[1] ==
        "t.svg:16:1: frame 'lost' lies on no frame of the row below it: left out, with the frames on it");
  CHECK_THROWS_WITH_AS(read_svg(svg, nullptr, true),
                       "t.svg:13:1: frame 'b' of 5 is wider than what its parent has left (4): taken as that",
                       ParseError);
}

TEST_CASE("SVG drawn with pruning: a note bounds what pruned frames may hold, with the threshold") {
  // Drawn from "a;b 900\na;c 5\na 86\nd 9" with c (5) too narrow to draw:
  // a keeps its total 991, its self 91 holds c's 5 and its own 86, which
  // the drawing cannot tell apart; the narrowest drawn frame is d (9).
  const std::string svg = svg_page(svg_frame("all (1,000 samples, 100%)", 10.0, 53, 1180.0) +
                                   svg_frame("a (991 samples, 99.10%)", 10.0, 37, 1169.4) +
                                   svg_frame("b (900 samples, 90.00%)", 10.0, 21, 1062.0) +
                                   svg_frame("d (9 samples, 0.90%)", 1179.4, 37, 10.6));
  Profile p = read_svg(svg);
  CHECK(test::collapsed(p) == "a 91\na;b 900\nd 9\n");
  REQUIRE(p.metadata().comments.size() == 1);
  CHECK(p.metadata().comments[0] ==
        "frames narrower than the narrowest drawn one (9) may have been pruned from the drawing; what "
        "they held is read as their parent's self. At most 91 of 1000 (9.10%) can be pruned frames: the "
        "self of the frames that have drawn frames on them, where a pruned frame and the frame's own self "
        "look the same");
  // Fractional counts keep their decimals in the note.
  const std::string fractional = svg_page(svg_frame("all (10.5 samples, 100%)", 10.0, 37, 1180.0) +
                                          svg_frame("a (8.25 samples, 78.57%)", 10.0, 21, 927.1));
  Profile f = read_svg(fractional);
  REQUIRE(f.metadata().comments.size() == 1);
  CHECK(f.metadata().comments[0].find("(8.25) may") != std::string::npos);
  CHECK(f.metadata().comments[0].find("At most 2.25 of 10.5 (21.43%)") != std::string::npos);
}

TEST_CASE("SVG whose narrowest frame is one unit of its counts: nothing can be pruned, no note") {
  // a's self 2 is its own: a frame narrower than one sample does not exist.
  const std::string svg = svg_page(svg_frame("all (4 samples, 100%)", 10.0, 37, 1180.0) +
                                   svg_frame("a (4 samples, 100%)", 10.0, 21, 1180.0) +
                                   svg_frame("b (1 samples, 25.00%)", 10.0, 5, 295.0) +
                                   svg_frame("c (1 samples, 25.00%)", 305.0, 5, 295.0));
  Profile p = read_svg(svg);
  CHECK(test::collapsed(p) == "a 2\na;b 1\na;c 1\n");
  CHECK(p.metadata().comments.empty());
  // Nor when every width is a multiple of the narrowest (a sampling
  // period: 10 ns a sample), the smallest count a frame can have.
  const std::string period = svg_page(
      svg_frame("all (40 ns, 100%)", 10.0, 37, 1180.0) + svg_frame("a (40 ns, 100%)", 10.0, 21, 1180.0) +
      svg_frame("b (10 ns, 25.00%)", 10.0, 5, 295.0) + svg_frame("c (10 ns, 25.00%)", 305.0, 5, 295.0));
  CHECK(read_svg(period).metadata().comments.empty());
}

TEST_CASE("flamegraph.pl SVG: broken titles and truncation are errors at their position") {
  auto error = [](const std::string& svg) {
    try {
      read_svg(svg);
    } catch (const ParseError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(error(svg_page(svg_frame("all (lots, 100%)", 10.0, 69, 1180.0))) ==
        "t.svg:7:13: expected 'count unit, percent%' after the name, found 'lots, 100%'");
  CHECK(error(svg_page(svg_frame("all (99999999999999999999 samples, 100%)", 10.0, 69, 1180.0)))
            .starts_with("t.svg:7:13: expected 'count unit"));
  CHECK(error(svg_page("")) == "t.svg:8:1: no flame graph frames (<title> and <rect>) in the SVG");
  std::string cut = svg_page(svg_frame("all (10 samples, 100%)", 10.0, 69, 1180.0));
  cut.resize(cut.find("</title>"));
  CHECK(error(cut) == "t.svg:7:1: <title> without </title>: truncated?");
}

TEST_CASE("fg's own SVG reads back as the profile it was drawn from (kinds aside: titles have none)") {
  const std::string folded = "main;parse;a<b>&\"c\" 7\nmain;parse 3\nmain;draw;x 5\nmain 2\nother;y;z 11\n";
  Profile p = test::folded(folded);
  std::ostringstream svg;
  Diagnostics d;
  find_format("svg")->write(p, WriteOptions{}, svg, d);
  CHECK(test::collapsed(read_svg(svg.str())) == test::collapsed(p));
  WriteOptions icicle;
  icicle.flame.inverted = true;
  std::ostringstream svg2;
  find_format("svg")->write(p, icicle, svg2, d);
  CHECK(test::collapsed(read_svg(svg2.str())) == test::collapsed(p));
}

namespace {

std::string fg_page(const Profile& p) {
  std::ostringstream out;
  Diagnostics d;
  find_format("html")->write(p, WriteOptions{}, out, d);
  return out.str();
}

}  // namespace

TEST_CASE(
    "fg's own HTML page reads back as exactly the profile drawn: kinds, fractions, both sides of a diff") {
  for (const std::string folded : {"main;Foo.bar_[j];sys_read_[k] 3\nmain;x_[i] 2\nmain 1\nother;a b 0.5\n",
                                   "main;a;b 5 7\nmain;c 0 2\nmain 3 1\n"}) {
    Profile p = test::folded(folded);
    const std::string page = fg_page(p);
    CHECK(flamegraph_in::is_fg_page(page));
    Profile back = flamegraph_in::read_fg_page(page, "t.html");
    CHECK(test::collapsed(back) == test::collapsed(p));
    CHECK(back.value_types() == p.value_types());
  }
}

TEST_CASE("a frame named </script> stays data: read from a page, written and read again, escaped") {
  // An async-profiler page whose name table holds markup (its own page
  // would break; fg's reader takes it as a name).
  Profile p = read_page(ap3_page("", "'all',\n' </script><script>alert(1)</script>'", "n(3,4)\nu(11,4)\n"));
  CHECK(test::collapsed(p) == "</script><script>alert(1)</script> 4\n");
  const std::string page = fg_page(p);
  CHECK(page.find("<script>alert(1)") == std::string::npos);
  CHECK(test::collapsed(flamegraph_in::read_fg_page(page, "t.html")) == test::collapsed(p));
  std::ostringstream svg;
  Diagnostics d;
  find_format("svg")->write(p, WriteOptions{}, svg, d);
  CHECK(svg.str().find("<script>alert(1)") == std::string::npos);
  CHECK(test::collapsed(read_svg(svg.str())) == test::collapsed(p));
}

TEST_CASE("fg's own HTML page: broken data is an error at the data's position") {
  Profile p = test::folded("main;a 3\n");
  std::string page = fg_page(p);
  const std::size_t nodes = page.find("\"nodes\":[") + 9;
  std::string bad = page;
  bad.replace(nodes, 1, "99");  // a name index past the table
  auto error = [](const std::string& text) {
    try {
      flamegraph_in::read_fg_page(text, "t.html");
    } catch (const ParseError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(error(bad).ends_with(": page data: node 0: no such name"));
  std::string cut = page.substr(0, nodes);
  CHECK(error(cut).ends_with(": the page ends inside its data (no </script>): truncated?"));
  std::string malformed = page;
  malformed.replace(nodes - 9, 9, "\"nodes\":{");
  CHECK(error(malformed).find(": malformed page data: ") != std::string::npos);
}
