#include "fg/flame_layout.h"

#include <doctest/doctest.h>

#include "fg/builder.h"
#include "test_util.h"

using namespace fg;

namespace {
struct Box {
  std::string name;
  std::uint32_t depth;
  std::int64_t start, width;
  bool operator==(const Box&) const = default;
};
std::vector<Box> boxes(const CallTree& t, const FlameLayout& l) {
  std::vector<Box> out;
  for (const FlameRect& r : l.rects)
    out.push_back({r.node != kRootStack ? std::string(t.profile().frame_name(t.frame(r.node))) : "all",
                   r.depth, r.start, r.width});
  return out;
}
}  // namespace

TEST_CASE("a frame's own value comes before its children") {
  Profile p = test::folded("a 2\na;b 3\na;c 1\n");
  CallTree t(p);
  FlameLayout l = layout_flame(t, {});
  CHECK(l.total == 6);
  CHECK(l.max_depth == 2);
  CHECK(boxes(t, l) == std::vector<Box>{{"all", 0, 0, 6}, {"a", 1, 0, 6}, {"b", 2, 2, 3}, {"c", 2, 5, 1}});
}

TEST_CASE("narrow frames are dropped with everything above them") {
  Profile p = test::folded("a;b;c 1\na;d 9\n");
  CallTree t(p);
  FlameLayoutOptions o;
  o.min_width = 1.5;
  FlameLayout l = layout_flame(t, o);
  CHECK(boxes(t, l) == std::vector<Box>{{"all", 0, 0, 10}, {"a", 1, 0, 10}, {"d", 2, 1, 9}});
  CHECK(l.max_depth == 2);
}

TEST_CASE("a flame chart keeps input order and merges only neighbours") {
  Profile p = test::folded("a;b 1\nc 2\na;e 3\na;d 1\n");
  CallTree t(p);
  FlameLayoutOptions o;
  o.chart = true;
  FlameLayout l = layout_flame(t, o);
  CHECK(boxes(t, l) == std::vector<Box>{{"all", 0, 0, 7},
                                        {"a", 1, 0, 1},
                                        {"b", 2, 0, 1},
                                        {"c", 1, 1, 2},
                                        {"a", 1, 3, 4},
                                        {"e", 2, 3, 3},
                                        {"d", 2, 6, 1}});
}

TEST_CASE("a flame chart draws a repeated untimed stack where it first appeared") {
  Profile p = test::folded("a 1\nb 1\na 1\n");
  CallTree t(p);
  FlameLayoutOptions o;
  o.chart = true;
  CHECK(boxes(t, layout_flame(t, o)) == std::vector<Box>{{"all", 0, 0, 3}, {"a", 1, 0, 2}, {"b", 1, 2, 1}});
}

TEST_CASE("a flame chart orders timed samples by their timestamps") {
  ProfileBuilder b(std::vector<ValueType>{{"samples", "count"}});
  std::vector<std::int64_t> one{1};
  StackId x = b.stack(kRootStack, b.frame("x")), y = b.stack(kRootStack, b.frame("y"));
  b.add_sample(y, one, {}, 20);
  b.add_sample(x, one, {}, 10);
  b.add_sample(x, one, {}, 30);
  Profile p = std::move(b).finish();
  CallTree t(p);
  FlameLayoutOptions o;
  o.chart = true;
  CHECK(boxes(t, layout_flame(t, o)) ==
        std::vector<Box>{{"all", 0, 0, 3}, {"x", 1, 0, 1}, {"y", 1, 1, 1}, {"x", 1, 2, 1}});
}

TEST_CASE("differential layout: widths from the new column, colour from the own delta") {
  Profile p = test::folded("a 5 2\na;b 1 4\n");
  CallTree t(p);
  FlameLayoutOptions o;
  o.column = 1;
  FlameLayout l = layout_flame(t, o);
  REQUIRE(l.diff);
  CHECK(l.total == 6);
  CHECK(l.max_abs_delta == 3);
  REQUIRE(l.rects.size() == 3);
  CHECK(l.rects[1].self_delta == -3);  // a: 5 -> 2
  CHECK(l.rects[2].self_delta == 3);   // b: 1 -> 4
}
