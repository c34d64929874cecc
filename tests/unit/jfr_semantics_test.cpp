// The meaning of a JFR recording (formats/jfr/semantics.h), function by
// function, on hand-made inputs whose expected values are worked out in
// the comments: what both JFR readers (the fast one and the reference one)
// rely on.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "fg/java_frames.h"
#include "formats/jfr/jfr.h"
#include "formats/jfr/semantics.h"

namespace {

using fg::FrameKind;
using fg::formats::JfrOptions;
using fg::formats::jfr::EventRecord;
using fg::formats::jfr::EventType;
using Events = JfrOptions::Events;
namespace jfr = fg::formats::jfr;

jfr::StringValue utf8(const std::string& s) {
  jfr::StringValue v;
  v.encoding = jfr::StringEncoding::kUtf8;
  v.text = s;
  return v;
}

// Pools with one method, java/util/HashMap.get (method 5, class 3), a
// thread "main" (key 1) and one without names (key 2), and three states.
jfr::Pools small_pools() {
  jfr::Pools p;
  p.symbols[10] = utf8("java/util/HashMap");
  p.symbols[11] = utf8("get");
  p.symbols[12] = utf8("[Ljava/lang/String;");
  p.classes[3] = {10, 0};
  p.classes[4] = {12, 0};
  p.methods[5] = {3, 11};
  p.threads[1].java_name = utf8("main");
  p.threads[2] = {};
  auto& states = p.enums["jdk.types.ThreadState"];
  states[1] = utf8("STATE_DEFAULT");
  states[2] = utf8("STATE_RUNNABLE");
  states[3] = utf8("STATE_SLEEPING");
  return p;
}

}  // namespace

TEST_CASE("jfr semantics: each option's events and value columns") {
  CHECK(jfr::columns_for(Events::kDefault) == std::vector<fg::ValueType>{{"samples", "count"}});
  CHECK(jfr::columns_for(Events::kAlloc) ==
        std::vector<fg::ValueType>{{"alloc_objects", "count"}, {"alloc_space", "bytes"}});
  CHECK(jfr::columns_for(Events::kLock) ==
        std::vector<fg::ValueType>{{"lock_count", "count"}, {"lock_time", "nanoseconds"}});
  // The default, --cpu and --wall read every kind of sample; the others their own events.
  for (Events e : {Events::kDefault, Events::kCpu, Events::kWall}) {
    CHECK(jfr::selected(e, EventType::kExecutionSample));
    CHECK(jfr::selected(e, EventType::kWallClockSample));
    CHECK_FALSE(jfr::selected(e, EventType::kAllocSample));
  }
  CHECK(jfr::selected(Events::kAlloc, EventType::kAllocOutsideTlab));
  CHECK_FALSE(jfr::selected(Events::kAlloc, EventType::kLiveObject));
  CHECK(jfr::selected(Events::kLive, EventType::kLiveObject));
  CHECK(jfr::selected(Events::kNativeMem, EventType::kFree));
  CHECK(jfr::selected(Events::kLock, EventType::kThreadPark));
  CHECK_FALSE(jfr::selected(Events::kLock, EventType::kNativeLock));
  CHECK(jfr::events_option(Events::kNativeLock) == "nativelock");
  CHECK(jfr::events_option(Events::kDefault) == "");
  JfrOptions o;
  o.events = Events::kAlloc;
  CHECK(jfr::default_column(o) == 0);
  o.total = true;
  CHECK(jfr::default_column(o) == 1);
  o.events = Events::kCpu;  // one column: --total changes nothing
  CHECK(jfr::default_column(o) == 0);
}

