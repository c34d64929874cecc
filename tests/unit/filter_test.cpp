#include "fg/filter.h"

#include <doctest/doctest.h>

#include "fg/builder.h"
#include "fg/error.h"
#include "fg/recorded_call_graph.h"
#include "test_util.h"

using namespace fg;

namespace {

std::string filtered(const std::string& folded, const FilterOptions& o) {
  return test::collapsed(apply_filters(test::folded(folded), o));
}

const char* kStacks =
    "main;runtime.gc 2\n"
    "main;parse;lex 5\n"
    "main;parse;runtime.alloc 3\n"
    "main;eval;eval;eval;add 4\n";

// A profile with thread labels and timestamps, as a JFR or jemalloc reader
// makes one.
Profile threaded() {
  ProfileBuilder b(std::vector<ValueType>{{"samples", "count"}});
  auto sample = [&](const char* thread, std::vector<const char*> names, std::int64_t t) {
    std::vector<FrameId> frames;
    for (const char* n : names) frames.push_back(b.frame(n));
    Label l;
    l.key = b.intern(kThreadLabel);
    l.str = b.intern(thread);
    b.add_sample(b.stack(frames), std::vector<std::int64_t>{1}, b.labels({l}), t);
  };
  b.metadata().start_time_ns = 1000000000;
  b.metadata().duration_ns = 10000000000;
  sample("main", {"run", "work"}, 1000000000);
  sample("worker-1", {"run", "io"}, 3000000000);
  sample("worker-2", {"run", "io"}, 9000000000);
  return std::move(b).finish();
}

}  // namespace

TEST_CASE("filter: focus and ignore select samples, as pprof") {
  FilterOptions o;
  o.focus = "parse";
  CHECK(filtered(kStacks, o) == "main;parse;lex 5\nmain;parse;runtime.alloc 3\n");
  o.ignore = "runtime";
  CHECK(filtered(kStacks, o) == "main;parse;lex 5\n");
  o = {};
  o.focus = "nothing";
  CHECK(filtered(kStacks, o).empty());  // an empty result is a result
}

TEST_CASE("filter: hide and show remove frames and keep the samples") {
  FilterOptions o;
  o.hide = "^runtime\\.";
  CHECK(filtered(kStacks, o) == "main 2\nmain;eval;eval;eval;add 4\nmain;parse 3\nmain;parse;lex 5\n");
  o = {};
  o.show = "^(main|parse)$";
  CHECK(filtered(kStacks, o) == "main 6\nmain;parse 8\n");
}

TEST_CASE("filter: show_from keeps from the rootmost match, prune_from up to the leafmost") {
  FilterOptions o;
  o.show_from = "^eval$";
  CHECK(filtered(kStacks, o) == "eval;eval;eval;add 4\n");
  o = {};
  o.prune_from = "^eval$";
  CHECK(filtered(kStacks, o) ==
        "main;eval;eval;eval 4\nmain;parse;lex 5\nmain;parse;runtime.alloc 3\nmain;runtime.gc 2\n");
}

TEST_CASE("filter: include and exclude match the folded line, as grep would") {
  FilterOptions o;
  o.include = {"parse;lex", "gc$"};
  CHECK(filtered(kStacks, o) == "main;parse;lex 5\nmain;runtime.gc 2\n");
  o = {};
  o.exclude = {"runtime"};
  CHECK(filtered(kStacks, o) == "main;eval;eval;eval;add 4\nmain;parse;lex 5\n");
}

TEST_CASE("filter: skip, max depth, collapse recursion, rename, invert") {
  FilterOptions o;
  o.skip = 1;
  CHECK(filtered("a;b;c 1\n", o) == "b;c 1\n");
  o = {};
  o.max_depth = 2;
  CHECK(filtered("a;b;c 1\na;b;d 2\n", o) == "a;b 3\n");
  o = {};
  o.collapse_recursion = true;
  CHECK(filtered("main;eval;eval;eval;add 4\n", o) == "main;eval;add 4\n");
  o = {};
  o.rename = {"\\$\\$Lambda\\$[0-9]+=$$$$Lambda", "^(\\w+)\\.go:.*$=$1"};
  CHECK(filtered("Foo$$Lambda$12.run 1\nFoo$$Lambda$13.run 1\nmain.go:12 2\n", o) ==
        "Foo$$Lambda.run 2\nmain 2\n");
  o = {};
  o.invert = true;
  CHECK(filtered("a;b;c 1\n", o) == "c;b;a 1\n");
}

