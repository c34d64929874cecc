#include "fg/call_tree.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>

#include "fg/builder.h"
#include "test_util.h"

using namespace fg;

namespace {
std::string name(const CallTree& t, StackId n) { return std::string(t.profile().frame_name(t.frame(n))); }
// Options that keep only nodes whose total (column 0) reaches `min_total`.
CallTreeOptions pruned_below(double min_total) {
  CallTreeOptions o;
  o.prune_column = 0;
  o.min_total = min_total;
  return o;
}
}  // namespace

TEST_CASE("call tree sums self and total per node") {
  Profile p = test::folded("main;a;b 3\nmain;a 2\nmain;c 5\nother 1\n");
  CallTree t(p);
  CHECK(t.total(kRootStack, 0) == 11);
  CHECK(t.self(kRootStack, 0) == 0);
  auto top = t.children(kRootStack);
  REQUIRE(top.size() == 2);
  StackId main = top[0];
  CHECK(name(t, main) == "main");
  CHECK(t.total(main, 0) == 10);
  CHECK(t.self(main, 0) == 0);
  auto kids = t.children(main);
  REQUIRE(kids.size() == 2);
  CHECK(name(t, kids[0]) == "a");
  CHECK(t.total(kids[0], 0) == 5);
  CHECK(t.self(kids[0], 0) == 2);
  CHECK(t.depth(kids[0]) == 2);
  CHECK(t.parent(kids[0]) == main);
}

TEST_CASE("siblings are ordered as flamegraph.pl sorts folded lines") {
  // "foo.bar;" < "foo;" bytewise ('.' < ';'), and "foo bar" < "foo": a name
  // that is a prefix of another sorts as if followed by ';'.
  Profile p = test::folded("r;foo 1\nr;foo.bar 1\nr;foo bar 1\nr;fop 1\nr;Zed 1\nr;foo_[k] 1\n");
  CallTree t(p);
  auto kids = t.children(t.children(kRootStack)[0]);
  std::vector<std::string> names;
  for (StackId k : kids) {
    names.push_back(name(t, k) + std::string(frame_kind_suffix(p.frame(t.frame(k)).kind)));
  }
  CHECK(names == std::vector<std::string>{"Zed", "foo bar", "foo.bar", "foo", "foo_[k]", "fop"});
}

TEST_CASE("labels merge away in the tree") {
  ProfileBuilder b(std::vector<ValueType>{{"samples", "count"}});
  StackId s = b.stack(kRootStack, b.frame("main"));
  std::vector<std::int64_t> one{1};
  b.add_sample(s, one, b.labels({Label{b.intern("thread"), b.intern("a")}}));
  b.add_sample(s, one, b.labels({Label{b.intern("thread"), b.intern("b")}}));
  Profile p = std::move(b).finish();
  CallTree t(p);
  CHECK(t.children(kRootStack).size() == 1);
  CHECK(t.self(s, 0) == 2);
}

TEST_CASE("a pruned tree indexes only wide nodes and keeps self exact") {
  Profile p = test::folded("main;a;b 3\nmain;a 2\nmain;c 1\nmain;d;e 1\nmain 4\n");
  CallTree t(p, pruned_below(2));
  StackId main = t.children(kRootStack)[0];
  auto kids = t.children(main);
  REQUIRE(kids.size() == 3);  // narrow c and d still take their places
  CHECK(name(t, kids[0]) == "a");
  CHECK(t.kept(kids[0]));
  CHECK(!t.kept(kids[2]));
  CHECK(t.children(kids[2]).empty());  // d's child e is not indexed
  CHECK(t.self(main, 0) == 4);
  CHECK(t.total(main, 0) == 11);
  CHECK(t.self(kids[0], 0) == 2);
  StackId c{static_cast<std::uint32_t>(p.stack_count())};
  for (const StackId s : id_range(StackId{1}, p.stack_count()))
    if (p.frame_name(p.stack(s).frame) == "c") c = s;
  REQUIRE(c.index() < p.stack_count());
  CHECK(!t.kept(c));
  CHECK(t.children(c).empty());
  CHECK(t.self(c, 0) == 1);  // still answered, the slow way
  CallTree full(p);
  CHECK(full.children(main).size() == 3);
  CHECK(full.kept(c));
}

