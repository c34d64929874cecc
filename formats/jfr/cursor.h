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

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace fg::formats::jfr {

/// String encodings of JFR (the first byte of every string value).
enum class StringEncoding : std::uint8_t {
  kNull = 0,
  kEmpty = 1,
  kConstantPool = 2,  ///< a varint key into the java.lang.String pool
  kUtf8 = 3,
  kUtf16 = 4,  ///< varint count, then one varint per UTF-16 code unit
  kLatin1 = 5,
};

/// A string value as read: either text (kUtf8/kUtf16/kLatin1/kEmpty, as
/// UTF-8), a pool key (kConstantPool) or null.
struct StringValue {
  StringEncoding encoding = StringEncoding::kNull;
  std::string text;
  std::uint64_t key = 0;
};

namespace detail {

// Where two groups of four varints lie in 14 bytes, by the top bits of
// those bytes (bit i set: byte i continues a varint), when each varint
// takes one or two bytes and both groups end within them; else 0. Bit 0
// is set; then each group's length less 4 (3 bits each, bits 1 and 4);
// then for the first group whether its first varint takes two bytes (bit
// 7), where its last starts less 3 (2 bits, bit 8) and whether that takes
// two (bit 10); the same for the second group from bit 11.
constexpr std::array<std::uint16_t, 1 << 14> quad_pairs() {
  std::array<std::uint16_t, 1 << 14> table{};
  for (unsigned m = 0; m < (1u << 14); ++m) {
    unsigned pos = 0, start[8] = {}, len[8] = {};
    bool fits = true;
    for (unsigned v = 0; v < 8 && fits; ++v) {
      start[v] = pos;
      len[v] = 1 + (m >> pos & 1);
      // A second byte must end the varint, and be among the 14.
      fits = pos + len[v] <= 14 && (len[v] == 1 || (m >> (pos + 1) & 1) == 0);
      pos += len[v];
    }
    if (!fits) continue;
    table[m] = static_cast<std::uint16_t>(
        1 | (start[4] - 4) << 1 | (pos - start[4] - 4) << 4 | (len[0] - 1) << 7 | (start[3] - 3) << 8 |
        (len[3] - 1) << 10 | (len[4] - 1) << 11 | (start[7] - start[4] - 3) << 12 | (len[7] - 1) << 14);
  }
  return table;
}
inline constexpr std::array<std::uint16_t, 1 << 14> kQuadPairs = quad_pairs();

/// The 8 bytes at `p` as a little-endian integer: byte i in bits 8i to 8i + 7.
inline std::uint64_t load_le64(const char* p) {
  std::uint64_t w;
  std::memcpy(&w, p, 8);
  if constexpr (std::endian::native == std::endian::big) w = __builtin_bswap64(w);
  return w;
}

/// The top bit of each of the 16 bytes at `p`, byte i's as bit i, without
/// SSE2's movemask (each 8 bytes' top bits gathered by one multiply).
inline unsigned top_bits16(const char* p) {
  unsigned bits = 0;
  for (unsigned half = 0; half < 2; ++half) {
    const std::uint64_t w = load_le64(p + 8 * half);
    bits |= static_cast<unsigned>((w & 0x8080808080808080ull) * 0x0002040810204081ull >> 56) << (8 * half);
  }
  return bits;
}

}  // namespace detail

/// Whether this CPU runs Cursor::read_quad_ends_wide() (x86-64 with
/// AVX-512F and BW, and BMI2): asked once.
bool wide_quads();

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
  /// The bytes from the next one to the window's end.
  std::string_view rest() const { return data_.substr(pos_); }
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
      std::uint64_t value;
      if (const unsigned bytes = one_or_two_byte_varint(data_.data() + pos_, value); bytes != 0) {
        pos_ += bytes;
        return value;
      }
    }
    return varint_slow();
  }
  /// The next `n` bytes, to be read without checks (unchecked_varint()),
  /// when that many remain and integers are varints; else nullptr.
  /// skip_to() then moves past what was read.
  const char* unchecked(std::size_t n) const {
    return compressed_ && remaining() >= n ? data_.data() + pos_ : nullptr;
  }
  /// Moves to `p`, a pointer unchecked() gave, advanced by at most the `n` bytes asked for.
  void skip_to(const char* p) { pos_ = static_cast<std::size_t>(p - data_.data()); }
  /// The varint at `p`, which the caller knows has 9 readable bytes; moves `p` past it.
  static std::uint64_t unchecked_varint(const char*& p) {
    std::uint64_t value;
    unsigned bytes = one_or_two_byte_varint(p, value);
    if (bytes == 0) bytes = one_load_varint(p, value);
    if (bytes != 0) {
      p += bytes;
      return value;
    }
    value |= std::uint64_t{static_cast<std::uint8_t>(p[8])} << 56;
    p += 9;
    return value;
  }
  /// Moves `p` past the varint there, as unchecked_varint() would, without its value.
  static void skip_unchecked_varint(const char*& p) {
    const unsigned bytes = varint_length(detail::load_le64(p));
    p += bytes == 0 ? 9 : bytes;
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
  /// Reads `count` groups of four varints of which only the first and the
  /// last are wanted (a stack frame's method and type, when its line and
  /// bci are not kept), handing each pair to `each`: with AVX-512 the
  /// groups of 64 bytes at a time (read_quad_ends_wide()), else two at a
  /// time (read_quad_ends_narrow()).
  template <typename F>
  void read_quad_ends(std::uint64_t count, F&& each) {
    if (count >= 4 && compressed_ && wide_quads()) {
      constexpr std::uint64_t kAtOnce = 64;
      std::uint32_t firsts[kAtOnce + 16], lasts[kAtOnce + 16];
      while (count > 0) {
        const std::uint64_t n = read_quad_ends_wide(std::min(count, kAtOnce), firsts, lasts);
        for (std::uint64_t i = 0; i < n; ++i) each(std::uint64_t{firsts[i]}, std::uint64_t{lasts[i]});
        count -= n;
        if (n > 0) continue;
        if (remaining() < kWideReadable) break;
        // A group the wide read does not place: one read as read_long_groups() reads.
        read_long_groups<4>(1, [&](const std::array<std::uint64_t, 4>& f) { each(f[0], f[3]); });
        --count;
      }
    }
    read_quad_ends_narrow(count, each);
  }
  /// The bytes read_quad_ends_wide() needs left to read a window.
  static constexpr std::size_t kWideReadable = 80;
  /// Fetches the bytes kPrefetchAhead after `p` into the cache: on this
  /// project's machines the hardware fetches a stream read as slowly as
  /// stack frames are too late (the hint took a fifth off their reading).
  /// (The address may lie past the window: a prefetch does not fault.)
  static void prefetch_ahead(const char* p) {
    __builtin_prefetch(reinterpret_cast<const void*>(reinterpret_cast<std::uintptr_t>(p) + kPrefetchAhead));
  }
  static constexpr std::size_t kPrefetchAhead = 1024;
  /// read_quad_ends() without AVX-512 (public for tests). A byte-by-byte
  /// decoder mispredicts about one branch a frame on the varints' lengths
  /// (one byte or two, at random); here the top bits of 16 bytes find two
  /// groups at once in a table (detail::kQuadPairs). Groups the table does
  /// not place (a longer varint), the window's last bytes and a chunk
  /// without compressed integers are read as read_long_groups() reads them.
  template <typename F>
  void read_quad_ends_narrow(std::uint64_t count, F&& each) {
    const char* const begin = data_.data();
    while (count >= 2 && compressed_ && data_.size() - pos_ >= 16) {
      const char* const p = begin + pos_;
      prefetch_ahead(p);
      const std::uint16_t e = detail::kQuadPairs[top_bits16(p) & 0x3FFF];
      if (e == 0) {
        read_long_groups<4>(1, [&](const std::array<std::uint64_t, 4>& f) { each(f[0], f[3]); });
        --count;
        continue;
      }
      const unsigned first = 4 + (e >> 1 & 7), second = 4 + (e >> 4 & 7);
      const char* const q = p + first;
      const std::uint64_t method1 = short_varint(p, e >> 7 & 1),
                          type1 = short_varint(p + 3 + (e >> 8 & 3), e >> 10 & 1);
      const std::uint64_t method2 = short_varint(q, e >> 11 & 1),
                          type2 = short_varint(q + 3 + (e >> 12 & 3), e >> 14 & 1);
      pos_ += first;
      each(method1, type1);
      pos_ += second;
      each(method2, type2);
      count -= 2;
    }
    read_long_groups<4>(count, [&](const std::array<std::uint64_t, 4>& f) { each(f[0], f[3]); });
  }
  /// read_quad_ends() with AVX-512, for a CPU where wide_quads() (else it
  /// reads nothing): up to `count` groups' first and last varints into
  /// `firsts` and `lasts`, which have room for 16 more than `count`.
  /// Returns how many it read: it stops at 64 bytes whose varints it does
  /// not place (see cursor.cpp) and where fewer than kWideReadable bytes
  /// are left.
  std::uint64_t read_quad_ends_wide(std::uint64_t count, std::uint32_t* firsts, std::uint32_t* lasts);
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
  // The top bit of each of the 16 bytes at `p`, byte i's as bit i.
  static unsigned top_bits16(const char* p) {
#if defined(__SSE2__)
    return static_cast<unsigned>(_mm_movemask_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))));
