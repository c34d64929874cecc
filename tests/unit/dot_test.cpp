#include <doctest/doctest.h>

#include "fg/graph_trim.h"
#include "formats/dot/dot.h"
#include "test_util.h"

using namespace fg;

namespace {

std::vector<std::string> kept_names(const TrimmedGraph& t) {
  std::vector<std::string> out;
  for (std::uint32_t n : t.nodes) out.push_back(t.graph.nodes[n].name);
  return out;
}

std::string edges_of(const TrimmedGraph& t) {
  std::string out;
  for (const CallGraphEdge& e : t.edges)
    out += t.graph.nodes[e.caller].name + (e.residual ? "..>" : "->") + t.graph.nodes[e.callee].name + "=" +
           std::to_string(e.weight) + " ";
  return out;
}

}  // namespace

TEST_CASE("graph trim: pass-through nodes go first when --node-count cuts, leaving residual edges") {
  Profile p = test::folded("main;a;b;c 10\n");
  TrimOptions o;
  o.node_count = 2;
  TrimmedGraph t = trim_call_graph(p, {}, o);
  // Entropy order: the leaf (1 + flat) and the entry score; a and b only pass weight on.
  CHECK(kept_names(t) == std::vector<std::string>{"c", "main"});
  CHECK(edges_of(t) == "main..>c=10 ");
  CHECK(t.candidates == 4);
  o.node_count = 3;
  t = trim_call_graph(p, {}, o);
  CHECK(kept_names(t) == std::vector<std::string>{"c", "main", "a"});
  CHECK(edges_of(t) == "a..>c=10 main->a=10 ");
}

TEST_CASE("graph trim: node and edge fractions; a residual edge another path explains is removed") {
  Profile p = test::folded("main;a;c 50\nmain;b;c 1\n");
  TrimOptions o;
  o.node_fraction = 0.05;  // cutoff 2: b (cum 1) goes
  o.edge_fraction = 0;
  TrimmedGraph t = trim_call_graph(p, {}, o);
  CHECK(t.dropped_nodes == 1);
  CHECK(t.node_cutoff == 2);
  CHECK(edges_of(t) == "a->c=50 main->a=50 ");  // main..>c (through b) is redundant
  o.edge_fraction = 0.5;                         // cutoff 25
  t = trim_call_graph(p, {}, o);
  CHECK(t.dropped_edges == 1);                   // the residual main..>c
}

TEST_CASE("dot: escaping is one path: quotes, backslashes, newlines, control bytes, bad UTF-8") {
  CHECK(formats::dot::escape("a\\b\"c") == "a\\\\b\\\"c");
  CHECK(formats::dot::escape("x\ny") == "x\\ly");
  CHECK(formats::dot::escape("t\tx\x01") == "t x ");
  CHECK(formats::dot::escape("\xff") == "\xEF\xBF\xBD");
  CHECK(formats::dot::escape("caf\xC3\xA9") == "caf\xC3\xA9");
}

TEST_CASE("dot: nodes, edges and legend of a small graph") {
  Profile p = test::folded("main;work;\"q\\ 3\nmain;idle 1\n");
  formats::WriteOptions o;
  const std::string dot = formats::dot::call_graph_dot(p, o);
  CHECK(dot.rfind("digraph \"unnamed\" {\n", 0) == 0);
  CHECK(dot.find("label=\"Type: samples\\lShowing nodes accounting for 4, 100% of 4 total\\l\"") != std::string::npos);
  CHECK(dot.find("tooltip=\"\\\"q\\\\ (3)\"") != std::string::npos);           // the hostile name, escaped
  CHECK(dot.find("[label=\"\\\"q\\\\\\n3 (75.00%)\"") != std::string::npos);
  CHECK(dot.find("N1 [label=\"main\\n0 of 4 (100%)\"") != std::string::npos);  // the entry first
  CHECK(dot.find("fontsize=24") != std::string::npos);
  CHECK(dot.find("tooltip=\"main -> work (3)\"") != std::string::npos);
  CHECK(dot.back() == '\n');
  CHECK(dot.substr(dot.size() - 2) == "}\n");
}

TEST_CASE("dot: fractions outside 0..1 are usage errors") {
  Profile p = test::folded("a 1\n");
  formats::WriteOptions o;
  o.node_fraction = 2;
  CHECK_THROWS_AS(formats::dot::call_graph_dot(p, o), UsageError);
}
