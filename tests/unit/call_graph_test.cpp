#include "fg/call_graph.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <set>

#include "fg/builder.h"
#include "fg/error.h"
#include "fg/recorded_call_graph.h"
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

TEST_CASE("call graph cache: one graph per profile and options, until taken") {
  Profile p = test::folded("main;f;g 3\nmain;g 2\n");
  Profile other = test::folded("main;f;g 3\nmain;g 2\n");
  CallGraphCache cache(p);
  const CallGraph* first = cache.find(p, {.edges = false});
  REQUIRE(first != nullptr);
  CHECK(cache.find(p, {.edges = false}) == first);  // built once
  CHECK(node(*first, "g").flat == 5);
  CHECK(first->edges.empty());
  const CallGraph* with_edges = cache.find(p, {});
  REQUIRE(with_edges != nullptr);
  CHECK(with_edges != first);
  CHECK(edge(*with_edges, "main", "g") == 2);
  CHECK(edge(*with_edges, "f", "g") == 3);
  CHECK(cache.find(other, {.edges = false}) == nullptr);  // not the cache's profile
  const CallGraph taken = cache.take(p, {.edges = false});
  CHECK(node(taken, "main").cum == 5);
  CHECK(node(taken, "g").name == "g");
  // Taken: built again when asked for, the same graph.
  const CallGraph again = cache.take(p, {.edges = false});
  CHECK(again.nodes.size() == taken.nodes.size());
  CHECK(node(cache.take(other, {}), "f").cum == 3);  // another profile: built, not cached
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

TEST_CASE("top order: flat, then name, or cum, then name") {
  Profile p = test::folded("a;c 2\nb 2\nd;c 1\n");
  CallGraph g = build_call_graph(p, {});
  std::vector<std::string> flat, cum;
  for (auto n : top_order(g)) flat.push_back(g.nodes[n].name);
  for (auto n : top_order_by_cum(g)) cum.push_back(g.nodes[n].name);
  CHECK(flat == std::vector<std::string>{"c", "b", "a", "d"});
  CHECK(cum == std::vector<std::string>{"c", "a", "b", "d"});
}

namespace {
// A graph-shaped recording: f calls itself and g; the stacks reconstructed
// from it (here one stack, as an unfolding would give) cannot say so.
Profile recorded_profile() {
  ProfileBuilder b(std::vector<ValueType>{{"space", "bytes"}});
  const FrameId main = b.frame("main"), f = b.frame("f"), g = b.frame("g"), extra = b.frame("[dropped]");
  const std::vector<std::int64_t> v{10};
  b.add_sample(std::vector<FrameId>{main, f, g}, v);
  b.add_sample(std::vector<FrameId>{main, extra}, std::vector<std::int64_t>{1});
  RecordedCallGraph rec;
  rec.total = 12;
  rec.nodes = {{main, 0, 11}, {f, 1, 11}, {g, 9, 9}};
  rec.edges = {{0, 1, 11}, {1, 1, 7}, {1, 2, 9}};
  b.set_recorded_graph(std::move(rec));
  return std::move(b).finish();
}
}  // namespace

TEST_CASE("call graph: a recorded graph is drawn as recorded, per function only") {
  Profile p = recorded_profile();
  REQUIRE(p.recorded_graph() != nullptr);
  CallGraph g = build_call_graph(p, {});
  CHECK(g.recorded);
  REQUIRE(g.nodes.size() == 3);  // the frame the recording did not name has no node
  CHECK(g.total == 12);
  CHECK(g.flat_sum == 10);
  CHECK(node(g, "f").flat == 1);
  CHECK(node(g, "f").cum == 11);
  CHECK(node(g, "g").flat == 9);
  CHECK(edge(g, "f", "f") == 7);  // the recorded self-edge
  CHECK(edge(g, "f", "g") == 9);
  CHECK(edge(g, "main", "f") == 11);

  std::vector<bool> kept(g.nodes.size(), true);
  for (std::size_t n = 0; n < g.nodes.size(); ++n) kept[n] = g.nodes[n].name != "main";
  auto edges = kept_edges(p, g, 0, kept, 0.8);  // cut-off 8 of the flat sum 10
  REQUIRE(edges.size() == 1);
  CHECK(g.nodes[edges[0].caller].name == "f");
  CHECK(g.nodes[edges[0].callee].name == "g");
  CHECK(edges[0].weight == 9);

  CallGraphOptions per_line;
  per_line.granularity = Granularity::kLine;
  CallGraph from_stacks = build_call_graph(p, per_line);
  CHECK(!from_stacks.recorded);
  CHECK(from_stacks.total == 11);
  CHECK(node(from_stacks, "g").flat == 10);
}

TEST_CASE("recorded graph: frames and nodes out of range, and values past 2^62, are refused") {
  ProfileBuilder b(std::vector<ValueType>{{"space", "bytes"}});
  const FrameId f = b.frame("f");
  RecordedCallGraph bad_frame;
  bad_frame.nodes = {{FrameId{f.index() + 1}, 0, 0}};
  CHECK_THROWS_AS(b.set_recorded_graph(bad_frame), Error);
  RecordedCallGraph bad_edge;
  bad_edge.nodes = {{f, 0, 0}};
  bad_edge.edges = {{0, 1, 1}};
  CHECK_THROWS_AS(b.set_recorded_graph(bad_edge), Error);
  RecordedCallGraph huge;
  huge.nodes = {{f, std::int64_t(1) << 61, std::int64_t(1) << 61}, {f, std::int64_t(1) << 61, 0}};
  CHECK_THROWS_AS(b.set_recorded_graph(huge), Error);  // flat values adding up to 2^62
  // Deep graphs gather large cums and weights: those saturate, never refused.
  RecordedCallGraph deep;
  deep.total = std::int64_t(1) << 60;
  for (int i = 0; i < 64; ++i) deep.nodes.push_back({f, 0, std::int64_t(1) << 60});
  CHECK_NOTHROW(b.set_recorded_graph(deep));
  const Profile p = std::move(b).finish();
  const CallGraph g = build_call_graph(p, {});
  REQUIRE(g.nodes.size() == 1);
  CHECK(g.nodes[0].cum == INT64_MAX);
}

TEST_CASE("call graph: 100,000 samples (walked in two parts where there are two cores) sum as one") {
  // Timestamps keep the samples apart. Sample i: main;a;b (1) when i % 4 is
  // 0, main;a;a;c (2) when it is 1, main;mid;b (3) when it is 2, and
  // main;a;c;a (4) when it is 3: 25,000 of each kind, in both halves.
  ProfileBuilder b(std::vector<ValueType>{{"samples", "count"}});
  const FrameId main = b.frame("main"), a = b.frame("a"), bb = b.frame("b"), c = b.frame("c"),
                mid = b.frame("mid");
  const std::vector<std::vector<FrameId>> kinds{
      {main, a, bb}, {main, a, a, c}, {main, mid, bb}, {main, a, c, a}};
  for (int i = 0; i < 100000; ++i) {
    std::vector<std::int64_t> v{i % 4 + 1};
    b.add_sample(kinds[i % 4], v, {}, 1000 + i);
  }
  Profile p = std::move(b).finish();
  REQUIRE(p.sample_count() == 100000);
  CallGraphOptions o;
  o.edges = true;
  CallGraph g = build_call_graph(p, o);
  const std::int64_t k = 25000;
  CHECK(g.total == k * (1 + 2 + 3 + 4));
  CHECK(g.flat_sum == k * 10);
  CHECK(node(g, "main").cum == k * 10);
  CHECK(node(g, "main").flat == 0);
  CHECK(node(g, "a").cum == k * (1 + 2 + 4));  // once per sample, recursion or not
  CHECK(node(g, "a").flat == k * 4);
  CHECK(node(g, "b").flat == k * (1 + 3));
  CHECK(node(g, "c").flat == k * 2);
  CHECK(node(g, "c").cum == k * (2 + 4));
  CHECK(node(g, "mid").cum == k * 3);
  CHECK(edge(g, "main", "a") == k * (1 + 2 + 4));
  CHECK(edge(g, "a", "b") == k * 1);
  CHECK(edge(g, "a", "c") == k * (2 + 4));
  CHECK(edge(g, "c", "a") == k * 4);
  CHECK(edge(g, "main", "mid") == k * 3);
  CHECK(edge(g, "mid", "b") == k * 3);
  // Edges in the order their first samples give them.
  std::vector<std::pair<std::string, std::string>> order;
  for (const CallGraphEdge& e : g.edges) order.emplace_back(g.nodes[e.caller].name, g.nodes[e.callee].name);
  CHECK(order == std::vector<std::pair<std::string, std::string>>{
                     {"a", "b"}, {"main", "a"}, {"a", "c"}, {"mid", "b"}, {"main", "mid"}, {"c", "a"}});
  // Without mid, b's edge from main is residual: it skipped a dropped node.
  std::vector<bool> kept(g.nodes.size(), true);
  for (std::size_t n = 0; n < g.nodes.size(); ++n) kept[n] = g.nodes[n].name != "mid";
  bool found = false;
  for (const CallGraphEdge& e : kept_edges(p, g, 0, kept, 0)) {
    if (g.nodes[e.caller].name != "main" || g.nodes[e.callee].name != "b") continue;
    found = true;
    CHECK(e.weight == k * 3);
    CHECK(e.residual);
  }
  CHECK(found);
}

TEST_CASE("call graph: edges among every node kept are the graph's own, whichever index counts them") {
  // kept_edges() indexes the pairs of a few thousand kept nodes in a table
  // and falls back to a hash map past that; build_call_graph() always uses
  // the map. With every node kept and nothing skipped, both must give the
  // same edges, weights, flags and order: here with 300 functions (a table)
  // and with 3,000 (past it), over random stacks in two walked halves with
  // recursion and inlined frames.
  for (const int functions : {300, 3000}) {
    CAPTURE(functions);
    ProfileBuilder b(std::vector<ValueType>{{"samples", "count"}});
    std::vector<FrameId> frames;
    for (int f = 0; f < functions; ++f) {
      const FunctionId fn = b.function("f" + std::to_string(f));
      frames.push_back(b.frame(fn, f % 7 == 0 ? FrameKind::kInlined : FrameKind::kNative));
    }
    test::Lcg next(9);
    for (int i = 0; i < 70000; ++i) {
      std::vector<FrameId> stack;
      for (std::size_t d = 0, depth = 1 + next() % 12; d < depth; ++d)
        stack.push_back(frames[next() % (d < 2 ? 5 : static_cast<std::size_t>(functions))]);
      std::vector<std::int64_t> v{static_cast<std::int64_t>(1 + next() % 9)};
      b.add_sample(stack, v, {}, i);
    }
    Profile p = std::move(b).finish();
    CallGraphOptions o;
    o.edges = true;
    const CallGraph g = build_call_graph(p, o);
    const std::vector<bool> kept(g.nodes.size(), true);
    const std::vector<CallGraphEdge> edges = kept_edges(p, g, 0, kept, 0);
    REQUIRE(edges.size() == g.edges.size());
    CHECK(edges.size() > 10000);
    for (std::size_t e = 0; e < edges.size(); ++e) {
      CAPTURE(e);
      REQUIRE(edges[e].caller == g.edges[e].caller);
      REQUIRE(edges[e].callee == g.edges[e].callee);
      REQUIRE(edges[e].weight == g.edges[e].weight);
      REQUIRE(edges[e].inlined == g.edges[e].inlined);
      CHECK(!edges[e].residual);
    }
  }
}

TEST_CASE("call graph: code without symbols is one node per module, per address only by address") {
  // As pprof's NodeInfo for locations without lines: "[module]" (the base
  // name of its file), "<unknown>" without one; with addresses, each its own.
  ProfileBuilder b(std::vector<ValueType>{{"samples", "count"}});
  const StringId app = b.intern("/usr/bin/app"), libc = b.intern("/lib/libc.so.6");
  auto at = [&](const char* name, std::uint64_t address, StringId module) {
    return b.frame(b.function(name), FrameKind::kUnsymbolized, 0, address, module);
  };
  const FrameId main1 = at("app+0x10", 0x400010, app), main2 = at("app+0x20", 0x400020, app);
  const FrameId memcpy = at("libc.so.6+0x99", 0x7f0099, libc), lost = at("0xdead", 0xdead, StringId{});
  b.add_sample(std::vector<FrameId>{main1, main2, memcpy}, std::vector<std::int64_t>{3});
  b.add_sample(std::vector<FrameId>{main1, lost}, std::vector<std::int64_t>{2});
  b.add_sample(std::vector<FrameId>{main2}, std::vector<std::int64_t>{1});
  const Profile p = std::move(b).finish();
  for (Granularity g : {Granularity::kFunction, Granularity::kLine}) {
    CallGraphOptions o;
    o.granularity = g;
    const CallGraph graph = build_call_graph(p, o);
    REQUIRE(graph.nodes.size() == 3);
    CHECK(node(graph, "[app]").flat == 1);
    CHECK(node(graph, "[app]").cum == 6);  // once per sample, though twice on the first
    CHECK(node(graph, "[libc.so.6]").flat == 3);
    CHECK(node(graph, "<unknown>").flat == 2);
    CHECK(edge(graph, "[app]", "[libc.so.6]") == 3);
  }
  CallGraphOptions o;
  o.granularity = Granularity::kAddress;
  const CallGraph graph = build_call_graph(p, o);
  CHECK(graph.nodes.size() == 4);
  CHECK(node(graph, "0000000000400020 [app]").flat == 1);
  CHECK(node(graph, "0000000000400020 [app]").cum == 4);
  CHECK(node(graph, "000000000000dead <unknown>").flat == 2);
  // Per function the frames keep their module, so the grouping survives
  // at_granularity() (the collapsed and flame graph views keep their names).
  const Profile coarse = at_granularity(p, Granularity::kFunction);
  CHECK(build_call_graph(coarse, {}).nodes.size() == 3);
  CHECK(coarse.frame_name(coarse.stack(coarse.sample(0).stack).frame) != "[app]");
}

namespace {

// The call graph's counts as their definition gives them: a walk up each
// valued sample's stack, in sample order, from its leaf (what the graph
// was computed by before it summed over the stack tree).
struct Walked {
  std::vector<std::int64_t> flat, cum;
  std::vector<CallGraphEdge> edges;  // in the order the walk meets them first
};

Walked walk_samples(const Profile& p, const CallGraph& g, const std::vector<bool>& kept) {
  Walked w;
  w.flat.assign(g.nodes.size(), 0);
  w.cum.assign(g.nodes.size(), 0);
  for (std::size_t i = 0; i < p.sample_count(); ++i) {
    const std::int64_t v = p.values(i)[0];
    if (v == 0) continue;
    std::vector<FrameId> path;  // leaf first
    for (StackId s = p.sample(i).stack; s != kRootStack; s = p.stack(s).parent)
      path.push_back(p.stack(s).frame);
    if (path.empty()) continue;
    w.flat[g.node_of_frame[path[0].index()]] += v;
    std::set<std::uint32_t> nodes;
    std::set<std::pair<std::uint32_t, std::uint32_t>> edges;
    std::uint32_t callee = kNoNode;
    bool callee_inlined = false, skipped = false;
    for (FrameId f : path) {
      const std::uint32_t n = g.node_of_frame[f.index()];
      if (nodes.insert(n).second) w.cum[n] += v;
      if (!kept[n]) {
        skipped = true;
        continue;
      }
      if (callee != kNoNode && callee != n && edges.insert({n, callee}).second) {
        auto it = std::find_if(w.edges.begin(), w.edges.end(),
                               [&](const CallGraphEdge& e) { return e.caller == n && e.callee == callee; });
        if (it == w.edges.end()) {
          w.edges.push_back({n, callee, v, callee_inlined, skipped});
        } else {
          it->weight += v;
          it->inlined = it->inlined && callee_inlined;
          it->residual = it->residual || skipped;
        }
      }
      callee = n;
      callee_inlined = p.frame(f).kind == FrameKind::kInlined;
      skipped = false;
    }
  }
  return w;
}

bool same_edges(const std::vector<CallGraphEdge>& a, const std::vector<CallGraphEdge>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].caller != b[i].caller || a[i].callee != b[i].callee || a[i].weight != b[i].weight ||
        a[i].inlined != b[i].inlined || a[i].residual != b[i].residual)
      return false;
  return true;
}

}  // namespace