TEST_CASE("jfr semantics: the values of one event") {
  jfr::ChunkHeader h;
  h.ticks_per_second = 2'000'000'000;  // two ticks a nanosecond
  JfrOptions o;
  EventRecord e;
  e.samples = 3;
  jfr::EventValues v = jfr::event_values(o, EventType::kWallClockSample, e, h);
  CHECK(v.values[0] == 3);
  CHECK(v.values[1] == 0);
  CHECK(v.samples == 3);
  CHECK_FALSE(v.class_frame);
  e.samples = -2;  // a damaged count stays as it is, but stands for no samples
  v = jfr::event_values(o, EventType::kExecutionSample, e, h);
  CHECK(v.values[0] == -2);
  CHECK(v.samples == 0);

  o.events = Events::kAlloc;
  EventRecord a;
  a.size = 24;
  a.tlab = 4096;  // a new TLAB: weighs the TLAB
  v = jfr::event_values(o, EventType::kAllocInNewTlab, a, h);
  CHECK(v.values[0] == 1);
  CHECK(v.values[1] == 4096);
  CHECK(v.class_frame);
  CHECK_FALSE(v.outside_tlab);
  a.tlab = -1;  // no tlabSize field: outside a TLAB, weighs the object
  v = jfr::event_values(o, EventType::kAllocOutsideTlab, a, h);
  CHECK(v.values[1] == 24);
  CHECK(v.outside_tlab);

  o.events = Events::kLock;
  EventRecord l;
  l.duration = 3000;  // ticks: 1500 ns
  v = jfr::event_values(o, EventType::kMonitorEnter, l, h);
  CHECK(v.values[0] == 1);
  CHECK(v.values[1] == 1500);
  CHECK_FALSE(v.outside_tlab);

  o.events = Events::kNativeMem;
  o.leak = true;
  EventRecord m;
  m.size = 100;
  m.tlab = 7;  // not read for a malloc
  v = jfr::event_values(o, EventType::kMalloc, m, h);
  CHECK(v.values[0] == 1);
  CHECK(v.values[1] == 100);
}

