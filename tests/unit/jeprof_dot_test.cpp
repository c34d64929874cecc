#include "formats/jeprof_dot/jeprof_dot.h"

#include <doctest/doctest.h>

#include <map>
#include <sstream>

#include "fg/call_graph.h"
#include "formats/common/unfolded_stacks.h"
#include "formats/jeprof_dot/jeprof_graph.h"
#include "formats/registry.h"
#include "test_util.h"

using namespace fg;
using namespace fg::formats::jeprof_dot;

namespace {

const std::string& kHead = test::kJeprofDotHead;
const std::string kDiamond = test::jeprof_diamond_dot();

Profile read_dot(const std::string& text, std::vector<std::string>* warnings = nullptr, bool strict = false) {
  return test::read_as("jeprof-dot", text, warnings, strict, "t.dot");
}

std::string error_of(const std::string& text) {
  try {
    read_dot(text);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

constexpr std::int64_t kMB = 1 << 20;

}  // namespace

TEST_CASE("jeprof-dot: node labels and names") {
  NodeLabel l;
  REQUIRE(parse_node_label("Pool\\nmake\\n0.0 (0.0%)\\rof 7.2 (32.2%)\\r", l));
  CHECK(l.name == "Pool\\nmake");
  CHECK(l.flat == 0.0);
  CHECK(l.cum == 7.2);
  REQUIRE(parse_node_label("build_tree\\n-0.8 (-4.4%)\\r", l));
  CHECK(l.flat == -0.8);
  CHECK(l.cum == -0.8);
  CHECK_FALSE(parse_node_label("main", l));
  CHECK_FALSE(parse_node_label("main\\nx (1%)\\r", l));
  CHECK_FALSE(parse_node_label("main\\n1.0 (1%)\\rof \\r", l));
  CHECK(rebuild_name("std\\nvector\\npush_back\\n(inline)") == "std::vector::push_back (inline)");
  CHECK(rebuild_name("shapes\\nRegistry\\nsubdivide\\n[clone\\n.localalias]") ==
        "shapes::Registry::subdivide [clone .localalias]");
  CHECK(rebuild_name("main") == "main");
}

TEST_CASE("jeprof-dot: sniff") {
  CHECK(sniff(kDiamond, "x") == formats::Sniff::kYes);
  CHECK(sniff("digraph \"unnamed\" {\nN1 -> N2\n}\n", "x") == formats::Sniff::kMaybe);
  CHECK(sniff("main;a 1\n", "x") == formats::Sniff::kNo);
}

TEST_CASE("jeprof-dot: a diamond unfolds so that nodes and edges come back exactly") {
  std::vector<std::string> warnings;
  Profile p = read_dot(kDiamond, &warnings);
  CHECK(warnings.empty());
  REQUIRE(p.value_count() == 1);
  CHECK(p.value_types()[0].type == "space");
  CHECK(p.value_types()[0].unit == "bytes");
  CHECK(test::collapsed(p) ==
        "main;b;c (inline) 4194304\n"
        "main;ns::A::run 2097152\n"
        "main;ns::A::run;c (inline) 4194304\n");
  CallGraph g = build_call_graph(p, {});
  std::map<std::string, std::pair<std::int64_t, std::int64_t>> nodes;
  for (const CallGraphNode& n : g.nodes) nodes[n.name] = {n.flat, n.cum};
  CHECK(nodes["main"] == std::pair<std::int64_t, std::int64_t>{0, 10 * kMB});
  CHECK(nodes["ns::A::run"] == std::pair<std::int64_t, std::int64_t>{2 * kMB, 6 * kMB});
  CHECK(nodes["c (inline)"] == std::pair<std::int64_t, std::int64_t>{8 * kMB, 8 * kMB});
  CHECK(g.edges.size() == 4);
}

TEST_CASE("jeprof-dot: the metadata says the stacks were unfolded, and stack writers warn") {
  Profile p = read_dot(kDiamond);
  CHECK(formats::unfolded_from_graph(p));
  CHECK(p.metadata().source_format == "jeprof-dot");
  std::vector<std::string> warnings;
  Diagnostics d(false, [&](const std::string& m) { warnings.push_back(m); });
  formats::warn_if_stacks_estimated(p, *formats::find_format("dot"), Granularity::kFunction, d);
  CHECK(warnings.empty());
  formats::warn_if_stacks_estimated(p, *formats::find_format("svg"), Granularity::kFunction, d);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].find("t.dot: a call graph has no stacks") != std::string::npos);
}

