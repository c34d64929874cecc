#include "fg/cursor.h"

#include <doctest/doctest.h>

using fg::ByteCursor;
using fg::ParseError;
using fg::TextCursor;

TEST_CASE("text cursor tracks lines and columns") {
  TextCursor c("ab\ncd 42", "x.txt");
  c.advance();
  c.advance();
  CHECK(c.line() == 1);
  CHECK(c.column() == 3);
  c.advance();  // past '\n'
  CHECK(c.line() == 2);
  CHECK(c.column() == 1);
  CHECK(c.read_until(' ') == "cd");
  c.skip_blanks();
  CHECK(c.read_int64() == 42);
  CHECK(c.at_end());
  CHECK(c.position().to_string() == "x.txt:2:6");
}

TEST_CASE("text cursor reports bad numbers with their position") {
  TextCursor c("count: x", "in.txt", 7);
  c.read_until(' ');
  c.skip_blanks();
  CHECK_THROWS_WITH_AS(c.read_int64(), "in.txt:7:8: expected a number", ParseError);

  TextCursor big("99999999999999999999", "big.txt");
  CHECK_THROWS_WITH_AS(big.read_int64(), "big.txt:1:19: number does not fit in 64 bits", ParseError);

  TextCursor neg("-9223372036854775808", "n");
  CHECK(neg.read_int64() == INT64_MIN);

  TextCursor e("ab", "e.txt");
  CHECK_THROWS_WITH_AS(e.expect('x'), "e.txt:1:1: expected 'x'", ParseError);
}

TEST_CASE("byte cursor reads big and little endian and varints") {
  const std::string data("\x01\x02\x03\x04\x05\x06\x07\x08\xac\x02\x7f", 11);
  ByteCursor c(data, "b.bin");
  CHECK(c.u16_be() == 0x0102);
  CHECK(c.u16_be() == 0x0304);
  CHECK(c.u32_le() == 0x08070605u);
  CHECK(c.varint() == 300);
  CHECK(c.varint() == 127);
  CHECK(c.at_end());
}

TEST_CASE("byte cursor refuses to read past the end") {
  const std::string data("\x00\x01\x02", 3);
  ByteCursor c(data, "b.bin", 0x100);
  c.u8();
  CHECK_THROWS_WITH_AS(c.u32_be(), "b.bin: offset 0x101: truncated: need 4 bytes, 2 left", ParseError);
  CHECK_THROWS_WITH_AS(c.bytes(1000, "string"),
                       "b.bin: offset 0x101: truncated string: need 1000 bytes, 2 left", ParseError);
  // A size from the file is checked before anything is allocated.
  CHECK_THROWS_AS(c.need(UINT64_MAX), ParseError);
  ByteCursor sub = c.sub(2);
  CHECK(sub.offset() == 0x101);
  CHECK(sub.remaining() == 2);
  CHECK(c.at_end());
}

TEST_CASE("byte cursor rejects bad varints") {
  const std::string truncated("\x80\x80", 2);
  ByteCursor t(truncated, "v");
  CHECK_THROWS_WITH_AS(t.varint(), "v: offset 0x0: truncated varint", ParseError);
  const std::string too_long(11, '\xff');
  ByteCursor l(too_long, "v");
  CHECK_THROWS_WITH_AS(l.varint(), "v: offset 0x0: varint does not fit in 64 bits", ParseError);
}
