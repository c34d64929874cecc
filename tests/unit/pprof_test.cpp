#include "formats/pprof/pprof.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "fg/builder.h"
#include "fg/error.h"
#include "fg/granularity.h"
#include "formats/gzip.h"
#include "test_util.h"

using namespace fg;

namespace {

// A minimal protobuf encoder, to build profiles (and damaged ones) by hand.
struct Pb {
  std::string bytes;
  Pb& varint(std::uint64_t v) {
    do {
      std::uint8_t b = v & 0x7f;
      v >>= 7;
      bytes.push_back(static_cast<char>(b | (v ? 0x80 : 0)));
    } while (v);
    return *this;
  }
  Pb& num(int field, std::uint64_t v) { return varint(std::uint64_t(field) << 3).varint(v); }
  Pb& msg(int field, const Pb& m) {
    return varint(std::uint64_t(field) << 3 | 2).varint(m.bytes.size()).raw(m.bytes);
  }
  Pb& str(int field, const std::string& s) {
    return varint(std::uint64_t(field) << 3 | 2).varint(s.size()).raw(s);
  }
  Pb& raw(const std::string& s) {
    bytes += s;
    return *this;
  }
};

// strings: 0 "", 1 "samples", 2 "count", 3 "main", 4 "work", 5 "main.go", 6 "thread", 7 "t1"
Pb strings() {
  Pb p;
  for (const char* s : {"", "samples", "count", "main", "work", "main.go", "thread", "t1"}) p.str(6, s);
  return p;
}

Pb small_profile() {
  Pb p;
  p.msg(1, Pb().num(1, 1).num(2, 2));                                         // sample_type samples/count
  p.msg(5, Pb().num(1, 1).num(2, 3).num(4, 5));                               // function 1: main
  p.msg(5, Pb().num(1, 2).num(2, 4).num(4, 5));                               // function 2: work
  p.msg(4, Pb().num(1, 10).num(3, 0x1000).msg(4, Pb().num(1, 1).num(2, 7)));  // location 10: main:7
  // location 11 at 0x2000: work (line 3) inlined into main (line 9)
  p.msg(4, Pb().num(1, 11).num(3, 0x2000).msg(4, Pb().num(1, 2).num(2, 3)).msg(4, Pb().num(1, 1).num(2, 9)));
  p.msg(2, Pb().num(1, 11).num(1, 10).num(2, 5).msg(3, Pb().num(1, 6).num(2, 7)));  // sample: 10 <- 11
  p.raw(strings().bytes);
  return p;
}

// Where the payload of `m` starts when appended to `p` as a message field
// (number < 16): after its one-byte key and its length's varint.
std::size_t payload_offset(const Pb& p, const Pb& m) {
  std::size_t length_bytes = 1;
  for (std::size_t n = m.bytes.size(); n >= 0x80; n >>= 7) ++length_bytes;
  return p.bytes.size() + 1 + length_bytes;
}

std::string hex(std::size_t offset) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%zx", offset);
  return buf;
}

Profile read_pprof(const std::string& bytes, std::vector<std::string>* warnings = nullptr) {
  return test::read_as("pprof", bytes, warnings, false, "p.pb");
}

// The bytes of a written (gzipped) profile, inflated.
std::string inflated(const std::string& gz) {
  return std::string(formats::read_all(*formats::Input::from_bytes("w", gz)).view());
}

std::string write_pprof(const Profile& p) {
  std::ostringstream out;
  Diagnostics d;
  formats::pprof::write(p, formats::WriteOptions{}, out, d);
  return out.str();
}

}  // namespace

TEST_CASE("pprof: locations become frames, inlined lines inner first") {
  Profile p = read_pprof(small_profile().bytes);
  CHECK(p.metadata().source_format == "pprof");
  CHECK(test::dump_samples(p) ==
        "samples: 1\n"
        "main (main.go:7) @0x1000;main (main.go:9) @0x2000;work [inlined] (main.go:3) @0x2000 | 5 | "
        "thread=\"t1\"\n");
}

TEST_CASE("pprof: location fields in any order, repeated, or unknown read as protobuf reads them") {
  // Location 10 with its line first, its address given twice (the last
  // wins), a column in its line, is_folded, and fields 9 (varint) and 10
  // (bytes) that no version defines yet: the same frames as small_profile's.
  Pb p;
  p.msg(1, Pb().num(1, 1).num(2, 2));
  p.msg(5, Pb().num(1, 1).num(2, 3).num(4, 5));
  p.msg(5, Pb().num(1, 2).num(2, 4).num(4, 5));
  p.msg(4, Pb().msg(4, Pb().num(3, 12).num(2, 7).num(1, 1))
               .num(3, 0x9999)
               .num(9, 1)
               .str(10, "x")
               .num(3, 0x1000)
               .num(5, 1)
               .num(1, 10));
  p.msg(4, Pb().num(1, 11).num(3, 0x2000).msg(4, Pb().num(1, 2).num(2, 3)).msg(4, Pb().num(1, 1).num(2, 9)));
  p.msg(2, Pb().num(1, 11).num(1, 10).num(2, 5).msg(3, Pb().num(1, 6).num(2, 7)));
  p.raw(strings().bytes);
  CHECK(test::dump_samples(read_pprof(p.bytes)) == test::dump_samples(read_pprof(small_profile().bytes)));
}