TEST_CASE("call graph: summed over the stack tree, as a walk up every sample's stack counts (#36)") {
  // Random stacks over five functions, each called or inlined, so that
  // recursion (direct and through others) and edges met in several
  // places on one stack abound; values of both signs and zero, several
  // samples per stack (labels), in a random order.
  std::mt19937 random(36);
  for (int round = 0; round < 40; ++round) {
    CAPTURE(round);
    ProfileBuilder b(std::vector<ValueType>{{"samples", "count"}});
    std::vector<FrameId> frames;
    for (const char* name : {"a", "b", "c", "d", "e"}) {
      frames.push_back(b.frame(b.function(name)));
      frames.push_back(b.frame(b.function(name), FrameKind::kInlined));
    }
    const std::vector<LabelSetId> labels{LabelSetId{}, b.labels(std::vector<NamedLabel>{{"t", "1"}})};
    // From round 20 on, stacks share a prefix 2,000 frames deep: their
    // paths are some 100,000 frames in all over some 2,400 stacks, which
    // the graph sums over the tree rather than walks (walk_is_long).
    const bool deep = round >= 20;
    std::vector<FrameId> chain(deep ? 2000 : 0);
    for (FrameId& f : chain) f = frames[random() % frames.size()];
    for (int i = 0; i < (deep ? 100 : 60); ++i) {
      std::vector<FrameId> stack(chain.begin(), chain.begin() + (deep ? random() % chain.size() : 0));
      for (std::size_t k = random() % 9; k-- > 0;)
        stack.push_back(frames[random() % (round % 2 ? 4 : frames.size())]);
      const std::vector<std::int64_t> v{static_cast<std::int64_t>(random() % 7) - 2};
      b.add_sample(b.stack(stack), v, labels[random() % 2]);
    }
    Profile p = std::move(b).finish();
    CallGraphOptions o;
    o.edges = true;
    const CallGraph g = build_call_graph(p, o);
    std::vector<bool> kept(g.nodes.size(), true);
    const Walked all = walk_samples(p, g, kept);
    for (std::size_t n = 0; n < g.nodes.size(); ++n) {
      CHECK(g.nodes[n].flat == all.flat[n]);
      CHECK(g.nodes[n].cum == all.cum[n]);
    }
    CHECK(same_edges(g.edges, all.edges));
    CHECK(same_edges(kept_edges(p, g, 0, kept, 0), all.edges));
    // Some nodes dropped: residual edges across them.
    for (std::size_t n = 0; n < kept.size(); ++n) kept[n] = random() % 3 != 0;
    CHECK(same_edges(kept_edges(p, g, 0, kept, 0), walk_samples(p, g, kept).edges));
  }
}

