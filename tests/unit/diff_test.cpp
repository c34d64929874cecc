#include "fg/diff.h"

#include <doctest/doctest.h>

#include "fg/builder.h"
#include "fg/error.h"
#include "fg/regression_gate.h"
#include "test_util.h"

using namespace fg;

namespace {

// "stack base new" lines of a diff, sorted.
std::string two_counts(const Diff& d) { return test::collapsed(d.profile); }

const FunctionDelta& function(const std::vector<FunctionDelta>& fs, const std::string& name) {
  for (const FunctionDelta& f : fs)
    if (f.name == name) return f;
  FAIL("no function " << name);
  return fs[0];
}

}  // namespace

TEST_CASE("diff: aligned by call path, removed and new paths kept") {
  Profile base = test::folded("main;a 10\nmain;gone 5\n");
  Profile next = test::folded("main;a 10\nmain;fresh 5\n");
  DiffOptions o;
  o.normalization = Normalization::kAbsolute;
  Diff d = diff_profiles(base, next, o);
  CHECK(two_counts(d) == "main;a 10 10\nmain;fresh 0 5\nmain;gone 5 0\n");
  CHECK(d.profile.value_types()[0].role == ValueRole::kBase);
  CHECK(d.profile.value_types()[1].role == ValueRole::kNew);
  CHECK(d.base_total == 15);
  CHECK(d.new_total == 15);
}

TEST_CASE("diff: the base is scaled to the new total by default, truncated per path as difffolded.pl -n") {
  Profile base = test::folded("a 3\nb 1\n");
  Profile next = test::folded("a 4\nb 4\n");
  Diff d = diff_profiles(base, next, {});
  CHECK(d.base_total_raw == 4);
  CHECK(d.scale == doctest::Approx(2.0));
  CHECK(two_counts(d) == "a 6 4\nb 2 4\n");
  CHECK(d.normalization == "base scaled to the new total (x2)");
}

TEST_CASE("diff: a zero base total is left alone, --normalize-by multiplies") {
  Profile empty = test::folded("a 0\n");
  Profile next = test::folded("a 4\n");
  Diff d = diff_profiles(empty, next, {});
  CHECK(d.base_total == 0);
  CHECK(d.scale == 1);
  CHECK(two_counts(d) == "a 0 4\n");
  DiffOptions o;
  o.normalization = Normalization::kRate;
  o.rate = 0.5;
  d = diff_profiles(test::folded("a 10\n"), next, o);
  CHECK(two_counts(d) == "a 5 4\n");
  o.rate = -1;
  CHECK_THROWS_AS(diff_profiles(next, next, o), UsageError);
}

TEST_CASE("diff: columns of different units cannot be compared") {
  ProfileBuilder b(std::vector<ValueType>{{"cpu", "nanoseconds"}});
  b.add_sample(std::vector<FrameId>{b.frame("a")}, std::vector<std::int64_t>{5});
  Profile ns = std::move(b).finish();
  Profile counts = test::folded("a 1\n");
  CHECK_THROWS_WITH_AS(
      diff_profiles(ns, counts, {}),
      "cannot compare cpu in nanoseconds with samples in count; choose comparable columns with --value",
      UsageError);
}

TEST_CASE("diff: per-function self and total on both sides") {
  Profile base = test::folded("main;f;g 4\nmain;f 2\n");
  Profile next = test::folded("main;f;g 1\nmain;h 5\n");
  DiffOptions o;
  o.normalization = Normalization::kAbsolute;
  const std::vector<FunctionDelta> fs = function_deltas(diff_profiles(base, next, o));
  CHECK(function(fs, "f").base_self == 2);
  CHECK(function(fs, "f").new_self == 0);
  CHECK(function(fs, "f").base_total == 6);
  CHECK(function(fs, "f").new_total == 1);
  CHECK(function(fs, "h").base_total == 0);
  CHECK(function(fs, "h").new_self == 5);
}

TEST_CASE("diff: the delta profile negates the base as pprof -diff_base") {
  Profile base = test::folded("a 3\n");
  Profile next = test::folded("a 5\n");
  DiffOptions o;
  o.normalization = Normalization::kAbsolute;
  Profile delta = delta_profile(diff_profiles(base, next, o).profile);
  CHECK(delta.value_count() == 1);
  CHECK(delta.totals()[0] == 2);
}

TEST_CASE("gate: conditions parse, and malformed ones name the bad part") {
  GateCondition c = parse_gate_condition("total>+5%");
  CHECK(c.total);
  CHECK(c.above);
  CHECK(c.percent == 5);
  c = parse_gate_condition("function:^main\\.(parse|lex)<-2.5%");
  CHECK_FALSE(c.total);
  CHECK(c.pattern == "^main\\.(parse|lex)");
  CHECK_FALSE(c.above);
  CHECK(c.percent == -2.5);
  CHECK_THROWS_WITH_AS(
      parse_gate_condition("total>5"),
      "--fail-if 'total>5': '5' is not a percentage such as +5% (expected total>+5%, total<-5% "
      "or function:REGEX>+2%)",
      UsageError);
  CHECK_THROWS_WITH_AS(parse_gate_condition("totals>5%"),
                       doctest::Contains("'totals' is neither total nor function:REGEX"), UsageError);
  CHECK_THROWS_WITH_AS(parse_gate_condition("function:(>1%"),
                       "--fail-if 'function:(>1%': '(' is not a regular expression: missing ): ( (expected "
                       "total>+5%, total<-5% or function:REGEX>+2%)",
                       UsageError);
  CHECK_THROWS_WITH_AS(parse_gate_condition("total=5%"), doctest::Contains("no '>' or '<'"), UsageError);
  CHECK_THROWS_WITH_AS(parse_gate_condition("function:>1%"), doctest::Contains("needs a regular expression"),
                       UsageError);
}