TEST_CASE("pprof: a location's id 0, or an id given twice, is an error naming the location") {
  auto with_location = [](const Pb& loc) {
    Pb p;
    p.msg(1, Pb().num(1, 1).num(2, 2));
    p.msg(5, Pb().num(1, 1).num(2, 3).num(4, 5));
    p.msg(4, Pb().num(1, 10).msg(4, Pb().num(1, 1)));
    p.msg(4, loc);
    p.raw(strings().bytes);
    return p.bytes;
  };
  CHECK_THROWS_WITH_AS(read_pprof(with_location(Pb().num(3, 0x10).msg(4, Pb().num(1, 1)))),
                       "p.pb: offset 0x18: location 1: location id 0 is reserved", Error);
  CHECK_THROWS_WITH_AS(read_pprof(with_location(Pb().num(1, 10).msg(4, Pb().num(1, 1)))),
                       "p.pb: offset 0x18: location 1: location id 10 appears twice", Error);
  CHECK_THROWS_WITH_AS(read_pprof(with_location(Pb().num(1, 12).num(2, 3))),
                       "p.pb: offset 0x18: location 1: mapping id 3 names no mapping", Error);
}

TEST_CASE("pprof: gzipped input and sniffing by content") {
  std::string z = formats::gzip_compress(small_profile().bytes);
  auto in = formats::Input::from_bytes("no-extension", z);
  CHECK(formats::detect_input_format(*in, std::nullopt).name == "pprof");
  CHECK(formats::pprof::sniff(small_profile().bytes, "") == formats::Sniff::kYes);
  CHECK(formats::pprof::sniff("main;a 1\n", "") == formats::Sniff::kNo);
  CHECK(test::dump_samples(read_pprof(std::string(formats::read_all(*in).view()))) ==
        test::dump_samples(read_pprof(small_profile().bytes)));
}

TEST_CASE("pprof: a truncated file is an error at its offset") {
  std::string bytes = small_profile().bytes;
  CHECK_THROWS_WITH_AS(read_pprof(bytes.substr(0, 40)), doctest::Contains("p.pb: offset 0x"), ParseError);
  CHECK_THROWS_WITH_AS(read_pprof(bytes.substr(0, 40)), doctest::Contains("truncated"), ParseError);
}

TEST_CASE("pprof: a field with the wrong wire type is an error at its offset") {
  Pb p = small_profile();
  char at[32];
  std::snprintf(at, sizeof at, "0x%zx", p.bytes.size());  // the bad field starts where the good ones end
  p.raw(std::string("\x62\x01", 2));                      // field 12 (period) as length-delimited
  CHECK_THROWS_WITH_AS(
      read_pprof(p.bytes),
      ("p.pb: offset " + std::string(at) + ": Profile field 12 has wire type 2, expected 0").c_str(),
      ParseError);
}

TEST_CASE("pprof: ids that point nowhere name the sample") {
  Pb p;
  p.msg(1, Pb().num(1, 1).num(2, 2));
  p.msg(2, Pb().num(1, 99).num(2, 1));
  p.raw(strings().bytes);
  CHECK_THROWS_WITH_AS(read_pprof(p.bytes), "p.pb: offset 0x8: sample 0: location id 99 names no location",
                       Error);

  Pb q;
  q.msg(1, Pb().num(1, 1).num(2, 2));
  q.msg(4, Pb().num(1, 1).msg(4, Pb().num(1, 42)));
  q.raw(strings().bytes);
  CHECK_THROWS_WITH_AS(read_pprof(q.bytes),
                       "p.pb: offset 0x8: location 0: line 0: function id 42 names no function", Error);
}