TEST_CASE("jeprof-dot: objects, self-recursion and dropped callees") {
  const std::string text =
      "digraph \"app; 100 objects\" {\n"
      "Legend [label=\"app\\lTotal objects: 100\\lFocusing on: 100\\l\"];\n"
      "N1 [label=\"main\\n0 (0.0%)\\rof 100 (100.0%)\\r\"];\n"
      "N2 [label=\"f\\n10 (10.0%)\\rof 100 (100.0%)\\r\"];\n"
      "N1 -> N2 [label=100];\n"
      "N2 -> N2 [label=50];\n"
      "}\n";
  std::vector<std::string> warnings;
  Profile p = read_dot(text, &warnings);
  CHECK(p.value_types()[0].type == "objects");
  // f's 90 objects beyond its flat went to callees jeprof did not draw.
  CHECK(test::collapsed(p) == "main;f 10\nmain;f;[callees dropped by jeprof] 90\n");
  // Reading warns of nothing; the views that show stacks name the edge
  // they leave out, and --strict makes that an error.
  CHECK(warnings.empty());
  CHECK(formats::recursive_edges_left_out(p) == 1);
  Diagnostics d(false, [&](const std::string& m) { warnings.push_back(m); });
  formats::warn_if_stacks_estimated(p, *formats::find_format("collapsed"), Granularity::kFunction, d);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].find("leave out its 1 recursive edge(s)") != std::string::npos);
  Diagnostics strict(true, [](const std::string&) {});
  CHECK_THROWS_AS(formats::warn_if_stacks_estimated(p, *formats::find_format("collapsed"),
                                                    Granularity::kFunction, strict),
                  Error);
  // A call graph view is exact per function; per line it comes from the stacks.
  warnings.clear();
  formats::warn_if_stacks_estimated(p, *formats::find_format("top"), Granularity::kFunction, d);
  CHECK(warnings.empty());
  formats::warn_if_stacks_estimated(p, *formats::find_format("top"), Granularity::kLine, d);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].find("call graph is computed from stacks unfolded from it") != std::string::npos);
  // The call graph views draw the graph as recorded, the self-edge included.
  const CallGraph g = build_call_graph(p, {});
  CHECK(g.recorded);
  REQUIRE(g.nodes.size() == 2);
  CHECK(g.total == 100);
  CHECK(g.nodes[1].name == "f");
  CHECK(g.nodes[1].flat == 10);
  CHECK(g.nodes[1].cum == 100);
  REQUIRE(g.edges.size() == 2);
  CHECK(g.edges[1].caller == 1);
  CHECK(g.edges[1].callee == 1);
  CHECK(g.edges[1].weight == 50);
}

TEST_CASE("jeprof-dot: a hostile graph of many diamonds stays within the stack limit") {
  std::string text = "digraph \"x; 1000 objects\" {\nLegend [label=\"x\\lTotal objects: 1000\\l\"];\n";
  const int n = 40;  // 2^40 paths
  for (int i = 0; i <= 2 * n; ++i)
    text +=
        "N" + std::to_string(i) + " [label=\"f" + std::to_string(i) + "\\n0 (0%)\\rof 1000000 (1%)\\r\"];\n";
  for (int i = 0; i < n; ++i) {
    const std::string a = "N" + std::to_string(2 * i), b = "N" + std::to_string(2 * i + 1),
                      c = "N" + std::to_string(2 * i + 2);
    text += a + " -> " + b + " [label=500000];\n" + a + " -> " + c + " [label=500000];\n" + b + " -> " + c +
            " [label=500000];\n";
  }
  text += "}\n";
  std::vector<std::string> warnings;
  Profile p = read_dot(text, &warnings);
  CHECK(p.stack_count() <= 64 * (2 * n + 1 + 3 * n) + 10000 + 2);
  bool truncated = false;
  for (const std::string& w : warnings) truncated = truncated || w.find("stopped at") != std::string::npos;
  CHECK(truncated);
}

TEST_CASE("jeprof-dot: an undeclared node is reported after a call graph was laid out") {
  // Laying out a call graph in-process leaves Graphviz's default node label
  // ("\\N") declared for later graphs; the reader must still see no label.
  std::ostringstream svg;
  Diagnostics d;
  formats::find_format("callgraph-svg")->write(test::folded("main;a 2\nmain;b 1\n"), {}, svg, d);
  REQUIRE(svg.str().find("<svg") != std::string::npos);
  CHECK(error_of(kHead + "N1 [label=\"main\\n1.0 (1%)\\r\"];\nN1 -> N9 [label=1.0];\n}\n") ==
        "t.dot:5: edge N1 -> N9: node N9 is not declared with a label");
}

