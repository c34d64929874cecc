// No flame graph geometry from negative values: the layout and the SVG and
// HTML writers refuse a column (or its base) with a negative sample.
#include <doctest/doctest.h>

#include <sstream>

#include "fg/builder.h"
#include "fg/delta_sides.h"
#include "fg/error.h"
#include "fg/flame_layout.h"
#include "formats/html/flamegraph_html.h"
#include "formats/svg/flamegraph.h"
#include "test_util.h"

using namespace fg;

namespace {

// a;b -3, a;c 5: a hand-made signed profile that is no diff (one plain column).
Profile signed_profile() {
  ProfileBuilder b(std::vector<ValueType>{{"samples", "count"}});
  b.metadata().sources = {"hand.pb"};
  const FrameId fa = b.frame("a"), fb = b.frame("b"), fc = b.frame("c");
  b.add_sample(std::vector<FrameId>{fa, fb}, std::vector<std::int64_t>{-3});
  b.add_sample(std::vector<FrameId>{fa, fc}, std::vector<std::int64_t>{5});
  return std::move(b).finish();
}

const char* kRefusal =
    "hand.pb: 1 samples have negative values in column 'samples', which a flame graph cannot "
    "draw as widths; compare two profiles with fg-diff BASE NEW";

}  // namespace

TEST_CASE("negative values: the flame layout refuses them rather than lay out negative widths") {
  const Profile p = signed_profile();
  CallTree t(p);
  CHECK_THROWS_WITH_AS(layout_flame(t, {}), kRefusal, Error);
  CHECK_THROWS_WITH_AS(measure_flame(t, {}), kRefusal, Error);
  FlameLayoutOptions chart;
  chart.chart = true;
  CHECK_THROWS_WITH_AS(layout_flame(t, chart), kRefusal, Error);
  CHECK_THROWS_WITH_AS(each_flame_rect(t, {}, [](const FlameRect&) {}), kRefusal, Error);
}

TEST_CASE("negative values: the SVG and HTML writers refuse them before writing anything") {
  const Profile p = signed_profile();
  Diagnostics d;
  std::ostringstream svg, html;
  CHECK_THROWS_WITH_AS(formats::svg::write_flamegraph(p, {}, svg, d), kRefusal, Error);
  CHECK_THROWS_WITH_AS(formats::html::write_flamegraph(p, {}, html, d), kRefusal, Error);
  CHECK(svg.str().empty());
  CHECK(html.str().empty());
}

TEST_CASE("negative values: the same profile read as a diff draws both sides, nothing negative") {
  const Profile d = diff_from_deltas(signed_profile());
  REQUIRE(d.value_count() == 2);
  CHECK(d.value_types()[0].role == ValueRole::kNew);
  CHECK(d.value_types()[1].role == ValueRole::kBase);
  CHECK(d.default_value_index() == 0);
  CallTree t(d);
  const FlameLayout l = layout_flame(t, {});
  CHECK(l.diff);
  CHECK(l.total == 5);  // the new side: a;c 5 (a;b is only in the base)
  for (const FlameRect& r : l.rects) {
    CHECK(r.start >= 0);
    CHECK(r.width >= 0);
    CHECK(r.start + r.width <= l.total);
  }
}
