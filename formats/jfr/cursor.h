// The byte-level reading of a JFR chunk: big-endian fixed-width fields,
// JFR's varints (LEB128-like, at most 9 bytes, the 9th contributing all 8
// bits) or fixed-width integers when the chunk's "compressed integers" flag
// is clear, and JFR strings (null, empty, constant-pool reference, UTF-8,
// UTF-16 or Latin-1). Every read is bounds-checked against the cursor's
// window and fails with a ParseError "file: offset 0x..: message".
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "fg/error.h"

namespace fg::formats::jfr {

/// String encodings of JFR (the first byte of every string value).
enum class StringEncoding : std::uint8_t {
  kNull = 0,
  kEmpty = 1,
  kConstantPool = 2,  ///< a varint key into the java.lang.String pool
  kUtf8 = 3,
  kUtf16 = 4,         ///< varint count, then one varint per UTF-16 code unit
  kLatin1 = 5,
};

/// A string value as read: either text (kUtf8/kUtf16/kLatin1/kEmpty, as
/// UTF-8), a pool key (kConstantPool) or null.
struct StringValue {
  StringEncoding encoding = StringEncoding::kNull;
  std::string text;
  std::uint64_t key = 0;
};

/// A bounds-checked cursor over a window of the file. Does not own the bytes.
class Cursor {
 public:
  /// `data` is the window; `base` its offset in the file, for messages.
  /// `file` (the name used in messages) must outlive the cursor.
  Cursor(std::string_view data, const std::string& file, std::uint64_t base = 0, bool compressed = true)
      : data_(data), file_(&file), base_(base), compressed_(compressed) {}

  std::size_t size() const { return data_.size(); }
  std::size_t pos() const { return pos_; }
  std::size_t remaining() const { return data_.size() - pos_; }
  bool at_end() const { return pos_ >= data_.size(); }
  /// Whether integers are varints (else fixed-width, big-endian).
  bool compressed() const { return compressed_; }
  /// Offset of the next byte in the file.
  std::uint64_t offset() const { return base_ + pos_; }
  /// Moves to `pos` (relative to the window); fails when it lies outside.
  void seek(std::uint64_t pos) {
    if (pos > data_.size()) seek_outside(pos);
    pos_ = static_cast<std::size_t>(pos);
  }
  /// A cursor over the next n bytes (checked); this cursor moves past them.
  Cursor sub(std::uint64_t n, std::string_view what) {
    if (n > remaining()) need(n, what);
    Cursor c(data_.substr(pos_, n), *file_, base_ + pos_, compressed_);
    pos_ += n;
    return c;
  }
  /// A cursor over [pos, pos + n) of this window (checked), not moving this one.
  Cursor window(std::uint64_t pos, std::uint64_t n, std::string_view what) const;

