#include "formats/jfr/cursor.h"

namespace fg::formats::jfr {

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
    case 0: break;
    case 1: v.encoding = StringEncoding::kEmpty; break;
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
    default: fail_at(at, "unknown string encoding " + std::to_string(enc));
  }
  return v;
}

void Cursor::skip_string() {
  const std::uint64_t at = offset();
  const std::uint8_t enc = u8();
  switch (enc) {
    case 0:
    case 1: return;
    case 2: varint(); return;
    case 3:
    case 5: pos_ += read_count("string byte"); return;
    case 4:
      for (std::uint64_t n = read_count("UTF-16 string unit"); n > 0; --n) varint();
      return;
    default: fail_at(at, "unknown string encoding " + std::to_string(enc));
  }
}

void Cursor::skip(std::uint64_t n, std::string_view what) {
  need(n, what);
  pos_ += n;
}

}  // namespace fg::formats::jfr
