#include <doctest/doctest.h>

#include <sstream>

#include "fg/error.h"
#include "formats/common/json_escape.h"
#include "formats/html/flamegraph_html.h"
#include "formats/svg/flamegraph.h"
#include "test_util.h"

using namespace fg;
using namespace fg::formats;

namespace {

std::string page(const Profile& p, const WriteOptions& o = {}) {
  std::ostringstream out;
  Diagnostics d;
  html::write_flamegraph(p, o, out, d);
  return out.str();
}

std::string escaped(std::string_view text) {
  std::string out;
  std::uint64_t replaced = 0;
  formats::append_json_string(out, text, formats::JsonEscaping::kScript, replaced);
  return out;
}

// The JSON the page carries, between its element's tags.
std::string data_of(const std::string& html) {
  const std::string open = "<script type=\"application/json\" id=\"fg-data\">";
  const std::size_t begin = html.find(open) + open.size();
  return html.substr(begin, html.find("</script>", begin) - begin);
}

}  // namespace

TEST_CASE("script string escaping is the one path for text into the page") {
  CHECK(escaped("plain") == "\"plain\"");
  CHECK(escaped("</script><img src=x onerror=alert(1)>") ==
        "\"\\u003c/script\\u003e\\u003cimg src=x onerror=alert(1)\\u003e\"");
  CHECK(escaped("a&b\"c\\d") == "\"a\\u0026b\\\"c\\\\d\"");
  CHECK(escaped("<!-- x") == "\"\\u003c!-- x\"");
  CHECK(escaped(std::string("\x01\n\x7f", 3)) == "\"\\u0001\\u000a\\u007f\"");
  CHECK(escaped("caf\xC3\xA9") == "\"caf\xC3\xA9\"");
  CHECK(escaped("bad\xC3(") == "\"bad\\ufffd(\"");
  CHECK(escaped("\xE2\x80\xA8|\xE2\x80\xA9") == "\"\\u2028|\\u2029\"");
}

TEST_CASE("one JSON escaper: Go's escaping and the page's differ in control bytes, DEL and U+FFFD") {
  const std::string text("a\nb\r\t\x7f<&>\xEF\xBF\xBD\xFF", 13);
  std::uint64_t go_replaced = 0, script_replaced = 0;
  std::string go, script;
  formats::append_json_string(go, text, formats::JsonEscaping::kGo, go_replaced);
  formats::append_json_string(script, text, formats::JsonEscaping::kScript, script_replaced);
  // Go's encoding/json: \n \r \t short, DEL kept, U+FFFD kept, the bad byte as U+FFFD.
  CHECK(go == "\"a\\nb\\r\\t\x7f\\u003c\\u0026\\u003e\xEF\xBF\xBD\xEF\xBF\xBD\"");
  // In a <script>: every control byte and DEL as \u00XX, U+FFFD as \ufffd.
  CHECK(script == "\"a\\u000ab\\u000d\\u0009\\u007f\\u003c\\u0026\\u003e\\ufffd\\ufffd\"");
  // Only the invalid byte is counted, not the U+FFFD that was written.
  CHECK(go_replaced == 1);
  CHECK(script_replaced == 1);
}

TEST_CASE("the page carries the tree as a name table and three numbers a node") {
  Profile p = test::folded("main;b 2\nmain;a;x 3\nmain 1\nother 4\n");
  const std::string data = data_of(page(p));
  // names sorted in flamegraph.pl's order; pre-order nodes: main a x b other
  CHECK(data.find("\"names\":[\"a\",\"b\",\"main\",\"other\",\"x\"]") != std::string::npos);
  CHECK(data.find("\"nodes\":[2,0,1,0,0,0,4,0,3,1,2,2,3,2,4]") != std::string::npos);
  CHECK(data.find("\"scale\":1,") != std::string::npos);
  CHECK(data.find("\"diff\":false") != std::string::npos);
  CHECK(data.find("\"base\":") == std::string::npos);
}

