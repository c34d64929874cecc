#include "fg/merge.h"

#include <doctest/doctest.h>

#include <vector>

#include "fg/builder.h"
#include "fg/call_tree.h"
#include "fg/flame_layout.h"
#include "fg/granularity.h"
#include "fg/reverse.h"
#include "test_util.h"

using namespace fg;

TEST_CASE("merge adds samples of equal stacks and keeps every source") {
  std::vector<Profile> ps;
  ps.push_back(test::folded("main;a 3\nmain;b 1\n", nullptr, false, "one.folded"));
  ps.push_back(test::folded("main;a 2\nmain;c 4\n", nullptr, false, "two.folded"));
  Profile m = merge(ps);
  CHECK(test::collapsed(m) == "main;a 5\nmain;b 1\nmain;c 4\n");
  CHECK(m.metadata().sources == std::vector<std::string>{"one.folded", "two.folded"});
  CHECK(m.metadata().source_format == "collapsed");
}

TEST_CASE("merge matches columns by type and unit") {
  ProfileBuilder a(std::vector<ValueType>{{"cpu", "nanoseconds"}});
  std::vector<std::int64_t> v{7};
  a.add_sample(a.stack(kRootStack, a.frame("f")), v);
  ProfileBuilder b({{"samples", "count"}, {"cpu", "nanoseconds"}});
  std::vector<std::int64_t> w{1, 3};
  b.add_sample(b.stack(kRootStack, b.frame("f")), w);
  std::vector<Profile> ps;
  ps.push_back(std::move(a).finish());
  ps.push_back(std::move(b).finish());
  Profile m = merge(ps);
  REQUIRE(m.value_count() == 2);
  CHECK(m.value_types()[0].type == "cpu");
  CHECK(m.value_types()[1].type == "samples");
  CHECK(m.totals() == std::vector<std::int64_t>{10, 1});
  CHECK_THROWS_AS(merge(std::span<const Profile>()), Error);
}

TEST_CASE("reverse turns stacks leaf-first") {
  Profile p = test::folded("main;a;b 3\nmain;c;b 2\n");
  CHECK(test::collapsed(reverse_stacks(p)) == "b;a;main 3\nb;c;main 2\n");
}

TEST_CASE("reverse for a view of wide frames ends each path at its first narrow node") {
  Profile p = test::folded("main;a;b 3\nmain;c;b 2\nx;y;z 1\n");
  // b is 5 wide, b;a 3 and b;a;main 3: kept whole. b;c (2) and z (1) are
  // under 2.5: each kept, with its whole total, as the end of its path.
  CHECK(test::collapsed(reverse_stacks(p, 0, 2.5)) == "b;a;main 3\nb;c 2\nz 1\n");
  CHECK(test::collapsed(reverse_stacks(p, 0, 0)) == test::collapsed(reverse_stacks(p)));
}

namespace {

// The frames a flame graph of `p` reversed draws at `min_width`: name,
// depth, start and width of each, in drawing order.
std::string drawn_reversed(const Profile& p, double min_width, bool cut) {
  const Profile r = cut ? reverse_stacks(p, 0, min_width) : reverse_stacks(p);
  CallTreeOptions o;
  o.prune_column = 0;
  o.min_total = min_width;
  const CallTree tree(r, o);
  std::string out;
  for (const FlameRect& f : layout_flame(tree, {.column = 0, .min_width = min_width}).rects)
    out += std::string(f.node == kRootStack ? "all" : r.frame_name(tree.frame(f.node))) + " " +
           std::to_string(f.depth) + " " + std::to_string(f.start) + " " + std::to_string(f.width) + "\n";
  return out;
}

}  // namespace

