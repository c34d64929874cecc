// The JFR reader on a small recording written by jfr_writer.h: varints and
// strings, metadata-driven decoding (an added field, fixed-width integers),
// constant pools spread over two checkpoints, the converter's names and
// frame kinds, event selection, and exact messages for damaged files.
#include "formats/jfr/jfr.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include "fg/java_frames.h"
#include "formats/gzip.h"
#include "formats/jfr/constant_pools.h"
#include "formats/jfr/cursor.h"
#include "formats/jfr/events.h"
#include "formats/jfr/naming.h"
#include "formats/jfr/reader.h"
#include "formats/jfr/samples.h"
#include "jfr_writer.h"
#include "test_util.h"

namespace {

using fg::formats::JfrOptions;
using fg::test::jfr::synthetic_jfr;
using fg::test::jfr::SynthOptions;

fg::Profile read_jfr(const std::string& bytes, const fg::formats::JfrOptions& o = {},
                     std::vector<std::string>* warnings = nullptr, std::vector<std::string>* notes = nullptr,
                     bool labels = true) {
  fg::Diagnostics d(
      false,
      [warnings](const std::string& m) {
        if (warnings) warnings->push_back(m);
      },
      100);
  fg::formats::ReadOptions r;
  r.jfr = o;
  r.labels = labels;
  r.note = [notes](const std::string& m) {
    if (notes) notes->push_back(m);
  };
  auto in = fg::formats::Input::from_bytes("t.jfr", bytes);
  return fg::formats::jfr::read(*in, r, d);
}

std::string error_of(const std::string& bytes, const fg::formats::JfrOptions& o = {}) {
  try {
    read_jfr(bytes, o);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "no error";
}

void put_be64(std::string& s, std::size_t at, std::uint64_t v) {
  for (int i = 7; i >= 0; --i) s[at + 7 - i] = static_cast<char>(v >> (8 * i));
}

// A value that takes exactly `bytes` (1 to 9) bytes as a JFR varint.
std::uint64_t value_of_length(std::mt19937_64& rng, unsigned bytes) {
  if (bytes == 1) return rng() % 128;
  const std::uint64_t top = std::uint64_t{1} << (7 * (bytes - 1));
  return bytes == 9 ? rng() | top : top + rng() % (top * 127);
}

// `v` as a JFR varint of exactly `bytes` bytes (the 9th carries 8 bits).
std::string varint_of_length(std::uint64_t v, unsigned bytes) {
  std::string out;
  for (unsigned i = 0; i + 1 < bytes && i < 8; ++i)
    out.push_back(static_cast<char>((v >> (7 * i) & 0x7f) | 0x80));
  out.push_back(static_cast<char>(bytes == 9 ? v >> 56 : v >> (7 * (bytes - 1))));
  return out;
}

// 30,000 samples in runs on 6,000 thread keys (most not in the pool, so
// each its own "[tid=N]" label set) over traces 1 and 2 (one stack once
// their tiers merge) and 99 (not in the pool).
SynthOptions many_threads() {
  std::mt19937 rng(7);
  SynthOptions so;
  while (so.more_samples.size() < 30000) {
    const int thread = 1 + static_cast<int>(rng() % 6000);
    const int trace = std::array{1, 2, 99}[rng() % 3];
    for (unsigned run = 1 + rng() % 4; run > 0; --run) so.more_samples.emplace_back(thread, trace);
  }
  return so;
}

}  // namespace

TEST_CASE("jfr cursor: varints of up to 9 bytes, the 9th carrying 8 bits") {
  const std::string file = "t.jfr";
  std::string data = "\x05\xac\x02";
  data += std::string("\xff\xff\xff\xff\xff\xff\xff\xff\xff", 9);
  data += "\x80";
  fg::formats::jfr::Cursor c(data, file, 0x10);
  CHECK(c.varint() == 5);
  CHECK(c.varint() == 300);
  CHECK(c.varint() == UINT64_MAX);
  CHECK_THROWS_WITH(c.varint(), "t.jfr: offset 0x1c: truncated varint");
}

TEST_CASE("jfr cursor: varints of 1 to 8 bytes with more bytes after them, as one load reads them") {
  const std::string file = "t.jfr";
  std::mt19937_64 rng(3);
  for (unsigned bytes = 1; bytes <= 8; ++bytes) {
    for (int k = 0; k < 200; ++k) {
      // A value that needs exactly `bytes` 7-bit groups, written as LEB128.
      const std::uint64_t top = std::uint64_t{1} << (7 * (bytes - 1));
      const std::uint64_t v = bytes == 1 ? rng() % 128 : top + rng() % (top * 127);
      std::string data;
      for (std::uint64_t x = v;; x >>= 7) {
        data.push_back(static_cast<char>((x & 0x7f) | (x >= 0x80 ? 0x80 : 0)));
        if (x < 0x80) break;
      }
      REQUIRE(data.size() == bytes);
      data += std::string(8, static_cast<char>(rng() | 0x80));  // continuation bytes after it
      fg::formats::jfr::Cursor c(data, file);
      CHECK(c.varint() == v);
      CHECK(c.pos() == bytes);
    }
  }
}

TEST_CASE(
    "jfr cursor: groups of four varints of 1 to 9 bytes read as read_long() reads them, up to the window's "
    "end") {
  const std::string file = "t.jfr";
  std::mt19937_64 rng(11);
  for (int round = 0; round < 50; ++round) {
    std::string data;
    std::vector<std::uint64_t> want;
    std::size_t last = 0;  // where the last varint starts
    const int groups = 1 + static_cast<int>(rng() % 40);
    for (int g = 0; g < 4 * groups; ++g) {
      // Mostly one or two bytes, as stack frames are; now and then up to nine.
      const unsigned bytes =
          rng() % 4 != 0 ? 1 + static_cast<unsigned>(rng() % 2) : 1 + static_cast<unsigned>(rng() % 9);
      const std::uint64_t v = value_of_length(rng, bytes);
      want.push_back(v);
      last = data.size();
      data += varint_of_length(v, bytes);
    }
    fg::formats::jfr::Cursor c(data, file);
    std::vector<std::uint64_t> got;
    c.read_long_groups<4>(static_cast<std::uint64_t>(groups), [&](const std::array<std::uint64_t, 4>& f) {
      got.insert(got.end(), f.begin(), f.end());
    });
    CHECK(got == want);
    CHECK(c.at_end());
    // The same bytes cut inside the last varint: the error names where it starts.
    if (data.size() - last >= 2) {
      const std::string cut = data.substr(0, data.size() - 1);
      fg::formats::jfr::Cursor t(cut, file);
      std::ostringstream msg;
      msg << "t.jfr: offset 0x" << std::hex << last << ": truncated varint";
      CHECK_THROWS_WITH(t.read_long_groups<4>(static_cast<std::uint64_t>(groups), [](const auto&) {}),
                        msg.str().c_str());
    }
  }
}

// Groups of four varints as stack frames are written, `groups` of them and
// a few bytes after, and the first and last of each. Each varint takes one
// or two bytes; with `longer`, now and then up to nine (the 9th byte's top
// bit set or clear at random).
struct QuadData {
  std::string bytes;
  std::vector<std::uint64_t> ends;
};
QuadData quad_data(std::mt19937_64& rng, int groups, bool longer) {
  QuadData d;
  for (int g = 0; g < 4 * groups; ++g) {
    const unsigned bytes = longer && rng() % 8 == 0 ? 1 + static_cast<unsigned>(rng() % 9)
                                                    : 1 + static_cast<unsigned>(rng() % 2);
    const std::uint64_t v = value_of_length(rng, bytes);
    if (g % 4 == 0 || g % 4 == 3) d.ends.push_back(v);
    d.bytes += varint_of_length(v, bytes);
  }
  d.bytes += std::string(rng() % 3, '\x05');  // bytes after the groups, in some rounds
  return d;
}

TEST_CASE(
    "jfr cursor: the first and last of groups of four varints, as read_long_groups() gives them, with and "
    "without AVX-512") {
  const std::string file = "t.jfr";
  std::mt19937_64 rng(13);
  for (int round = 0; round < 600; ++round) {
    // Up to 150 groups: several 64-byte windows, and the last 80 bytes.
    const QuadData d =
        quad_data(rng, static_cast<int>(round % 3 == 0 ? rng() % 30 : rng() % 150), round % 2 == 1);
    const auto groups = static_cast<std::uint64_t>(d.ends.size() / 2);
    fg::formats::jfr::Cursor want(d.bytes, file);
    want.read_long_groups<4>(groups, [](const auto&) {});
    for (const bool narrow : {true, false}) {
      fg::formats::jfr::Cursor c(d.bytes, file);
      std::vector<std::uint64_t> got;
      const auto take = [&](std::uint64_t first, std::uint64_t last) {
        got.push_back(first);
        got.push_back(last);
      };
      if (narrow)
        c.read_quad_ends_narrow(groups, take);
      else
        c.read_quad_ends(groups, take);
      CHECK(got == d.ends);
      CHECK(c.pos() == want.pos());
    }
  }
}

TEST_CASE(
    "jfr cursor: the AVX-512 read of groups stops at a window with a long varint, and before the last 80 "
    "bytes") {
  if (!fg::formats::jfr::wide_quads()) {
    MESSAGE(
        "no AVX-512BW and BMI2 here (or not x86-64): read_quad_ends() reads without them (the test above)");
    CHECK(fg::formats::jfr::Cursor(std::string(200, '\x01'), "t.jfr")
              .read_quad_ends_wide(10, nullptr, nullptr) == 0);
    return;
  }
  const std::string file = "t.jfr";
  std::uint32_t firsts[64 + 16], lasts[64 + 16];
  // 40 groups of 1-byte varints (160 bytes): 64-byte windows while 80 bytes are left.
  std::string data;
  for (int g = 0; g < 40; ++g) data += std::string{static_cast<char>(g), 1, 2, static_cast<char>(g % 7)};
  fg::formats::jfr::Cursor c(data, file);
  const std::uint64_t n = c.read_quad_ends_wide(40, firsts, lasts);
  CHECK(n == 32);
  CHECK(c.pos() == 4 * n);
  for (std::uint64_t i = 0; i < n; ++i) {
    CHECK(firsts[i] == i);
    CHECK(lasts[i] == i % 7);
  }
  // No more than asked for.
  fg::formats::jfr::Cursor c3(data, file);
  CHECK(c3.read_quad_ends_wide(3, firsts, lasts) == 3);
  CHECK(c3.pos() == 12);
  // A wanted varint of three bytes is read.
  const std::string three = std::string("\x81\x82\x03", 3) + "\x01\x01" + std::string("\xff\x7f", 2);
  data = three + std::string(200, '\x01');
  fg::formats::jfr::Cursor d(data, file);
  CHECK(d.read_quad_ends_wide(1, firsts, lasts) == 1);
  CHECK(firsts[0] == (1u | 2u << 7 | 3u << 14));
  CHECK(lasts[0] == 0x3fffu);
  CHECK(d.pos() == three.size());
  // One of four bytes stops the read at its window, as does a 9-byte
  // varint, which the top bits cannot place.
  const std::string four = std::string("\x81\x82\x83\x04", 4) + "\x01\x01\x01";
  for (const std::string& stop : {four, std::string("\x01\x01\x01", 3) + std::string(8, '\xff') + "\x81"}) {
    data = three + stop + std::string(200, '\x01');
    fg::formats::jfr::Cursor e(data, file);
    CHECK(e.read_quad_ends_wide(10, firsts, lasts) == 0);
    CHECK(e.pos() == 0);
    // read_quad_ends() reads those groups one at a time, then the rest wide.
    std::vector<std::uint64_t> got;
    e.read_quad_ends(10, [&](std::uint64_t first, std::uint64_t) { got.push_back(first); });
    CHECK(got.size() == 10);
    CHECK(got[0] == (1u | 2u << 7 | 3u << 14));
    CHECK(got[2] == 1);
  }
}

TEST_CASE("jfr cursor: the top bits of 16 bytes without SSE2, as a byte-by-byte loop finds them") {
  std::mt19937_64 rng(17);
  for (int round = 0; round < 2000; ++round) {
    char bytes[16];
    for (char& b : bytes) b = static_cast<char>(rng() % 4 == 0 ? rng() : (rng() & 1) << 7);
    unsigned want = 0;
    for (unsigned i = 0; i < 16; ++i) want |= (static_cast<unsigned char>(bytes[i]) >> 7) << i;
    CHECK(fg::formats::jfr::detail::top_bits16(bytes) == want);
  }
}

TEST_CASE("jfr cursor: groups in a chunk without compressed integers are 8-byte big-endian fields") {
  const std::string file = "t.jfr";
  std::string data;
  for (std::uint64_t v :
       {std::uint64_t{1}, std::uint64_t{0x0102030405060708}, std::uint64_t{300}, UINT64_MAX})
    for (int i = 7; i >= 0; --i) data.push_back(static_cast<char>(v >> (8 * i)));
  fg::formats::jfr::Cursor c(data, file, 0, false);
  std::array<std::uint64_t, 4> got{};
  c.read_long_groups<4>(1, [&](const std::array<std::uint64_t, 4>& f) { got = f; });
  CHECK(got == std::array<std::uint64_t, 4>{1, 0x0102030405060708, 300, UINT64_MAX});
  CHECK(c.at_end());
}

TEST_CASE("jfr events: the unchecked decoder reads every integer kind as the checked one") {
  using fg::formats::jfr::Encoding;
  fg::formats::jfr::ClassDesc cls;
  cls.name = "jdk.ObjectAllocationSample";
  auto field = [&](const char* name, Encoding e, bool pool = false) {
    fg::formats::jfr::FieldDesc f;
    f.name = name;
    f.encoding = e;
    f.constant_pool = pool;
    cls.fields.push_back(f);
  };
  field("startTime", Encoding::kLong);
  field("flag", Encoding::kBoolean);
  field("eventThread", Encoding::kLong, true);
  field("stackTrace", Encoding::kLong, true);
  field("letter", Encoding::kChar);
  field("objectClass", Encoding::kLong, true);
  field("weight", Encoding::kLong);
  field("tlabSize", Encoding::kInt);
  field("samples", Encoding::kShort);
  field("level", Encoding::kByte);
  field("duration", Encoding::kLong);
  field("address", Encoding::kLong);
  const fg::formats::jfr::EventPlan timed(fg::formats::jfr::EventType::kAllocSample, cls, true);
  const fg::formats::jfr::EventPlan untimed(fg::formats::jfr::EventType::kAllocSample, cls, false);
  REQUIRE(timed.unchecked_bytes() == 9 * cls.fields.size());
  const fg::formats::jfr::ChunkMetadata meta;
  const std::string file = "t.jfr";
  std::mt19937_64 rng(11);
  for (int round = 0; round < 2000; ++round) {
    std::string bytes;  // each varint of 1 to 9 bytes
    for (const auto& f : cls.fields) {
      if (f.encoding == Encoding::kBoolean || f.encoding == Encoding::kByte) {
        bytes.push_back(static_cast<char>(rng()));
      } else {
        const unsigned n = 1 + rng() % 9;
        bytes += varint_of_length(value_of_length(rng, n), n);
      }
    }
    const std::size_t length = bytes.size();
    fg::formats::jfr::Cursor c(bytes, file);
    const fg::formats::jfr::EventRecord want = timed.decode(c, meta);
    REQUIRE(c.pos() == length);
    bytes.append(9 * cls.fields.size(), '\xff');  // what follows the record is not read
    for (const auto* plan : {&timed, &untimed}) {
      const char* p = bytes.data();
      const fg::formats::jfr::EventRecord got = plan->decode_unchecked(p);
      CHECK(static_cast<std::size_t>(p - bytes.data()) == length);
      CHECK(got.time == (plan == &timed ? want.time : 0));
      CHECK(got.thread == want.thread);
      CHECK(got.stack == want.stack);
      CHECK(got.cls == want.cls);
      CHECK(got.size == want.size);
      CHECK(got.tlab == want.tlab);
      CHECK(got.samples == want.samples);
      CHECK(got.duration == want.duration);
      CHECK(got.address == want.address);
      CHECK(got.has_state == want.has_state);
    }
  }
  // A string field: no unchecked decoding.
  field("message", Encoding::kString);
  CHECK(fg::formats::jfr::EventPlan(fg::formats::jfr::EventType::kAllocSample, cls).unchecked_bytes() == 0);
}

TEST_CASE("jfr cursor: strings in every encoding") {
  const std::string file = "t.jfr";
  std::string data;
  data += '\0';                                    // null
  data += '\x01';                                  // empty
  data += "\x02\x07";                              // pool reference
  data += "\x03\x02hi";                            // UTF-8
  data += "\x04\x03\x41\xbd\xb0\x03\x80\xbc\x03";  // UTF-16: A, U+D83D U+DE00 (a surrogate pair)
  data += "\x05\x01\xe9";                          // Latin-1 é
  data += '\x09';
  fg::formats::jfr::Cursor c(data, file);
  using fg::formats::jfr::StringEncoding;
  CHECK(c.read_string().encoding == StringEncoding::kNull);
  CHECK(c.read_string().encoding == StringEncoding::kEmpty);
  auto ref = c.read_string();
  CHECK(ref.encoding == StringEncoding::kConstantPool);
  CHECK(ref.key == 7);
  CHECK(c.read_string().text == "hi");
  CHECK(c.read_string().text == "A\xf0\x9f\x98\x80");
  CHECK(c.read_string().text == "\xc3\xa9");
  CHECK_THROWS_WITH(c.read_string(), "t.jfr: offset 0x14: unknown string encoding 9");
}

TEST_CASE("jfr cursor: a count larger than what is left is refused before any allocation") {
  const std::string file = "t.jfr";
  std::string data = "\x03\xff\xff\x03";  // UTF-8 string of 65535 bytes in a 4-byte window
  fg::formats::jfr::Cursor c(data, file);
  CHECK_THROWS_WITH(c.read_string(), "t.jfr: offset 0x1: string byte count 65535 exceeds the 0 bytes left");
}

TEST_CASE("jfr sniff: the FLR magic") {
  using fg::formats::Sniff;
  CHECK(fg::formats::jfr::sniff(std::string("FLR\0\0\2\0\1", 8), "x") == Sniff::kYes);
  CHECK(fg::formats::jfr::sniff("FLR", "x.jfr") == Sniff::kNo);
  CHECK(fg::formats::jfr::sniff("main;a 1\n", "x.jfr") == Sniff::kNo);
  CHECK(fg::formats::find_format("jfr")->extensions[0] == ".jfr");
}

TEST_CASE("jfr: samples as the converter folds them, with metadata from two checkpoints") {
  std::vector<std::string> warnings, notes;
  fg::Profile p = read_jfr(synthetic_jfr(), {}, &warnings, &notes);
  // Foo.bar: interpreted in 2 of 3 samples -> _[0]; Foo.baz: inlined in 1 of 3 -> _[i].
  CHECK(fg::test::collapsed(p) == "Foo.bar_[0];Foo.baz_[i] 3\n");
  CHECK(p.metadata().source_format == "jfr");
  CHECK(p.metadata().start_time_ns == 1'000'000'000'000);
  CHECK(p.metadata().duration_ns == 5'000'000'000);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0] == "t.jfr: 1 selected events have no stack trace and are left out");
  REQUIRE(notes.size() == 1);
  CHECK(notes[0] ==
        "t.jfr: samples counted from jdk.ExecutionSample (4); the file also holds --alloc "
        "(jdk.ObjectAllocationSample 1) --lock (jdk.JavaMonitorEnter 1) --nativemem (profiler.Malloc 3, "
        "profiler.Free 1)");
  std::ostringstream dump;
  fg::dump_profile(p, dump);
  CHECK(dump.str().find("property events.jdk.ExecutionSample: 4\n") != std::string::npos);
  CHECK(dump.str().find("thread=\"GC Thread#0\" thread_id=2") != std::string::npos);
}

TEST_CASE("jfr: a trace key that an earlier chunk used means what its own chunk says") {
  // The second chunk keeps the first one's trace and method keys, but its
  // method pool names them the other way round: its stacks must read as
  // that chunk alone reads, not as the stack the key had before.
  const std::string a = synthetic_jfr();
  fg::test::jfr::SynthOptions swapped;
  swapped.swap_methods = true;
  const std::string b = synthetic_jfr(swapped);
  const std::string alone_a = fg::test::collapsed(read_jfr(a)), alone_b = fg::test::collapsed(read_jfr(b));
  CHECK(alone_a == "Foo.bar_[0];Foo.baz_[i] 3\n");
  CHECK(alone_b == "Foo.baz_[0];Foo.bar_[i] 3\n");
  CHECK(fg::test::collapsed(read_jfr(a + b)) == alone_a + alone_b);
  CHECK(fg::test::collapsed(read_jfr(b + a)) == alone_a + alone_b);  // sorted output
  // With the same pools, the second chunk's samples land on the same stack.
  CHECK(fg::test::collapsed(read_jfr(a + a)) == "Foo.bar_[0];Foo.baz_[i] 6\n");
}

TEST_CASE("jfr: --threads, --lines and --bci name frames as the converter") {
  JfrOptions o;
  o.threads = true;
  CHECK(fg::test::collapsed(read_jfr(synthetic_jfr(), o)) ==
        "[GC Thread#0 tid=2];Foo.bar_[j];Foo.baz_[i] 1\n"
        "[main tid=1];Foo.bar_[0];Foo.baz_[j] 2\n");
  o = {};
  o.lines = true;
  CHECK(fg::test::collapsed(read_jfr(synthetic_jfr(), o)) ==
        "Foo.bar:65535_[0];Foo.baz:12_[j] 2\n"
        "Foo.bar:7_[j];Foo.baz:13_[i] 1\n");
  o = {};
  o.bci = true;
  CHECK(fg::test::collapsed(read_jfr(synthetic_jfr(), o)) ==
        "Foo.bar_[0];Foo.baz@3_[j] 2\n"
        "Foo.bar_[0];Foo.baz@4_[i] 1\n");
}

TEST_CASE("jfr: allocations get the class as the top frame, counts and bytes") {
  JfrOptions o;
  o.events = JfrOptions::Events::kAlloc;
  fg::Profile p = read_jfr(synthetic_jfr(), o);
  CHECK(fg::test::collapsed(p) == "Foo.bar_[0];Foo.baz_[j];int[]_[k] 1\n");
  REQUIRE(p.value_count() == 2);
  CHECK(p.value_types()[1].type == "alloc_space");
  CHECK(p.totals() == std::vector<std::int64_t>{1, 1000});
  o.total = true;
  CHECK(fg::test::collapsed(read_jfr(synthetic_jfr(), o)) == "Foo.bar_[0];Foo.baz_[j];int[]_[k] 1000\n");
}

TEST_CASE("jfr: native memory, leaks only, and locks with their duration") {
  JfrOptions o;
  o.events = JfrOptions::Events::kNativeMem;
  std::vector<std::string> warnings;
  CHECK(fg::test::collapsed(read_jfr(synthetic_jfr(), o, &warnings)) == "Foo.bar_[0];Foo.baz_[i] 3\n");
  CHECK(warnings ==
        std::vector<std::string>{"t.jfr: 1 selected events have no stack trace and are left out"});
  o.total = true;
  CHECK(fg::test::collapsed(read_jfr(synthetic_jfr(), o)) == "Foo.bar_[0];Foo.baz_[i] 600\n");
  o.leak = true;  // 0x10 is freed (by a free without a stack), 0x20 leaks, 0x30 is too young
  CHECK(fg::test::collapsed(read_jfr(synthetic_jfr(), o)) == "Foo.bar_[j];Foo.baz_[i] 200\n");
  o = {};
  o.leak = true;
  CHECK(error_of(synthetic_jfr(), o) == "--leak needs --nativemem");
  o = {};
  o.events = JfrOptions::Events::kLock;
  fg::Profile p = read_jfr(synthetic_jfr(), o);
  CHECK(fg::test::collapsed(p) == "Foo.bar_[0];Foo.baz_[j];java.lang.String_[i] 1\n");
  CHECK(p.totals() == std::vector<std::int64_t>{1, 2000});
  CHECK(p.value_types()[1].unit == "nanoseconds");
}

TEST_CASE("jfr: events folded into samples keep the order and sums of one event at a time") {
  // many_threads(): more distinct samples than one hand-over holds. The
  // expected samples are counted here from its list: one per thread in the
  // order of its first event with a stack.
  const SynthOptions so = many_threads();
  std::vector<int> order;  // threads by first sample with a stack
  std::map<int, std::int64_t> count;
  std::uint64_t without = 1;  // the fixed events' trace 99
  for (auto [thread, trace] : std::vector<std::pair<int, int>>{{1, 1}, {1, 1}, {2, 2}})
    if (count[thread]++ == 0) order.push_back(thread);
  for (auto [thread, trace] : so.more_samples) {
    if (trace == 99) {
      ++without;
      continue;
    }
    if (count[thread]++ == 0) order.push_back(thread);
  }
  // Unfiltered, events are folded by their bytes; with a time bound (one
  // that keeps them all), by their decoded fields. The samples are the same.
  JfrOptions bounded;
  bounded.time_from = "0";
  for (const JfrOptions& o : {JfrOptions{}, bounded}) {
    CAPTURE(o.time_from);
    std::vector<std::string> warnings, notes;
    const fg::Profile p = read_jfr(synthetic_jfr(so), o, &warnings, &notes);
    REQUIRE(p.sample_count() == order.size());
    const fg::StackId stack = p.sample(0).stack;
    for (std::size_t i = 0; i < order.size(); ++i) {
      const fg::Sample& s = p.sample(i);
      CHECK(s.stack == stack);
      std::int64_t thread_id = -1;
      for (const fg::Label& l : p.labels(s.labels))
        if (p.str(l.key) == "thread_id") thread_id = l.num;
      CHECK(thread_id == order[i]);
      CHECK(p.values(i)[0] == count[order[i]]);
    }
    CHECK(warnings == std::vector<std::string>{"t.jfr: " + std::to_string(without) +
                                               " selected events have no stack trace and are left out"});
    REQUIRE(!notes.empty());
    CHECK(notes[0].rfind("t.jfr: samples counted from jdk.ExecutionSample (" +
                             std::to_string(4 + so.more_samples.size()) + ")",
                         0) == 0);
  }
}

TEST_CASE("jfr: without labels (an output that shows none) a stack's events on every thread are one sample") {
  // The events of the folding test above, read for an output that shows no
  // labels: the samples of traces 1 and 2 (one stack) on 6,000 threads are
  // one, without labels, whatever folds them (bytes, or decoded fields
  // with a time bound); with --threads the threads stay, as root frames.
  const SynthOptions so = many_threads();
  const std::int64_t with_stack =
      3 + std::count_if(so.more_samples.begin(), so.more_samples.end(),
                        [](const std::pair<int, int>& s) { return s.second != 99; });
  JfrOptions bounded;
  bounded.time_from = "0";
  for (const JfrOptions& o : {JfrOptions{}, bounded}) {
    CAPTURE(o.time_from);
    const fg::Profile p = read_jfr(synthetic_jfr(so), o, nullptr, nullptr, false);
    REQUIRE(p.sample_count() == 1);
    CHECK(p.sample(0).labels == fg::LabelSetId{});
    CHECK(p.values(0)[0] == with_stack);
    // The same stack and sum as the samples read with labels.
    const fg::Profile labeled = read_jfr(synthetic_jfr(so), o);
    CHECK(fg::test::collapsed(p) == fg::test::collapsed(labeled));
  }
  JfrOptions threads;
  threads.threads = true;
  const fg::Profile p = read_jfr(synthetic_jfr(so), threads, nullptr, nullptr, false);
  std::set<int> threads_with_stack{1, 2};  // the fixed events' threads
  for (auto [thread, trace] : so.more_samples)
    if (trace != 99) threads_with_stack.insert(thread);
  CHECK(p.sample_count() == threads_with_stack.size());
  CHECK(fg::test::collapsed(p) == fg::test::collapsed(read_jfr(synthetic_jfr(so), threads)));
}

TEST_CASE("jfr: traces that differ only in their lines are one sample per thread, or two with --lines") {
  // Trace 3 is trace 1 on other lines: without --lines both end at one node
  // of the chunk's tree, and a batch's samples of that node and a thread
  // are folded before the hand-over.
  SynthOptions so;
  so.line_twin = true;
  so.more_samples = {{1, 3}, {2, 3}, {1, 1}, {2, 3}, {1, 3}};
  const fg::Profile p = read_jfr(synthetic_jfr(so));
  // Threads 1 and 2 in the order of their first samples, trace 2 merging
  // with 1 by its tiers: 2 + 3 samples of thread 1, 1 + 2 of thread 2.
  // Traces 1 and 3 (7 samples) make Foo.bar interpreted and Foo.baz JIT
  // compiled, against trace 2's 1.
  REQUIRE(p.sample_count() == 2);
  CHECK(p.sample(0).stack == p.sample(1).stack);
  CHECK(p.values(0)[0] == 5);
  CHECK(p.values(1)[0] == 3);
  CHECK(fg::test::collapsed(p) == "Foo.bar_[0];Foo.baz_[j] 8\n");
  // With --lines each trace is its own: 3, 1 and 4 samples (line -1 is
  // 65535, as the converter prints it).
  JfrOptions lines;
  lines.lines = true;
  CHECK(
      fg::test::collapsed(read_jfr(synthetic_jfr(so), lines)) ==
      "Foo.bar:5_[0];Foo.baz:40_[j] 4\nFoo.bar:65535_[0];Foo.baz:12_[j] 3\nFoo.bar:7_[j];Foo.baz:13_[i] 1\n");
}

TEST_CASE("jfr: negative values are not summed before the profile checks their magnitude") {
  // Monitor enters of one stack and thread lasting +2^62 and -2^62 ticks (1 ns
  // each): summed first they would cancel, one at a time their magnitudes
  // reach 2^63, which no total can hold.
  SynthOptions so;
  so.more_locks = {std::int64_t{1} << 62, -(std::int64_t{1} << 62)};
  JfrOptions o;
  o.events = JfrOptions::Events::kLock;
  CHECK(error_of(synthetic_jfr(so), o).find("values add up to more than 2^63 - 1") != std::string::npos);
  so.more_locks = {std::int64_t{1} << 40, std::int64_t{1} << 40};
  CHECK(read_jfr(synthetic_jfr(so), o).totals() ==
        std::vector<std::int64_t>{3, 2000 + (std::int64_t{1} << 41)});
}

TEST_CASE("jfr: --cpu on a JDK-style recording selects nothing, --state filters by name") {
  JfrOptions o;
  o.events = JfrOptions::Events::kCpu;
  std::vector<std::string> notes;
  CHECK(read_jfr(synthetic_jfr(), o, nullptr, &notes).sample_count() == 0);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].find("no samples in async-profiler's cpu state") != std::string::npos);
  o = {};
  o.state = "runnable";
  CHECK(fg::test::collapsed(read_jfr(synthetic_jfr(), o)) == "Foo.bar_[0];Foo.baz_[i] 3\n");
  o.state = "sleeping";
  CHECK(error_of(synthetic_jfr(), o) == "--state SLEEPING: the recording has no such thread state");
}