TEST_CASE(
    "filter: a stack's samples on many threads each keep their labels, and a dropped stack stays dropped") {
  // Each stack is filtered once, at its first sample: its later samples
  // (other threads, other orders) must come out as sample by sample.
  ProfileBuilder b(std::vector<ValueType>{{"samples", "count"}});
  const StackId ab = b.stack(std::vector<FrameId>{b.frame("a"), b.frame("b")});
  const StackId ac = b.stack(std::vector<FrameId>{b.frame("a"), b.frame("c")});
  std::vector<LabelSetId> threads;
  for (const char* t : {"t1", "t2", "t3"})
    threads.push_back(b.labels({Label{b.intern(kThreadLabel), b.intern(t)}}));
  for (int round = 0; round < 4; ++round)
    for (std::size_t t = 0; t < threads.size(); ++t)
      for (StackId s : {ac, ab}) b.add_sample(s, std::vector<std::int64_t>{1 + round}, threads[t]);
  const Profile p = std::move(b).finish();
  FilterOptions o;
  o.focus = "^b$";
  Profile kept = apply_filters(p, o);
  REQUIRE(kept.sample_count() == 3);  // a;b on t1, t2 and t3
  for (std::size_t i = 0; i < kept.sample_count(); ++i) {
    CHECK(kept.values(i)[0] == 10);
    REQUIRE(kept.labels(kept.sample(i).labels).size() == 1);
    CHECK(kept.str(kept.labels(kept.sample(i).labels)[0].str) == std::string("t") + std::to_string(i + 1));
  }
  o.threads = ThreadMode::kFrame;
  CHECK(test::collapsed(apply_filters(p, o)) == "t1;a;b 10\nt2;a;b 10\nt3;a;b 10\n");
  o.threads = ThreadMode::kFold;
  kept = apply_filters(p, o);
  REQUIRE(kept.sample_count() == 1);
  CHECK(kept.values(0)[0] == 30);
}

TEST_CASE(
    "filter: --threads fold merges the threads of a JFR recording, named and numbered, keeping other "
    "labels") {
  ProfileBuilder b(std::vector<ValueType>{{"samples", "count"}});
  const StackId s = b.stack(std::vector<FrameId>{b.frame("a")});
  for (int t = 1; t <= 3; ++t) {
    Label name{b.intern(kThreadLabel), b.intern("t" + std::to_string(t))};
    Label id;
    id.key = b.intern(kThreadIdLabel);
    id.num = t;
    id.numeric = true;
    Label state{b.intern("state"), b.intern(t == 3 ? "STATE_SLEEPING" : "STATE_RUNNABLE")};
    b.add_sample(s, std::vector<std::int64_t>{t}, b.labels({name, id, state}));
  }
  FilterOptions o;
  o.threads = ThreadMode::kFold;
  const Profile folded = apply_filters(std::move(b).finish(), o);
  REQUIRE(folded.sample_count() == 2);  // by state: runnable (t1, t2), sleeping (t3)
  CHECK(folded.values(0)[0] == 3);
  CHECK(folded.values(1)[0] == 3);
  for (std::size_t i = 0; i < 2; ++i) {
    REQUIRE(folded.labels(folded.sample(i).labels).size() == 1);
    CHECK(folded.str(folded.labels(folded.sample(i).labels)[0].key) == std::string("state"));
  }
}

TEST_CASE("filter: min-percent cuts stacks at small frames") {
  FilterOptions o;
  o.min_percent = 20;
  CHECK(filtered("a;b 90\na;c 10\n", o) == "a 10\na;b 90\n");
  o.min_percent = 101;
  CHECK_THROWS_AS(filtered("a 1\n", o), UsageError);
}

