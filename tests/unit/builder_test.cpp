#include "fg/builder.h"

#include <doctest/doctest.h>

#include <array>
#include <map>
#include <random>
#include <span>
#include <sstream>
#include <vector>

#include "fg/dump.h"
#include "fg/error.h"

using namespace fg;

namespace {
std::vector<ValueType> counts() { return {{"samples", "count"}}; }
}  // namespace

TEST_CASE("builder interns functions, frames and stacks") {
  ProfileBuilder b(counts());
  FrameId main = b.frame("main");
  FrameId foo = b.frame("foo");
  CHECK(b.frame("main") == main);
  CHECK(b.frame("main", FrameKind::kKernel) != main);  // the kind is part of a frame
  FunctionId fn = b.function("bar", "_Z3barv", "bar.cc", 10);
  CHECK(b.function("bar", "_Z3barv", "bar.cc", 10) == fn);
  CHECK(b.function("bar") != fn);
  CHECK(b.frame(fn, FrameKind::kNative, 12) == b.frame(fn, FrameKind::kNative, 12));
  CHECK(b.frame(fn, FrameKind::kNative, 12) != b.frame(fn, FrameKind::kNative, 13));

  StackId s1 = b.stack(std::vector<FrameId>{main, foo});
  StackId s2 = b.stack(std::vector<FrameId>{main, foo});
  CHECK(s1 == s2);
  Profile p = std::move(b).finish();
  CHECK(p.depth(s1) == 2);
  CHECK(p.depth(kRootStack) == 0);
  CHECK(p.stack(s1).parent < s1);
  CHECK(p.frame_name(p.stack(s1).frame) == "foo");
}

TEST_CASE("stacks created out of order are found again, never duplicated") {
  // The builder leaves the child of its newest node out of its hash map until
  // something looks under that node: exercise exactly that.
  ProfileBuilder b(counts());
  FrameId a = b.frame("a"), x = b.frame("x"), c = b.frame("c"), d = b.frame("d");
  StackId abc = b.stack(std::vector<FrameId>{a, x, c});
  StackId abd = b.stack(std::vector<FrameId>{a, x, d});
  StackId a_only = b.stack(std::vector<FrameId>{a});
  CHECK(b.stack(std::vector<FrameId>{a, x, c}) == abc);
  CHECK(b.stack(std::vector<FrameId>{a, x, d}) == abd);
  CHECK(b.stack(std::vector<FrameId>{a}) == a_only);
  CHECK(b.stack_count() == 5);  // root, a, a;x, a;x;c, a;x;d
  // A chain of fresh nodes, then lookups from its middle.
  StackId deep = kRootStack;
  for (int i = 0; i < 100; ++i) deep = b.stack(deep, b.frame("f" + std::to_string(i)));
  StackId again = kRootStack;
  for (int i = 0; i < 100; ++i) again = b.stack(again, b.frame("f" + std::to_string(i)));
  CHECK(again == deep);
  CHECK(b.stack_count() == 105);
}

TEST_CASE("every stack keeps its parent and frame, however the tree grew") {
  // The stack table keeps a parent only when it is not the node made just
  // before: grow a tree of 5,000 nodes that mixes both, over many 64-node
  // words, and ask for every node's parent and frame.
  ProfileBuilder b(counts());
  std::mt19937 rng(7);
  std::vector<FrameId> frames;
  for (int i = 0; i < 50; ++i) frames.push_back(b.frame("f" + std::to_string(i)));
  std::vector<StackId> parent_of{kRootStack};
  std::vector<FrameId> frame_of{FrameId{}};
  std::size_t jumps = 0;
  while (parent_of.size() < 5000) {
    // Mostly extend the newest node (runs of chain), else branch anywhere.
    const StackId newest = static_cast<StackId>(parent_of.size() - 1);
    const StackId up = rng() % 4 != 0 ? newest : static_cast<StackId>(rng() % parent_of.size());
    const FrameId f = frames[rng() % frames.size()];
    const std::size_t before = b.stack_count();
    const StackId s = b.stack(up, f);
    if (b.stack_count() == before) continue;  // that child existed already
    REQUIRE(s.index() == parent_of.size());
    parent_of.push_back(up);
    frame_of.push_back(f);
    if (up.index() != s.index() - 1) ++jumps;
  }
  CHECK(jumps > 500);
  CHECK(jumps < 2000);
  Profile p = std::move(b).finish();
  REQUIRE(p.stack_count() == parent_of.size());
  CHECK(p.parent(kRootStack) == kRootStack);
  for (const StackId s : id_range(StackId{1}, p.stack_count())) {
    CAPTURE(s);
    REQUIRE(p.stack(s).parent == parent_of[s.index()]);
    REQUIRE(p.parent(s) == parent_of[s.index()]);
    REQUIRE(p.stack(s).frame == frame_of[s.index()]);
  }
}

