#include <doctest/doctest.h>

#include "fg/builder.h"
#include "fg/call_tree.h"
#include "test_util.h"

using namespace fg;

namespace {
std::string name(const CallTree& t, StackId n) { return std::string(t.profile().frame_name(t.frame(n))); }
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
  CallTreeOptions o;
  o.prune_column = 0;
  o.min_total = 2;
  CallTree t(p, o);
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
  StackId c = p.stack_count();
  for (StackId s = 1; s < p.stack_count(); ++s)
    if (p.frame_name(p.stack(s).frame) == "c") c = s;
  REQUIRE(c < p.stack_count());
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
  CallTreeOptions o;
  o.prune_column = 0;
  o.min_total = 50;
  CallTree t(p, o);
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