TEST_CASE("filter: threads as frames, folded, selected, time windows") {
  FilterOptions o;
  o.threads = ThreadMode::kFrame;
  CHECK(test::collapsed(apply_filters(threaded(), o)) ==
        "main;run;work 1\nworker-1;run;io 1\nworker-2;run;io 1\n");
  o = {};
  o.threads = ThreadMode::kFold;
  Profile folded = apply_filters(threaded(), o);
  CHECK(folded.sample_count() == 3);  // timed samples stay apart
  for (std::size_t i = 0; i < folded.sample_count(); ++i)
    CHECK(folded.labels(folded.sample(i).labels).empty());
  o = {};
  o.thread = "^worker";
  CHECK(test::collapsed(apply_filters(threaded(), o)) == "run;io 2\n");
  o = {};
  o.time_from = "1s";
  o.time_to = "-2.5s";  // the recording ran 10 s from t=1 s: 2 s to 8.5 s
  CHECK(test::collapsed(apply_filters(threaded(), o)) == "run;io 1\n");
  o.time_from = "1970-01-01T00:00:01Z";
  o.time_to = "1500";  // milliseconds from the start, as async-profiler's converter
  CHECK(test::collapsed(apply_filters(threaded(), o)) == "run;work 1\n");
  o.time_to = "soon";
  CHECK_THROWS_WITH_AS(apply_filters(threaded(), o), doctest::Contains("--time-to soon: expected a time"),
                       UsageError);
  o = {};
  o.time_from = "1s";
  CHECK_THROWS_WITH_AS(apply_filters(test::folded("a 1\n"), o),
                       "--time-from: the input's samples carry no timestamps", UsageError);
}

TEST_CASE("filter: tagfocus and tagignore with strings and numeric ranges") {
  std::string bytes = "";
  ProfileBuilder b(std::vector<ValueType>{{"space", "bytes"}});
  auto sample = [&](const char* name, const char* phase, std::int64_t size) {
    Label s, n;
    s.key = b.intern("phase");
    s.str = b.intern(phase);
    n.key = b.intern("bytes");
    n.num = size;
    n.numeric = true;
    b.add_sample(std::vector<FrameId>{b.frame(name)}, std::vector<std::int64_t>{size}, b.labels({s, n}));
  };
  sample("small", "load", 64);
  sample("big", "load", 1 << 20);
  sample("mid", "save", 4096);
  const Profile p = std::move(b).finish();
  FilterOptions o;
  o.tag_focus = "phase=load";
  CHECK(test::collapsed(apply_filters(p, o)) == "big 1048576\nsmall 64\n");
  o.tag_focus = "bytes=1kb:64kb";
  CHECK(test::collapsed(apply_filters(p, o)) == "mid 4096\n");
  o.tag_focus = ":1kb";
  CHECK(test::collapsed(apply_filters(p, o)) == "small 64\n");
  o.tag_focus = "load,phase:";  // every regex must match some key:value
  CHECK(test::collapsed(apply_filters(p, o)) == "big 1048576\nsmall 64\n");
  o = {};
  o.tag_ignore = "phase=save";
  CHECK(test::collapsed(apply_filters(p, o)) == "big 1048576\nsmall 64\n");
}

TEST_CASE("filter: the order is documented: hide before show_from, skip after both") {
  FilterOptions o;
  o.hide = "^b$";
  o.show_from = "^c$";
  o.skip = 1;
  CHECK(filtered("a;b;c;d;e 1\n", o) == "d;e 1\n");
}

TEST_CASE("filter: anchors per alternative, escapes, and a | in brackets that is no alternative") {
  const char* stacks = "main;parse;lex 5\nmain;runtime.gc 2\nmain;eval;add 4\nmain.x;y|z 1\n";
  FilterOptions o;
  o.focus = "^lex$|^add";
  CHECK(filtered(stacks, o) == "main;eval;add 4\nmain;parse;lex 5\n");
  o.focus = "runtime\\.gc|nothing";
  CHECK(filtered(stacks, o) == "main;runtime.gc 2\n");
  o.focus = "y\\|z";
  CHECK(filtered(stacks, o) == "main.x;y|z 1\n");
  o.focus = "[|]z";  // a regex, not two literals
  CHECK(filtered(stacks, o) == "main.x;y|z 1\n");
}

