#include "fg/label_totals.h"

#include <doctest/doctest.h>

#include "fg/builder.h"
#include "fg/filter.h"

using namespace fg;

TEST_CASE("totals_by_label: per thread, largest first, ties by name, records counted") {
  ProfileBuilder b(std::vector<ValueType>{{"samples", "count"}, {"cpu", "nanoseconds"}});
  const StackId ab = b.stack(std::vector<FrameId>{b.frame("a"), b.frame("b")});
  const StackId ac = b.stack(std::vector<FrameId>{b.frame("a"), b.frame("c")});
  const auto thread = [&](const char* name) {
    Label id{b.intern(kThreadIdLabel)};
    id.num = 7;
    id.numeric = true;
    return b.labels({id, Label{b.intern(kThreadLabel), b.intern(name)}});
  };
  const LabelSetId main = thread("main"), w1 = thread("w1"), w2 = thread("w2");
  const LabelSetId other = b.labels({Label{b.intern("process"), b.intern("main")}});
  b.add_sample(ab, std::vector<std::int64_t>{2, 10}, main);
  b.add_sample(ac, std::vector<std::int64_t>{1, 30}, main);
  b.add_sample(ab, std::vector<std::int64_t>{3, 0}, w2);  // no cpu: not a w2 record there
  b.add_sample(ac, std::vector<std::int64_t>{3, 25}, w1);
  b.add_sample(ac, std::vector<std::int64_t>{9, 99}, other);  // no thread label: left out
  const Profile p = std::move(b).finish();

  const std::vector<LabelTotal> samples = totals_by_label(p, kThreadLabel, 0);
  REQUIRE(samples.size() == 3);
  // All three add up to 3 samples: by name.
  CHECK((samples[0].value == "main" && samples[0].total == 3 && samples[0].records == 2));
  CHECK((samples[1].value == "w1" && samples[1].total == 3 && samples[1].records == 1));
  CHECK((samples[2].value == "w2" && samples[2].total == 3 && samples[2].records == 1));

  const std::vector<LabelTotal> cpu = totals_by_label(p, kThreadLabel, 1);
  REQUIRE(cpu.size() == 2);
  CHECK((cpu[0].value == "main" && cpu[0].total == 40 && cpu[0].records == 2));
  CHECK((cpu[1].value == "w1" && cpu[1].total == 25));

  CHECK(totals_by_label(p, "no-such-key", 0).empty());
  CHECK(totals_by_label(p, kThreadIdLabel, 0).empty());  // numeric labels have no string value
}