#else
    return detail::top_bits16(p);
#endif
  }
  // The varint at `p` when it takes one byte or two (both readable): its
  // length, with its value in `value`; else 0.
  static unsigned one_or_two_byte_varint(const char* p, std::uint64_t& value) {
    const auto b0 = static_cast<std::uint8_t>(p[0]);
    if (b0 < 0x80) {
      value = b0;
      return 1;
    }
    const auto b1 = static_cast<std::uint8_t>(p[1]);
    if (b1 < 0x80) {
      value = (b0 & 0x7fu) | std::uint64_t{b1} << 7;
      return 2;
    }
    return 0;
  }
  // The varint of one byte, or two when `two`, at `p`.
  static std::uint64_t short_varint(const char* p, unsigned two) {
    const auto b0 = static_cast<std::uint8_t>(p[0]), b1 = static_cast<std::uint8_t>(p[1]);
    return (b0 & 0x7fu) | ((b1 & 0x7fu) << 7 & (0u - two));
  }
  // The length of the varint whose first 8 bytes are `w` (load_le64()) when
  // they end it, 1 to 8; else 0. The first byte without its top bit ends it.
  static unsigned varint_length(std::uint64_t w) {
    const std::uint64_t stops = ~w & 0x8080808080808080ull;
    return stops == 0 ? 0 : static_cast<unsigned>(std::countr_zero(stops)) / 8 + 1;
  }
  // The varint at `p` from one 8-byte load (all 8 must be readable): its
  // length when those bytes end it (1 to 8), with its value in `value`;
  // else 0, with its first eight 7-bit groups in `value` (a 9th byte, of 8
  // bits, follows).
  static unsigned one_load_varint(const char* p, std::uint64_t& value) {
    const std::uint64_t w = detail::load_le64(p);
    const unsigned bytes = varint_length(w);
    // The 7-bit groups packed together.
    std::uint64_t x = w & (~std::uint64_t{0} >> (64 - 8 * (bytes == 0 ? 8 : bytes))) & 0x7f7f7f7f7f7f7f7full;
    x = (x & 0x007f007f007f007full) | (x & 0x7f007f007f007f00ull) >> 1;
    x = (x & 0x00003fff00003fffull) | (x & 0x3fff00003fff0000ull) >> 2;
    value = (x & 0x000000000fffffffull) | (x & 0x0fffffff00000000ull) >> 4;
    return bytes;
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
