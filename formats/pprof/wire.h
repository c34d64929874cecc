// Protobuf's wire format, as far as profile.proto needs it: a message is a
// run of fields, each a key (field number and wire type, one varint) and a
// value (a varint, 8 or 4 fixed bytes, or a length and that many bytes).
// Described at https://protobuf.dev/programming-guides/encoding/.
//
// WireCursor reads one message's fields and checks each as it goes: a wire
// type the schema does not expect, a length past the message's end, a
// varint that does not end. Errors are ParseErrors at the offset in the
// file, worded as ByteCursor words them: "file: offset 0x3e6: truncated
// Profile field 2: need 20 bytes, 2 left".
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace fg::formats::pprof {

/// The wire types protobuf still writes (3 and 4, groups, are long gone).
enum class Wire : std::uint8_t { kVarint = 0, kFixed64 = 1, kLen = 2, kFixed32 = 5 };

/// A field's key: its number, its wire type as written (0..7, perhaps not
/// a Wire) and the file offset where the key starts.
struct FieldKey {
  std::uint64_t number;
  unsigned wire;
  std::uint64_t offset;
};

/// A cursor over the fields of one message. Views its bytes, the file's
/// name and `message`, the message's type in errors ("Profile",
/// "Sample"): all three must outlive it. `base_offset` is the offset of
/// data[0] in the file.
class WireCursor {
 public:
  WireCursor(std::string_view data, std::string_view file, std::uint64_t base_offset,
             std::string_view message)
      : data_(data), file_(file), base_(base_offset), message_(message) {}

  bool at_end() const { return pos_ == data_.size(); }
  std::uint64_t offset() const { return base_ + pos_; }

  /// Reads the next field's key. Throws ParseError on field number 0 or a
  /// number past protobuf's largest (2^29 - 1).
  FieldKey key() {
    const std::uint64_t start = offset(), tag = raw_varint();
    const FieldKey k{tag >> 3, static_cast<unsigned>(tag & 7), start};
    if (k.number == 0 || k.number > kMaxFieldNumber) bad_number(k);
    return k;
  }

  /// The value of varint field `k`; throws ParseError unless `k` is one.
  std::uint64_t varint(const FieldKey& k) {
    if (k.wire != static_cast<unsigned>(Wire::kVarint)) wrong_wire(k, Wire::kVarint);
    return raw_varint();
  }
  std::int64_t int64(const FieldKey& k) { return static_cast<std::int64_t>(varint(k)); }
  /// The bytes of length-delimited field `k` (checked against what is
  /// left); offset() - size() is where they start.
  std::string_view bytes(const FieldKey& k);
  /// Field `k` as a message of type `type` (a length-delimited field).
  WireCursor message(const FieldKey& k, std::string_view type) {
    const std::string_view b = bytes(k);
    return WireCursor(b, file_, offset() - b.size(), type);
  }

  /// A repeated varint field, one value or a packed run of them, as
  /// protobuf accepts either: calls push(value) for each.
  template <typename Push>
  void varints(const FieldKey& k, Push&& push) {
    if (k.wire != static_cast<unsigned>(Wire::kLen)) {
      push(varint(k));
      return;
    }
    WireCursor packed = message(k, message_);
    while (!packed.at_end()) push(packed.raw_varint());
  }

  /// Skips field `k`, one the decoder does not read: protobuf lets a
  /// message hold fields its reader does not know.
  void skip(const FieldKey& k);

 private:
  static constexpr std::uint64_t kMaxFieldNumber = (std::uint64_t{1} << 29) - 1;

  /// A varint; most keys and many values are one byte, read here, the
  /// rest by long_varint().
  std::uint64_t raw_varint() {
    if (pos_ < data_.size() && static_cast<std::uint8_t>(data_[pos_]) < 0x80)
      return static_cast<std::uint8_t>(data_[pos_++]);
    return long_varint();
  }
  std::uint64_t long_varint();
  std::size_t remaining() const { return data_.size() - pos_; }
  /// Throws "truncated <what>: need n bytes, m left" (the caller found
  /// fewer than n left; it words `what` only then).
  [[noreturn]] void truncated(std::uint64_t n, const std::string& what) const;
  [[noreturn]] void bad_number(const FieldKey& k) const;
  [[noreturn]] void wrong_wire(const FieldKey& k, Wire expected) const;

  std::string_view data_;
  std::string_view file_;
  std::uint64_t base_;
  std::string_view message_;
  std::size_t pos_ = 0;
};

}  // namespace fg::formats::pprof