TEST_CASE("filter: patterns are RE2's, pprof's dialect, with no limit on a name's length (#33.5)") {
  const std::string frame = std::string(9000, 'a') + "b";  // 9,001 bytes
  const std::string stacks = "main;" + frame + " 3\nmain;ba;c 1\nmain;parse 2\n";
  const std::string kept = "main;" + frame + " 3\n";
  FilterOptions o;
  for (const char* re : {"a+b$", "ab$", "^a+b$", "a{1000}b$"}) {
    CAPTURE(re);
    o.focus = re;
    CHECK(filtered(stacks, o) == kept);
  }
  o = {};
  o.include = {"a+b$"};  // the folded line, whole
  CHECK(filtered(stacks, o) == kept);
  o = {};
  o.focus = "(?i)^PARSE$";
  CHECK(filtered(stacks, o) == "main;parse 2\n");
  o = {};
  o.rename = {"^a+b$=long"};
  CHECK(filtered(stacks, o) == "main;ba;c 1\nmain;long 3\nmain;parse 2\n");
}

TEST_CASE("filter: a pattern that backtracking takes exponential time or deep recursion on is fast (#33.5)") {
  const std::string hundred_kb = std::string(100000, 'a') + "c";
  const std::string stacks = "main;" + hundred_kb + " 3\nmain;" + std::string(30, 'a') + " 1\n";
  FilterOptions o;
  o.focus = "(a|b)*c";
  CHECK(filtered(stacks, o) == "main;" + hundred_kb + " 3\n");
  o.focus = "^(a*)*b$";  // exponential for a backtracking matcher on 30 a's
  CHECK(filtered(stacks, o).empty());
  o = {};
  o.ignore = "^(a*)*b$";
  CHECK(filtered(stacks, o) == test::collapsed(test::folded(stacks)));
  o = {};
  o.include = {"(a|b)*c;"};
  CHECK(filtered(stacks, o).empty());
}

TEST_CASE("filter: bad regular expressions name the option") {
  FilterOptions o;
  o.focus = "(";
  CHECK_THROWS_WITH_AS(filtered("a 1\n", o), "--focus '(': not a regular expression: missing ): (",
                       UsageError);
  o.focus = "(a)\\1";
  CHECK_THROWS_WITH_AS(filtered("a 1\n", o),
                       "--focus '(a)\\1': not a regular expression: invalid escape sequence: \\1 (RE2 has no "
                       "backreferences)",
                       UsageError);
  o = {};
  o.include = {"a(?=b)"};
  CHECK_THROWS_WITH_AS(filtered("a 1\n", o),
                       doctest::Contains("--include 'a(?=b)': not a regular expression"), UsageError);
  o = {};
  o.tag_focus = "thread=a,(";
  CHECK_THROWS_WITH_AS(filtered("a 1\n", o), doctest::Contains("--tagfocus '(': not a regular expression"),
                       UsageError);
  o = {};
  o.rename = {"noequals"};
  CHECK_THROWS_WITH_AS(filtered("a 1\n", o), "--rename 'noequals': expected REGEX=REPLACEMENT", UsageError);
}

TEST_CASE("filter: reports keep percentages of the unfiltered total unless relative") {
  FilterOptions o;
  o.focus = "parse";
  Profile p = apply_filters(test::folded(kStacks), o);
  CHECK(p.metadata().unfiltered_totals == std::vector<std::int64_t>{14});
  CHECK(p.metadata().filters == std::vector<std::string>{"focus=parse"});
  o.relative = true;
  CHECK(apply_filters(test::folded(kStacks), o).metadata().unfiltered_totals.empty());
}

