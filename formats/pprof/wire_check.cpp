#include "formats/pprof/wire_check.h"

#include <cstdint>

#include "fg/cursor.h"
#include "fg/error.h"

namespace fg::formats::pprof {

namespace {

enum Wire : int { kVarint = 0, kFixed64 = 1, kBytes = 2, kFixed32 = 5 };

// One field of a message: its wire type, and for a message field the
// message it holds. A repeated scalar may also come packed (kBytes).
struct Field {
  int number;
  int wire;
  const struct Message* message;
  bool packable;
};
struct Message {
  const char* name;
  const Field* fields;
  int count;
};

constexpr Field kValueType[] = {{1, kVarint, nullptr, false}, {2, kVarint, nullptr, false}};
constexpr Message kValueTypeMsg{"ValueType", kValueType, 2};
constexpr Field kLabel[] = {{1, kVarint, nullptr, false},
                            {2, kVarint, nullptr, false},
                            {3, kVarint, nullptr, false},
                            {4, kVarint, nullptr, false}};
constexpr Message kLabelMsg{"Label", kLabel, 4};
constexpr Field kSample[] = {
    {1, kVarint, nullptr, true}, {2, kVarint, nullptr, true}, {3, kBytes, &kLabelMsg, false}};
constexpr Message kSampleMsg{"Sample", kSample, 3};
constexpr Field kMapping[] = {{1, kVarint, nullptr, false}, {2, kVarint, nullptr, false},
                              {3, kVarint, nullptr, false}, {4, kVarint, nullptr, false},
                              {5, kVarint, nullptr, false}, {6, kVarint, nullptr, false},
                              {7, kVarint, nullptr, false}, {8, kVarint, nullptr, false},
                              {9, kVarint, nullptr, false}, {10, kVarint, nullptr, false}};
constexpr Message kMappingMsg{"Mapping", kMapping, 10};
constexpr Field kLine[] = {
    {1, kVarint, nullptr, false}, {2, kVarint, nullptr, false}, {3, kVarint, nullptr, false}};
constexpr Message kLineMsg{"Line", kLine, 3};
constexpr Field kLocation[] = {{1, kVarint, nullptr, false},
                               {2, kVarint, nullptr, false},
                               {3, kVarint, nullptr, false},
                               {4, kBytes, &kLineMsg, false},
                               {5, kVarint, nullptr, false}};
constexpr Message kLocationMsg{"Location", kLocation, 5};
constexpr Field kFunction[] = {{1, kVarint, nullptr, false},
                               {2, kVarint, nullptr, false},
                               {3, kVarint, nullptr, false},
                               {4, kVarint, nullptr, false},
                               {5, kVarint, nullptr, false}};
constexpr Message kFunctionMsg{"Function", kFunction, 5};
constexpr Field kProfile[] = {
    {1, kBytes, &kValueTypeMsg, false}, {2, kBytes, &kSampleMsg, false},     {3, kBytes, &kMappingMsg, false},
    {4, kBytes, &kLocationMsg, false},  {5, kBytes, &kFunctionMsg, false},   {6, kBytes, nullptr, false},
    {7, kVarint, nullptr, false},       {8, kVarint, nullptr, false},        {9, kVarint, nullptr, false},
    {10, kVarint, nullptr, false},      {11, kBytes, &kValueTypeMsg, false}, {12, kVarint, nullptr, false},
    {13, kVarint, nullptr, true},       {14, kVarint, nullptr, false}};
constexpr Message kProfileMsg{"Profile", kProfile, 14};

const Field* find(const Message& m, int number) {
  for (int i = 0; i < m.count; ++i)
    if (m.fields[i].number == number) return &m.fields[i];
  return nullptr;
}

void skip_value(ByteCursor& c, int wire, std::uint64_t number) {
  switch (wire) {
    case kVarint:
      c.varint();
      break;
    case kFixed64:
      c.skip(8, "fixed64 field");
      break;
    case kFixed32:
      c.skip(4, "fixed32 field");
      break;
    case kBytes:
      c.skip(c.varint(), "field " + std::to_string(number));
      break;
    default:
      c.fail("field " + std::to_string(number) + " has wire type " + std::to_string(wire) +
             ", which protobuf does not define");
  }
}

// Protobuf nests messages only a few levels here (Profile > Sample > Label),
// so recursion depth is bounded by the schema, never by the data.
void walk(ByteCursor c, const Message& m) {
  while (!c.at_end()) {
    std::uint64_t start = c.offset();
    std::uint64_t tag = c.varint();
    std::uint64_t number = tag >> 3;
    int wire = static_cast<int>(tag & 7);
    if (number == 0)
      throw ParseError(SourcePosition::binary(c.position().file, start),
                       "field number 0 in " + std::string(m.name));
    const Field* f = number <= 1000 ? find(m, static_cast<int>(number)) : nullptr;
    if (!f) {  // unknown fields are allowed, as protobuf allows them
      skip_value(c, wire, number);
      continue;
    }
    if (wire == f->wire) {
      if (wire == kBytes) {
        std::uint64_t len = c.varint();
        ByteCursor sub = c.sub(len, std::string(m.name) + " field " + std::to_string(number));
        if (f->message) walk(sub, *f->message);
      } else {
        skip_value(c, wire, number);
      }
    } else if (wire == kBytes && f->packable) {
      std::uint64_t len = c.varint();
      ByteCursor packed = c.sub(len, std::string(m.name) + " field " + std::to_string(number));
      while (!packed.at_end()) packed.varint();
    } else {
      throw ParseError(SourcePosition::binary(c.position().file, start),
                       std::string(m.name) + " field " + std::to_string(number) + " has wire type " +
                           std::to_string(wire) + ", expected " + std::to_string(f->wire));
    }
  }
}

}  // namespace

void check_wire(std::string_view bytes, const std::string& file) {
  walk(ByteCursor(bytes, file), kProfileMsg);
}

int count_profile_fields(std::string_view head) {
  ByteCursor c(head, "");
  int n = 0;
  try {
    while (!c.at_end()) {
      std::uint64_t tag = c.varint();
      std::uint64_t number = tag >> 3;
      int wire = static_cast<int>(tag & 7);
      const Field* f = number >= 1 && number <= 14 ? find(kProfileMsg, static_cast<int>(number)) : nullptr;
      if (!f || (wire != f->wire && !(wire == kBytes && f->packable))) return n == 0 ? -1 : n;
      if (wire == kBytes) {
        std::uint64_t len = c.varint();
        if (len > (std::uint64_t{1} << 32)) return n == 0 ? -1 : n;
        if (len > c.remaining()) return n + 1;  // runs past the head: fine
        c.skip(len);
      } else {
        c.varint();
      }
      ++n;
    }
  } catch (const ParseError&) {
    // a field cut off by the end of the head
  }
  return n;
}

}  // namespace fg::formats::pprof
