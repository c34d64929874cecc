#include <doctest/doctest.h>

#include <cstdio>
#include <pugixml.hpp>
#include <random>
#include <sstream>

#include "fg/error.h"
#include "formats/common/number_format.h"
#include "formats/common/palette.h"
#include "formats/svg/flamegraph.h"
#include "formats/svg/xml_escape.h"
#include "test_util.h"

using namespace fg;
using namespace fg::formats;

namespace {
std::string draw(const Profile& p, const WriteOptions& o = {}) {
  std::ostringstream out;
  Diagnostics d;
  svg::write_flamegraph(p, o, out, d);
  return out.str();
}
}  // namespace

TEST_CASE("xml escaping is the one path for text") {
  CHECK(svg::xml_escaped("a<b>&\"'") == "a&lt;b&gt;&amp;&quot;&#39;");
  CHECK(svg::xml_escaped(std::string("\x01ok\x7f", 4)) == "\xEF\xBF\xBDok\xEF\xBF\xBD");
  CHECK(svg::xml_escaped("caf\xC3\xA9") == "caf\xC3\xA9");
  CHECK(svg::xml_escaped("bad\xC3(") == "bad\xEF\xBF\xBD(");
  CHECK(svg::xml_escaped("\xED\xA0\x80") == "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // surrogate
}

TEST_CASE("a frame named like markup is drawn as text") {
  Profile p =
      test::folded("main;\"><script>alert(1)</script> 5\nmain;</script><img src=x onerror=alert(1)> 5\n");
  WriteOptions o;
  o.flame.title = "T <b>&\"";
  o.flame.notes = "--> <!-- notes";
  std::string svg = draw(p, o);
  CHECK(svg.find("<script>alert") == std::string::npos);
  CHECK(svg.find("<img") == std::string::npos);
  pugi::xml_document doc;
  REQUIRE(doc.load_string(svg.c_str()));
  bool found = false;
  for (auto g : doc.select_nodes("//g[@id='frames']/g")) {
    std::string title = g.node().child("title").text().get();
    if (title.rfind("\"><script>alert(1)</script> (5 samples", 0) == 0) found = true;
  }
  CHECK(found);
  CHECK(std::string(doc.select_node("//text[@id='title']").node().text().get()) == "T <b>&\"");
  CHECK(std::string(doc.select_node("//*[@id='notes']").node().text().get()) == "--> <!-- notes");
}

TEST_CASE("flame graph geometry follows flamegraph.pl") {
  Profile p = test::folded("a;b 1\na;c 3\n");
  std::string svg = draw(p);
  pugi::xml_document doc;
  REQUIRE(doc.load_string(svg.c_str()));
  // 4 samples over 1180 px: b at 10.0 (295 px), c after it. Height as
  // flamegraph.pl: (depth 2 + 1) * 16 + 12 * 3 + (12 * 2 + 10) = 118; the top
  // row (depth 2) at 118 - 34 - 3 * 16 + 1 = 37.
  auto b = doc.select_node("//g[starts-with(title, 'b (')]/rect").node();
  CHECK(std::string(b.attribute("x").value()) == "10.0");
  CHECK(std::string(b.attribute("width").value()) == "295.0");
  CHECK(std::string(b.attribute("y").value()) == "37");
  auto c = doc.select_node("//g[starts-with(title, 'c (')]");
  CHECK(std::string(c.node().child("title").text().get()) == "c (3 samples, 75.00%)");
  CHECK(std::string(c.node().child("rect").attribute("x").value()) == "305.0");
  CHECK(std::string(doc.select_node("//g[starts-with(title, 'all')]/title").node().text().get()) ==
        "all (4 samples, 100%)");
  CHECK(std::string(doc.child("svg").attribute("height").value()) == "118");
}

TEST_CASE("long names are cut to fit with '..'") {
  Profile p = test::folded("a;" + std::string(300, 'x') + " 1\n");
  WriteOptions o;
  o.flame.width = 120;  // 100 px of frames: int(100 / 7.08) = 14 characters
  std::string svg = draw(p, o);
  CHECK(svg.find(">" + std::string(12, 'x') + "..</text>") != std::string::npos);
}

TEST_CASE("bad drawing options are usage errors") {
  Profile p = test::folded("a 1\n");
  WriteOptions o;
  o.flame.colors = "rainbow";
  CHECK_THROWS_AS(draw(p, o), UsageError);
  o = {};
  o.flame.min_width = "1px";
  CHECK_THROWS_WITH_AS(draw(p, o), "--minwidth 1px: expected a number of pixels, or a percentage like 0.5%",
                       UsageError);
  o = {};
  o.flame.bg_colors = "#12345z";
  CHECK_THROWS_AS(draw(p, o), UsageError);
  Profile empty = test::folded("");
  CHECK_THROWS_WITH_AS(draw(empty), "t.folded: nothing to draw: the total of value column 'samples' is 0",
                       Error);
}

TEST_CASE("default colours are flamegraph.pl's, by name") {
  // flamegraph.pl drew main.isOdd in rgb(223,84,20) with its default options.
  CHECK(formats::frame_color("hot", false, "main.isOdd").css() == "rgb(223,84,20)");
  CHECK(formats::frame_color("java", false, "Foo.bar_[j]").g >= 200);  // JIT is green
  CHECK(formats::diff_color(5, 5, false).css() == "rgb(255,0,0)");
  CHECK(formats::diff_color(5, 5, true).css() == "rgb(0,0,255)");
  CHECK(formats::diff_color(0, 5, false).css() == "rgb(255,255,255)");
}

TEST_CASE("numbers print exactly as printf prints them") {
  auto printf_fixed = [](double v, int digits) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return std::string(buf);
  };
  auto printf_g = [](double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.15g", v);
    return std::string(buf);
  };
  // Ties and near-ties: every k/20 and k/200 (x.x5 and x.xx5), and their
  // neighbouring doubles, where a rounding error in v * 10 would show.
  int mismatches = 0;
  for (int k = -4000; k <= 400000; ++k) {
    for (double base : {k / 20.0, k / 200.0}) {
      for (double v : {base, std::nextafter(base, -1e300), std::nextafter(base, 1e300)}) {
        for (int d = 0; d <= 2; ++d)
          if (formats::fixed(v, d) != printf_fixed(v, d) && ++mismatches < 5)
            FAIL_CHECK(v << " %." << d << "f: " << formats::fixed(v, d) << " vs " << printf_fixed(v, d));
      }
    }
  }
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> pixels(0, 20000);
  for (int i = 0; i < 300000; ++i) {
    double v = pixels(rng);
    for (int d = 0; d <= 2; ++d)
      if (formats::fixed(v, d) != printf_fixed(v, d) && ++mismatches < 5)
        FAIL_CHECK(v << " %." << d << "f: " << formats::fixed(v, d) << " vs " << printf_fixed(v, d));
  }
  CHECK(mismatches == 0);
  for (double v : {0.0, 37.0, 1087.5, -2.5, 1e20, 0.1, 12.34, 1.0 / 3})
    CHECK(formats::perl_number(v) == printf_g(v));
  CHECK(formats::fixed(-0.04, 1) == printf_fixed(-0.04, 1));  // "-0.0"
}