TEST_CASE("a pruned tree that keeps few nodes finds their children through its index") {
  // 40 narrow leaves beside one wide path: fewer than a tenth of the nodes
  // are kept, so kept nodes are found through the hash map, not by id.
  std::string text = "main;hot;inner 100\n";
  for (int i = 0; i < 40; ++i) text += "main;cold" + std::to_string(i) + " 1\n";
  Profile p = test::folded(text);
  CallTree t(p, pruned_below(50));
  StackId main = t.children(kRootStack)[0];
  CHECK(t.total(main, 0) == 140);
  auto kids = t.children(main);
  REQUIRE(kids.size() == 41);
  StackId hot = kids.back();  // "hot" sorts after "cold..."
  CHECK(name(t, hot) == "hot");
  CHECK(t.kept(hot));
  REQUIRE(t.children(hot).size() == 1);
  CHECK(name(t, t.children(hot)[0]) == "inner");
  CHECK(!t.kept(kids[0]));
  CHECK(t.self(main, 0) == 0);
}

TEST_CASE("totals past 32 bits are exact, positive and negative") {
  // All values together pass 2^31, so the tree keeps 64-bit totals; one
  // value under it alone does not decide.
  Profile p = test::folded("main;a 3000000000\nmain;b 1\n");
  CallTree t(p);
  CHECK(t.total(kRootStack, 0) == 3000000001);
  CHECK(t.total(t.children(kRootStack)[0], 0) == 3000000001);
  Profile q = test::folded("main;a 2147483647\n");  // exactly 2^31 - 1: 32 bits suffice
  CHECK(CallTree(q).total(kRootStack, 0) == 2147483647);
  ProfileBuilder b(std::vector<ValueType>{{"samples", "count"}});
  std::vector<std::int64_t> big{-2000000000}, small{-1000000000};
  b.add_sample(b.stack(kRootStack, b.frame("x")), big);
  b.add_sample(b.stack(kRootStack, b.frame("y")), small);
  Profile r = std::move(b).finish();
  CHECK(CallTree(r).total(kRootStack, 0) == -3000000000);
}

TEST_CASE("nodes on a chain share their totals with the chain's end and list one child") {
  // Ids as the builder gives them: a=1 b=2 c=3 d=4 e=5 under the root, then
  // x=6 under b. a and d have only the next id as child and no sample: on
  // chains. b has the next id and x; c has the next id and a sample of its
  // own; e is a leaf: all stored.
  ProfileBuilder b(std::vector<ValueType>{{"samples", "count"}, {"cpu", "nanoseconds"}});
  const StackId a = b.stack(kRootStack, b.frame("a")), bb = b.stack(a, b.frame("b")),
                c = b.stack(bb, b.frame("c")), d = b.stack(c, b.frame("d")), e = b.stack(d, b.frame("e")),
                x = b.stack(bb, b.frame("x"));
  REQUIRE(std::vector<StackId>{a, bb, c, d, e, x} ==
          std::vector<StackId>{StackId{1}, StackId{2}, StackId{3}, StackId{4}, StackId{5}, StackId{6}});
  std::vector<std::int64_t> v_e{3, 30}, v_c{4, 40}, v_x{2, 20};
  b.add_sample(e, v_e);
  b.add_sample(c, v_c);
  b.add_sample(x, v_x);
  Profile p = std::move(b).finish();
  CallTree t(p);
  // Totals and selves, both columns: e 3, d 3, c 3+4, x 2, b 7+2, a 9,
  // root 9; only c, e and x have samples of their own.
  struct Want {
    StackId node;
    std::int64_t total, self;
  };
  const std::vector<Want> wants{{kRootStack, 9, 0}, {a, 9, 0}, {bb, 9, 0}, {c, 7, 4},
                                {d, 3, 0},          {e, 3, 3}, {x, 2, 2}};
  for (const Want& w : wants) {
    CAPTURE(w.node);
    CHECK(t.total(w.node, 0) == w.total);
    CHECK(t.total(w.node, 1) == w.total * 10);
    CHECK(t.self(w.node, 0) == w.self);
    CHECK(t.self(w.node, 1) == w.self * 10);
  }
  auto ids = [](ChildList l) { return std::vector<StackId>(l.begin(), l.end()); };
  CHECK(ids(t.children(kRootStack)) == std::vector<StackId>{a});
  CHECK(ids(t.children(a)) == std::vector<StackId>{bb});
  CHECK(ids(t.children(bb)) == std::vector<StackId>{c, x});
  CHECK(ids(t.children(c)) == std::vector<StackId>{d});
  CHECK(ids(t.children(d)) == std::vector<StackId>{e});
  CHECK(t.children(e).empty());
  CHECK(t.children(x).empty());
  // On a chain: a and d, each running to the next node that is not.
  for (StackId n : {kRootStack, a, bb, c, d, e, x}) CHECK(t.on_chain(n) == (n == a || n == d));
  CHECK(t.chain_end(a) == bb);
  CHECK(t.chain_end(d) == e);
  // A copied list still holds its one child.
  ChildList one = t.children(d);
  ChildList copy = one;
  CHECK(copy.size() == 1);
  CHECK(copy[0] == e);
  CHECK(std::vector<StackId>(copy.rbegin(), copy.rend()) == std::vector<StackId>{e});
}