TEST_CASE("pprof: samples read several at a time keep file order, and the first bad one is named") {
  // The reader walks samples in groups; stacks shared between samples of one
  // group, and between groups, must come out as when read one by one.
  Pb p = small_profile();
  for (int i = 0; i < 20; ++i)
    p.msg(2, i % 3 == 0   ? Pb().num(1, 11).num(1, 10).num(2, i)
             : i % 3 == 1 ? Pb().num(1, 10).num(2, i)
                          : Pb().num(1, 10).num(1, 11).num(2, i));
  Profile ok = read_pprof(p.bytes);
  std::int64_t total = 5;
  for (int i = 0; i < 20; ++i) total += i;
  CHECK(ok.totals()[0] == total);
  // i % 3 == 1: location 10 alone, 1 + 4 + ... + 19 = 70; i % 3 == 0: 10
  // under 11's caller side (leaf 11), 0 + 3 + ... + 18 = 63; i % 3 == 2: the
  // other way round, 2 + 5 + ... + 17 = 57; beside small_profile's own
  // labelled sample.
  CHECK(test::dump_samples(ok) ==
        "samples: 4\n"
        "main (main.go:7) @0x1000 | 70\n"
        "main (main.go:7) @0x1000;main (main.go:9) @0x2000;work [inlined] (main.go:3) @0x2000 | 5 | "
        "thread=\"t1\"\n"
        "main (main.go:7) @0x1000;main (main.go:9) @0x2000;work [inlined] (main.go:3) @0x2000 | 63\n"
        "main (main.go:9) @0x2000;work [inlined] (main.go:3) @0x2000;main (main.go:7) @0x1000 | 57\n");
  // Sample 13 (in the second group) names no location; samples 14 and 15
  // are worse still (no values), but 13 comes first in the file.
  Pb q = small_profile();
  for (int i = 0; i < 12; ++i) q.msg(2, Pb().num(1, 10).num(2, 1));
  const Pb bad = Pb().num(1, 10).num(1, 404).num(2, 1);
  const std::string at = hex(payload_offset(q, bad));
  q.msg(2, bad);
  q.msg(2, Pb().num(1, 10));
  q.msg(2, Pb().num(1, 10));
  CHECK_THROWS_WITH_AS(read_pprof(q.bytes),
                       ("p.pb: offset " + at + ": sample 13: location id 404 names no location").c_str(),
                       Error);
}

// A profile of `count` samples over locations 10 and 11 of small_profile(),
// past 1 MiB (a long comment), so that the reader decodes samples on a
// second thread while the first adds them, and checks the structure on
// another beside both (on a machine of one core, all on one thread).
// Sample i: stack by i % 3 as in the test above, value i, and every fifth
// one the label thread="t1". `bad(i, pb)` may replace sample i.
// `offsets`, if given, receives each sample's offset (payload_offset()).
template <class Bad>
Pb many_samples(int count, Bad bad, std::vector<std::size_t>* offsets = nullptr) {
  Pb p;
  p.msg(1, Pb().num(1, 1).num(2, 2));
  p.msg(5, Pb().num(1, 1).num(2, 3).num(4, 5));
  p.msg(5, Pb().num(1, 2).num(2, 4).num(4, 5));
  p.msg(4, Pb().num(1, 10).num(3, 0x1000).msg(4, Pb().num(1, 1).num(2, 7)));
  p.msg(4, Pb().num(1, 11).num(3, 0x2000).msg(4, Pb().num(1, 2).num(2, 3)).msg(4, Pb().num(1, 1).num(2, 9)));
  for (int i = 0; i < count; ++i) {
    Pb s = i % 3 == 0   ? Pb().num(1, 11).num(1, 10)
           : i % 3 == 1 ? Pb().num(1, 10)
                        : Pb().num(1, 10).num(1, 11);
    s.num(2, static_cast<std::uint64_t>(i));
    if (i % 5 == 0) s.msg(3, Pb().num(1, 6).num(2, 7));
    const Pb sample = bad(i, s);
    if (offsets) offsets->push_back(payload_offset(p, sample));
    p.msg(2, sample);
  }
  p.raw(strings().bytes);
  p.str(6, std::string(1 << 20, 'c'));  // string 8
  p.num(13, 8);                         // a comment
  return p;
}

