// A small JFR writer for the unit tests: one chunk with a metadata event,
// two checkpoints (chained by a delta), execution and allocation samples,
// native memory and a monitor.
// The recording is described by its own metadata like any producer's, so
// tests can vary the layout (an extra field, fixed-width integers) and
// damage it at known places.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace fg::test::jfr {

struct SynthOptions {
  bool compressed = true;                  ///< varint integers (flag bit 0) or fixed-width
  bool extra_field = false;                ///< ExecutionSample gets a String field before stackTrace
  std::uint64_t frame_count_override = 0;  ///< stack trace 1 claims this many frames
  bool swap_methods = false;               ///< method keys 1 and 2 name baz and bar instead of bar and baz
  /// More execution samples (thread key, stack trace key), after the others.
  std::vector<std::pair<int, int>> more_samples;
  /// ThreadState keys of more_samples, by index (5, STATE_RUNNABLE, past its end).
  std::vector<int> more_states;
  /// More monitor enters (of trace 1, thread 1) with these durations in ticks.
  std::vector<std::int64_t> more_locks;
  /// Stack trace 3: trace 1's methods and frame types on other lines.
  bool line_twin = false;
  /// This many more stack traces (keys 100 on), each sampled once on
  /// thread 1: trace i's frames spell i in binary from the root, Foo.bar
  /// for 0 and Foo.baz for 1, 17 of them, each interpreted, JIT compiled
  /// or inlined by (i + depth) % 3 (so each place of the tree has the two
  /// methods in several kinds).
  std::size_t binary_traces = 0;
};

/// Offsets (in the chunk) of the parts a test may damage.
struct SynthLayout {
  std::size_t metadata = 0, first_checkpoint = 0, last_checkpoint = 0, first_event = 0;
};

