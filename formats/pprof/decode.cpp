#include "formats/pprof/decode.h"

#include "fg/cursor.h"
#include "fg/error.h"

namespace fg::formats::pprof {

namespace {

// Each decoder reads its message's fields into `into` (so that a message
// given twice merges, as protobuf merges it). A field the reader does not
// use is still read as its type, so that its wire type is checked.

void decode_value_type(WireCursor m, RawValueType& into) {
  into.offset = m.offset();
  while (!m.at_end()) {
    const FieldKey k = m.key();
    switch (k.number) {
      case 1:
        into.type = m.int64(k);
        break;
      case 2:
        into.unit = m.int64(k);
        break;
      default:
        m.skip(k);
    }
  }
}

void decode_label(WireCursor m, RawLabel& into) {
  while (!m.at_end()) {
    const FieldKey k = m.key();
    switch (k.number) {
      case 1:
        into.key = m.int64(k);
        break;
      case 2:
        into.str = m.int64(k);
        break;
      case 3:
        into.num = m.int64(k);
        break;
      case 4:
        into.unit = m.int64(k);
        break;
      default:
        m.skip(k);
    }
  }
}

void decode_line(WireCursor m, RawLine& into) {
  while (!m.at_end()) {
    const FieldKey k = m.key();
    switch (k.number) {
      case 1:
        into.function_id = m.varint(k);
        break;
      case 2:
        into.line = m.int64(k);
        break;
      case 3:  // column
        m.varint(k);
        break;
      default:
        m.skip(k);
    }
  }
}

// Lines are appended to `lines`, which the location's range indexes.
void decode_location(WireCursor m, RawLocation& into, std::vector<RawLine>& lines) {
  into.lines_begin = lines.size();
  into.offset = m.offset();
  while (!m.at_end()) {
    const FieldKey k = m.key();
    switch (k.number) {
      case 1:
        into.id = m.varint(k);
        break;
      case 2:
        into.mapping_id = m.varint(k);
        break;
      case 3:
        into.address = m.varint(k);
        break;
      case 4:
        decode_line(m.message(k, "Line"), lines.emplace_back());
        break;
      case 5:  // is_folded
        m.varint(k);
        break;
      default:
        m.skip(k);
    }
  }
  into.lines_end = lines.size();
}

void decode_function(WireCursor m, RawFunction& into) {
  into.offset = m.offset();
  while (!m.at_end()) {
    const FieldKey k = m.key();
    switch (k.number) {
      case 1:
        into.id = m.varint(k);
        break;
      case 2:
        into.name = m.int64(k);
        break;
      case 3:
        into.system_name = m.int64(k);
        break;
      case 4:
        into.filename = m.int64(k);
        break;
      case 5:
        into.start_line = m.int64(k);
        break;
      default:
        m.skip(k);
    }
  }
}

void decode_mapping(WireCursor m, RawMapping& into) {
  into.offset = m.offset();
  while (!m.at_end()) {
    const FieldKey k = m.key();
    switch (k.number) {
      case 1:
        into.id = m.varint(k);
        break;
      case 2:
        into.memory_start = m.varint(k);
        break;
      case 4:
        into.file_offset = m.varint(k);
        break;
      case 5:
        into.filename = m.int64(k);
        break;
      case 6:
        into.build_id = m.int64(k);
        break;
      case 3:   // memory_limit
      case 7:   // has_functions
      case 8:   // has_filenames
      case 9:   // has_line_numbers
      case 10:  // has_inline_frames
        m.varint(k);
        break;
      default:
        m.skip(k);
    }
  }
}

// Fields 1 to 5 of a Profile: its tables of messages.
void decode_table_entry(WireCursor& m, const FieldKey& k, RawProfile& into) {
  switch (k.number) {
    case 1:
      decode_value_type(m.message(k, "ValueType"), into.sample_types.emplace_back());
      break;
    case 2: {
      const std::string_view sample = m.bytes(k);
      into.sample_offsets.push_back(m.offset() - sample.size());
      into.samples.push_back(sample);
      break;
    }
    case 3:
      decode_mapping(m.message(k, "Mapping"), into.mappings.emplace_back());
      break;
    case 4:
      decode_location(m.message(k, "Location"), into.locations.emplace_back(), into.lines);
      break;
    case 5:
      decode_function(m.message(k, "Function"), into.functions.emplace_back());
      break;
  }
}

}  // namespace

RawProfile decode_profile(std::string_view bytes, std::string_view file) {
  RawProfile p;
  WireCursor m(bytes, file, 0, "Profile");
  while (!m.at_end()) {
    const FieldKey k = m.key();
    switch (k.number) {
      case 1:
      case 2:
      case 3:
      case 4:
      case 5:
        decode_table_entry(m, k, p);
        break;
      case 6: {
        const std::string_view s = m.bytes(k);
        if (p.strings.empty()) p.strings_offset = m.offset() - s.size();
        p.strings.push_back(s);
        break;
      }
      case 7:
        p.drop_frames = m.int64(k);
        p.drop_frames_offset = k.offset;
        break;
      case 8:
        p.keep_frames = m.int64(k);
        p.keep_frames_offset = k.offset;
        break;
      case 9:
        p.time_nanos = m.int64(k);
        break;
      case 10:
        p.duration_nanos = m.int64(k);
        break;
      case 11:
        decode_value_type(m.message(k, "ValueType"), p.period_type);
        break;
      case 12:
        p.period = m.int64(k);
        break;
      case 13:
        m.varints(k, [&p, &k](std::uint64_t v) {
          p.comments.push_back(static_cast<std::int64_t>(v));
          p.comment_offsets.push_back(k.offset);
        });
        break;
      case 14:
        p.default_sample_type = m.int64(k);
        p.default_sample_type_offset = k.offset;
        break;
      default:
        m.skip(k);
    }
  }
  return p;
}

void decode_sample(WireCursor m, std::vector<std::uint64_t>& locations, std::vector<std::int64_t>& values,
                   std::vector<RawLabel>& labels) {
  while (!m.at_end()) {
    const FieldKey k = m.key();
    switch (k.number) {
      case 1:
        m.varints(k, [&locations](std::uint64_t v) { locations.push_back(v); });
        break;
      case 2:
        m.varints(k, [&values](std::uint64_t v) { values.push_back(static_cast<std::int64_t>(v)); });
        break;
      case 3:
        decode_label(m.message(k, "Label"), labels.emplace_back());
        break;
      default:
        m.skip(k);
    }
  }
}

int count_profile_fields(std::string_view head) {
  // The wire type of each of Profile's fields (1 to 14); 13, repeated
  // numbers, may also be packed.
  constexpr Wire kWire[] = {Wire::kLen, Wire::kLen,    Wire::kLen,    Wire::kLen,    Wire::kLen,
                            Wire::kLen, Wire::kVarint, Wire::kVarint, Wire::kVarint, Wire::kVarint,
                            Wire::kLen, Wire::kVarint, Wire::kVarint, Wire::kVarint};
  ByteCursor c(head, "");
  int n = 0;
  try {
    while (!c.at_end()) {
      const std::uint64_t tag = c.varint(), number = tag >> 3;
      const auto wire = static_cast<Wire>(tag & 7);
      const bool known = number >= 1 && number <= 14;
      if (!known || (wire != kWire[number - 1] && !(number == 13 && wire == Wire::kLen)))
        return n == 0 ? -1 : n;
      if (wire == Wire::kLen) {
        const std::uint64_t len = c.varint();
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