TEST_CASE("a pruned tree cuts chains where they narrow") {
  // "main;a;b;c" is one chain over the root's first child; "main;x" makes
  // main stored. With min_total 5 the chain a-b-c (total 6) is kept whole,
  // x (total 1) is listed but not kept.
  Profile p = test::folded("main;a;b;c 6\nmain;x 1\n");
  CallTree t(p, pruned_below(5));
  StackId main = t.children(kRootStack)[0];
  auto kids = t.children(main);
  REQUIRE(kids.size() == 2);
  StackId node = kids[0];
  CHECK(!t.kept(kids[1]));
  for (const char* want : {"a", "b", "c"}) {
    CAPTURE(want);
    CHECK(name(t, node) == want);
    CHECK(t.kept(node));
    CHECK(t.total(node, 0) == 6);
    auto below = t.children(node);
    if (std::string(want) == "c") {
      CHECK(below.empty());
      CHECK(t.self(node, 0) == 6);
    } else {
      REQUIRE(below.size() == 1);
      CHECK(t.self(node, 0) == 0);
      node = below[0];
    }
  }
  CHECK(t.self(main, 0) == 0);
  CHECK(t.total(main, 0) == 7);
}

TEST_CASE("a chain of 200,000 frames has its leaf's total at every node") {
  ProfileBuilder b(std::vector<ValueType>{{"samples", "count"}});
  const FrameId f = b.frame("recurse");
  StackId s = kRootStack;
  for (int i = 0; i < 200000; ++i) s = b.stack(s, f);
  std::vector<std::int64_t> v{5};
  b.add_sample(s, v);
  Profile p = std::move(b).finish();
  CallTree t(p);
  StackId node = kRootStack;
  std::size_t depth = 0;
  for (;;) {
    REQUIRE(t.total(node, 0) == 5);
    auto kids = t.children(node);
    if (kids.empty()) break;
    REQUIRE(kids.size() == 1);
    CHECK(t.self(node, 0) == 0);
    node = kids[0];
    ++depth;
  }
  CHECK(depth == 200000);
  CHECK(node == s);
  CHECK(t.self(node, 0) == 5);
  // The whole chain is one run, across every 64-node word of its bits.
  CHECK(t.on_chain(kRootStack) == false);
  CHECK(t.chain_end(StackId{1}) == s);
  CHECK(t.chain_end(StackId{63}) == s);
  CHECK(t.chain_end(StackId{s.index() - 1}) == s);
}