TEST_CASE("jfr: --time-from/--time-to, relative to the start or the end") {
  JfrOptions o;
  o.time_from = "1500";  // ms from the start: the samples at 0 and 1 s are out
  o.time_to = "-2500";   // ms before the end (5 s): so is the one at 3 s
  CHECK(fg::test::collapsed(read_jfr(synthetic_jfr(), o)) == "Foo.bar_[j];Foo.baz_[i] 1\n");
  o.time_to = "soon";
  CHECK(error_of(synthetic_jfr(), o).rfind("--time-to soon: expected a time from the start", 0) == 0);
}

TEST_CASE("jfr: decoding follows the metadata (an added field, fixed-width integers)") {
  const std::string expected = "Foo.bar_[0];Foo.baz_[i] 3\n";
  SynthOptions extra;
  extra.extra_field = true;
  CHECK(fg::test::collapsed(read_jfr(synthetic_jfr(extra))) == expected);
  SynthOptions fixed;
  fixed.compressed = false;
  CHECK(fg::test::collapsed(read_jfr(synthetic_jfr(fixed))) == expected);
}

TEST_CASE("jfr: several chunks, and a truncated last one") {
  const std::string one = synthetic_jfr();
  CHECK(fg::test::collapsed(read_jfr(one + one)) == "Foo.bar_[0];Foo.baz_[i] 6\n");
  std::vector<std::string> warnings;
  fg::Profile p = read_jfr(one + one + one.substr(0, 100), {}, &warnings);
  CHECK(fg::test::collapsed(p) == "Foo.bar_[0];Foo.baz_[i] 6\n");
  REQUIRE(warnings.size() == 2);
  const std::size_t n = one.size();
  std::ostringstream expected;
  expected << "t.jfr: offset 0x" << std::hex << 2 * n << std::dec
           << ": chunk 3 is truncated: its header says " << n
           << " bytes, 100 remain; its events are lost (100 bytes, " << 100 * 100 / (2 * n + 100)
           << "% of the file)";
  CHECK(warnings[0] == expected.str());
}

