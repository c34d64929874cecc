#include "formats/dot/dot.h"

#include <doctest/doctest.h>

#include <pugixml.hpp>
#include <sstream>
#include <tuple>

#include "fg/builder.h"
#include "fg/graph_trim.h"
#include "formats/dot/pan_zoom.h"
#include "formats/top/top.h"
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

TEST_CASE("graph trim: node and edge fractions, a residual edge another path explains is removed") {
  Profile p = test::folded("main;a;c 50\nmain;b;c 1\n");
  TrimOptions o;
  o.node_fraction = 0.05;  // cutoff 2: b (cum 1) goes
  o.edge_fraction = 0;
  TrimmedGraph t = trim_call_graph(p, {}, o);
  CHECK(t.dropped_nodes == 1);
  CHECK(t.node_cutoff == 2);
  CHECK(edges_of(t) == "a->c=50 main->a=50 ");  // main..>c (through b) is redundant
  o.edge_fraction = 0.5;                        // cutoff 25
  t = trim_call_graph(p, {}, o);
  CHECK(t.dropped_edges == 1);  // the residual main..>c
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
  CHECK(dot.find("label=\"Type: samples\\lShowing nodes accounting for 4, 100% of 4 total\\l\"") !=
        std::string::npos);
  CHECK(dot.find("tooltip=\"\\\"q\\\\ (3)\"") != std::string::npos);  // the hostile name, escaped
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

TEST_CASE("graph trim: tags of many samples, gathered in two halves, are those of one pass") {
  // 70,000 samples (two halves on two threads) of main;work, value 1 each:
  // the first half labelled tenant=a, the second tenant=a or b in turn, so
  // b is first seen in the second half. Every sample also carries
  // bytes=2048, or in the second half 2049, which pprof names "2kB" too:
  // the tag keeps the value of the first sample that made it. A numeric
  // label n=i, which graphs do not show, keeps the samples apart.
  ProfileBuilder b({ValueType{"samples", "count"}});
  const FrameId frames[] = {b.frame("main"), b.frame("work")};
  const StackId stack = b.stack(frames);
  constexpr int kCount = 70000;
  const std::int64_t one = 1;
  for (int i = 0; i < kCount; ++i) {
    const bool a = i < kCount / 2 || i % 2 == 0;
    const LabelSetId labels =
        b.labels({Label{b.intern("tenant"), b.intern(a ? "a" : "b")},
                  Label{b.intern("bytes"), {}, i < kCount / 2 ? 2048 : 2049, b.intern("bytes"), true},
                  Label{b.intern("n"), {}, i, {}, true}});
    b.add_sample(stack, std::span(&one, 1), labels);
  }
  const Profile p = std::move(b).finish();
  REQUIRE(p.sample_count() == kCount);
  TrimOptions o;
  o.node_fraction = 0;
  o.edge_fraction = 0;
  const TrimmedGraph t = trim_call_graph(p, {}, o);
  REQUIRE(kept_names(t) == std::vector<std::string>{"work", "main"});
  const std::int64_t only_a = kCount / 2 + kCount / 4, only_b = kCount / 4;  // second half: even i are a
  for (std::uint32_t n : t.nodes) {
    const NodeTags& tags = t.tags[n];
    const bool leaf = t.graph.nodes[n].name == "work";
    CAPTURE(t.graph.nodes[n].name);
    REQUIRE(tags.labels.size() == 2);
    CHECK(tags.labels[0].name == "tenant:a");
    CHECK(tags.labels[0].cum == only_a);
    CHECK(tags.labels[0].flat == (leaf ? only_a : 0));
    CHECK(tags.labels[1].name == "tenant:b");
    CHECK(tags.labels[1].cum == only_b);
    REQUIRE(tags.numeric.size() == 2);
    CHECK(tags.numeric[0].first == "tenant:a");
    REQUIRE(tags.numeric[0].second.size() == 1);
    CHECK(tags.numeric[0].second[0].name == "2kB");
    CHECK(tags.numeric[0].second[0].value == 2048);
    CHECK(tags.numeric[0].second[0].cum == only_a);
    CHECK(tags.numeric[1].first == "tenant:b");
    REQUIRE(tags.numeric[1].second.size() == 1);
    CHECK(tags.numeric[1].second[0].value == 2049);
    CHECK(tags.numeric[1].second[0].cum == only_b);
  }
}

TEST_CASE("callgraph-svg fits the window, pans and zooms, and refers to nothing outside") {
  // (a name that pprof's C++ name simplification leaves as it is)
  const std::string hostile = "he said \"a&b\" </script";
  Profile p = test::folded("main;" + hostile + " 5\nmain;work 3\n");
  std::ostringstream out;
  Diagnostics d;
  formats::dot::write_svg(p, {}, out, d);
  pugi::xml_document doc;
  REQUIRE(doc.load_string(out.str().c_str(), pugi::parse_default | pugi::parse_doctype));
  const pugi::xml_node svg = doc.child("svg");
  CHECK(std::string(svg.attribute("width").value()) == "100%");
  CHECK(std::string(svg.attribute("height").value()) == "100%");
  CHECK(std::string(svg.attribute("viewBox").value()).rfind("0.00 0.00 ", 0) == 0);  // Graphviz's, kept
  // The drawing inside the group the script moves; the script after it.
  const pugi::xml_node view = svg.find_child_by_attribute("g", "id", "fg-viewport");
  REQUIRE(view);
  CHECK(view.find_child_by_attribute("g", "id", "graph0"));
  CHECK(std::string(view.next_sibling().name()) == "script");
  // One script (ours: the hostile name is text), and no reference outside
  // the file: no src or href, no URL but the XML namespaces'.
  CHECK(doc.select_nodes("//*[local-name()='script']").size() == 1);
  CHECK(doc.select_nodes("//*[@src or @href or @*[local-name()='href']]").empty());
  for (const pugi::xpath_node& a : doc.select_nodes("//@*")) {
    const std::string name = a.attribute().name(), value = a.attribute().value();
    CAPTURE(name);
    if (name.rfind("xmlns", 0) != 0) CHECK(value.find("://") == std::string::npos);
  }
  CHECK(std::string(view.next_sibling().child_value()).find("://") == std::string::npos);
  bool named = false;
  for (const pugi::xpath_node& t : doc.select_nodes("//*[local-name()='text']"))
    named = named || std::string(t.node().child_value()) == hostile;
  CHECK(named);
}

TEST_CASE("with_pan_zoom refuses what is not SVG") {
  CHECK_THROWS_AS(formats::dot::with_pan_zoom("<html></html>"), Error);
}

namespace {

// A TrimmedGraph of the named nodes and caller->callee=weight edges, the
// edges given heaviest first as trim_call_graph() orders them.
TrimmedGraph graph_of(const std::vector<std::string>& names,
                      const std::vector<std::tuple<std::uint32_t, std::uint32_t, std::int64_t>>& edges) {
  TrimmedGraph t;
  for (const std::string& name : names) {
    CallGraphNode n;
    n.name = name;
    t.graph.nodes.push_back(n);
    t.nodes.push_back(static_cast<std::uint32_t>(t.nodes.size()));
  }
  for (const auto& [caller, callee, weight] : edges) {
    CallGraphEdge e;
    e.caller = caller;
    e.callee = callee;
    e.weight = weight;
    t.edges.push_back(e);
  }
  return t;
}

}  // namespace

TEST_CASE("layout budget: each node's first edge in, then the heaviest within the degree") {
  // main=0 b=1 c=2 d=3 e=4
  const std::vector<std::tuple<std::uint32_t, std::uint32_t, std::int64_t>> edges = {
      {0, 1, 100}, {0, 2, 90}, {1, 2, 80}, {2, 3, 70}, {1, 3, 60},
      {3, 4, 50},  {0, 3, 40}, {2, 4, 30}, {1, 4, 20}, {0, 4, 10}};
  TrimmedGraph t = graph_of({"main", "b", "c", "d", "e"}, edges);
  LayoutBudget budget;
  budget.edges = 6;
  budget.degree = 2;
  // First into each node: main->b, main->c, c->d, d->e; then the heaviest
  // others with both ends under 2 edges, b->c and b->d, make 6. main->d
  // would be main's third edge out.
  CHECK(bound_for_layout(t, budget) == 4);
  CHECK(edges_of(t) == "main->b=100 main->c=90 b->c=80 c->d=70 b->d=60 d->e=50 ");

  TrimmedGraph small = graph_of({"main", "b", "c", "d", "e"}, edges);
  budget.edges = 10;  // within the budget: every edge stays
  CHECK(bound_for_layout(small, budget) == 0);
  CHECK(small.edges.size() == 10);
}

TEST_CASE("layout_dot: a dense graph keeps its heaviest edges and says so, a small one is call_graph_dot") {
  // main calls f0..f19, each f_i calls every other f_j with weight 20i+j+1:
  // 21 nodes; 329 edges over the edge fraction (71 of the 380 calls weigh
  // under 0.001 of 76190).
  std::string text;
  for (int i = 0; i < 20; ++i)
    for (int j = 0; j < 20; ++j)
      if (i != j)
        text += "main;f" + std::to_string(i) + ";f" + std::to_string(j) + " " +
                std::to_string(20 * i + j + 1) + "\n";
  const Profile p = test::folded(text);
  const std::string full = formats::dot::call_graph_dot(p, {}), bounded = formats::dot::layout_dot(p, {});
  const auto count = [](const std::string& s, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
    return n;
  };
  const auto has = [](const std::string& dot, const std::string& edge) {
    return dot.find("tooltip=\"" + edge + "\"") != std::string::npos;
  };
  REQUIRE(count(full, " -> N") == 329);
  const std::size_t drawn = count(bounded, " -> N");
  CHECK(drawn <= 150);
  CHECK(bounded.find("Drawing " + std::to_string(drawn) + " of 329 edges, the heaviest") !=
        std::string::npos);
  CHECK(bounded.find("graph [nslimit=1 nslimit1=1 mclimit=0.5]") != std::string::npos);
  // The heaviest edge, and the heaviest call between the f's.
  CHECK(has(bounded, "main -> f19 (7410)"));
  CHECK(has(bounded, "f19 -> f18 (399)"));
  // main -> f_i (i >= 1) outweighs every call into f_i, so each is first in
  // and stays; into f0 f19 (381) comes first, so main -> f0 (209) meets main
  // with 19 edges out, beyond the degree of 8.
  for (int i = 1; i < 20; ++i)
    CHECK(has(bounded, "main -> f" + std::to_string(i) + " (" + std::to_string(380 * i + 209 - i) + ")"));
  CHECK(has(bounded, "f19 -> f0 (381)"));
  CHECK(has(full, "main -> f0 (209)"));
  CHECK_FALSE(has(bounded, "main -> f0 (209)"));
  // f19 draws 8 calls, f18..f12 and f0, so f19 -> f11 (392) is left out.
  CHECK(has(full, "f19 -> f11 (392)"));
  CHECK_FALSE(has(bounded, "f19 -> f11 (392)"));

  const Profile small = test::folded("main;a;b 5\nmain;c 3\n");
  CHECK(formats::dot::layout_dot(small, {}) == formats::dot::call_graph_dot(small, {}));
}

TEST_CASE("top table and call graph drawn from a call graph cache are those drawn without") {
  // f inlined in one caller and called from another (pprof marks the row
  // by the edges into it that survive); g inlined everywhere.
  ProfileBuilder b(std::vector<ValueType>{{"samples", "count"}, {"cpu", "nanoseconds"}});
  FunctionId f = b.function("f"), g = b.function("g");
  FrameId main = b.frame("main"), a = b.frame("a"), c = b.frame("c");
  FrameId f_called = b.frame(f), f_inlined = b.frame(f, FrameKind::kInlined),
          g_inlined = b.frame(g, FrameKind::kInlined);
  b.add_sample(std::vector<FrameId>{main, a, f_inlined}, std::vector<std::int64_t>{5, 50});
  b.add_sample(std::vector<FrameId>{main, c, f_called, g_inlined}, std::vector<std::int64_t>{3, 70});
  b.add_sample(std::vector<FrameId>{main, g_inlined}, std::vector<std::int64_t>{1, 10});
  const Profile p = std::move(b).finish();
  for (const char* column : {"0", "1"}) {
    CAPTURE(column);
    formats::WriteOptions o;
    o.value = column;
    std::ostringstream top_alone, dot_alone, top_cached, dot_cached;
    Diagnostics d;
    formats::top::write_text(p, o, top_alone, d);
    formats::dot::write(p, o, dot_alone, d);
    CallGraphCache cache(p);
    o.call_graphs = &cache;
    formats::top::write_text(p, o, top_cached, d);
    formats::dot::write(p, o, dot_cached, d);
    CHECK(top_alone.str().find("g (inline)") != std::string::npos);
    CHECK(top_alone.str().find("f (partial-inline)") != std::string::npos);
    CHECK(top_cached.str() == top_alone.str());
    CHECK(dot_cached.str() == dot_alone.str());
  }
}