TEST_CASE("jeprof-dot: bad input") {
  CHECK(error_of("main;a 1\n") == "t.dot:1: not a DOT graph: syntax error in line 1 near 'main'");
  CHECK(error_of("digraph \"x\" {\nN1 [label=\"a\\n1 (1%)\\r\"];\n}\n") ==
        "t.dot:1: not a jeprof call graph: no Legend node (fg reads the DOT of jeprof and pprof.pl; DOT from "
        "go tool pprof or fg itself is not read)");
  CHECK(error_of(kHead + "N1 [label=\"main\\nlots\\r\"];\n}\n") ==
        "t.dot:4: node N1: label \"main\\nlots\\r\" is not jeprof's \"name\\n<flat> (<%>)\\rof <cum> "
        "(<%>)\\r\"");
  CHECK(error_of(kHead + "N1 [label=\"main\\n1.0 (1%)\\r\"];\nN1 -> N9 [label=1.0];\n}\n") ==
        "t.dot:5: edge N1 -> N9: node N9 is not declared with a label");
  CHECK(error_of(kHead + "N1 [label=\"main\\n1.0 (1%)\\r\"];\nN1 -> N1 [label=much];\n}\n") ==
        "t.dot:5: edge N1 -> N1: label \"much\" is not a number");
  CHECK(error_of("digraph \"x\" {\nLegend [label=\"x\\lTotal GB: 1\\l\"];\n}\n") ==
        "t.dot:2: Legend: unit 'GB' is not one fg reads (MB, B, objects, samples)");
}

TEST_CASE("jeprof-dot: a Legend line of 50 KB is read, not a crash (#33.5)") {
  // A backtracking matcher recursed per character of these lines.
  const std::string unit(50000, 'B');
  CHECK(error_of("digraph \"x\" {\nLegend [label=\"x\\lTotal " + unit + ": 1\\l\"];\n}\n") ==
        "t.dot:2: Legend: unit '" + unit + "' is not one fg reads (MB, B, objects, samples)");
  const std::string note(50000, 'n');
  const Profile p = read_dot("digraph \"x\" {\nLegend [label=\"x\\l" + note +
                             "\\lTotal objects: 3\\l\"];\nN1 [label=\"main\\n3 (100.0%)\\r\"];\n}\n");
  CHECK(test::collapsed(p) == "main 3\n");
}

TEST_CASE("jeprof-dot: a diff graph unfolds with signed shares") {
  const std::string text =
      "digraph \"app; 2 objects\" {\n"
      "Legend [label=\"app\\lTotal objects: 2\\l\"];\n"
      "N1 [label=\"main\\n0 (0.0%)\\rof 2 (100.0%)\\r\"];\n"
      "N2 [label=\"grew\\n5 (250.0%)\\r\"];\n"
      "N3 [label=\"shrank\\n-3 (-150.0%)\\r\"];\n"
      "N1 -> N2 [label=5];\n"
      "N1 -> N3 [label=-3];\n"
      "}\n";
  std::vector<std::string> warnings;
  Profile p = read_dot(text, &warnings);
  CHECK(warnings.empty());
  CHECK(test::collapsed(p) == "main;grew 5\nmain;shrank -3\n");
}

TEST_CASE("jeprof-dot: rounding carried between stacks never gives a stack a negative value") {
  // Through P2 -> X, X's 1 splits into halves: X's own 0.5 rounds up to 1,
  // and Y, with no value of its own, came next with the -0.5 left over
  // (it was -1, and the flame graph writers refused the profile).
  const std::string text =
      "digraph \"app; 2 objects\" {\n"
      "Legend [label=\"app\\lTotal objects: 2\\l\"];\n"
      "N1 [label=\"P1\\n0 (0.0%)\\rof 1 (50.0%)\\r\"];\n"
      "N2 [label=\"P2\\n0 (0.0%)\\rof 1 (50.0%)\\r\"];\n"
      "N3 [label=\"X\\n1 (50.0%)\\rof 2 (100.0%)\\r\"];\n"
      "N4 [label=\"Y\\n0 (0.0%)\\rof 1 (50.0%)\\r\"];\n"
      "N5 [label=\"Z\\n1 (50.0%)\\r\"];\n"
      "N1 -> N3 [label=1];\n"
      "N2 -> N3 [label=1];\n"
      "N3 -> N4 [label=1];\n"
      "N4 -> N5 [label=1];\n"
      "}\n";
  const Profile p = read_dot(text);
  const std::string folded = test::collapsed(p);
  CHECK(folded.find(" -") == std::string::npos);
  // The values still add up to the graph's total.
  std::int64_t sum = 0;
  std::istringstream lines(folded);
  for (std::string line; std::getline(lines, line);) sum += std::stoll(line.substr(line.rfind(' ') + 1));
  CHECK(sum == 2);
}
