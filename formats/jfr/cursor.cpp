#include "formats/jfr/cursor.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

namespace fg::formats::jfr {

#if defined(__x86_64__) && defined(__GNUC__)
#define FG_JFR_WIDE_QUADS 1
#endif

bool wide_quads() {
#if FG_JFR_WIDE_QUADS
  static const bool wide = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                           __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2") &&
                           __builtin_cpu_supports("popcnt");
  return wide;
#else
  return false;
#endif
}

#if FG_JFR_WIDE_QUADS
// GCC 12's AVX-512 intrinsics pass _mm512_undefined_epi32() as the unused
// source of their unmasked forms, which -Wmaybe-uninitialized takes for a
// read of an uninitialized value. (clang has no such warning, and would
// warn of the unknown name.)
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

// 64 bytes at a time, from a group's start. Their top bits (the bytes that
// continue a varint) place every varint there, so the groups that end in
// them are read without a branch or a wait on each other, where a decoder
// that finds each varint's end before it reads the next waits on that
// chain: BMI2's pdep picks each group's first and fourth varint starts,
// every byte position's value is decoded as if a varint of up to three
// bytes started there (16 positions to a register), and the wanted ones
// are packed together (compress). A window with eight continuation bytes
// in a row (a 9-byte varint, whose last byte ends it whatever its top bit)
// or a wanted varint of four bytes or more stops the read.
__attribute__((target("avx512f,avx512bw,bmi,bmi2,popcnt"))) std::uint64_t Cursor::read_quad_ends_wide(
    std::uint64_t count, std::uint32_t* firsts, std::uint32_t* lasts) {
  if (!compressed_ || !wide_quads()) return 0;
  const char* const begin = data_.data();
  const __m512i low7 = _mm512_set1_epi32(0x7f);
  std::uint64_t made = 0;
  // Values at the window's positions reach 3 bytes past it (66 from its start).
  while (made < count && data_.size() - pos_ >= kWideReadable) {
    const char* const p = begin + pos_;
    prefetch_ahead(p);
    const std::uint64_t more =
        _mm512_movepi8_mask(_mm512_loadu_si512(p));  // bit i: byte i continues a varint
    std::uint64_t run = more & more >> 1;
    run &= run >> 2;
    run &= run >> 4;
    const std::uint64_t ends = ~more;
    const std::uint64_t groups = std::min<std::uint64_t>(count - made, _mm_popcnt_u64(ends) / 4);
    if (run != 0 || groups == 0) break;
    const std::uint64_t starts = ends << 1 | 1;
    const auto last_end =
        static_cast<unsigned>(_tzcnt_u64(_pdep_u64(std::uint64_t{1} << (4 * groups - 1), ends)));
    const std::uint64_t in_groups = last_end == 63 ? ~std::uint64_t{0} : (std::uint64_t{2} << last_end) - 1;
    const std::uint64_t first = _pdep_u64(0x1111111111111111ull, starts) & in_groups;
    const std::uint64_t fourth = _pdep_u64(0x8888888888888888ull, starts) & in_groups;
    if ((first | fourth) & more & more >> 1 & more >> 2) break;  // a wanted varint of four bytes or more
    std::uint32_t* f_out = firsts + made;
    std::uint32_t* l_out = lasts + made;
    for (unsigned g = 0; g < 4; ++g) {
      const char* const q = p + 16 * g;
      const __m512i b0 = _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(q)));
      const __m512i b1 = _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(q + 1)));
      const __m512i b2 = _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(q + 2)));
      const auto two = static_cast<__mmask16>(more >> (16 * g));
      const auto three = static_cast<__mmask16>(two & more >> (16 * g + 1));
      __m512i v = _mm512_and_si512(b0, low7);
      v = _mm512_mask_or_epi32(v, two, v, _mm512_slli_epi32(_mm512_and_si512(b1, low7), 7));
      v = _mm512_mask_or_epi32(v, three, v, _mm512_slli_epi32(_mm512_and_si512(b2, low7), 14));
      const auto f = static_cast<__mmask16>(first >> (16 * g)),
                 l = static_cast<__mmask16>(fourth >> (16 * g));
      _mm512_storeu_si512(f_out, _mm512_maskz_compress_epi32(f, v));
      _mm512_storeu_si512(l_out, _mm512_maskz_compress_epi32(l, v));
      f_out += _mm_popcnt_u32(f);
      l_out += _mm_popcnt_u32(l);
    }
    made += groups;
    pos_ += last_end + 1;
  }
  return made;
}

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#else
std::uint64_t Cursor::read_quad_ends_wide(std::uint64_t, std::uint32_t*, std::uint32_t*) { return 0; }
#endif

void Cursor::fail(const std::string& message) const { fail_at(offset(), message); }

void Cursor::fail_at(std::uint64_t offset, const std::string& message) const {
  throw ParseError(SourcePosition::binary(*file_, offset), message);
}

void Cursor::need(std::uint64_t n, std::string_view what) const {
  if (n <= remaining()) return;
  std::string msg = "truncated";
  if (!what.empty()) msg += " " + std::string(what);
  fail(msg + ": need " + std::to_string(n) + " bytes, " + std::to_string(remaining()) + " left");
}

void Cursor::seek_outside(std::uint64_t pos) const {
  fail("offset " + std::to_string(pos) + " lies outside its " + std::to_string(data_.size()) + " bytes");
}

