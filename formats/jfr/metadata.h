// The metadata event of a JFR chunk: the recording's own description of
// every type it uses. JFR is self-describing: an event or constant-pool
// entry is its class's fields in declaration order, each field encoded by
// its type (a primitive, a string, a constant-pool key, an array, or an
// inline struct), so a reader that follows this description reads any
// producer's recordings, not just one layout.
//
// Layout (after the record's size and type 0): start, duration, metadata id,
// a string table (count + strings), then one element tree; each element is
// name (string index), attribute count, (key, value) index pairs, child
// count and children. `class` elements (attributes id, name, superType,
// simpleType) hold `field` children (name, class = type id,
// constantPool="true", dimension="1" for arrays).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "formats/jfr/cursor.h"

namespace fg::formats::jfr {

/// How values of a type are encoded.
enum class Encoding : std::uint8_t {
  kStruct,   ///< fields of a class, inline
  kBoolean,  ///< one raw byte
  kByte,     ///< one raw byte
  kChar,     ///< a varint (or 2 bytes)
  kShort,    ///< a varint (or 2 bytes)
  kInt,      ///< a varint (or 4 bytes)
  kLong,     ///< a varint (or 8 bytes)
  kFloat,    ///< 4 bytes, big-endian IEEE
  kDouble,   ///< 8 bytes, big-endian IEEE
  kString,   ///< a JFR string
};

struct ClassDesc;

struct FieldDesc {
  std::string name;
  std::uint64_t type = 0;      ///< class id of the field's type
  bool constant_pool = false;  ///< the value is a varint key into that type's pool
  bool array = false;          ///< dimension 1: a count, then the elements
  /// The type's class and encoding, resolved by ChunkMetadata::check().
  const ClassDesc* desc = nullptr;
  Encoding encoding = Encoding::kStruct;
};

struct ClassDesc {
  std::uint64_t id = 0;
  std::string name;
  std::string super_type;  ///< "jdk.jfr.Event" for events, "" for most others
  bool simple_type = false;
  Encoding encoding = Encoding::kStruct;
  std::vector<FieldDesc> fields;
  /// The fewest bytes one value takes (0 for a struct of empty structs),
  /// computed by ChunkMetadata::check(); bounds array counts read from data.
  std::uint32_t min_bytes = 0;

  /// Index of the field called `name`, or -1.
  int field_index(std::string_view name) const;
};

/// The classes of one chunk, by id and by name.
class ChunkMetadata {
 public:
  /// The class with type id `id`, or nullptr.
  const ClassDesc* find(std::uint64_t id) const;
  /// The class called `name`, or nullptr.
  const ClassDesc* find(std::string_view name) const;
  const std::unordered_map<std::uint64_t, ClassDesc>& classes() const { return by_id_; }

  /// Adds a class (later ones with the same id replace earlier ones). Only
  /// before check(): that resolves fields to classes by address.
  void add(ClassDesc c);
  /// Fails (at `where`) when a field names a type that is not described, so
  /// that later decoding never meets an unknown type; then computes each
  /// class's min_bytes and drops the fields that encode nothing (of empty
  /// struct types), so that every field left takes at least one byte.
  void check(const Cursor& where);

 private:
  std::unordered_map<std::uint64_t, ClassDesc> by_id_;
  std::unordered_map<std::string, std::uint64_t> by_name_;
};

/// Reads the metadata event (the whole record, from its size field) at the
/// cursor. Throws ParseError on malformed data.
ChunkMetadata read_metadata(Cursor& record);

/// Skips one value of `field` (arrays included). `depth` bounds the nesting
/// of inline structs, so a malicious self-referencing type cannot recurse
/// without end.
void skip_field(Cursor& c, const ChunkMetadata& meta, const FieldDesc& field, int depth = 0);
/// Skips one value of type `type` (not an array).
void skip_value(Cursor& c, const ChunkMetadata& meta, const ClassDesc& type, bool constant_pool,
                int depth = 0);
/// How read_integer() reads a field: a pool key or long, an int, a short or
/// char, a boolean or byte, or (kOther) anything else, skipped.
enum class IntegerRead : std::uint8_t { kLong, kInt, kShort, kByte, kOther };

/// How read_integer() reads `field`, for readers that decide it once per field.
inline IntegerRead integer_read(const FieldDesc& field) {
  if (field.array) return IntegerRead::kOther;
  if (field.constant_pool) return IntegerRead::kLong;
  switch (field.encoding) {
    case Encoding::kBoolean:
    case Encoding::kByte:
      return IntegerRead::kByte;
    case Encoding::kChar:
    case Encoding::kShort:
      return IntegerRead::kShort;
    case Encoding::kInt:
      return IntegerRead::kInt;
    case Encoding::kLong:
      return IntegerRead::kLong;
    default:
      return IntegerRead::kOther;
  }
}

/// Reads one value of `field`, whose integer_read() is `how`, as an integer.
inline std::int64_t read_integer(Cursor& c, const ChunkMetadata& meta, const FieldDesc& field,
                                 IntegerRead how) {
  switch (how) {
    case IntegerRead::kLong:
      return c.read_long();
    case IntegerRead::kInt:
      return c.read_int();
    case IntegerRead::kShort:
      return c.read_short();
    case IntegerRead::kByte:
      return static_cast<std::int8_t>(c.u8());
    case IntegerRead::kOther:
      break;
  }
  skip_field(c, meta, field);
  return 0;
}

/// Reads one scalar value of `field` as an integer: a pool key, a primitive
/// (sign-extended), or a boolean/byte. Strings, structs and arrays are
/// skipped and read as 0. The metadata must have been check()ed.
inline std::int64_t read_integer(Cursor& c, const ChunkMetadata& meta, const FieldDesc& field) {
  return read_integer(c, meta, field, integer_read(field));
}

}  // namespace fg::formats::jfr