TEST_CASE("pprof: samples decoded on a second thread come out in order, and errors keep their order") {
  constexpr int kCount = 5 * 4096 + 7;  // batches of 4096: the last one short
  auto none = [](int, Pb s) { return s; };
  Profile ok = read_pprof(many_samples(kCount, none).bytes);
  // Sums by stack (i % 3) and label (i % 5 == 0), from the definition.
  std::int64_t sum[3][2] = {};
  for (int i = 0; i < kCount; ++i) sum[i % 3][i % 5 == 0] += i;
  const std::string inner =
      "main (main.go:7) @0x1000;main (main.go:9) @0x2000;work [inlined] (main.go:3) @0x2000";
  const std::string outer =
      "main (main.go:9) @0x2000;work [inlined] (main.go:3) @0x2000;main (main.go:7) @0x1000";
  auto line = [](const std::string& stack, std::int64_t v, bool label) {
    return stack + " | " + std::to_string(v) + (label ? " | thread=\"t1\"" : "") + "\n";
  };
  // (The dump sorts its lines: each labelled one, of the smaller sum
  // 1..., before the other, of 5....)
  CHECK(test::dump_samples(ok) == "samples: 6\n" + line("main (main.go:7) @0x1000", sum[1][1], true) +
                                      line("main (main.go:7) @0x1000", sum[1][0], false) +
                                      line(inner, sum[0][1], true) + line(inner, sum[0][0], false) +
                                      line(outer, sum[2][1], true) + line(outer, sum[2][0], false));
  std::int64_t total = 0;
  for (int i = 0; i < kCount; ++i) total += i;
  CHECK(ok.totals()[0] == total);

  // In the fifth batch: a location that does not exist (found by the
  // decoding thread), before a label key out of range (found by the adding
  // one), and the other way round.
  auto bad_location = [](int i, Pb s) { return i == 17000 ? Pb().num(1, 404).num(2, 1) : s; };
  auto bad_label = [](int i, Pb s) { return i == 17001 ? s.msg(3, Pb().num(1, 50).num(2, 1)) : s; };
  std::vector<std::size_t> offsets;
  const Pb first = many_samples(
      kCount, [&](int i, Pb s) { return bad_location(i, bad_label(i, s)); }, &offsets);
  CHECK_THROWS_WITH_AS(
      read_pprof(first.bytes),
      ("p.pb: offset " + hex(offsets[17000]) + ": sample 17000: location id 404 names no location").c_str(),
      Error);
  offsets.clear();
  const Pb second = many_samples(
      kCount, [&](int i, Pb s) { return bad_location(i, bad_label(i + 2, s)); }, &offsets);
  CHECK_THROWS_WITH_AS(read_pprof(second.bytes),
                       ("p.pb: offset " + hex(offsets[16999]) +
                        ": sample 16999: label key string index 50 is out of range (the string table has 9 "
                        "entries)")
                           .c_str(),
                       Error);

  // A fault in the file's structure is the one reported, though the reader
  // (which runs beside the check) meets a bad sample first.
  Pb broken = many_samples(kCount, [&](int i, Pb s) { return bad_location(i + 16900, s); });
  char at[32];
  std::snprintf(at, sizeof at, "0x%zx", broken.bytes.size());
  broken.raw(std::string("\x62\x01", 2));  // field 12 (period) as length-delimited
  CHECK_THROWS_WITH_AS(
      read_pprof(broken.bytes),
      ("p.pb: offset " + std::string(at) + ": Profile field 12 has wire type 2, expected 0").c_str(),
      ParseError);
}

TEST_CASE("pprof: string indices out of range and wrong value counts") {
  Pb p;
  p.msg(1, Pb().num(1, 77).num(2, 2));
  p.raw(strings().bytes);
  CHECK_THROWS_WITH_AS(read_pprof(p.bytes),
                       "p.pb: offset 0x2: sample type 0: type string index 77 is out of range (the string "
                       "table has 8 "
                       "entries)",
                       Error);
  Pb q;
  q.msg(1, Pb().num(1, 1).num(2, 2));
  q.msg(2, Pb().num(2, 1).num(2, 2));
  q.raw(strings().bytes);
  CHECK_THROWS_WITH_AS(read_pprof(q.bytes),
                       "p.pb: offset 0x8: sample 0: has 2 values, the profile has 1 sample types", Error);
}

TEST_CASE("pprof: damage inside a sample names the sample or its offset") {
  Pb p;
  p.msg(1, Pb().num(1, 1).num(2, 2));
  p.msg(2, Pb().num(2, 1).msg(3, Pb().num(1, 50).num(2, 1)));  // a label whose key is string 50
  p.raw(strings().bytes);
  CHECK_THROWS_WITH_AS(read_pprof(p.bytes),
                       "p.pb: offset 0x8: sample 0: label key string index 50 is out of range (the string "
                       "table has 8 entries)",
                       Error);
  Pb q;
  q.msg(1, Pb().num(1, 1).num(2, 2));
  q.msg(2, Pb().raw(std::string("\x0a\x05\x01\x02", 4)));  // packed location ids: 5 bytes said, 2 there
  q.raw(strings().bytes);
  CHECK_THROWS_WITH_AS(read_pprof(q.bytes), doctest::Contains("p.pb: offset 0x"), ParseError);
}

namespace {

// The message of reading `bytes`, which must fail with a ParseError.
std::string parse_error(const std::string& bytes) {
  try {
    read_pprof(bytes);
  } catch (const ParseError& e) {
    return e.what();
  }
  return "(no ParseError)";
}

}  // namespace