TEST_CASE("reverse for a view of wide frames draws what the whole reversal draws") {
  test::Lcg next(7);
  std::string text;
  for (int i = 0; i < 400; ++i) {
    const std::size_t depth = 1 + next() % 12;
    std::string stack = "main";
    for (std::size_t d = 0; d < depth; ++d) stack += ";f" + std::to_string(next() % 9);
    text += stack + " " + std::to_string(1 + next() % 50) + "\n";
  }
  const Profile p = test::folded(text);
  for (const double min_width : {1.0, 40.0, 300.0, 2000.0}) {
    CAPTURE(min_width);
    const std::string whole = drawn_reversed(p, min_width, false);
    CHECK(whole.find("\n") != std::string::npos);
    CHECK(drawn_reversed(p, min_width, true) == whole);
  }
  // The cut leaves out what is narrow: fewer stacks than the whole reversal.
  CHECK(reverse_stacks(p, 0, 300.0).stack_count() < reverse_stacks(p).stack_count() / 4);
}

TEST_CASE("merge refuses to mix a differential profile with a plain one") {
  std::vector<Profile> ps;
  ps.push_back(test::folded("a;b 5\n", nullptr, false, "plain.folded"));
  ps.push_back(test::folded("a;b 1 2\n", nullptr, false, "diff.folded"));
  CHECK_THROWS_WITH_AS(merge(ps),
                       "cannot merge the differential profile diff.folded (base and new columns) with "
                       "plain.folded; compare profiles with fg-diff instead",
                       Error);
}

TEST_CASE("granularity: lines and addresses fold away for function views") {
  ProfileBuilder b(std::vector<ValueType>{{"samples", "count"}});
  FunctionId f = b.function("f", "", "f.go");
  FrameId main = b.frame("main");
  std::vector<std::int64_t> one{1}, two{2};
  b.add_sample(std::vector<FrameId>{main, b.frame(f, FrameKind::kNative, 10, 0x10)}, one);
  b.add_sample(std::vector<FrameId>{main, b.frame(f, FrameKind::kNative, 12, 0x20)}, two);
  b.add_sample(std::vector<FrameId>{main, b.frame(f, FrameKind::kInlined, 12, 0x30)}, one);
  Profile p = std::move(b).finish();
  CHECK(finer_than(p, Granularity::kFunction));
  CHECK(finer_than(p, Granularity::kLine));
  CHECK(!finer_than(p, Granularity::kAddress));
  Profile by_function = at_granularity(p, Granularity::kFunction);
  CHECK(!finer_than(by_function, Granularity::kFunction));
  CHECK(test::dump_samples(by_function) ==
        "samples: 2\n"
        "main;f [inlined] | 1\n"
        "main;f | 3\n");
  CHECK(test::dump_samples(at_granularity(p, Granularity::kLine)) ==
        "samples: 3\n"
        "main;f (f.go:10) | 1\n"
        "main;f (f.go:12) | 2\n"
        "main;f [inlined] (f.go:12) | 1\n");
  CHECK(by_function.totals() == p.totals());
}

TEST_CASE("granularity: per function, one name from two source files (two builds) is one frame") {
  // As a folded line names it: what a flame graph of two builds draws.
  ProfileBuilder b(std::vector<ValueType>{{"samples", "count"}});
  FrameId main = b.frame("main");
  FrameId old_f = b.frame(b.function("f", "", "/build/1/f.go", 10));
  FrameId new_f =
      b.frame(b.function("f", "", "/build/2/f.go", 12), FrameKind::kNative, 0, 0, b.intern("/bin/v2"));
  b.add_sample(std::vector<FrameId>{main, old_f}, std::vector<std::int64_t>{1});
  b.add_sample(std::vector<FrameId>{main, new_f}, std::vector<std::int64_t>{2});
  Profile p = std::move(b).finish();
  CHECK(finer_than(p, Granularity::kFunction));
  Profile by_function = at_granularity(p, Granularity::kFunction);
  CHECK(!finer_than(by_function, Granularity::kFunction));
  CHECK(test::dump_samples(by_function) == "samples: 1\nmain;f | 3\n");
  CHECK(test::dump_samples(at_granularity(p, Granularity::kLine)) ==
        "samples: 2\nmain;f (/build/1/f.go) | 1\nmain;f (/build/2/f.go) | 2\n");
}