TEST_CASE("jfr: gzipped recordings read as the plain ones, inflated whole or chunk by chunk") {
  // Inflating to at most twice the first chunk, a file is inflated whole
  // (one chunk, two, a cut third of 100 bytes); past that (three and a
  // cut fourth), chunk by chunk. Either way: the same samples, the same
  // warning with the same offsets.
  const std::string one = synthetic_jfr();
  for (const std::string& plain :
       {one, one + one, one + one.substr(0, 100), one + one + one + one.substr(0, 100)}) {
    std::vector<std::string> plain_warnings, zipped_warnings;
    const std::string expected = fg::test::collapsed(read_jfr(plain, {}, &plain_warnings));
    CHECK(fg::test::collapsed(read_jfr(fg::formats::gzip_compress(plain), {}, &zipped_warnings)) == expected);
    CHECK(zipped_warnings == plain_warnings);
  }
}

TEST_CASE("jfr: corrupt sizes and offsets are errors naming the chunk and the offset") {
  std::string s = synthetic_jfr();
  const std::size_t n = s.size();
  std::string bad = s;
  put_be64(bad, 8, 10);
  CHECK(error_of(bad) == "t.jfr: offset 0x8: chunk 1: chunk size 10 is smaller than its header");
  bad = s;
  put_be64(bad, 8, n + 1);
  CHECK(error_of(bad) == "t.jfr: offset 0x8: chunk 1: chunk size " + std::to_string(n + 1) +
                             " runs past the end of the file (" + std::to_string(n) + " bytes left)");
  bad = s;
  put_be64(bad, 16, 60);
  CHECK(error_of(bad) == "t.jfr: offset 0x10: chunk 1: checkpoint offset 60 lies outside the chunk (" +
                             std::to_string(n) + " bytes)");
  bad = s;
  put_be64(bad, 24, 1ull << 40);
  CHECK(error_of(bad) ==
        "t.jfr: offset 0x18: chunk 1: metadata offset 1099511627776 lies outside the chunk (" +
            std::to_string(n) + " bytes)");
  bad = s + std::string(80, 'x');
  std::ostringstream expected;
  expected << "t.jfr: offset 0x" << std::hex << n << ": chunk 2: not a JFR chunk (no FLR magic)";
  CHECK(error_of(bad) == expected.str());
  CHECK(error_of("FLR") == "t.jfr: offset 0x0: chunk 1: truncated header: need 68 bytes, 3 left");
}