  std::uint8_t u8() {
    if (pos_ >= data_.size()) need(1);
    return static_cast<std::uint8_t>(data_[pos_++]);
  }
  std::uint16_t u16_be();
  std::uint32_t u32_be();
  std::uint64_t u64_be();
  /// A JFR varint (at most 9 bytes); fails on a truncated one.
  std::uint64_t varint() {
    if (pos_ + 1 < data_.size()) {  // one or two bytes, the usual sizes, inline
      const auto b0 = static_cast<std::uint8_t>(data_[pos_]);
      if (b0 < 0x80) {
        ++pos_;
        return b0;
      }
      const auto b1 = static_cast<std::uint8_t>(data_[pos_ + 1]);
      if (b1 < 0x80) {
        pos_ += 2;
        return (b0 & 0x7fu) | std::uint64_t{b1} << 7;
      }
    }
    return varint_slow();
  }
  /// A 64-bit integer: a varint when compressed, else 8 big-endian bytes.
  std::int64_t read_long() { return static_cast<std::int64_t>(compressed_ ? varint() : u64_be()); }
  /// A 32-bit integer, sign-extended: a Java int of -1 written as the
  /// 32-bit pattern 0xFFFFFFFF reads as -1.
  std::int32_t read_int() {
    return static_cast<std::int32_t>(compressed_ ? static_cast<std::uint32_t>(varint()) : u32_be());
  }
  /// Reads `count` groups of N varints (a struct of N integer fields, as a
  /// stack frame usually is), handing each to `each` as a std::array. The
  /// bounds are checked once per group rather than once per byte; near the
  /// end of the window it reads as read_long(), and so it does in a chunk
  /// without compressed integers, where each field is then 8 bytes.
  template <std::size_t N, typename F>
  void read_long_groups(std::uint64_t count, F&& each) {
    std::array<std::uint64_t, N> v;
    if (!compressed_) {
      for (; count > 0; --count) {
        for (std::size_t i = 0; i < N; ++i) v[i] = static_cast<std::uint64_t>(read_long());
        each(v);
      }
      return;
    }
    const char* const begin = data_.data();
    // Where a group can start and be read without checks (a varint takes at most 9 bytes).
    const std::size_t checked_from = data_.size() - std::min(data_.size(), N * 9);
    for (; count > 0; --count) {
      if (pos_ < checked_from) {
        const char* p = begin + pos_;
        for (std::size_t i = 0; i < N; ++i) v[i] = unchecked_varint(p);
        pos_ = static_cast<std::size_t>(p - begin);
      } else {
        for (std::size_t i = 0; i < N; ++i) v[i] = varint();
      }
      each(v);
    }
  }
  std::int16_t read_short() {
    return static_cast<std::int16_t>(compressed_ ? static_cast<std::uint16_t>(varint()) : u16_be());
  }
  /// A count or length read from the data, checked to be at most what is
  /// left (each item takes at least `min_item_bytes`), so nothing larger
  /// than the file is ever allocated.
  std::uint64_t read_count(std::string_view what, std::uint64_t min_item_bytes = 1);
  /// A JFR string value.
  StringValue read_string();
  /// Skips a JFR string value without decoding it.
  void skip_string();
  void skip(std::uint64_t n, std::string_view what = {});
  /// Whether the next bytes are `s` (false when fewer remain); does not move.
  bool bytes_equal(std::string_view s) const { return data_.substr(pos_, s.size()) == s; }

  /// Throws ParseError at the current offset.
  [[noreturn]] void fail(const std::string& message) const;
  /// Throws ParseError at file offset `offset`.
  [[noreturn]] void fail_at(std::uint64_t offset, const std::string& message) const;

 private:
  void need(std::uint64_t n, std::string_view what = {}) const;
  [[noreturn]] void seek_outside(std::uint64_t pos) const;
  std::uint64_t varint_slow();
  // The varint at `p` from one 8-byte load (all 8 must be readable): its
  // length when those bytes end it (1 to 8), with its value in `value`;
  // else 0, with its first eight 7-bit groups in `value` (a 9th byte, of 8
  // bits, follows).
  static unsigned one_load_varint(const char* p, std::uint64_t& value) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    if constexpr (std::endian::native == std::endian::big) w = __builtin_bswap64(w);
    const std::uint64_t stops = ~w & 0x8080808080808080ull;  // the first byte without its top bit ends it
    const unsigned bytes = stops == 0 ? 0 : static_cast<unsigned>(std::countr_zero(stops)) / 8 + 1;
    // The 7-bit groups packed together.
    std::uint64_t x = w & (~std::uint64_t{0} >> (64 - 8 * (bytes == 0 ? 8 : bytes))) & 0x7f7f7f7f7f7f7f7full;
    x = (x & 0x007f007f007f007full) | (x & 0x7f007f007f007f00ull) >> 1;
    x = (x & 0x00003fff00003fffull) | (x & 0x3fff00003fff0000ull) >> 2;
    value = (x & 0x000000000fffffffull) | (x & 0x0fffffff00000000ull) >> 4;
    return bytes;
  }
  // The varint at `p`, which the caller knows has 9 bytes after it; moves `p` past it.
  static std::uint64_t unchecked_varint(const char*& p) {
    const auto b0 = static_cast<std::uint8_t>(p[0]);
    if (b0 < 0x80) {
      p += 1;
      return b0;
    }
    const auto b1 = static_cast<std::uint8_t>(p[1]);
    if (b1 < 0x80) {
      p += 2;
      return (b0 & 0x7fu) | std::uint64_t{b1} << 7;
    }
    std::uint64_t value;
    const unsigned bytes = one_load_varint(p, value);
    if (bytes != 0) {
      p += bytes;
      return value;
    }
    value |= std::uint64_t{static_cast<std::uint8_t>(p[8])} << 56;
    p += 9;
    return value;
  }

  std::string_view data_;
  const std::string* file_;
  std::uint64_t base_;
  std::size_t pos_ = 0;
  bool compressed_;
};

/// Appends the UTF-8 encoding of code point `c` to `out`.
void append_utf8(std::string& out, char32_t c);

}  // namespace fg::formats::jfr