TEST_CASE("gate: total on raw totals, functions on share points after normalisation, min-delta floor") {
  Profile base = test::folded("main;f 50\nmain;g 50\n");
  Profile next = test::folded("main;f 80\nmain;g 30\n");  // total +10%; f 50% -> 72.7%
  Diff d = diff_profiles(base, next, {});
  auto gate = [&](const std::string& c, double floor = 0) {
    return evaluate_gate(d, {parse_gate_condition(c)}, floor);
  };
  CHECK(gate("total>+5%").size() == 1);
  CHECK(gate("total>+5%")[0] == "total>+5%: the total changed by +10.00% (100 -> 110)");
  CHECK(gate("total>+15%").empty());
  CHECK(gate("total<-5%").empty());
  CHECK(gate("function:^f$>+20%").size() == 1);
  CHECK(gate("function:^f$>+20%")[0] ==
        "function:^f$>+20%: f: its share of the total changed by +22.73 points "
        "(50.00% -> 72.73%)");
  CHECK(gate("function:^g$<-20%").size() == 1);
  CHECK(gate("function:^f$>+20%", 30).empty());  // under the floor
  // A pattern that matches no function could never trip: a usage error.
  CHECK_THROWS_WITH_AS(
      gate("function:nothing>+0%"),
      "--fail-if 'function:nothing>+0%': 'nothing' matches no function in either profile, so the "
      "condition can never trip",
      UsageError);
  CHECK(gate("function:^g$>+20%").empty());          // matches, does not trip
  CHECK(gate("function:(?i)^F$>+20%").size() == 1);  // RE2's syntax, as pprof
  Diff from_zero = diff_profiles(test::folded("a 0\n"), test::folded("a 1\n"), {});
  CHECK(evaluate_gate(from_zero, {parse_gate_condition("total>+5%")}, 0).size() == 1);
}

TEST_CASE("diff: paths 300,000 frames deep are copied without recursion") {
  // The diff copies both profiles' stacks into one: a path is copied by a
  // loop up to its nearest copied ancestor, never by a call per frame (which
  // would overflow the thread's stack here).
  std::string deep;
  for (int i = 0; i < 300000; ++i) deep += i == 0 ? "f" : ";f";
  Profile base = test::folded(deep + ";a 3\n");
  Profile next = test::folded(deep + ";a 2\n" + deep + ";b 1\n");
  DiffOptions o;
  o.normalization = Normalization::kAbsolute;
  Diff d = diff_profiles(base, next, o);
  CHECK(d.base_total == 3);
  CHECK(d.new_total == 3);
  CHECK(two_counts(d) == deep + ";a 3 2\n" + deep + ";b 0 1\n");
}

TEST_CASE("diff: the base is scaled per call path, whatever its label sets (as its folded form)") {
  // Path main;a has two threads in the base (1 + 1), main;b one (2); the
  // new total is 6, so the base is scaled by 6/4. difffolded.pl -n on the
  // folded form truncates per path: a 2 -> 3, b 2 -> 3; per label set a
  // would get 1 + 1 = 2.
  ProfileBuilder b(std::vector<ValueType>{{"samples", "count"}});
  const FrameId main = b.frame("main"), a = b.frame("a"), c = b.frame("b");
  const LabelSetId t1 = b.labels({Label{b.intern("thread"), b.intern("t1")}});
  const LabelSetId t2 = b.labels({Label{b.intern("thread"), b.intern("t2")}});
  b.add_sample(std::vector<FrameId>{main, a}, std::vector<std::int64_t>{1}, t1);
  b.add_sample(std::vector<FrameId>{main, a}, std::vector<std::int64_t>{1}, t2);
  b.add_sample(std::vector<FrameId>{main, c}, std::vector<std::int64_t>{2}, t1);
  const Profile base = std::move(b).finish();
  const Diff d = diff_profiles(base, test::folded("main;a 3\nmain;b 3\n"), {});
  CHECK(test::collapsed(d.profile) == "main;a 3 3\nmain;b 3 3\n");
  CHECK(d.base_total == 6);
}

TEST_CASE("diff: a scaled base beyond 64 bits is an error, not a wrapped cast (#36.7)") {
  // The base total is 1, so scaling "a" to the new total multiplies it by 10.
  ProfileBuilder b(std::vector<ValueType>{{"samples", "count"}});
  b.add_sample(std::vector<FrameId>{b.frame("a")}, std::vector<std::int64_t>{4'000'000'000'000'000'000});
  b.add_sample(std::vector<FrameId>{b.frame("b")}, std::vector<std::int64_t>{-3'999'999'999'999'999'999});
  Profile base = std::move(b).finish();
  Profile next = test::folded("a 10\n");
  CHECK_THROWS_WITH_AS(diff_profiles(base, next, {}), "a scaled value is too large to compare", Error);
  DiffOptions o;
  o.normalization = Normalization::kRate;
  o.rate = 1e30;  // fg-diff --normalize-by 1e30
  CHECK_THROWS_WITH_AS(diff_profiles(next, next, o), "a scaled value is too large to compare", Error);
  o.rate = 1e17;  // 10 * 1e17 fits
  CHECK(two_counts(diff_profiles(next, next, o)) == "a 1000000000000000000 10\n");
}