TEST_CASE("jfr: damaged records inside a chunk") {
  fg::test::jfr::SynthLayout l;
  std::string s = synthetic_jfr({}, &l);
  std::string bad = s;
  bad.replace(l.first_event, 4, std::string("\x80\x80\x80\x00", 4));  // an event of size 0
  std::ostringstream expected;
  expected << "t.jfr: offset 0x" << std::hex << l.first_event << ": chunk 1: event size 0";
  CHECK(error_of(bad) == expected.str());
  SynthOptions huge;
  huge.frame_count_override = 1'000'000;
  const std::string e = error_of(synthetic_jfr(huge));
  CHECK(e.find(": chunk 1: stack frame count 1000000 exceeds the ") != std::string::npos);
  // A size that ends the first sample (type, time, thread, trace, state)
  // inside its time or before its state: its fields are read up to the
  // record's end, not on into the next record, and the error names the
  // varint that was cut.
  for (const auto& [size, at] :
       {std::pair{std::string("\x86\x80\x80\x00", 4), 5}, {std::string("\x89\x80\x80\x00", 4), 9}}) {
    bad = s;
    bad.replace(l.first_event, 4, size);
    expected.str("");
    expected << "t.jfr: offset 0x" << std::hex << l.first_event + at << ": chunk 1: truncated varint";
    CHECK(error_of(bad) == expected.str());
  }
  bad = s;
  bad[l.metadata + 4] = 5;  // the metadata offset points at a record of another type
  expected.str("");
  expected << "t.jfr: offset 0x" << std::hex << l.metadata + 4
           << ": chunk 1: metadata offset does not point at a metadata event";
  CHECK(error_of(bad) == expected.str());
}