TEST_CASE("values are divided by their common divisor") {
  Profile p = test::folded("a;b 30000000\na 10000000\n");
  const std::string data = data_of(page(p));
  CHECK(data.find("\"scale\":10000000,") != std::string::npos);
  CHECK(data.find("\"nodes\":[0,0,1,1,0,3]") != std::string::npos);
}

TEST_CASE("a diff profile carries the base column's own values") {
  Profile p = test::folded("a;b 1 4\na 2 0\n");
  const std::string data = data_of(page(p));
  CHECK(data.find("\"diff\":true") != std::string::npos);
  CHECK(data.find("\"nodes\":[0,0,0,1,0,4]") != std::string::npos);
  CHECK(data.find("\"base\":[2,1]") != std::string::npos);
}

TEST_CASE("markup in names and options stays inside the data element, escaped") {
  Profile p = test::folded("main;</script><img src=x onerror=alert(1)> 5\nmain;<!--x 1\n");
  WriteOptions o;
  o.flame.title = "</title><script>alert(1)</script>";
  const std::string html = page(p, o);
  const std::string data = data_of(html);
  CHECK(data.find('<') == std::string::npos);
  CHECK(data.find('>') == std::string::npos);
  CHECK(html.find("<img") == std::string::npos);
  CHECK(html.find("alert(1)</script>") == std::string::npos);
  CHECK(page(p, o) == html);  // deterministic
}

TEST_CASE("frame kinds are kept apart in the name table") {
  Profile p = test::folded("f_[j];g 1\nf;g_[k] 1\n");
  const std::string data = data_of(page(p));
  CHECK(data.find("\"names\":[\"f\",\"f\",\"g\",\"g\"]") != std::string::npos);
  CHECK(data.find("\"nameKinds\":[0,2,0,1]") != std::string::npos);
}

TEST_CASE("options the page cannot honour are usage errors") {
  Profile p = test::folded("a 1\n");
  WriteOptions o;
  o.flame.flame_chart = true;
  CHECK_THROWS_AS(page(p, o), UsageError);
  o = {};
  o.flame.colors = "rainbow";
  CHECK_THROWS_WITH_AS(page(p, o), doctest::Contains("--colors rainbow"), UsageError);
  CHECK_THROWS_WITH_AS(page(test::folded("a 0\n")), doctest::Contains("nothing to draw"), Error);
}

TEST_CASE("the root frame is labelled 'all' in SVG and HTML for every input format") {
  // One input of each format; the DeepFlow tree's root node is named
  // "cpuwork", and neither writer takes that (or the file's name) as the label.
  const std::string golden = std::string(FG_TEST_DATA_DIR) + "/../golden/inputs/";
  struct Case {
    std::string path;
    ReadOptions read;
  };
  ReadOptions lock;
  lock.jfr.events = JfrOptions::Events::kLock;
  const std::vector<Case> cases = {
      {golden + "basic.folded", {}},
      {golden + "heap.pb.gz", {}},
      {golden + "lock.jfr.gz", lock},
      {std::string(FG_TEST_DATA_DIR) + "/deepflow/process_cpuwork_golang.json", {}},
      {golden + "jeprof-m1.dot", {}},
  };
  for (const Case& c : cases) {
    CAPTURE(c.path);
    Diagnostics d;
    auto in = Input::open(c.path);
    const Format& format = detect_input_format(*in, std::nullopt);
    const Profile p = format.read(*in, c.read, d);
    std::ostringstream svg;
    svg::write_flamegraph(p, {}, svg, d);
    const std::string s = svg.str();
    const std::size_t first = s.find("<title>", s.find("<g id=\"frames\""));
    CHECK(s.substr(first, 12) == "<title>all (");
    CHECK(data_of(page(p)).find("\"rootLabel\":\"all\"") != std::string::npos);
  }
}