TEST_CASE("a chain runs to the first node after it that branches, has a sample or ends") {
  // Random paths over a few names: chains of every length, ending at words'
  // edges and inside them. Each node on a chain must lead, through only
  // children, to its chain_end.
  ProfileBuilder b(std::vector<ValueType>{{"samples", "count"}});
  test::Lcg next(11);
  std::vector<FrameId> frames;
  for (const char* n : {"a", "b", "c", "d"}) frames.push_back(b.frame(n));
  std::vector<std::int64_t> v{1};
  for (int i = 0; i < 3000; ++i) {
    StackId s = kRootStack;
    for (std::size_t d = 0, depth = 1 + next() % 150; d < depth; ++d)
      s = b.stack(s, frames[next() % (d < 3 ? 4 : 2)]);
    b.add_sample(s, v);
  }
  Profile p = std::move(b).finish();
  CallTree t(p);
  std::size_t on_chain = 0;
  for (const StackId n : id_range<StackId>(p.stack_count())) {
    if (!t.on_chain(n)) continue;
    ++on_chain;
    StackId end = n;
    while (t.children(end).size() == 1 && t.self(end, 0) == 0 &&
           t.children(end)[0] == StackId{end.index() + 1} && t.on_chain(end))
      end = StackId{end.index() + 1};
    CAPTURE(n);
    CHECK(t.chain_end(n) == end);
    CHECK(!t.on_chain(end));
    CHECK(t.self(n, 0) == 0);
  }
  CHECK(on_chain > p.stack_count() / 2);
}

TEST_CASE("a tree large enough to sum on a second thread has the totals and children of one summed here") {
  // (and one made without totals, the same children)
  // 600,000 stacks (past the size where the totals are summed beside the
  // children lists) with random parents and samples; every node's total
  // and child count checked against a sum made here over parent links.
  std::mt19937 rng(5);
  ProfileBuilder b(std::vector<ValueType>{{"samples", "count"}, {"cpu", "nanoseconds"}});
  std::vector<FrameId> frames;
  for (int i = 0; i < 50; ++i) frames.push_back(b.frame("f" + std::to_string(i)));
  std::vector<StackId> made{kRootStack};
  while (made.size() < 600000) {
    const StackId parent = made[rng() % made.size()];
    const StackId s = b.stack(parent, frames[rng() % frames.size()]);
    if (s.index() == made.size()) made.push_back(s);
  }
  for (int i = 0; i < 200000; ++i) {
    std::vector<std::int64_t> v{1, static_cast<std::int64_t>(rng() % 1000)};
    b.add_sample(made[rng() % made.size()], v);
  }
  Profile p = std::move(b).finish();
  REQUIRE(p.stack_count() == 600000);
  std::vector<std::int64_t> want0(p.stack_count()), want1(p.stack_count());
  std::vector<std::size_t> kids(p.stack_count());
  for (std::size_t i = 0; i < p.sample_count(); ++i) {
    want0[p.sample(i).stack.index()] += p.values(i)[0];
    want1[p.sample(i).stack.index()] += p.values(i)[1];
  }
  for (auto s = static_cast<std::uint32_t>(p.stack_count()); s-- > 1;) {
    const std::uint32_t up = p.stack(StackId{s}).parent.index();
    want0[up] += want0[s];
    want1[up] += want1[s];
    ++kids[up];
  }
  CallTree t(p);
  std::size_t wrong = 0;
  for (const StackId s : id_range<StackId>(p.stack_count())) {
    if (t.total(s, 0) != want0[s.index()] || t.total(s, 1) != want1[s.index()] ||
        t.children(s).size() != kids[s.index()])
      ++wrong;
  }
  CHECK(wrong == 0);
  CHECK(t.total(kRootStack, 0) == 200000);

  // Without totals (CallTreeOptions::totals): the same children lists and chains.
  CallTreeOptions bare_options;
  bare_options.totals = false;
  const CallTree bare(p, bare_options);
  wrong = 0;
  for (const StackId s : id_range<StackId>(p.stack_count())) {
    const ChildList a = t.children(s), b = bare.children(s);
    if (!std::equal(a.begin(), a.end(), b.begin(), b.end()) || t.on_chain(s) != bare.on_chain(s) ||
        (t.on_chain(s) && t.chain_end(s) != bare.chain_end(s)))
      ++wrong;
  }
  CHECK(wrong == 0);
}

