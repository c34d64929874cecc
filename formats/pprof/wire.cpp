#include "formats/pprof/wire.h"

#include "fg/cursor.h"
#include "fg/error.h"

namespace fg::formats::pprof {

// Errors come from a ByteCursor at the same place, so that they read as
// every other binary reader's.

std::uint64_t WireCursor::long_varint() {
  // With ten bytes left a varint cannot run past the end: only its tenth
  // byte needs a check. Nearer the end, and for errors, ByteCursor reads it.
  if (remaining() >= 10) {
    const auto* p = reinterpret_cast<const std::uint8_t*>(data_.data() + pos_);
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < 10; ++i) {
      v |= std::uint64_t(p[i] & 0x7f) << (7 * i);
      if (p[i] < 0x80) {
        if (i == 9 && p[i] > 1) break;  // past 64 bits
        pos_ += i + 1;
        return v;
      }
    }
  }
  ByteCursor c(data_.substr(pos_), file_, offset());
  const std::uint64_t v = c.varint();
  pos_ += static_cast<std::size_t>(c.offset() - offset());
  return v;
}

void WireCursor::truncated(std::uint64_t n, const std::string& what) const {
  ByteCursor(data_.substr(pos_), file_, offset()).need(n, what);
  throw Error("unreachable: " + what);  // need() threw
}

void WireCursor::bad_number(const FieldKey& k) const {
  const SourcePosition at = SourcePosition::binary(std::string(file_), k.offset);
  if (k.number == 0) throw ParseError(at, "field number 0 in " + std::string(message_));
  throw ParseError(at, "field number " + std::to_string(k.number) + " in " + std::string(message_) +
                           " is past protobuf's largest, " + std::to_string(kMaxFieldNumber));
}

void WireCursor::wrong_wire(const FieldKey& k, Wire expected) const {
  throw ParseError(SourcePosition::binary(std::string(file_), k.offset),
                   std::string(message_) + " field " + std::to_string(k.number) + " has wire type " +
                       std::to_string(k.wire) + ", expected " + std::to_string(static_cast<int>(expected)));
}

std::string_view WireCursor::bytes(const FieldKey& k) {
  if (k.wire != static_cast<unsigned>(Wire::kLen)) wrong_wire(k, Wire::kLen);
  const std::uint64_t n = raw_varint();
  if (n > remaining()) truncated(n, std::string(message_) + " field " + std::to_string(k.number));
  const std::string_view b = data_.substr(pos_, static_cast<std::size_t>(n));
  pos_ += b.size();
  return b;
}

void WireCursor::skip(const FieldKey& k) {
  std::uint64_t n = 0;
  switch (k.wire) {
    case static_cast<unsigned>(Wire::kVarint):
      raw_varint();
      return;
    case static_cast<unsigned>(Wire::kFixed64):
      if ((n = 8) > remaining()) truncated(n, "fixed64 field");
      break;
    case static_cast<unsigned>(Wire::kFixed32):
      if ((n = 4) > remaining()) truncated(n, "fixed32 field");
      break;
    case static_cast<unsigned>(Wire::kLen):
      if ((n = raw_varint()) > remaining()) truncated(n, "field " + std::to_string(k.number));
      break;
    default:
      throw ParseError(SourcePosition::binary(std::string(file_), offset()),
                       "field " + std::to_string(k.number) + " has wire type " + std::to_string(k.wire) +
                           ", which protobuf does not define");
  }
  pos_ += static_cast<std::size_t>(n);
}

}  // namespace fg::formats::pprof