TEST_CASE("call graph: kept_edges() takes the way build_call_graph() chose for its column (#37)") {
  // a;b;c once per depth from 1 to `depth`, on one chain: the walks up the
  // samples' stacks take depth * (depth + 1) / 2 steps over depth stacks.
  auto chain = [](int depth) {
    ProfileBuilder b(std::vector<ValueType>{{"samples", "count"}, {"cpu", "nanoseconds"}});
    std::vector<FrameId> frames;
    for (const char* name : {"a", "b", "c"}) frames.push_back(b.frame(b.function(name)));
    std::vector<FrameId> stack;
    for (int i = 0; i < depth; ++i) {
      stack.push_back(frames[i % 3]);
      b.add_sample(b.stack(stack), std::vector<std::int64_t>{1, 10});
    }
    return std::move(b).finish();
  };
  for (const int depth : {30, 3000}) {
    CAPTURE(depth);
    const Profile p = chain(depth);
    CallGraphOptions o;
    o.column = 1;
    CallGraph g = build_call_graph(p, o);
    CHECK(g.walked_column == 1);
    // 4,501,500 steps over 3,001 stacks: long; 465 over 31: not (the
    // threshold is 16 steps per stack and 4,096).
    CHECK(g.walks_long == (depth == 3000));
    const std::vector<bool> kept(g.nodes.size(), true);
    const std::vector<CallGraphEdge> edges = kept_edges(p, g, 1, kept, 0);
    // a -> b, b -> c and c -> a, each counted once per sample that holds it.
    REQUIRE(edges.size() == 3);
    CHECK(edges[0].weight == 10 * (depth - 1));  // a -> b: every sample but the first
    g.walks_long = !g.walks_long;                // the other way, taken because the graph says so
    CHECK(same_edges(kept_edges(p, g, 1, kept, 0), edges));
    g.walked_column = 0;  // another column: measured again, the same edges
    g.walks_long = !g.walks_long;
    CHECK(same_edges(kept_edges(p, g, 1, kept, 0), edges));
  }
}