TEST_CASE("filter: a filtered profile has no recorded graph") {
  ProfileBuilder b(std::vector<ValueType>{{"samples", "count"}});
  const FrameId main = b.frame("main"), f = b.frame("f");
  b.add_sample(std::vector<FrameId>{main, f}, std::vector<std::int64_t>{3});
  RecordedCallGraph rec;
  rec.total = 3;
  rec.nodes = {{main, 0, 3}, {f, 3, 3}};
  rec.edges = {{0, 1, 3}};
  b.set_recorded_graph(std::move(rec));
  const Profile p = std::move(b).finish();
  FilterOptions focus;
  focus.focus = "f";
  const Profile filtered = apply_filters(p, focus);
  CHECK(filtered.recorded_graph() == nullptr);
  CHECK(filtered.sample_count() == 1);
}

namespace {

// The "matched no samples" warnings of apply_filters() on `p`.
std::vector<std::string> unmatched(const Profile& p, const FilterOptions& o) {
  std::vector<std::string> warnings;
  Diagnostics d(
      false, [&warnings](const std::string& m) { warnings.push_back(m); }, 100);
  apply_filters(p, o, d);
  return warnings;
}

}  // namespace

TEST_CASE("filter: an expression that matches nothing is a warning naming it, as pprof's (#32.6)") {
  const Profile p = test::folded(kStacks);
  FilterOptions o;
  o.focus = "nosuch";
  CHECK(unmatched(p, o) ==
        std::vector<std::string>{"t.folded: --focus expression matched no samples: nosuch"});
  // The filters apply in order: what --focus dropped, --hide does not see.
  o.hide = "lex";
  CHECK(unmatched(p, o) == std::vector<std::string>{"t.folded: --focus expression matched no samples: nosuch",
                                                    "t.folded: --hide expression matched no samples: lex"});
  o = {};
  o.ignore = "nosuch";
  o.show = "parse|nosuch";
  o.show_from = "nothere";
  CHECK(unmatched(p, o) ==
        std::vector<std::string>{"t.folded: --ignore expression matched no samples: nosuch",
                                 "t.folded: --show-from expression matched no samples: nothere"});
  o = {};
  o.prune_from = "nosuch";
  CHECK(unmatched(p, o) ==
        std::vector<std::string>{"t.folded: --prune-from expression matched no samples: nosuch"});
  o.prune_from = "eval";
  CHECK(unmatched(p, o).empty());
  o = {};
  // gc is only in a stack that --include drops; alloc is in a stack that
  // lex, the first --exclude, does not drop.
  o.include = {"parse", "nosuch"};
  o.exclude = {"lex", "gc", "alloc"};
  CHECK(unmatched(p, o) ==
        std::vector<std::string>{"t.folded: --include expression matched no samples: nosuch",
                                 "t.folded: --exclude expression matched no samples: gc"});
  // An ignored frame earlier in the stack does not hide a focus match.
  o = {};
  o.ignore = "^main$";
  o.focus = "lex";
  CHECK(unmatched(p, o).empty());
  // Every filter that matches something: no warning.
  o = {};
  o.focus = "parse";
  o.hide = "lex";
  o.show = "main|parse";
  CHECK(unmatched(p, o).empty());
  // Strict: the warning is an error.
  o = {};
  o.focus = "nosuch";
  Diagnostics strict(true);
  CHECK_THROWS_WITH_AS(apply_filters(p, o, strict), "t.folded: --focus expression matched no samples: nosuch",
                       Error);
}

TEST_CASE("filter: thread and tag filters that match nothing are warnings too (#32.6)") {
  FilterOptions o;
  o.thread = "nosuch";
  o.tag_focus = "thread=nosuch";
  o.tag_ignore = "thread=worker";
  // --thread drops every sample first, so the tag filters see none either.
  CHECK(unmatched(threaded(), o) ==
        std::vector<std::string>{"--thread expression matched no samples: nosuch",
                                 "--tagfocus expression matched no samples: thread=nosuch",
                                 "--tagignore expression matched no samples: thread=worker"});
  o = {};
  o.thread = "worker";
  o.tag_ignore = "thread=worker-2";
  CHECK(unmatched(threaded(), o).empty());
}