TEST_CASE("pprof: a reference out of range names the offset of the message that holds it") {
  // The sample type's message takes bytes 0 to 5; the next message's key
  // and length are bytes 6 and 7, its payload starts at 0x8.
  auto profile = [](auto add) {
    Pb p;
    p.msg(1, Pb().num(1, 1).num(2, 2));
    add(p);
    p.raw(strings().bytes);
    return p.bytes;
  };
  CHECK(
      parse_error(profile([](Pb& p) { p.msg(5, Pb().num(1, 1).num(2, 40)); })) ==
      "p.pb: offset 0x8: function 0: name string index 40 is out of range (the string table has 8 entries)");
  CHECK(parse_error(profile([](Pb& p) { p.msg(3, Pb().num(1, 1).num(5, 41)); })) ==
        "p.pb: offset 0x8: mapping 0: file name string index 41 is out of range (the string table has 8 "
        "entries)");
  CHECK(
      parse_error(profile([](Pb& p) { p.msg(11, Pb().num(1, 70)); })) ==
      "p.pb: offset 0x8: period type: type string index 70 is out of range (the string table has 8 entries)");
  // The first function is bytes 6 to 11 (a 4-byte payload): the second's
  // payload starts at 0xe.
  CHECK(parse_error(profile([](Pb& p) {
          p.msg(5, Pb().num(1, 1).num(2, 3));
          p.msg(5, Pb().num(1, 1).num(2, 4));
        })) == "p.pb: offset 0xe: function 1: function id 1 appears twice");
  CHECK(parse_error(profile([](Pb& p) { p.msg(3, Pb().num(5, 5)); })) ==
        "p.pb: offset 0x8: mapping 0: mapping id 0 is reserved");
  // Fields of the Profile itself: the offset of the field's key.
  Pb q;
  q.msg(1, Pb().num(1, 1).num(2, 2));
  q.raw(strings().bytes);
  const std::string at = hex(q.bytes.size());
  CHECK(parse_error(Pb(q).num(13, 50).bytes) ==
        "p.pb: offset " + at +
            ": profile: comment string index 50 is out of range (the string table has 8 "
            "entries)");
  CHECK(
      parse_error(Pb(q).num(14, 60).bytes) ==
      "p.pb: offset " + at +
          ": profile: default sample type string index 60 is out of range (the string table has 8 entries)");
  CHECK(parse_error(Pb(q).num(7, 61).bytes) ==
        "p.pb: offset " + at +
            ": profile: drop_frames string index 61 is out of range (the string table has 8 "
            "entries)");
}

TEST_CASE("pprof: damage in any message is an error at its offset, naming the message and field") {
  // Each case: small_profile() and then one more top-level field whose
  // message holds the fault `inside` at `at` bytes into the field's value.
  auto with = [](int field, const Pb& message, std::size_t key_in_message) {
    Pb p = small_profile();
    p.msg(field, message);
    // the field's key and length are two bytes each here (messages < 128 bytes)
    return std::make_pair(p.bytes, p.bytes.size() - message.bytes.size() + key_in_message);
  };
  {  // a label's key as length-delimited, in a sample's third field
    const Pb label = Pb().raw(std::string("\x0a\x01\x05", 3));
    const Pb sample = Pb().num(2, 1).msg(3, label);  // the label's key is at 2 + 2 bytes
    auto [bytes, at] = with(2, sample, 4);
    CHECK(parse_error(bytes) == "p.pb: offset " + hex(at) + ": Label field 1 has wire type 2, expected 0");
  }
  {  // field number 0 in a location, after its id
    auto [bytes, at] = with(4, Pb().num(1, 30).raw(std::string("\x00\x01", 2)), 2);
    CHECK(parse_error(bytes) == "p.pb: offset " + hex(at) + ": field number 0 in Location");
  }
  {  // a line's function id as fixed64
    const Pb line = Pb().raw(std::string("\x09", 1) + std::string(8, '\x01'));
    auto [bytes, at] = with(4, Pb().num(1, 30).msg(4, line), 4);
    CHECK(parse_error(bytes) == "p.pb: offset " + hex(at) + ": Line field 1 has wire type 1, expected 0");
  }
  {  // location ids as fixed32, which protobuf neither writes nor packs
    auto [bytes, at] = with(2, Pb().num(2, 1).raw(std::string("\x0d\x01\x02\x03\x04", 5)), 2);
    CHECK(parse_error(bytes) == "p.pb: offset " + hex(at) + ": Sample field 1 has wire type 5, expected 0");
  }
  {  // an unknown field of wire type 3 (a group): the offset is past its key
    auto [bytes, at] = with(3, Pb().num(1, 2).raw(std::string("\xa3\x01", 2)), 2);
    CHECK(parse_error(bytes) ==
          "p.pb: offset " + hex(at + 2) + ": field 20 has wire type 3, which protobuf does not define");
  }
  {  // a period type's unit as length-delimited
    auto [bytes, at] = with(11, Pb().num(1, 1).str(2, "x"), 2);
    CHECK(parse_error(bytes) ==
          "p.pb: offset " + hex(at) + ": ValueType field 2 has wire type 2, expected 0");
  }
}