TEST_CASE("jfr naming: --simple, --dot, --norm and allocated classes, as the converter") {
  fg::formats::jfr::NamingOptions o;
  using fg::formats::jfr::java_class_name;
  CHECK(java_class_name("java/lang/String", 0, false, o) == "java/lang/String");
  CHECK(java_class_name("java/lang/String", 0, true, o) == "java.lang.String");
  o.simple = true;
  CHECK(java_class_name("java/lang/String", 0, false, o) == "String");
  o = {};
  o.norm = true;
  CHECK(java_class_name("MixedNative$$Lambda$3.0x00007f5784000a10", 0, false, o) == "MixedNative$$Lambda$3");
  CHECK(java_class_name("java.lang.invoke.LambdaForm$MH+0x00007f91b400a400/82034730", 0, false, o) ==
        "java.lang.invoke.LambdaForm$MH");
  o = {};
  CHECK(fg::formats::jfr::allocated_class_name("[[I", o) == "int[][]");
  CHECK(fg::formats::jfr::allocated_class_name("[Ljava/lang/String;", o) == "java.lang.String[]");
  CHECK(fg::formats::jfr::method_frame_name("libc.so.6", "malloc", true, o) == "malloc");
  CHECK(fg::formats::jfr::thread_frame_name(nullptr, 7) == "[tid=7]");
}

TEST_CASE("merge_compilation_kinds: one frame per method and place, kind by weight") {
  fg::Profile p = fg::test::folded("a_[0];b_[j] 1\na_[j];b_[j] 2\nx_[i] 1\nx_[j] 2\nk_[k] 1\nk 1\n");
  CHECK(fg::test::collapsed(fg::merge_compilation_kinds(p, 0)) ==
        "a_[j];b_[j] 3\n"
        "k 1\n"
        "k_[k] 1\n"
        "x_[i] 3\n");
}

TEST_CASE("jfr: a large tree's frame kinds, decided on two threads, are merge_compilation_kinds()' kinds") {
  // 2^17 traces make a tree of some 400,000 nodes and 260,000 stacks, past
  // the sizes where the reader weighs tiers and decides kinds on two
  // threads, each place with the two methods in several kinds. The same
  // samples as folded lines with each frame's own kind, merged by the
  // library, are what the reader must give.
  SynthOptions o;
  o.binary_traces = std::size_t{1} << 17;
  const fg::Profile p = read_jfr(synthetic_jfr(o));
  CHECK(p.stack_count() > 260000);
  std::string folded = "Foo.bar_[0];Foo.baz_[j] 2\nFoo.bar_[j];Foo.baz_[i] 1\n";  // traces 1 and 2
  const char* const kinds[] = {"_[0]", "_[j]", "_[i]"};  // interpreted, JIT compiled, inlined
  for (std::size_t i = 0; i < o.binary_traces; ++i) {
    for (std::size_t depth = 0; depth < 17; ++depth) {
      if (depth > 0) folded += ';';
      folded += (i >> (16 - depth) & 1) ? "Foo.baz" : "Foo.bar";
      folded += kinds[(i + depth) % 3];
    }
    folded += " 1\n";
  }
  const std::string want = fg::test::collapsed(fg::merge_compilation_kinds(fg::test::folded(folded), 0));
  const std::string got = fg::test::collapsed(p);
  for (const char* k : kinds) CHECK(got.find(k) != std::string::npos);
  // The first line that differs, rather than 27 MB of both on a failure.
  std::size_t line = 0, at = 0;
  while (at < got.size() && at < want.size()) {
    const std::size_t end = std::min(got.find('\n', at), got.size());
    if (got.compare(at, end + 1 - at, want, at, end + 1 - at) != 0) break;
    at = end + 1;
    ++line;
  }
  CAPTURE(line);
  CHECK(got.substr(at, got.find('\n', at) - at) == want.substr(at, want.find('\n', at) - at));
  CHECK(got.size() == want.size());
}

TEST_CASE("jfr: every single-byte corruption and every truncation gives a profile or a ParseError") {
  const std::string s = synthetic_jfr();
  JfrOptions alloc;
  alloc.events = JfrOptions::Events::kAlloc;
  int read = 0, failed = 0;
  auto attempt = [&](const std::string& bytes, const JfrOptions& o) {
    try {
      read_jfr(bytes, o);
      ++read;
    } catch (const fg::ParseError&) {
      ++failed;
    }
  };
  for (std::size_t i = 0; i < s.size(); ++i) {
    for (unsigned char v : {0x00, 0x7f, 0x80, 0xff}) {
      std::string bad = s;
      if (static_cast<unsigned char>(bad[i]) == v) continue;
      bad[i] = static_cast<char>(v);
      attempt(bad, {});
      attempt(bad, alloc);
    }
    attempt(s.substr(0, i), {});
  }
  CHECK(read > 0);
  CHECK(failed > 0);
}

TEST_CASE("jfr: a plain file is read in place (mapped), with the same result and warnings") {
  const std::string one = synthetic_jfr();
  const auto path =
      std::filesystem::temp_directory_path() / ("fg-jfr-" + std::to_string(::getpid()) + ".jfr");
  {
    std::ofstream out(path, std::ios::binary);
    out << one << one << one.substr(0, 100);
  }
  fg::Diagnostics d(false, {}, 100);
  auto in = fg::formats::Input::open(path.string());
  fg::Profile p = fg::formats::jfr::read(*in, fg::formats::ReadOptions{}, d);
  std::filesystem::remove(path);
  CHECK(fg::test::collapsed(p) == "Foo.bar_[0];Foo.baz_[i] 6\n");
  CHECK(d.count("truncated chunk") == 1);
  CHECK(p.metadata().properties[1] == std::pair<std::string, std::string>{"jfr.chunks", "2"});
}