class Bytes {
 public:
  explicit Bytes(bool compressed) : compressed_(compressed) {}
  std::string& str() { return s_; }
  void u8(std::uint8_t v) { s_.push_back(static_cast<char>(v)); }
  void be(std::uint64_t v, int n) {
    for (int i = n - 1; i >= 0; --i) u8(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  void varint(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) {
      if (v < 0x80) return u8(static_cast<std::uint8_t>(v));
      u8(static_cast<std::uint8_t>(v | 0x80));
      v >>= 7;
    }
    u8(static_cast<std::uint8_t>(v));  // the 9th byte: all 8 bits
  }
  void lng(std::int64_t v) {
    compressed_ ? varint(static_cast<std::uint64_t>(v)) : be(static_cast<std::uint64_t>(v), 8);
  }
  void int32(std::int32_t v) {
    compressed_ ? varint(static_cast<std::uint32_t>(v)) : be(static_cast<std::uint32_t>(v), 4);
  }
  void str(const std::string& v) {
    u8(3);
    int32(static_cast<std::int32_t>(v.size()));
    s_ += v;
  }
  void null_str() { u8(0); }
  /// A record: size (padded to 4 bytes, as the JDK writes it) + payload.
  void record(const std::string& payload) {
    const std::uint32_t size = static_cast<std::uint32_t>(payload.size() + 4);
    if (compressed_) {
      for (int i = 0; i < 3; ++i) u8(static_cast<std::uint8_t>(((size >> (7 * i)) & 0x7f) | 0x80));
      u8(static_cast<std::uint8_t>(size >> 21));
    } else {
      be(size, 4);
    }
    s_ += payload;
  }

 private:
  bool compressed_;
  std::string s_;
};

// Metadata: a string table and an element tree (root > metadata > classes).
inline std::string metadata_event(const SynthOptions& o) {
  struct Field {
    std::string name;
    int type;
    bool cp = false;
    bool array = false;
  };
  struct Class {
    int id;
    std::string name;
    std::vector<Field> fields = {};
    bool simple = false;
    std::string super = {};
  };
  std::vector<Class> classes = {
      {10, "long", {}},
      {11, "int", {}},
      {12, "boolean", {}},
      {13, "java.lang.String", {}},
      {20, "java.lang.Thread", {{"osName", 13}, {"osThreadId", 10}, {"javaName", 13}, {"javaThreadId", 10}}},
      {21, "java.lang.Class", {{"classLoader", 10}, {"name", 23, true}, {"package", 10}}},
      {22,
       "jdk.types.Method",
       {{"type", 21, true}, {"name", 23, true}, {"descriptor", 23, true}, {"modifiers", 11}, {"hidden", 12}}},
      {23, "jdk.types.Symbol", {{"string", 13}}},
      {24, "jdk.types.StackTrace", {{"truncated", 12}, {"frames", 25, false, true}}},
      {25,
       "jdk.types.StackFrame",
       {{"method", 22, true}, {"lineNumber", 11}, {"bytecodeIndex", 11}, {"type", 26, true}}},
      {26, "jdk.types.FrameType", {{"description", 13}}, true},
      {27, "jdk.types.ThreadState", {{"name", 13}}, true},
      {100,
       "jdk.ExecutionSample",
       {{"startTime", 10}, {"sampledThread", 20, true}, {"stackTrace", 24, true}, {"state", 27, true}},
       false,
       "jdk.jfr.Event"},
      {101,
       "jdk.ObjectAllocationSample",
       {{"startTime", 10},
        {"eventThread", 20, true},
        {"stackTrace", 24, true},
        {"objectClass", 21, true},
        {"weight", 10}},
       false,
       "jdk.jfr.Event"},
      {102,
       "profiler.Malloc",
       {{"startTime", 10},
        {"eventThread", 20, true},
        {"stackTrace", 24, true},
        {"address", 10},
        {"size", 10}},
       false,
       "jdk.jfr.Event"},
      {103,
       "profiler.Free",
       {{"startTime", 10}, {"eventThread", 20, true}, {"stackTrace", 24, true}, {"address", 10}},
       false,
       "jdk.jfr.Event"},
      {104,
       "jdk.JavaMonitorEnter",
       {{"startTime", 10},
        {"duration", 10},
        {"eventThread", 20, true},
        {"stackTrace", 24, true},
        {"monitorClass", 21, true},
        {"previousOwner", 20, true},
        {"address", 10}},
       false,
       "jdk.jfr.Event"},
  };
  for (Class& c : classes)
    if (o.extra_field && c.name == "jdk.ExecutionSample")
      c.fields.insert(c.fields.begin() + 2, {"extra", 13});
  std::vector<std::string> strings;
  auto idx = [&strings](const std::string& s) {
    for (std::size_t i = 0; i < strings.size(); ++i)
      if (strings[i] == s) return static_cast<std::uint64_t>(i);
    strings.push_back(s);
    return static_cast<std::uint64_t>(strings.size() - 1);
  };
  Bytes tree(o.compressed);
  auto element = [&](const std::string& name, std::vector<std::pair<std::string, std::string>> attrs,
                     std::size_t children) {
    tree.int32(static_cast<std::int32_t>(idx(name)));
    tree.int32(static_cast<std::int32_t>(attrs.size()));
    for (auto& [k, v] : attrs) {
      tree.int32(static_cast<std::int32_t>(idx(k)));
      tree.int32(static_cast<std::int32_t>(idx(v)));
    }
    tree.int32(static_cast<std::int32_t>(children));
  };
  element("root", {}, 1);
  element("metadata", {}, classes.size());
  for (const Class& c : classes) {
    std::vector<std::pair<std::string, std::string>> attrs = {{"id", std::to_string(c.id)}, {"name", c.name}};
    if (c.simple) attrs.emplace_back("simpleType", "true");
    if (!c.super.empty()) attrs.emplace_back("superType", c.super);
    element("class", attrs, c.fields.size());
    for (const Field& f : c.fields) {
      std::vector<std::pair<std::string, std::string>> fa = {{"name", f.name},
                                                             {"class", std::to_string(f.type)}};
      if (f.cp) fa.emplace_back("constantPool", "true");
      if (f.array) fa.emplace_back("dimension", "1");
      element("field", fa, 0);
    }
  }
  Bytes body(o.compressed);
  body.lng(0);  // type: metadata
  body.lng(0);
  body.lng(0);
  body.lng(1);  // metadata id
  body.int32(static_cast<std::int32_t>(strings.size()));
  for (const std::string& s : strings) body.str(s);
  body.str() += tree.str();
  Bytes rec(o.compressed);
  rec.record(body.str());
  return rec.str();
}

/// The recording: see the file comment. `layout` receives offsets.
inline std::string synthetic_jfr(const SynthOptions& o = {}, SynthLayout* layout = nullptr) {
  const bool z = o.compressed;
  Bytes chunk(z);
  chunk.str().assign(68, '\0');
  SynthLayout l;
  // Checkpoint 1: symbols, classes, methods.
  l.first_checkpoint = chunk.str().size();
  {
    Bytes b(z);
    b.lng(1);
    b.lng(0);
    b.lng(0);
    b.lng(0);
    b.u8(1);
    b.int32(3);
    b.lng(23);
    b.int32(7);
    const char* syms[] = {
        "Foo", "bar", "baz", "java/lang/String", "()V", "[I", "pkg/Lambda$$Lambda$7.0x00007f0000001000"};
    for (int i = 0; i < 7; ++i) {
      b.lng(i + 1);
      b.str(syms[i]);
    }
    b.lng(21);
    b.int32(3);
    const int class_names[] = {1, 4, 6};
    for (int i = 0; i < 3; ++i) {
      b.lng(i + 1);
      b.lng(0);
      b.lng(class_names[i]);
      b.lng(0);
    }
    b.lng(22);
    b.int32(2);
    for (int i = 0; i < 2; ++i) {
      b.lng(i + 1);
      b.lng(1);
      b.lng(o.swap_methods ? 3 - i : i + 2);
      b.lng(5);
      b.int32(1);
      b.u8(0);
    }
    chunk.record(b.str());
  }
  // Events: two samples of trace 1 on thread 1, one of trace 2 on thread 2,
  // one of a trace that is not in the pool, one allocation.
  l.first_event = chunk.str().size();
  auto sample = [&](std::int64_t t, int thread, int trace, int state = 5) {
    Bytes b(z);
    b.lng(100);
    b.lng(1000 + t);
    b.lng(thread);
    if (o.extra_field) b.str("x");
    b.lng(trace);
    b.lng(state);
    chunk.record(b.str());
  };
  sample(0, 1, 1);
  sample(1'000'000'000, 1, 1);
  sample(2'000'000'000, 2, 2);
  sample(3'000'000'000, 1, 99);
  for (std::size_t i = 0; i < o.more_samples.size(); ++i)
    sample(3'000'000'000 + static_cast<std::int64_t>(i), o.more_samples[i].first, o.more_samples[i].second,
           i < o.more_states.size() ? o.more_states[i] : 5);
  for (std::size_t i = 0; i < o.binary_traces; ++i)
    sample(3'000'000'000 + static_cast<std::int64_t>(i), 1, 100 + static_cast<int>(i));
  {
    Bytes b(z);
    b.lng(101);
    b.lng(1000 + 4'000'000'000);
    b.lng(1);
    b.lng(1);
    b.lng(3);
    b.lng(1000);
    chunk.record(b.str());
  }
  // Native memory: 0x10 is freed, 0x20 leaks, 0x30 is too young to call a
  // leak (in the last 10% of the native-memory events' time span).
  auto malloc_event = [&](std::int64_t t, int trace, std::int64_t address, std::int64_t size) {
    Bytes b(z);
    b.lng(size ? 102 : 103);
    b.lng(1000 + t);
    b.lng(1);
    b.lng(trace);
    b.lng(address);
    if (size) b.lng(size);
    chunk.record(b.str());
  };
  malloc_event(500'000'000, 1, 0x10, 100);
  malloc_event(1'500'000'000, 2, 0x20, 200);
  malloc_event(2'500'000'000, 0, 0x10, 0);  // a free without a stack trace
  malloc_event(4'900'000'000, 1, 0x30, 300);
  {
    Bytes b(z);  // a monitor entered after 2000 ticks (2 us)
    b.lng(104);
    b.lng(1000 + 4'500'000'000);
    b.lng(2000);
    b.lng(1);
    b.lng(1);
    b.lng(2);
    b.lng(2);
    b.lng(0x40);
    chunk.record(b.str());
  }
  for (std::int64_t d : o.more_locks) {
    Bytes b(z);
    b.lng(104);
    b.lng(1000 + 4'500'000'000);
    b.lng(d);
    b.lng(1);
    b.lng(1);
    b.lng(2);
    b.lng(2);
    b.lng(0x40);
    chunk.record(b.str());
  }
  l.metadata = chunk.str().size();
  chunk.str() += metadata_event(o);
  // Checkpoint 2 (the last): threads, stack traces, enums; delta back to 1.
  l.last_checkpoint = chunk.str().size();
  {
    Bytes b(z);
    b.lng(1);
    b.lng(0);
    b.lng(0);
    b.lng(static_cast<std::int64_t>(l.first_checkpoint) - static_cast<std::int64_t>(l.last_checkpoint));
    b.u8(1);
    b.int32(4);
    b.lng(20);
    b.int32(2);
    b.lng(1);
    b.str("main");
    b.lng(101);
    b.str("main");
    b.lng(1);
    b.lng(2);
    b.str("GC Thread#0");
    b.lng(102);
    b.null_str();
    b.lng(0);
    b.lng(24);
    b.int32((o.line_twin ? 3 : 2) + static_cast<std::int32_t>(o.binary_traces));
    b.lng(1);
    b.u8(0);
    b.int32(o.frame_count_override ? static_cast<std::int32_t>(o.frame_count_override) : 2);
    b.lng(2);
    b.int32(12);
    b.int32(3);
    b.lng(1);  // Foo.baz:12, JIT compiled
    b.lng(1);
    b.int32(-1);
    b.int32(0);
    b.lng(0);  // Foo.bar, interpreted, line -1
    b.lng(2);
    b.u8(0);
    b.int32(2);
    b.lng(2);
    b.int32(13);
    b.int32(4);
    b.lng(2);  // Foo.baz:13, inlined
    b.lng(1);
    b.int32(7);
    b.int32(0);
    b.lng(1);  // Foo.bar:7, JIT compiled
    if (o.line_twin) {
      b.lng(3);
      b.u8(0);
      b.int32(2);
      b.lng(2);
      b.int32(40);
      b.int32(9);
      b.lng(1);  // Foo.baz:40, JIT compiled
      b.lng(1);
      b.int32(5);
      b.int32(0);
      b.lng(0);  // Foo.bar:5, interpreted
    }
    for (std::size_t i = 0; i < o.binary_traces; ++i) {
      constexpr int kDepth = 17;
      b.lng(100 + static_cast<std::int64_t>(i));
      b.u8(0);
      b.int32(kDepth);
      for (int depth = kDepth; depth-- > 0;) {  // leaf first
        b.lng(i >> (kDepth - 1 - depth) & 1 ? 2 : 1);
        b.int32(0);
        b.int32(0);
        b.lng(static_cast<std::int64_t>((i + static_cast<std::size_t>(depth)) % 3));
      }
    }
    b.lng(26);
    b.int32(4);
    const char* types[] = {"Interpreted", "JIT compiled", "Inlined", "Native"};
    for (int i = 0; i < 4; ++i) {
      b.lng(i);
      b.str(types[i]);
    }
    b.lng(27);
    b.int32(1);
    b.lng(5);
    b.str("STATE_RUNNABLE");
    chunk.record(b.str());
  }
  std::string& s = chunk.str();
  Bytes h(z);
  h.str() = std::string("FLR\0", 4);
  h.be(2, 2);
  h.be(1, 2);
  h.be(s.size(), 8);
  h.be(l.last_checkpoint, 8);
  h.be(l.metadata, 8);
  h.be(1'000'000'000'000, 8);
  h.be(5'000'000'000, 8);
  h.be(1000, 8);
  h.be(1'000'000'000, 8);
  h.u8(0);
  h.u8(0);
  h.be(z ? 3 : 2, 2);
  s.replace(0, 68, h.str());
  if (layout) *layout = l;
  return s;
}

}  // namespace fg::test::jfr