TEST_CASE("pprof: unknown fields of every wire type are skipped, in every message, as protobuf skips them") {
  // small_profile() with fields 20 to 23 (varint, fixed64, length-delimited,
  // fixed32) added to its sample, the sample's label, a location, a line,
  // a function and the profile: the same profile.
  const std::string unknown = Pb().num(20, 7).bytes + std::string("\xa9\x01", 2) + std::string(8, 'x') +
                              Pb().str(22, "later").bytes + std::string("\xbd\x01", 2) + std::string(4, 'y');
  Pb p;
  p.msg(1, Pb().num(1, 1).num(2, 2).raw(unknown));
  p.msg(5, Pb().num(1, 1).raw(unknown).num(2, 3).num(4, 5));
  p.msg(5, Pb().num(1, 2).num(2, 4).num(4, 5));
  p.msg(4, Pb().num(1, 10).num(3, 0x1000).msg(4, Pb().num(1, 1).raw(unknown).num(2, 7)));
  p.msg(4, Pb().num(1, 11)
               .raw(unknown)
               .num(3, 0x2000)
               .msg(4, Pb().num(1, 2).num(2, 3))
               .msg(4, Pb().num(1, 1).num(2, 9)));
  p.msg(2, Pb().num(1, 11).raw(unknown).num(1, 10).num(2, 5).msg(3, Pb().num(1, 6).raw(unknown).num(2, 7)));
  p.raw(unknown);
  p.raw(strings().bytes);
  CHECK(test::dump_samples(read_pprof(p.bytes)) == test::dump_samples(read_pprof(small_profile().bytes)));
}

TEST_CASE("pprof: a field number past protobuf's largest is an error at its offset") {
  Pb p = small_profile();
  const std::size_t at = p.bytes.size();
  p.num(1 << 29, 1);  // 2^29: one past 2^29 - 1
  CHECK(parse_error(p.bytes) ==
        "p.pb: offset " + hex(at) +
            ": field number 536870912 in Profile is past protobuf's largest, 536870911");
}

TEST_CASE("pprof: varints that do not fit in 64 bits are errors, near the end of a message or not") {
  // A sample's value as ten bytes whose last carries more than bit 63, at
  // the end of the file (read byte by byte, checking the end) and with more
  // fields after it (read without checking the end but at the tenth byte).
  const std::string too_big = std::string("\x10", 1) + std::string(9, '\xff') + "\x02";
  for (bool more_after : {false, true}) {
    CAPTURE(more_after);
    Pb p = small_profile();
    p.varint(2 << 3 | 2).varint(too_big.size() + (more_after ? 12 : 0)).raw(too_big);
    const std::size_t at = p.bytes.size() - too_big.size() + 1;
    if (more_after) p.raw(Pb().num(2, 1).num(2, 2).num(2, 3).num(2, 4).num(2, 5).num(2, 6).bytes);
    CHECK(parse_error(p.bytes) == "p.pb: offset " + hex(at) + ": varint does not fit in 64 bits");
  }
  // The largest that fits, 2^64 - 1, read as -1 (a difference profile).
  Pb p = small_profile();
  p.msg(2, Pb().num(1, 10).num(2, ~std::uint64_t{0}));
  CHECK(read_pprof(p.bytes).value_count() == 2);
}

TEST_CASE("pprof: a length past the end is refused before anything is allocated for it") {
  // A string said to be 2^40 bytes long, in a file of a few hundred.
  Pb p = small_profile();
  const std::size_t at = p.bytes.size();
  p.varint(6 << 3 | 2).varint(std::uint64_t{1} << 40).raw("abc");
  CHECK(parse_error(p.bytes) ==
        "p.pb: offset " + hex(at + 7) + ": truncated Profile field 6: need 1099511627776 bytes, 3 left");
}

TEST_CASE("pprof: strings before the samples outlive the samples' bytes") {
  // The string table first, then 6 MiB of samples (each padded with an
  // unknown 250-byte field), of which the reader gives back the pages it
  // has decoded, 4 MiB at a time; each sample is labelled: every label
  // still reads thread="t1".
  Pb p = strings();
  p.msg(1, Pb().num(1, 1).num(2, 2));
  p.msg(5, Pb().num(1, 1).num(2, 3).num(4, 5));
  p.msg(4, Pb().num(1, 10).num(3, 0x1000).msg(4, Pb().num(1, 1).num(2, 7)));
  constexpr int kCount = 6 * 4096;
  const std::string padding(250, 'p');
  for (int i = 0; i < kCount; ++i)
    p.msg(2, Pb().num(1, 10).num(2, 1).msg(3, Pb().num(1, 6).num(2, 7)).str(20, padding));
  REQUIRE(p.bytes.size() > (std::size_t{6} << 20));
  // gzipped, so that the inflated bytes are memory of the reader's own
  const Profile read = read_pprof(formats::gzip_compress(p.bytes));
  CHECK(test::dump_samples(read) ==
        "samples: 1\nmain (main.go:7) @0x1000 | " + std::to_string(kCount) + " | thread=\"t1\"\n");
}