namespace {

// What reading `bytes` gives: the collapsed stacks and the warnings, or the
// error. A mapped input under 1 MiB is read on one thread; a stream (or a
// larger file) is parsed on a second thread while this one resolves.
// With `labels`, samples keep their threads (an output that shows them).
std::string outcome(const std::string& bytes, bool one_thread, const JfrOptions& o = {}, bool labels = true) {
  std::vector<std::string> warnings;
  fg::Diagnostics d(
      false, [&warnings](const std::string& m) { warnings.push_back(m); }, 100);
  fg::formats::ReadOptions r;
  r.jfr = o;
  r.labels = labels;
  auto in = fg::formats::Input::from_bytes("t.jfr", bytes, fg::formats::kDefaultMaxInflated, one_thread);
  std::string out;
  try {
    out = fg::test::collapsed(fg::formats::jfr::read(*in, r, d));
  } catch (const std::exception& e) {
    out = std::string("error: ") + e.what();
  }
  for (const std::string& w : warnings) out += "\nwarning: " + w;
  return out;
}

}  // namespace

TEST_CASE("jfr: chunks parsed on a second thread give what one thread gives, errors at the same place") {
  fg::test::jfr::SynthLayout l;
  const std::string one = synthetic_jfr({}, &l);
  std::string many;
  for (int i = 0; i < 40; ++i) many += one;
  REQUIRE(many.size() < (1u << 20));
  const std::size_t n = one.size();

  CHECK(outcome(many, true) ==
        "Foo.bar_[0];Foo.baz_[i] 120\n\nwarning: t.jfr: 40 selected events have no stack trace and are left "
        "out");
  CHECK(outcome(many, false) == outcome(many, true));
  const std::string cut = many + one.substr(0, 100);
  CHECK(outcome(cut, false).find("\nwarning: t.jfr: offset 0x") != std::string::npos);
  CHECK(outcome(cut, false) == outcome(cut, true));

  // Damage found while parsing chunk 30: the 29 chunks before it are added first, then the error.
  std::string bad = many;
  put_be64(bad, 29 * n + 24, 1ull << 40);
  CHECK(outcome(bad, false).rfind("error: t.jfr: offset 0x", 0) == 0);
  CHECK(outcome(bad, false).find(": chunk 30: metadata offset 1099511627776 lies outside") !=
        std::string::npos);
  CHECK(outcome(bad, false) == outcome(bad, true));
  bad = many;
  bad.replace(29 * n + l.first_event, 4, std::string("\x80\x80\x80\x00", 4));
  CHECK(outcome(bad, false).find(": chunk 30: event size 0") != std::string::npos);
  CHECK(outcome(bad, false) == outcome(bad, true));

  // An error in the resolve stage (a time bound it cannot read) stops the parse stage.
  JfrOptions o;
  o.time_from = "yesterday";
  CHECK(outcome(many, false, o).rfind("error: --time-from", 0) == 0);
  CHECK(outcome(many, false, o) == outcome(many, true, o));

  // So does one in a chunk's samples (values too large to total), while
  // the parse stage reads later chunks ahead: it stops at its next hand-off,
  // and the error is the one a single thread gives.
  SynthOptions so;
  so.more_locks = {std::int64_t{1} << 62, -(std::int64_t{1} << 62)};
  std::string overflowing;
  for (int i = 0; i < 40; ++i) overflowing += synthetic_jfr(so);
  JfrOptions lock;
  lock.events = JfrOptions::Events::kLock;
  CHECK(outcome(overflowing, false, lock).find("values add up to more than 2^63 - 1") != std::string::npos);
  CHECK(outcome(overflowing, false, lock) == outcome(overflowing, true, lock));
}

// A chunk of 4 MiB or more of a mapped file is read on two threads, its
// events beside its pools (as a stream's chunks are): the samples are those
// counted here from the list of events, and a chunk whose pools and events
// are both damaged gives the pools' error, which one thread reading the
// pools first meets first.
TEST_CASE("jfr: a large chunk's events read beside its pools, with the samples and errors of one thread") {
  // Samples in state 5 (STATE_RUNNABLE) and 6 (a key the pool does not
  // name, which no state filter keeps).
  SynthOptions so;
  std::mt19937 rng(11);
  std::int64_t stacked = 3, without = 1;  // the fixed events': traces 1, 1, 2 and 99, in state 5
  std::int64_t runnable = 3, runnable_without = 1;
  while (so.more_samples.size() < 400000) {
    const int trace = std::array{1, 2, 99}[rng() % 3];
    const int state = rng() % 4 == 0 ? 6 : 5;
    so.more_samples.emplace_back(1 + static_cast<int>(rng() % 50), trace);
    so.more_states.push_back(state);
    ++(trace == 99 ? without : stacked);
    if (state == 5) ++(trace == 99 ? runnable_without : runnable);
  }
  fg::test::jfr::SynthLayout l;
  const std::string big = synthetic_jfr(so, &l);
  REQUIRE(big.size() >= (4u << 20));
  // Mapped, and over 1 MiB: read on two threads.
  const auto read_mapped = [](const std::string& bytes, const JfrOptions& o = {}, bool labels = true) {
    return outcome(bytes, true, o, labels);
  };
  // One stack (its frames' kinds decided by the weight of each trace), its
  // count, and the events left out.
  const auto expect = [](std::int64_t with, std::int64_t left_out) {
    return " " + std::to_string(with) + "\n\nwarning: t.jfr: " + std::to_string(left_out) +
           " selected events have no stack trace and are left out";
  };
  const auto read_mapped_stack = [&](const std::string& bytes, const JfrOptions& o = {}, bool labels = true) {
    const std::string out = read_mapped(bytes, o, labels);
    return out.rfind("Foo.bar_[", 0) == 0 ? out.substr(out.find(' ')) : out;
  };
  CHECK(read_mapped_stack(big) == expect(stacked, without));
  // The state filter, whose names are in the pools, applies to the samples
  // folded before they were read: with labels, and without (when a
  // sample's state is dropped once filtered).
  JfrOptions runnable_only, wall;
  runnable_only.state = "runnable";
  wall.events = JfrOptions::Events::kWall;
  for (const bool labels : {true, false}) {
    CAPTURE(labels);
    CHECK(read_mapped_stack(big, runnable_only, labels) == expect(runnable, runnable_without));
    CHECK(read_mapped_stack(big, wall, labels) == expect(runnable, runnable_without));
  }
  JfrOptions sleeping;
  sleeping.state = "sleeping";
  CHECK(read_mapped(big, sleeping) == "error: --state SLEEPING: the recording has no such thread state");

  // The first checkpoint's first pool said to be of type 99, which the
  // metadata does not describe; and the first event's size 0.
  const std::string pool_head("\x01\x00\x00\x00\x01\x03\x17",
                              7);  // type 1, times, delta, mask, 3 pools, type 23
  const std::size_t pool = big.find(pool_head, l.first_checkpoint);
  REQUIRE(pool != std::string::npos);
  REQUIRE(pool < l.first_event);
  std::string bad_pool = big;
  bad_pool[pool + 6] = 99;
  std::ostringstream at;
  at << std::hex << pool + 6;
  const std::string pool_error =
      "error: t.jfr: offset 0x" + at.str() + ": chunk 1: constant pool of undescribed type id 99";
  CHECK(read_mapped(bad_pool) == pool_error);
  std::string bad_both = bad_pool;
  bad_both.replace(l.first_event, 4, std::string("\x80\x80\x80\x00", 4));
  CHECK(read_mapped(bad_both) == pool_error);
  std::string bad_event = big;
  bad_event.replace(l.first_event, 4, std::string("\x80\x80\x80\x00", 4));
  at.str("");
  at << std::hex << l.first_event;
  CHECK(read_mapped(bad_event) == "error: t.jfr: offset 0x" + at.str() + ": chunk 1: event size 0");
}