TEST_CASE("PrefixStacks gives the ids ProfileBuilder::stack gives, whatever the previous stack was") {
  ProfileBuilder b(counts());
  const FrameId m = b.frame("main"), a = b.frame("a"), c = b.frame("c"), d = b.frame("d");
  // A deeper stack, a sibling, a prefix of the one before, the same again,
  // the empty stack, a recursion, and one that shares nothing.
  const std::vector<std::vector<FrameId>> stacks = {{m, a, c}, {m, a, d}, {m, a}, {m, a},
                                                    {},        {m, m, m}, {d, c}, {m, a, c, d}};
  PrefixStacks prefix(b);
  std::vector<StackId> ids;
  for (const auto& s : stacks) ids.push_back(prefix.stack(s));
  for (std::size_t i = 0; i < stacks.size(); ++i) {
    CAPTURE(i);
    CHECK(ids[i] == b.stack(stacks[i]));
  }
  CHECK(ids[4] == kRootStack);
  CHECK(ids[2] == ids[3]);
  // root; m, m.a, m.a.c, m.a.d; m.m, m.m.m; d, d.c; m.a.c.d
  CHECK(b.stack_count() == 10);
}

TEST_CASE("samples with equal stack and labels merge, timestamps keep them apart") {
  ProfileBuilder b({{"samples", "count"}, {"cpu", "nanoseconds"}});
  StackId s = b.stack(kRootStack, b.frame("main"));
  LabelSetId t1 = b.labels({Label{b.intern("thread"), b.intern("t1")}});
  LabelSetId t1_again = b.labels({Label{b.intern("thread"), b.intern("t1")}});
  CHECK(t1 == t1_again);
  std::vector<std::int64_t> v{1, 10};
  b.add_sample(s, v);
  b.add_sample(s, v);
  b.add_sample(s, v, t1);
  b.add_sample(s, v, {}, 1000);
  b.add_sample(s, v, {}, 1000);
  Profile p = std::move(b).finish();
  REQUIRE(p.sample_count() == 4);
  CHECK(p.values(0)[0] == 2);
  CHECK(p.values(0)[1] == 20);
  CHECK(p.sample(1).labels == t1);
  CHECK(p.sample(2).timestamp == 1000);
  CHECK(p.totals() == std::vector<std::int64_t>{5, 50});
}

