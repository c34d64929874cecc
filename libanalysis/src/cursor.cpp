#include "fg/cursor.h"

#include <limits>

namespace fg {

TextCursor::TextCursor(std::string_view text, std::string file, std::uint64_t first_line)
    : text_(text), file_(std::move(file)), line_(first_line) {}

void TextCursor::advance() {
  if (at_end()) return;
  if (text_[pos_] == '\n') {
    ++line_;
    line_start_ = pos_ + 1;
  }
  ++pos_;
}

void TextCursor::expect(char c) {
  if (peek() != c || at_end()) fail(std::string("expected '") + c + "'");
  advance();
}

void TextCursor::skip_blanks() {
  while (!at_end() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
}

std::string_view TextCursor::read_until(char stop) {
  std::size_t start = pos_;
  while (!at_end() && text_[pos_] != stop && text_[pos_] != '\n') ++pos_;
  return text_.substr(start, pos_ - start);
}

std::int64_t TextCursor::read_int64() {
  bool negative = false;
  if (peek() == '-' || peek() == '+') {
    negative = peek() == '-';
    ++pos_;
  }
  if (at_end() || text_[pos_] < '0' || text_[pos_] > '9') fail("expected a number");
  std::uint64_t value = 0;
  const std::uint64_t limit =
      negative ? std::uint64_t{1} << 63 : std::uint64_t(std::numeric_limits<std::int64_t>::max());
  while (!at_end() && text_[pos_] >= '0' && text_[pos_] <= '9') {
    unsigned digit = unsigned(text_[pos_] - '0');
    if (value > (limit - digit) / 10) fail("number does not fit in 64 bits");
    value = value * 10 + digit;
    ++pos_;
  }
  return negative ? static_cast<std::int64_t>(0 - value) : static_cast<std::int64_t>(value);
}

SourcePosition TextCursor::position() const { return SourcePosition::text(file_, line_, column()); }

void TextCursor::fail(const std::string& message) const { throw ParseError(position(), message); }

ByteCursor::ByteCursor(std::string_view data, std::string_view file, std::uint64_t base_offset)
    : data_(data), file_(file), base_(base_offset) {}

void ByteCursor::need(std::uint64_t n, std::string_view what) const {
  if (n <= remaining()) return;
  std::string msg = "truncated";
  if (!what.empty()) msg += std::string(" ") + std::string(what);
  msg += ": need " + std::to_string(n) + " bytes, " + std::to_string(remaining()) + " left";
  fail(msg);
}

std::uint8_t ByteCursor::u8() {
  need(1);
  return static_cast<std::uint8_t>(data_[pos_++]);
}

namespace {
template <typename T>
T big_endian(std::string_view b) {
  T v = 0;
  for (char c : b) v = T(v << 8) | static_cast<std::uint8_t>(c);
  return v;
}
template <typename T>
T little_endian(std::string_view b) {
  T v = 0;
  for (std::size_t i = b.size(); i-- > 0;) v = T(v << 8) | static_cast<std::uint8_t>(b[i]);
  return v;
}
}  // namespace

std::uint16_t ByteCursor::u16_be() { return big_endian<std::uint16_t>(bytes(2)); }
std::uint32_t ByteCursor::u32_be() { return big_endian<std::uint32_t>(bytes(4)); }
std::uint64_t ByteCursor::u64_be() { return big_endian<std::uint64_t>(bytes(8)); }
std::uint32_t ByteCursor::u32_le() { return little_endian<std::uint32_t>(bytes(4)); }
std::uint64_t ByteCursor::u64_le() { return little_endian<std::uint64_t>(bytes(8)); }

std::uint64_t ByteCursor::varint() {
  std::uint64_t value = 0;
  std::size_t start = pos_;
  for (int shift = 0; shift < 70; shift += 7) {
    if (at_end()) {
      pos_ = start;
      fail("truncated varint");
    }
    std::uint8_t b = static_cast<std::uint8_t>(data_[pos_++]);
    if (shift == 63 && b > 1) {
      pos_ = start;
      fail("varint does not fit in 64 bits");
    }
    value |= std::uint64_t(b & 0x7f) << shift;
    if ((b & 0x80) == 0) return value;
  }
  pos_ = start;
  fail("varint longer than 10 bytes");
}

std::string_view ByteCursor::bytes(std::uint64_t n, std::string_view what) {
  need(n, what);
  auto v = data_.substr(pos_, n);
  pos_ += n;
  return v;
}

void ByteCursor::skip(std::uint64_t n, std::string_view what) {
  need(n, what);
  pos_ += n;
}

ByteCursor ByteCursor::sub(std::uint64_t n, std::string_view what) {
  need(n, what);
  ByteCursor c(data_.substr(pos_, n), file_, base_ + pos_);
  pos_ += n;
  return c;
}

SourcePosition ByteCursor::position() const { return SourcePosition::binary(std::string(file_), offset()); }

void ByteCursor::fail(const std::string& message) const { throw ParseError(position(), message); }

}  // namespace fg