// A chunk's folded samples go over once they reach the bound, and the
// chunk's later events are folded anew; if its events made fewer than two
// samples each, they go over as they are read instead. Either way the
// profile has the samples of one thread at a time: each thread's, in the
// order of its first event with a stack, whatever went over when.
TEST_CASE("jfr: samples handed over at the bound, then folded anew or streamed, are those of one fold") {
  for (const int threads : {500, 5000}) {  // in the first 4096 events: over two events a sample, then under
    CAPTURE(threads);
    SynthOptions so;
    std::mt19937 rng(13);
    std::vector<int> order;  // threads by first sample with a stack
    std::map<int, std::int64_t> count;
    for (auto [thread, trace] : std::vector<std::pair<int, int>>{{1, 1}, {1, 1}, {2, 2}})
      if (count[thread]++ == 0) order.push_back(thread);
    while (so.more_samples.size() < 60000) {
      const int thread = 1 + static_cast<int>(rng() % threads);
      const int trace = std::array{1, 2, 99}[rng() % 3];
      so.more_samples.emplace_back(thread, trace);
      if (trace != 99 && count[thread]++ == 0) order.push_back(thread);
    }
    for (const std::size_t bound :
         {fg::formats::jfr::detail::Tuning{}.most_folded_samples, std::size_t{1000}}) {
      CAPTURE(bound);
      fg::formats::ReadOptions r;
      fg::Diagnostics d;
      auto in = fg::formats::Input::from_bytes("t.jfr", synthetic_jfr(so));
      const fg::Profile p = fg::formats::jfr::detail::read_fast(*in, r, d, {.most_folded_samples = bound});
      REQUIRE(p.sample_count() >= order.size());
      // Samples of one stack and thread added in several hand-overs are one.
      std::map<int, std::int64_t> got;
      std::vector<int> got_order;
      for (std::size_t i = 0; i < p.sample_count(); ++i) {
        std::int64_t thread = -1;
        for (const fg::Label& l : p.labels(p.sample(i).labels))
          if (p.str(l.key) == "thread_id") thread = l.num;
        if (got[static_cast<int>(thread)] == 0) got_order.push_back(static_cast<int>(thread));
        got[static_cast<int>(thread)] += p.values(i)[0];
      }
      CHECK(p.sample_count() == order.size());
      CHECK(got_order == order);
      CHECK(got == count);
    }
  }
}

TEST_CASE(
    "jfr chunk samples: one per trace and labels in the order of the first event, sums, entries of their "
    "own") {
  using fg::formats::jfr::ChunkSamples;
  using fg::formats::jfr::DecodedEvent;
  using fg::formats::jfr::EventType;
  const auto event = [](std::uint64_t stack, std::uint64_t thread, std::int64_t value) {
    DecodedEvent e{};
    e.type = EventType::kExecutionSample;
    e.events = 1;
    e.stack = stack;
    e.thread = thread;
    e.samples = 1;
    e.values[0] = value;
    return e;
  };
  constexpr std::uint64_t kBigKey = std::uint64_t{1} << 40;  // beyond the table by key
  ChunkSamples c;
  c.add(event(5, 1, 1));
  c.add(event(kBigKey, 1, 10));
  c.add(event(5, 2, 100));  // a second thread on trace 5: the index, not the table
  c.add(event(5, 1, 1000));
  c.add(event(5, 2, -7));  // negative: its own, never summed
  c.add(event(5, 2, 10000));
  c.add(event(kBigKey, 1, INT64_MAX - 5));  // would overflow: its own
  c.add(event(kBigKey, 1, 20));
  c.add(event(5, 2, -3));
  REQUIRE(c.size() == 6);
  const std::vector<std::tuple<std::uint64_t, std::uint64_t, std::int64_t, std::uint32_t>> want = {
      {5, 1, 1001, 2}, {kBigKey, 1, 30, 2}, {5, 2, 10100, 2}, {5, 2, -7, 1}, {kBigKey, 1, INT64_MAX - 5, 1},
      {5, 2, -3, 1}};
  for (std::size_t i = 0; i < want.size(); ++i) {
    CAPTURE(i);
    const DecodedEvent e = c.at(i);
    CHECK(std::tuple{e.stack, e.thread, e.values[0], e.events} == want[i]);
    CHECK(e.samples == e.events);
  }
  // Thousands of samples through the index, and again: each folded into its own.
  c.clear();
  for (int round = 0; round < 2; ++round)
    for (std::uint64_t t = 0; t < 5000; ++t) c.add(event(kBigKey + t % 7, t, static_cast<std::int64_t>(t)));
  REQUIRE(c.size() == 5000);
  bool all = true;
  for (std::uint64_t t = 0; t < 5000; ++t) {
    const DecodedEvent e = c.at(t);
    all = all && e.stack == kBigKey + t % 7 && e.thread == t &&
          e.values[0] == static_cast<std::int64_t>(2 * t) && e.events == 2;
  }
  CHECK(all);
  // The samples from a point on stay readable once the room before it is let go of.
  c.release_before(4096);
  CHECK(c.at(4999).thread == 4999);
}

// Samples start as half a cache line; an event a narrow sample cannot hold
// (an allocation, a state key past 16 bits) widens every sample so far,
// through the table by key and the index alike, and later events fold into
// them as before.
TEST_CASE("jfr chunk samples: widened for an allocation or a large state key, with their order and sums") {
  using fg::formats::jfr::ChunkSamples;
  using fg::formats::jfr::DecodedEvent;
  using fg::formats::jfr::EventType;
  const auto sample = [](std::uint64_t stack, std::uint64_t thread, std::int64_t value,
                         std::uint64_t state = 5) {
    DecodedEvent e{};
    e.type = EventType::kExecutionSample;
    e.has_state = true;
    e.events = 1;
    e.stack = stack;
    e.thread = thread;
    e.state = state;
    e.samples = static_cast<std::uint64_t>(std::max<std::int64_t>(value, 0));
    e.values[0] = value;
    return e;
  };
  constexpr std::uint64_t kBigKey = std::uint64_t{1} << 40;  // through the index
  ChunkSamples c;
  c.add(sample(5, 1, 1));
  c.add(sample(kBigKey, 1, 2));
  c.add(sample(5, 2, 3));
  c.add(sample(5, 1, 10));
  c.add(sample(5, 2, -4));  // negative: its own
  for (std::uint64_t t = 0; t < 3000; ++t) c.add(sample(kBigKey + 1 + t % 5, 100 + t, 1));  // grows the index
  DecodedEvent alloc{};
  alloc.type = EventType::kAllocOutsideTlab;
  alloc.outside_tlab = true;
  alloc.events = 1;
  alloc.stack = 9;
  alloc.thread = 1;
  alloc.cls = 42;
  alloc.samples = 1;
  alloc.values[0] = 1;
  alloc.values[1] = 4096;
  c.add(alloc);
  c.add(alloc);
  c.add(sample(5, 1, 100));       // into the first sample, by key
  c.add(sample(kBigKey, 1, 20));  // into the second, through the index
  c.add(sample(5, 2, 1000));      // into the third, through the index
  for (std::uint64_t t = 0; t < 3000; ++t) c.add(sample(kBigKey + 1 + t % 5, 100 + t, 2));
  c.add(sample(5, 1, 7, 70000));  // a state key a narrow sample cannot hold: its own
  // The index grown again, from the widened samples: those indexed before
  // are still found.
  for (std::uint64_t t = 0; t < 6000; ++t) c.add(sample(kBigKey, 10000 + t, 1));
  c.add(sample(kBigKey, 1, 300));
  for (std::uint64_t t = 0; t < 3000; ++t) c.add(sample(kBigKey + 1 + t % 5, 100 + t, 4));
  REQUIRE(c.size() == 9006);  // 4, 3000 through the index, the allocation's, the large state's, 6000
  const auto fields = [](const DecodedEvent& e) {
    return std::tuple{e.stack, e.thread, e.state, e.values[0], e.values[1], e.cls, e.events, e.samples};
  };
  CHECK(fields(c.at(0)) == std::tuple{5u, 1u, 5u, 111, 0, 0u, 3u, 111u});
  CHECK(fields(c.at(1)) == std::tuple{kBigKey, 1u, 5u, 322, 0, 0u, 3u, 322u});
  CHECK(fields(c.at(2)) == std::tuple{5u, 2u, 5u, 1003, 0, 0u, 2u, 1003u});
  CHECK(fields(c.at(3)) == std::tuple{5u, 2u, 5u, -4, 0, 0u, 1u, 0u});
  bool all = true;
  for (std::uint64_t t = 0; t < 3000; ++t)
    all = all && fields(c.at(4 + t)) == std::tuple{kBigKey + 1 + t % 5, 100 + t, 5u, 7, 0, 0u, 3u, 7u};
  CHECK(all);
  const DecodedEvent a = c.at(3004);
  CHECK(fields(a) == std::tuple{9u, 1u, 0u, 2, 8192, 42u, 2u, 2u});
  CHECK(a.outside_tlab);
  CHECK(a.type == EventType::kAllocOutsideTlab);
  CHECK(c.at(0).has_state);
  CHECK(fields(c.at(3005)) == std::tuple{5u, 1u, 70000u, 7, 0, 0u, 1u, 7u});
  CHECK(c.at(3005).has_state);

  // A state key past 16 bits alone widens: it is not cut to 16 bits.
  ChunkSamples d;
  d.add(sample(5, 1, 1, 3));
  d.add(sample(5, 1, 1, 3 + 65536));
  d.add(sample(5, 1, 1, 3));
  REQUIRE(d.size() == 2);
  CHECK(fields(d.at(0)) == std::tuple{5u, 1u, 3u, 2, 0, 0u, 2u, 2u});
  CHECK(fields(d.at(1)) == std::tuple{5u, 1u, 65539u, 1, 0, 0u, 1u, 1u});
}