TEST_CASE(
    "samples with and without labels, in any mix, merge as one map of (stack, labels) would merge them") {
  // Unlabeled samples are found by their stack in a table, labeled ones by
  // a hash: 20,000 random samples over 300 stacks, a third with one of two
  // label sets, some stacks made after samples of others, some timestamped.
  // Expected: one sample per (stack, labels) in the order of its first
  // untimed add, every timed add its own, counted here with a std::map.
  ProfileBuilder b(counts());
  const LabelSetId t1 = b.labels({Label{b.intern("thread"), b.intern("t1")}});
  const LabelSetId t2 = b.labels({Label{b.intern("thread"), b.intern("t2")}});
  std::vector<StackId> stacks;
  std::mt19937 rng(5);
  struct Expected {
    StackId stack;
    LabelSetId labels;
    std::int64_t timestamp;
    std::int64_t value;
  };
  std::vector<Expected> expected;
  std::map<std::pair<StackId, LabelSetId>, std::size_t> first;
  for (int i = 0; i < 20000; ++i) {
    if (stacks.size() < 300 && (stacks.empty() || rng() % 50 == 0)) {
      const StackId parent = stacks.empty() ? kRootStack : stacks[rng() % stacks.size()];
      stacks.push_back(b.stack(parent, b.frame("f" + std::to_string(stacks.size()))));
    }
    const StackId s = stacks[rng() % stacks.size()];
    const LabelSetId labels = std::array{LabelSetId{0}, LabelSetId{0}, t1, t2}[rng() % 4];
    const std::int64_t value = 1 + static_cast<std::int64_t>(rng() % 9);
    const std::int64_t timestamp = rng() % 10 == 0 ? i : kNoTimestamp;
    b.add_sample(s, std::vector<std::int64_t>{value}, labels, timestamp);
    if (timestamp != kNoTimestamp) {
      expected.push_back({s, labels, timestamp, value});
      continue;
    }
    auto [at, added] = first.try_emplace({s, labels}, expected.size());
    if (added) expected.push_back({s, labels, timestamp, 0});
    expected[at->second].value += value;
  }
  const Profile p = std::move(b).finish();
  REQUIRE(p.sample_count() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    CAPTURE(i);
    CHECK(p.sample(i).stack == expected[i].stack);
    CHECK(p.sample(i).labels == expected[i].labels);
    CHECK(p.sample(i).timestamp == expected[i].timestamp);
    CHECK(p.values(i)[0] == expected[i].value);
  }
}

TEST_CASE("a sample with the wrong number of values is refused") {
  ProfileBuilder b(counts());
  std::vector<std::int64_t> two{1, 2};
  CHECK_THROWS_WITH_AS(b.add_sample(kRootStack, two), "sample has 2 values, the profile has 1 columns",
                       Error);
  CHECK_THROWS_AS(ProfileBuilder({}), Error);
}

TEST_CASE("label sets are sorted by key") {
  ProfileBuilder b(counts());
  LabelSetId l1 = b.labels({Label{b.intern("z"), b.intern("1")}, Label{b.intern("a"), b.intern("2")}});
  LabelSetId l2 = b.labels({Label{b.intern("a"), b.intern("2")}, Label{b.intern("z"), b.intern("1")}});
  CHECK(l1 == l2);
  Profile p = std::move(b).finish();
  CHECK(p.str(p.labels(l1)[0].key) == "a");
}

TEST_CASE("value columns are found by name, type/unit or index") {
  ProfileBuilder b({{"alloc_objects", "count"}, {"alloc_space", "bytes"}, {"inuse_space", "bytes"}});
  b.metadata().default_value = "alloc_space";
  Profile p = std::move(b).finish();
  CHECK(p.default_value_index() == 1);
  CHECK(p.find_value("inuse_space") == 2);
  CHECK(p.find_value("alloc_objects/count") == 0);
  CHECK(p.find_value("2") == 2);
  CHECK_THROWS_WITH_AS(p.find_value("cpu"),
                       "--value 'cpu' names no value column; the profile has 0: alloc_objects/count, "
                       "1: alloc_space/bytes, 2: inuse_space/bytes",
                       UsageError);
}

TEST_CASE("a new column knows its base") {
  ProfileBuilder b({{"samples", "count", ValueRole::kBase}, {"samples", "count", ValueRole::kNew}});
  Profile p = std::move(b).finish();
  CHECK(p.default_value_index() == 1);
  CHECK(p.base_of(1) == std::optional<std::size_t>(0));
  CHECK(!p.base_of(0).has_value());
}

TEST_CASE("frame kind suffixes") {
  CHECK(frame_kind_suffix(FrameKind::kKernel) == "_[k]");
  CHECK(frame_kind_from_suffix("_[j]") == FrameKind::kJit);
  CHECK(frame_kind_from_suffix("_[i]") == FrameKind::kInlined);
  CHECK(frame_kind_from_suffix("_[w]") == FrameKind::kWaker);
  CHECK(!frame_kind_from_suffix("_[x]").has_value());
  CHECK(frame_kind_suffix(FrameKind::kInterpreted) == "_[0]");
  CHECK(frame_kind_suffix(FrameKind::kC1Compiled) == "_[1]");
  CHECK(frame_kind_from_suffix("_[0]") == FrameKind::kInterpreted);
  CHECK(frame_kind_suffix(FrameKind::kCpp).empty());
}