TEST_CASE("pprof: locations without symbols are named by module and offset, with a warning") {
  Pb p;
  p.msg(1, Pb().num(1, 1).num(2, 2));
  p.msg(3, Pb().num(1, 1).num(2, 0x400000).num(3, 0x500000).num(4, 0x1000).num(5, 5));  // main.go as a file
  p.msg(4, Pb().num(1, 1).num(2, 1).num(3, 0x400abc));
  p.msg(4, Pb().num(1, 2).num(3, 0xdead));
  p.msg(2, Pb().num(1, 2).num(1, 1).num(2, 3));
  p.raw(strings().bytes);
  std::vector<std::string> w;
  Profile prof = read_pprof(p.bytes, &w);
  CHECK(test::dump_samples(prof) ==
        "samples: 1\nmain.go+0x1abc [unsymbolized] @0x400abc <main.go>;0xdead [unsymbolized] @0xdead | 3\n");
  REQUIRE(w.size() == 1);
  CHECK(w[0] == "p.pb: 2 locations have no symbols; shown as module+0xoffset (or the address)");
}

TEST_CASE("pprof: read per function, frames are what at_granularity(function) makes of them") {
  // small_profile() (lines, an inlined frame) and two locations without
  // symbols, one in a mapping (which it keeps per function: its module is
  // what tells it apart then); two samples that differ only in lines merge.
  Pb p = small_profile();
  p.msg(3, Pb().num(1, 1).num(2, 0x400000).num(3, 0x500000).num(4, 0x1000).num(5, 5));
  p.msg(4, Pb().num(1, 20).num(2, 1).num(3, 0x400abc));
  p.msg(4, Pb().num(1, 21).num(3, 0xdead));
  p.msg(4, Pb().num(1, 12).num(3, 0x3000).msg(4, Pb().num(1, 1).num(2, 8)));  // main:8, main:7's twin
  p.msg(2, Pb().num(1, 21).num(1, 20).num(1, 10).num(2, 3));
  p.msg(2, Pb().num(1, 10).num(2, 4));
  p.msg(2, Pb().num(1, 12).num(2, 6));
  Diagnostics d;
  formats::ReadOptions per_function;
  per_function.frames = Granularity::kFunction;
  auto in = formats::Input::from_bytes("p.pb", p.bytes);
  const Profile coarse = formats::find_format("pprof")->read(*in, per_function, d);
  const Profile fine = read_pprof(p.bytes);
  CHECK(finer_than(fine, Granularity::kFunction));
  CHECK_FALSE(finer_than(coarse, Granularity::kFunction));
  std::ostringstream a, b;
  dump_profile(coarse, a);
  dump_profile(at_granularity(fine, Granularity::kFunction), b);
  CHECK(a.str() == b.str());
  CHECK(test::dump_samples(coarse) ==
        "samples: 3\n"
        "main | 10\n"
        "main;main.go+0x1abc [unsymbolized] <main.go>;0xdead [unsymbolized] | 3\n"
        "main;main;work [inlined] | 5 | thread=\"t1\"\n");
}

TEST_CASE("pprof: round trips keep every field") {
  Profile p = read_pprof(small_profile().bytes);
  Profile again = read_pprof(inflated(write_pprof(p)));
  CHECK(test::dump_samples(again) == test::dump_samples(p));

  Profile folded = test::folded("main;a;b 3\nmain;c 5\nmain 1\n");
  Profile back = read_pprof(inflated(write_pprof(folded)));
  CHECK(back.value_types()[0] == ValueType{"samples", "count"});
  CHECK(test::collapsed(back) == test::collapsed(folded));
}

TEST_CASE("pprof: numeric labels keep their units") {
  ProfileBuilder b(std::vector<ValueType>{{"alloc_space", "bytes"}});
  std::vector<std::int64_t> v{64};
  b.add_sample(std::vector<FrameId>{b.frame("f")}, v,
               b.labels({Label{b.intern("bytes"), {}, 64, b.intern("bytes"), true}}));
  Profile p = std::move(b).finish();
  Profile back = read_pprof(inflated(write_pprof(p)));
  CHECK(test::dump_samples(back) == "samples: 1\nf | 64 | bytes=64[bytes]\n");
}

TEST_CASE("pprof: names that are not UTF-8 are read and written as they are") {
  Profile p = test::folded("caf\xe9;\xff\xfe 2\n");
  const std::string bytes = inflated(write_pprof(p));
  Profile back = read_pprof(bytes);
  CHECK(test::collapsed(back) == "caf\xe9;\xff\xfe 2\n");
}