Cursor Cursor::window(std::uint64_t pos, std::uint64_t n, std::string_view what) const {
  if (pos > data_.size() || n > data_.size() - pos)
    fail_at(base_ + std::min<std::uint64_t>(pos, data_.size()),
            std::string(what) + " at " + std::to_string(pos) + " (" + std::to_string(n) +
                " bytes) lies outside its " + std::to_string(data_.size()) + " bytes");
  return Cursor(data_.substr(pos, n), *file_, base_ + pos, compressed_);
}

namespace {
template <typename T>
T big_endian(const char* p) {
  T v = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i) v = static_cast<T>(v << 8 | static_cast<std::uint8_t>(p[i]));
  return v;
}
}  // namespace

std::uint16_t Cursor::u16_be() {
  need(2);
  pos_ += 2;
  return big_endian<std::uint16_t>(data_.data() + pos_ - 2);
}

std::uint32_t Cursor::u32_be() {
  need(4);
  pos_ += 4;
  return big_endian<std::uint32_t>(data_.data() + pos_ - 4);
}

std::uint64_t Cursor::u64_be() {
  need(8);
  pos_ += 8;
  return big_endian<std::uint64_t>(data_.data() + pos_ - 8);
}

std::uint64_t Cursor::varint_slow() {
  if (remaining() >= 8) {  // up to 8 bytes from one load
    std::uint64_t value;
    if (const unsigned bytes = one_load_varint(data_.data() + pos_, value); bytes != 0) {
      pos_ += bytes;
      return value;
    }
  }
  const std::size_t start = pos_;
  std::uint64_t value = 0;
  for (int i = 0; i < 9; ++i) {
    if (pos_ >= data_.size()) {
      pos_ = start;
      fail("truncated varint");
    }
    const std::uint8_t b = static_cast<std::uint8_t>(data_[pos_++]);
    if (i == 8) return value | std::uint64_t{b} << 56;  // the 9th byte carries 8 bits
    value |= std::uint64_t{b & 0x7fu} << (7 * i);
    if ((b & 0x80) == 0) return value;
  }
  return value;
}

std::uint64_t Cursor::read_count(std::string_view what, std::uint64_t min_item_bytes) {
  const std::uint64_t at = offset();
  const std::uint64_t n = compressed_ ? varint() : u32_be();
  if (min_item_bytes == 0) min_item_bytes = 1;
  if (n > remaining() / min_item_bytes)
    fail_at(at, std::string(what) + " count " + std::to_string(n) + " exceeds the " +
                    std::to_string(remaining()) + " bytes left");
  return n;
}

void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out.push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (c >> 6)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (c >> 12)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (c >> 18)));
    out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
}

namespace {

// UTF-16 code units (surrogate pairs joined; a lone surrogate becomes U+FFFD).
std::string utf16_to_utf8(Cursor& c, std::uint64_t n) {
  std::string out;
  char32_t high = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    const char32_t u = static_cast<char16_t>(c.varint());
    if (u >= 0xD800 && u < 0xDC00) {
      if (high) append_utf8(out, 0xFFFD);
      high = u;
      continue;
    }
    if (u >= 0xDC00 && u < 0xE000 && high) {
      append_utf8(out, 0x10000 + ((high - 0xD800) << 10) + (u - 0xDC00));
      high = 0;
      continue;
    }
    if (high) append_utf8(out, 0xFFFD);
    high = 0;
    append_utf8(out, u >= 0xDC00 && u < 0xE000 ? char32_t{0xFFFD} : u);
  }
  if (high) append_utf8(out, 0xFFFD);
  return out;
}

}  // namespace

StringValue Cursor::read_string() {
  const std::uint64_t at = offset();
  StringValue v;
  const std::uint8_t enc = u8();
  switch (enc) {
    case 0:
      break;
    case 1:
      v.encoding = StringEncoding::kEmpty;
      break;
    case 2:
      v.encoding = StringEncoding::kConstantPool;
      v.key = static_cast<std::uint64_t>(read_long());
      break;
    case 3: {
      v.encoding = StringEncoding::kUtf8;
      const std::uint64_t n = read_count("string byte");
      v.text.assign(data_.substr(pos_, n));
      pos_ += n;
      break;
    }
    case 4: {
      v.encoding = StringEncoding::kUtf16;
      v.text = utf16_to_utf8(*this, read_count("UTF-16 string unit"));
      break;
    }
    case 5: {
      v.encoding = StringEncoding::kLatin1;
      const std::uint64_t n = read_count("string byte");
      for (std::uint64_t i = 0; i < n; ++i) append_utf8(v.text, static_cast<std::uint8_t>(data_[pos_ + i]));
      pos_ += n;
      break;
    }
    default:
      fail_at(at, "unknown string encoding " + std::to_string(enc));
  }
  return v;
}

void Cursor::skip_string() {
  const std::uint64_t at = offset();
  const std::uint8_t enc = u8();
  switch (enc) {
    case 0:
    case 1:
      return;
    case 2:
      varint();
      return;
    case 3:
    case 5:
      pos_ += read_count("string byte");
      return;
    case 4:
      for (std::uint64_t n = read_count("UTF-16 string unit"); n > 0; --n) varint();
      return;
    default:
      fail_at(at, "unknown string encoding " + std::to_string(enc));
  }
}

void Cursor::skip(std::uint64_t n, std::string_view what) {
  need(n, what);
  pos_ += n;
}

}  // namespace fg::formats::jfr