TEST_CASE("add_sample by names: the profile the id-based calls make") {
  // A reader written only with the simple path, and the same input pushed
  // through intern/function/frame/stack/labels: the same ids, the same
  // samples (merged the same way), the same dump.
  const std::vector<std::vector<NamedFrame>> stacks{
      {"main", "parse", {"read", FrameKind::kKernel}},
      {"main", "parse"},
      {"main", {"parse", FrameKind::kInlined}},
      {"main", "parse", {"read", FrameKind::kKernel}},  // merges with the first
      {},                                               // the root alone
  };
  const std::vector<std::vector<NamedLabel>> labels{{{"thread", "main"}, {"bytes", 64, "bytes"}},
                                                    {},
                                                    {{"thread", "io"}},
                                                    {{"bytes", 64, "bytes"}, {"thread", "main"}},
                                                    {}};
  ProfileBuilder simple({{"samples", "count"}, {"cpu", "nanoseconds"}});
  for (std::size_t i = 0; i < stacks.size(); ++i) {
    const std::vector<std::int64_t> v{1, static_cast<std::int64_t>(10 * (i + 1))};
    simple.add_sample(stacks[i], v, labels[i]);
  }
  simple.add_sample(stacks[1], std::vector<std::int64_t>{1, 5}, {}, 1000);  // timed: its own sample

  ProfileBuilder ids({{"samples", "count"}, {"cpu", "nanoseconds"}});
  const FrameId main = ids.frame(ids.function("main")), parse = ids.frame(ids.function("parse"));
  const FrameId read = ids.frame(ids.function("read"), FrameKind::kKernel);
  const FrameId parse_inlined = ids.frame(ids.function("parse"), FrameKind::kInlined);
  Label thread_main{ids.intern("thread"), ids.intern("main")},
      thread_io{ids.intern("thread"), ids.intern("io")};
  Label bytes{ids.intern("bytes"), {}, 64, ids.intern("bytes"), true};
  const std::vector<std::vector<FrameId>> id_stacks{
      {main, parse, read}, {main, parse}, {main, parse_inlined}, {main, parse, read}, {}};
  const std::vector<LabelSetId> id_labels{ids.labels({thread_main, bytes}), LabelSetId{},
                                          ids.labels({thread_io}), ids.labels({bytes, thread_main}),
                                          LabelSetId{}};
  for (std::size_t i = 0; i < id_stacks.size(); ++i) {
    const std::vector<std::int64_t> v{1, static_cast<std::int64_t>(10 * (i + 1))};
    ids.add_sample(ids.stack(id_stacks[i]), v, id_labels[i]);
  }
  ids.add_sample(ids.stack(id_stacks[1]), std::vector<std::int64_t>{1, 5}, {}, 1000);

  const Profile a = std::move(simple).finish(), b = std::move(ids).finish();
  CHECK(a.stack_count() == b.stack_count());
  CHECK(a.frame_count() == b.frame_count());
  CHECK(a.label_set_count() == b.label_set_count());
  REQUIRE(a.sample_count() == 5);  // the 4th merged into the 1st; the timed one apart
  REQUIRE(b.sample_count() == 5);
  for (std::size_t i = 0; i < a.sample_count(); ++i) {
    CHECK(a.sample(i).stack == b.sample(i).stack);
    CHECK(a.sample(i).labels == b.sample(i).labels);
    CHECK(a.sample(i).timestamp == b.sample(i).timestamp);
    CHECK(std::vector<std::int64_t>(a.values(i).begin(), a.values(i).end()) ==
          std::vector<std::int64_t>(b.values(i).begin(), b.values(i).end()));
  }
  CHECK(a.values(0)[1] == 10 + 40);
  std::ostringstream da, db;
  dump_profile(a, da);
  dump_profile(b, db);
  CHECK(da.str() == db.str());
  // What the dump says, checked by hand: kinds kept as fields, labels sorted by key.
  CHECK(da.str().find("main;parse;read [kernel] | 2 50 | bytes=64[bytes] thread=\"main\"") !=
        std::string::npos);
  CHECK(da.str().find("main;parse [inlined] | 1 30 | thread=\"io\"") != std::string::npos);
}