TEST_CASE("jfr semantics: the time window counts from the chunks read so far") {
  jfr::ChunkHeader a, b;
  a.start_ns = 1'000'000'000;
  a.duration_ns = 4'000'000'000;
  b.start_ns = 5'000'000'000;
  b.duration_ns = 6'000'000'000;
  jfr::TimeSpan span;
  span.add(b);
  span.add(a);
  CHECK(span.start_ns == 1'000'000'000);
  CHECK(span.end_ns == 11'000'000'000);
  JfrOptions o;
  CHECK_FALSE(jfr::needs_time(o));
  jfr::TimeWindow w = jfr::time_window(o, span);
  CHECK(w.contains(INT64_MIN));
  CHECK(w.contains(INT64_MAX));
  o.time_from = "2s";  // 1 s + 2 s
  o.time_to = "-1s";   // 11 s - 1 s
  CHECK(jfr::needs_time(o));
  w = jfr::time_window(o, span);
  CHECK(w.from_ns == 3'000'000'000);
  CHECK(w.to_ns == 10'000'000'000);
  CHECK(w.contains(3'000'000'000));
  CHECK(w.contains(10'000'000'000));
  CHECK_FALSE(w.contains(2'999'999'999));
  CHECK_FALSE(w.contains(10'000'000'001));
  o = {};
  o.leak = true;
  CHECK(jfr::needs_time(o));
}

TEST_CASE("jfr semantics: the thread-state filter") {
  CHECK(jfr::state_names("runnable,,Sleeping") == std::vector<std::string>{"RUNNABLE", "SLEEPING"});
  CHECK_FALSE(jfr::filters_states(Events::kDefault, {}));
  CHECK(jfr::filters_states(Events::kDefault, {"RUNNABLE"}));
  CHECK(jfr::filters_states(Events::kCpu, {}));
  CHECK(jfr::filters_states(Events::kWall, {}));

  auto states = jfr::thread_states(small_pools());
  std::sort(states.begin(), states.end());
  REQUIRE(states.size() == 3);
  CHECK(states[1] == std::pair<std::uint64_t, std::string>{2, "STATE_RUNNABLE"});

  using Keys = std::unordered_set<std::uint64_t>;
  jfr::StateChoice cpu = jfr::choose_states(states, Events::kCpu, {});
  CHECK(cpu.allowed == Keys{1});
  CHECK(cpu.any_default);
  CHECK(jfr::choose_states(states, Events::kWall, {}).allowed == Keys{2, 3});
  // --state names are prefixes of the name after "STATE_": S is SLEEPING, not DEFAULT.
  jfr::StateChoice s = jfr::choose_states(states, Events::kDefault, {"S", "NOSUCH"});
  CHECK(s.allowed == Keys{3});
  CHECK(s.matched == std::set<std::string>{"S"});
  CHECK(jfr::choose_states({}, Events::kCpu, {}).allowed.empty());  // no pool: nothing passes

  const Keys allowed{2};
  CHECK_FALSE(jfr::dropped_by_state(EventType::kExecutionSample, true, 2, &allowed));
  CHECK(jfr::dropped_by_state(EventType::kExecutionSample, true, 3, &allowed));
  CHECK(jfr::dropped_by_state(EventType::kExecutionSample, false, 2, &allowed));    // no state
  CHECK_FALSE(jfr::dropped_by_state(EventType::kAllocSample, false, 0, &allowed));  // not a sample
  CHECK_FALSE(jfr::dropped_by_state(EventType::kExecutionSample, false, 0, nullptr));
}

TEST_CASE("jfr semantics: frame kinds and the tier vote") {
  const std::string c1 = "C1 compiled", other = "Other";
  CHECK(jfr::frame_kind(&c1, 0) == FrameKind::kC1Compiled);
  CHECK(jfr::frame_kind(nullptr, 2) == FrameKind::kInlined);  // async-profiler's numbering
  CHECK(jfr::frame_kind(&other, 1) == FrameKind::kJit);
  CHECK(jfr::frame_kind(nullptr, 9) == FrameKind::kNative);
  CHECK(jfr::native_code(FrameKind::kNative, true));
  CHECK_FALSE(jfr::native_code(FrameKind::kNative, false));  // a JDK recording's Native is a Java method
  CHECK(jfr::native_code(FrameKind::kCpp, false));
  CHECK_FALSE(jfr::native_code(FrameKind::kJit, true));
  CHECK(jfr::class_frame_kind(true) == FrameKind::kKernel);
  CHECK(jfr::class_frame_kind(false) == FrameKind::kInlined);

  // The vote: inlined with a third of the weight, else C1 with half, else
  // interpreted with half, else JIT.
  fg::TierWeights w;
  w.add(FrameKind::kInlined, 3);
  w.add(FrameKind::kJit, 6);
  CHECK(w.decide(FrameKind::kJit) == FrameKind::kInlined);  // 3 of 9
  w = {};
  w.add(FrameKind::kInlined, 2);
  w.add(FrameKind::kC1Compiled, 5);
  w.add(FrameKind::kJit, 2);
  CHECK(w.decide(FrameKind::kJit) == FrameKind::kC1Compiled);  // inlined 2 of 9 < 3; C1 5 of 9
  w = {};
  w.add(FrameKind::kInterpreted, 5);
  w.add(FrameKind::kC1Compiled, 4);
  w.add(FrameKind::kJit, 1);
  CHECK(w.decide(FrameKind::kInlined) == FrameKind::kInterpreted);  // C1 4 of 10; interpreted 5
  w.add(FrameKind::kJit, 1);
  CHECK(w.decide(FrameKind::kInlined) == FrameKind::kJit);    // interpreted 5 of 11
  CHECK(w.decide(FrameKind::kNative) == FrameKind::kNative);  // not a Java tier
}

TEST_CASE("jfr semantics: frame, class and thread names from the pools") {
  const jfr::Pools p = small_pools();
  jfr::NamingOptions n;
  jfr::FrameRef f{5, 42, 7, 0};
  CHECK(jfr::frame_name(p, f, FrameKind::kJit, false, n) == "java/util/HashMap.get");
  CHECK(jfr::frame_name(p, f, FrameKind::kCpp, false, n) == "get");  // C++: the method alone
  n.dot = true;
  n.lines = true;
  CHECK(jfr::frame_name(p, f, FrameKind::kJit, false, n) == "java.util.HashMap.get:42");
  n = {};
  n.bci = true;
  CHECK(jfr::frame_name(p, f, FrameKind::kJit, false, n) == "java/util/HashMap.get@7");
  CHECK(jfr::frame_name(p, jfr::FrameRef{99, 0, 0, 0}, FrameKind::kJit, false, {}) == "unknown");
  CHECK(jfr::class_frame_name(p, 4, {}) == "java.lang.String[]");  // always dotted
  CHECK(jfr::class_frame_name(p, 99, {}) == "null");
  REQUIRE(jfr::thread_name(p, 1));
  CHECK(*jfr::thread_name(p, 1) == "main");
  CHECK(jfr::thread_name(p, 2) == nullptr);
  CHECK(jfr::thread_name(p, 3) == nullptr);

  fg::ProfileBuilder b(std::vector<fg::ValueType>{{"samples", "count"}});
  const auto text = [&](const fg::Label& l) { return std::string(b.str_of(l.str)); };
  std::vector<fg::Label> l = jfr::event_labels(b, p, 1, true, 3);
  REQUIRE(l.size() == 3);
  CHECK(b.str_of(l[0].key) == "thread");
  CHECK(text(l[0]) == "main");
  CHECK(b.str_of(l[1].key) == "thread_id");
  CHECK(l[1].numeric);
  CHECK(l[1].num == 1);
  CHECK(b.str_of(l[2].key) == "state");
  CHECK(text(l[2]) == "STATE_SLEEPING");
  l = jfr::event_labels(b, p, 2, true, 77);  // no name, a state the pool lacks
  REQUIRE(l.size() == 3);
  CHECK(text(l[0]) == "[tid=2]");
  CHECK(text(l[2]) == "77");
  CHECK(jfr::event_labels(b, p, 1, false, 3).size() == 2);
}

TEST_CASE("jfr semantics: leaks are mallocs never freed, in time order, but the youngest") {
  using M = jfr::LeakTracker::Malloc;
  jfr::LeakTracker t;
  // Chunk 1, added out of time order: A's free (ticks 5) comes before its
  // malloc (ticks 10), so A stays; B is freed after its malloc.
  t.add(10, 100, 0xA, M{100, fg::StackId{1}, fg::LabelSetId{0}, 16});
  t.add(20, 200, 0xB, M{200, std::nullopt, fg::LabelSetId{0}, 32});
  t.add(5, 50, 0xA, std::nullopt);
  t.add(30, 300, 0xB, std::nullopt);
  t.end_chunk();
  // Chunk 2: C at 120 ns and D at 1000 ns. The events span 50..1000 ns,
  // so mallocs after 50 * 0.1 + 1000 * 0.9 = 905 ns are too young: D.
  t.add(1, 120, 0xC, M{120, fg::StackId{3}, fg::LabelSetId{0}, 64});
  t.add(2, 1000, 0xD, M{1000, fg::StackId{4}, fg::LabelSetId{0}, 128});
  t.end_chunk();
  const std::vector<M> leaks = t.leaks();
  REQUIRE(leaks.size() == 2);  // by address: A, C
  CHECK(leaks[0].stack == fg::StackId{1});
  CHECK(leaks[0].size == 16);
  CHECK(leaks[1].stack == fg::StackId{3});
  CHECK(jfr::LeakTracker().leaks().empty());
}

TEST_CASE("jfr semantics: the summary as metadata and notes") {
  jfr::ReadSummary s;
  jfr::ChunkHeader h;
  h.major = 2;
  h.minor = 1;
  h.start_ns = 1000;
  h.duration_ns = 500;
  jfr::ChunkMetadata meta;
  s.begin_chunk(h, meta);
  s.type_counts["jdk.ExecutionSample"] = 7;
  s.type_counts["jdk.ObjectAllocationSample"] = 3;
  s.type_counts["jdk.JavaMonitorEnter"] = 2;
  s.info["jvm_name"] = "OpenJDK 64-Bit Server VM";
  s.info["jvm_version"] = "OpenJDK 64-Bit Server VM (21.0.1) for linux-amd64";
  s.info["os"] = "PRETTY_NAME=\"Debian GNU/Linux 13\"\nuname: Linux 6.1 x86_64\n";
  s.selected[static_cast<std::size_t>(EventType::kExecutionSample)] = {7, 9};
  fg::Metadata m;
  jfr::fill_metadata(s, "x.jfr", m);
  CHECK(m.source_format == "jfr");
  CHECK(m.start_time_ns == 1000);
  CHECK(m.duration_ns == 500);
  const std::vector<std::pair<std::string, std::string>> want = {
      {"jfr.version", "2.1"},
      {"jfr.chunks", "1"},
      {"jfr.producer", "JDK Flight Recorder"},
      {"jvm", "OpenJDK 64-Bit Server VM (21.0.1) for linux-amd64"},
      {"os", "Debian GNU/Linux 13; Linux 6.1 x86_64"},
      {"events.jdk.ExecutionSample", "7"},
      {"events.jdk.JavaMonitorEnter", "2"},
      {"events.jdk.ObjectAllocationSample", "3"},
  };
  CHECK(m.properties == want);

  std::vector<std::string> notes;
  std::vector<std::string> warnings;
  fg::Diagnostics d(false, [&](const std::string& w) { warnings.push_back(w); });
  s.no_stack = 2;
  jfr::report(
      s, {}, "x.jfr", [&](const std::string& n) { notes.push_back(n); }, d);
  CHECK(d.count("event without stack trace") == 1);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].find("x.jfr: 2 selected events have no stack trace and are left out") !=
        std::string::npos);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0] ==
        "x.jfr: samples counted from jdk.ExecutionSample (9); the file also holds "
        "--alloc (jdk.ObjectAllocationSample 3) --lock (jdk.JavaMonitorEnter 2)");
  CHECK_FALSE(jfr::sole_other_kind(s, Events::kDefault));  // it has the default events
  // A caller that reads every kind (fg-report) is not told of the others.
  notes.clear();
  jfr::report(
      s, {}, "x.jfr", [&](const std::string& n) { notes.push_back(n); }, d, true);
  CHECK(notes == std::vector<std::string>{"x.jfr: samples counted from jdk.ExecutionSample (9)"});
  // With async-profiler's wall-clock samples beside, such a caller reads cpu
  // and wall apart: what the default events counted is no page of it.
  s.type_counts["profiler.WallClockSample"] = 5;
  notes.clear();
  jfr::report(
      s, {}, "x.jfr", [&](const std::string& n) { notes.push_back(n); }, d, true);
  CHECK(notes.empty());
  jfr::report(
      s, {}, "x.jfr", [&](const std::string& n) { notes.push_back(n); }, d);
  CHECK(notes.size() == 1);  // fg-convert still says what it counted
  s.type_counts.erase("profiler.WallClockSample");

  jfr::ReadSummary alloc_only;
  alloc_only.type_counts["jdk.ObjectAllocationInNewTLAB"] = 4;
  alloc_only.type_counts["jdk.ObjectAllocationSample"] = 3;
  alloc_only.type_counts["jdk.GarbageCollection"] = 1;  // not an event fg reads
  CHECK(jfr::sole_other_kind(alloc_only, Events::kDefault) == Events::kAlloc);
  CHECK_FALSE(jfr::sole_other_kind(alloc_only, Events::kLock));
  alloc_only.type_counts["jdk.ThreadPark"] = 1;
  CHECK_FALSE(jfr::sole_other_kind(alloc_only, Events::kDefault));  // two kinds

  jfr::ReadSummary states;
  states.states_matched = {"RUNNABLE"};
  CHECK_NOTHROW(jfr::check_states_matched(states, {"RUNNABLE"}));
  CHECK_THROWS_WITH_AS(jfr::check_states_matched(states, {"RUNNABLE", "NOSUCH"}),
                       "--state NOSUCH: the recording has no such thread state", fg::UsageError);
}

TEST_CASE("jfr semantics: the kinds of event of a recording, and reading one") {
  const auto profile = [](std::vector<fg::ValueType> columns, std::string format,
                          std::vector<std::string> types) {
    fg::ProfileBuilder b(std::move(columns));
    b.metadata().source_format = std::move(format);
    for (const std::string& t : types) b.metadata().properties.emplace_back("events." + t, "1");
    return std::move(b).finish();
  };
  const std::vector<std::string> held = {"jdk.ExecutionSample", "jdk.GarbageCollection", "jdk.ThreadPark",
                                         "jdk.ObjectAllocationSample", "jdk.JavaMonitorEnter"};
  // The default events first, then the others in the options' order, each once.
  CHECK(jfr::event_kinds(profile({{"samples", "count"}}, "jfr", held)) ==
        std::vector<std::string>{"samples", "alloc", "lock"});
  // Read for a chosen kind (or the one it holds): that kind alone.
  CHECK(jfr::event_kinds(profile({{"alloc_objects", "count"}, {"alloc_space", "bytes"}}, "jfr", held)) ==
        std::vector<std::string>{"alloc"});
  CHECK(jfr::event_kinds(profile({{"wall", "count"}}, "jfr", held)) == std::vector<std::string>{"wall"});
  CHECK(jfr::event_kinds(profile({{"samples", "count"}}, "collapsed", held)).empty());
  CHECK(jfr::event_kinds(profile({{"samples", "count"}}, "jfr", {})) == std::vector<std::string>{"samples"});

  fg::formats::ReadOptions o;
  jfr::select_event_kind(o, "lock");
  CHECK(o.jfr.events == Events::kLock);
  jfr::select_event_kind(o, "samples");
  CHECK(o.jfr.events == Events::kDefault);
  CHECK_THROWS_WITH_AS(jfr::select_event_kind(o, "heap"), "no kind of JFR event called heap", fg::UsageError);
}
