#include <doctest/doctest.h>

#include "fg/builder.h"
#include "fg/call_graph.h"
#include "test_util.h"

using namespace fg;

namespace {
const CallGraphNode& node(const CallGraph& g, const std::string& name) {
  for (const CallGraphNode& n : g.nodes)
    if (n.name == name) return n;
  FAIL("no node " << name);
  return g.nodes[0];
}
std::int64_t edge(const CallGraph& g, const std::string& from, const std::string& to) {
  for (const CallGraphEdge& e : g.edges)
    if (g.nodes[e.caller].name == from && g.nodes[e.callee].name == to) return e.weight;
  return -1;
}
}  // namespace

TEST_CASE("call graph: flat at the leaf, cum once per sample however deep the recursion") {
  Profile p = test::folded("main;fib;fib;fib 4\nmain;fib 1\nmain;other;fib 2\nmain 3\n");
  CallGraph g = build_call_graph(p, {});
  CHECK(g.total == 10);
  CHECK(node(g, "fib").flat == 7);
  CHECK(node(g, "fib").cum == 7);
  CHECK(node(g, "main").flat == 3);
  CHECK(node(g, "main").cum == 10);
  CHECK(edge(g, "fib", "fib") == -1);  // direct recursion draws no edge, as in pprof
  CHECK(edge(g, "main", "fib") == 5);
  CHECK(edge(g, "other", "fib") == 2);
}

TEST_CASE("call graph: inlined and called occurrences are one node") {
  ProfileBuilder b(std::vector<ValueType>{{"samples", "count"}});
  FunctionId f = b.function("f");
  FrameId main = b.frame("main"), called = b.frame(f), inlined = b.frame(f, FrameKind::kInlined);
  std::vector<std::int64_t> one{1}, two{2};
  b.add_sample(std::vector<FrameId>{main, called}, one);
  b.add_sample(std::vector<FrameId>{main, inlined}, two);
  Profile p = std::move(b).finish();
  CallGraph g = build_call_graph(p, {});
  REQUIRE(g.nodes.size() == 2);
  CHECK(node(g, "f").flat == 3);
  CHECK(node(g, "f").partly_inlined);
  CHECK(!node(g, "f").inlined);
}

TEST_CASE("call graph: edges among kept nodes skip dropped ones, then small ones go") {
  Profile p = test::folded("main;mid;leaf 90\nmain;leaf 9\nmain;tiny 1\n");
  CallGraph g = build_call_graph(p, {});
  std::vector<bool> kept(g.nodes.size(), true);
  for (std::size_t n = 0; n < g.nodes.size(); ++n) kept[n] = g.nodes[n].name != "mid";
  auto edges = kept_edges(p, g, 0, kept, 0.05);  // cut-off 5 of 100
  REQUIRE(edges.size() == 1);
  CHECK(g.nodes[edges[0].caller].name == "main");
  CHECK(g.nodes[edges[0].callee].name == "leaf");
  CHECK(edges[0].weight == 99);  // 90 through the dropped mid, 9 direct; tiny's 1 is cut
}

TEST_CASE("top order: flat, then name; or cum, then name") {
  Profile p = test::folded("a;c 2\nb 2\nd;c 1\n");
  CallGraph g = build_call_graph(p, {});
  std::vector<std::string> flat, cum;
  for (auto n : top_order(g)) flat.push_back(g.nodes[n].name);
  for (auto n : top_order_by_cum(g)) cum.push_back(g.nodes[n].name);
  CHECK(flat == std::vector<std::string>{"c", "b", "a", "d"});
  CHECK(cum == std::vector<std::string>{"c", "a", "b", "d"});
}