namespace {

// A difference profile as go tool pprof -proto -diff_base writes one (the
// base's samples negated), by hand: main -3 and main;work -1 in the base,
// main 2 and main;work 4 in the new profile; `label` marks the base's
// samples pprof::base as pprof does (string 8 "pprof::base", 9 "true").
Pb difference_profile(bool label) {
  Pb p;
  p.msg(1, Pb().num(1, 1).num(2, 2));
  p.msg(5, Pb().num(1, 1).num(2, 3).num(4, 5));
  p.msg(5, Pb().num(1, 2).num(2, 4).num(4, 5));
  p.msg(4, Pb().num(1, 10).num(3, 0x1000).msg(4, Pb().num(1, 1).num(2, 7)));
  p.msg(4, Pb().num(1, 12).num(3, 0x3000).msg(4, Pb().num(1, 2).num(2, 3)));
  auto sample = [&](std::vector<std::uint64_t> locations, std::int64_t value, bool base) {
    Pb s;
    for (std::uint64_t l : locations) s.num(1, l);
    s.num(2, static_cast<std::uint64_t>(value));  // negative: ten-byte two's complement, as protobuf
    s.msg(3, Pb().num(1, 6).num(2, 7));           // thread=t1 on every sample
    if (base && label) s.msg(3, Pb().num(1, 8).num(2, 9));
    p.msg(2, s);
  };
  sample({10}, -3, true);
  sample({12, 10}, -1, true);
  sample({10}, 2, false);
  sample({12, 10}, 4, false);
  p.raw(strings().bytes);
  p.str(6, "pprof::base").str(6, "true");
  return p;
}

Profile read_with_notes(const std::string& bytes, std::vector<std::string>& notes) {
  Diagnostics d;
  formats::ReadOptions o;
  o.note = [&notes](const std::string& m) { notes.push_back(m); };
  auto in = formats::Input::from_bytes("d.pb", bytes);
  return formats::pprof::read(*in, o, d);
}

}  // namespace

TEST_CASE("pprof: a difference profile (-diff_base) is read as a diff: base and new columns, no label") {
  for (bool label : {true, false}) {
    CAPTURE(label);
    std::vector<std::string> notes;
    const Profile p = read_with_notes(difference_profile(label).bytes, notes);
    REQUIRE(p.value_count() == 2);
    CHECK(p.value_types()[0] == ValueType{"samples", "count", ValueRole::kNew});
    CHECK(p.value_types()[1] == ValueType{"samples", "count", ValueRole::kBase});
    CHECK(p.base_of(0) == std::optional<std::size_t>(1));
    CHECK(p.default_value_index() == 0);
    // The two sides of one stack are one sample: new, then base (negated
    // back). Without the label, samples of one stack and label set are one
    // sample from the start (as in pprof's model): their sum, -3 + 2 and
    // -1 + 4, says the side.
    CHECK(test::dump_samples(p) ==
          (label ? "samples: 2\n"
                   "main (main.go:7) @0x1000 | 2 3 | thread=\"t1\"\n"
                   "main (main.go:7) @0x1000;work (main.go:3) @0x3000 | 4 1 | thread=\"t1\"\n"
                 : "samples: 2\n"
                   "main (main.go:7) @0x1000 | 0 1 | thread=\"t1\"\n"
                   "main (main.go:7) @0x1000;work (main.go:3) @0x3000 | 3 0 | thread=\"t1\"\n"));
    REQUIRE(notes.size() == 1);
    CHECK(notes[0] ==
          (label ? "d.pb: a difference profile (go tool pprof -diff_base): its 2 samples labelled "
                   "pprof::base are the base, negated back, and the rest the new profile; drawn as "
                   "fg-diff draws base and new"
                 : "d.pb: a difference profile: its negative values are the base, negated back, and "
                   "the rest the new profile; drawn as fg-diff draws base and new"));
  }
}

TEST_CASE("pprof: a profile without negative values is read as it is, without a note") {
  std::vector<std::string> notes;
  const Profile p = read_with_notes(small_profile().bytes, notes);
  CHECK(p.value_count() == 1);
  CHECK(p.value_types()[0].role == ValueRole::kPlain);
  CHECK(notes.empty());
}

TEST_CASE("pprof: an unsymbolized frame is written back as a location without lines") {
  // Location 1 in mapping "main.go" at 0x400abc (offset 0x1abc in the file),
  // location 2 without a mapping, as in the test of their names above.
  Pb p;
  p.msg(1, Pb().num(1, 1).num(2, 2));
  p.msg(3, Pb().num(1, 1).num(2, 0x400000).num(3, 0x500000).num(4, 0x1000).num(5, 5));
  p.msg(4, Pb().num(1, 1).num(2, 1).num(3, 0x400abc));
  p.msg(4, Pb().num(1, 2).num(3, 0xdead));
  p.msg(2, Pb().num(1, 2).num(1, 1).num(2, 3));
  p.raw(strings().bytes);
  const Profile again = read_pprof(inflated(write_pprof(read_pprof(p.bytes))));
  // Still unsymbolized, in the same module, at the same address; the
  // written mapping has no range, so the offset read back is the address.
  CHECK(
      test::dump_samples(again) ==
      "samples: 1\nmain.go+0x400abc [unsymbolized] @0x400abc <main.go>;0xdead [unsymbolized] @0xdead | 3\n");
}