TEST_CASE("call tree: children_unsorted() lists what children() lists, without sorting it") {
  // main's children made in the order z, a, m, b; a chain (z;deep;deeper);
  // pruned, b (total 1) is not kept but stays among main's children.
  Profile p = test::folded("main;z;deep;deeper 3\nmain;a 2\nmain;m 5\nother 1\nmain;b 1\n");
  const auto names = [](const CallTree& t, ChildList kids) {
    std::vector<std::string> out;
    for (StackId k : kids) out.push_back(name(t, k));
    return out;
  };
  for (const std::optional<double> min : {std::optional<double>{}, std::optional<double>{2.0}}) {
    CAPTURE(min.has_value());
    const CallTree t(p, min ? pruned_below(*min) : CallTreeOptions{});
    const StackId main = t.children_unsorted(kRootStack)[0];
    REQUIRE(name(t, main) == "main");
    CHECK(names(t, t.children_unsorted(main)) == std::vector<std::string>{"z", "a", "m", "b"});  // id order
    for (const StackId n : id_range<StackId>(p.stack_count())) {
      const ChildList u = t.children_unsorted(n), c = t.children(n);
      std::vector<StackId> unsorted(u.begin(), u.end()), sorted(c.begin(), c.end());
      std::sort(unsorted.begin(), unsorted.end());
      std::sort(sorted.begin(), sorted.end());
      CHECK(unsorted == sorted);
    }
    // children() sorted main's list in place: that order stays.
    CHECK(names(t, t.children_unsorted(main)) == std::vector<std::string>{"a", "b", "m", "z"});
  }
}

TEST_CASE("call tree: frame ranks order frames as frame_before() does, and so the children") {
  // Prefixes, ' ' and ';' after a prefix, suffixes against names spelling
  // them, kinds without a suffix (equal text: id order), bytes from 0x80.
  const std::vector<NamedFrame> names = {{"a"},
                                         {"a", FrameKind::kCpp},
                                         {"a", FrameKind::kKernel},
                                         {"a_[k]"},
                                         {"a b"},
                                         {"a.b"},
                                         {"ab"},
                                         {""},
                                         {" "},
                                         {"a\xff"},
                                         {"\xc3\xa9"},
                                         {"a;"},
                                         {"a\t"},
                                         {"a", FrameKind::kLibrary},
                                         {"b"},
                                         {"Z"},
                                         {"a_"}};
  ProfileBuilder b(std::vector<ValueType>{{"samples", "count"}});
  // Every name under every name: each list sorts, so the tree ranks its
  // frames after the first few lists.
  for (const NamedFrame& up : names)
    for (const NamedFrame& leaf : names)
      b.add_sample(std::vector<NamedFrame>{up, leaf}, std::vector<std::int64_t>{1});
  const Profile p = std::move(b).finish();
  const FrameOrder order(p);
  REQUIRE(order.frames().size() == p.frame_count());
  for (const FrameId x : id_range<FrameId>(p.frame_count())) {
    CHECK(order.frames()[order.rank(x)] == x);
    for (const FrameId y : id_range<FrameId>(p.frame_count()))
      CHECK((order.rank(x) < order.rank(y)) == frame_before(p, x, y));
  }
  const CallTree t(p);
  for (const StackId n : t.children_unsorted(kRootStack)) {
    const ChildList kids = t.children(n);
    std::vector<StackId> want(kids.begin(), kids.end());
    std::sort(want.begin(), want.end(),
              [&](StackId x, StackId y) { return frame_before(p, t.frame(x), t.frame(y)); });
    CHECK(std::vector<StackId>(kids.begin(), kids.end()) == want);
  }
}