// The first block of samples grows by doubling to a whole block (4 MiB),
// the later ones are whole from the start: samples on both sides of each
// step keep their values, through widening, letting go and clearing.
TEST_CASE("jfr chunk samples: across the first block's growth and the blocks after it") {
  using fg::formats::jfr::ChunkSamples;
  using fg::formats::jfr::DecodedEvent;
  using fg::formats::jfr::EventType;
  const auto event = [](std::uint64_t stack, std::int64_t value) {
    DecodedEvent e{};
    e.type = EventType::kExecutionSample;
    e.events = 1;
    e.stack = stack;
    e.thread = 1;
    e.samples = static_cast<std::uint64_t>(value);
    e.values[0] = value;
    return e;
  };
  // Past three blocks of wide samples (64 bytes each) and one of narrow ones (32).
  constexpr std::uint64_t kSamples = 3 * (fg::kBigTableLeast / 64) + 5;
  ChunkSamples c;
  const auto all_are = [&](std::uint64_t n, std::int64_t times) {
    bool all = true;
    for (std::uint64_t t = 0; t < n; ++t) {
      const DecodedEvent e = c.at(t);
      all = all && e.stack == t + 1 && e.values[0] == times * static_cast<std::int64_t>(t) &&
            e.events == static_cast<std::uint32_t>(times);
    }
    return all;
  };
  for (std::uint64_t t = 0; t < kSamples; ++t) c.add(event(t + 1, static_cast<std::int64_t>(t)));
  REQUIRE(c.size() == kSamples);
  CHECK(all_are(kSamples, 1));
  // An allocation widens every sample; later events fold into them.
  DecodedEvent alloc = event(kSamples + 1, 1);
  alloc.type = EventType::kAllocInNewTlab;
  alloc.cls = 42;
  alloc.values[1] = 4096;
  c.add(alloc);
  for (std::uint64_t t = 0; t < kSamples; ++t) c.add(event(t + 1, static_cast<std::int64_t>(t)));
  REQUIRE(c.size() == kSamples + 1);
  CHECK(all_are(kSamples, 2));
  CHECK(c.at(kSamples).cls == 42);
  c.release_before(kSamples - 10);
  CHECK(c.at(kSamples - 1).values[0] == 2 * static_cast<std::int64_t>(kSamples - 1));
  // Cleared, the room of the first block is used again.
  c.clear();
  for (std::uint64_t t = 0; t < 100; ++t) c.add(event(t + 1, static_cast<std::int64_t>(t)));
  REQUIRE(c.size() == 100);
  CHECK(all_are(100, 1));
}

namespace {
// A BigTableMemory that counts the tables it hands out, over the heap,
// installed for its scope.
std::size_t big_tables_made = 0;
void* counting_big_table(std::size_t bytes) {
  ++big_tables_made;
  return ::operator new(bytes);
}
void free_counted_big_table(void* p, std::size_t) noexcept { ::operator delete(p); }
struct CountingBigTables {
  CountingBigTables() {
    big_tables_made = 0;
    fg::set_big_table_memory({counting_big_table, free_counted_big_table});
  }
  ~CountingBigTables() { fg::set_big_table_memory(fg::heap_big_table_memory()); }
};
}  // namespace

// A small recording's read costs what it holds: no table by a constant
// size (the tools give big tables 2 MiB pages, each cleared when first
// touched), as fuzzing and fg-report's many small inputs read thousands.
TEST_CASE("jfr: a small recording's read takes no big table") {
  const std::string bytes = synthetic_jfr();
  REQUIRE(bytes.size() < 4096);
  const CountingBigTables counting;
  for (const bool in_place : {false, true}) {
    CAPTURE(in_place);
    fg::formats::ReadOptions r;
    fg::Diagnostics d;
    auto in = fg::formats::Input::from_bytes("t.jfr", bytes, 1 << 24, in_place);
    const fg::Profile p = fg::formats::jfr::detail::read_fast(*in, r, d);
    CHECK(p.sample_count() > 0);
  }
  CHECK(big_tables_made == 0);
}

// The tree of a chunk's stack traces against the plain one made frame by
// frame from the root: random traces that share callers as recordings do
// (most of a trace a copy of an earlier one, a few frames new), some of
// them the same or a prefix of another, some empty, some positions twice.
TEST_CASE("jfr trace tree: each trace's frames from its node up, one node per caller and frame") {
  using fg::formats::jfr::TraceBatch;
  using fg::formats::jfr::TraceTree;
  std::mt19937 rng(7);
  std::vector<std::vector<std::uint32_t>> traces;  // root first
  std::vector<std::uint32_t> positions;
  for (int t = 0; t < 5000; ++t) {
    std::vector<std::uint32_t> frames;
    if (!traces.empty() && rng() % 8 != 0) {
      frames = traces[rng() % traces.size()];
      frames.resize(rng() % (frames.size() + 1));
    }
    const std::size_t add = rng() % 6 == 0 ? 0 : 1 + rng() % (rng() % 10 == 0 ? 300 : 4);
    for (std::size_t i = 0; i < add; ++i) frames.push_back(rng() % 50);
    traces.push_back(frames);
    positions.push_back(rng() % 20 == 0 && t > 0 ? positions[rng() % positions.size()]
                                                 : static_cast<std::uint32_t>(t));
  }
  std::set<std::vector<std::uint32_t>> prefixes;
  for (const auto& t : traces)
    for (std::size_t d = 1; d <= t.size(); ++d)
      prefixes.insert({t.begin(), t.begin() + static_cast<std::ptrdiff_t>(d)});
  TraceTree tree;
  std::map<std::uint32_t, std::size_t> last;  // position -> trace
  const auto build = [&] {
    std::mt19937 sizes(11);
    for (std::size_t begin = 0; begin < traces.size();) {  // in batches of different sizes
      const std::size_t end = std::min(traces.size(), begin + 1 + sizes() % 700);
      TraceBatch b;
      for (std::size_t t = begin; t < end; ++t) {
        b.frames.insert(b.frames.end(), traces[t].rbegin(), traces[t].rend());  // leaf first
        b.traces.push_back({positions[t], static_cast<std::uint32_t>(b.frames.size()), t % 3 == 0});
        last[positions[t]] = t;
      }
      tree.add(b);
      begin = end;
    }
  };
  const auto check = [&] {
    std::set<std::pair<std::uint32_t, std::uint32_t>> edges;
    for (std::uint32_t n = 1; n < tree.node_count(); ++n) {
      CHECK(tree.node(n).parent < n);
      CHECK(edges.insert({tree.node(n).parent, tree.node(n).frame}).second);
    }
    for (const auto& [position, t] : last) {
      std::vector<std::uint32_t> up;
      for (std::uint32_t n = tree.at(position).node; n != 0; n = tree.node(n).parent)
        up.push_back(tree.node(n).frame);
      CHECK(std::vector<std::uint32_t>(up.rbegin(), up.rend()) == traces[t]);
      CHECK(tree.at(position).truncated == (t % 3 == 0));
    }
    CHECK(tree.node_count() == prefixes.size() + 1);  // every distinct path once, and the root
  };
  build();
  check();
  // The index let go of (a small one is kept): the nodes and traces stay,
  // and a later chunk's tree is made as the first was.
  tree.drop_index();
  check();
  tree.drop_index(0);
  check();
  tree.clear();
  CHECK(tree.node_count() == 1);
  CHECK(tree.trace_count() == 0);
  build();
  check();
}

TEST_CASE("jfr stack trace pool: positions by key, small keys by table, others by index") {
  fg::formats::jfr::StackTracePool pool;
  pool.expect(2);  // keys below 1032 go to the table
  CHECK(pool.add(5) == 0);
  CHECK(pool.add(1u << 20) == 1);  // past the limit: the index
  CHECK(pool.add(5) == 0);         // a key again keeps its position
  CHECK(pool.add(std::uint64_t{1} << 62) == 2);
  CHECK(pool.position(5) == 0);
  CHECK(pool.position(6) == fg::U64Map::kMissing);
  CHECK(pool.position(1u << 20) == 1);
  pool.expect(300000);  // the limit rises past a key the index holds
  CHECK(pool.position(1u << 20) == 1);
  CHECK(pool.add(1u << 20) == 1);
  CHECK(pool.add((1u << 20) + 1) == 3);
  CHECK(pool.position((1u << 20) + 1) == 3);
  CHECK(pool.position(std::uint64_t{1} << 62) == 2);
  CHECK(pool.position(0) == fg::U64Map::kMissing);
  CHECK(pool.size() == 4);
  pool.clear();
  CHECK(pool.size() == 0);
  CHECK(pool.position(5) == fg::U64Map::kMissing);
  CHECK(pool.add(1u << 20) == 0);
}
