// The messages of profile.proto (see profile.proto beside this file) as a
// file holds them, decoded from protobuf's wire format in one pass that
// checks the structure as it goes (wire.h). What the fields mean (ids that
// must name something, string indices that must be in range) is the
// reader's to check; these decoders only read them.
//
// As protobuf reads a message: fields come in any order, the last of a
// scalar given twice wins, a message field given twice is merged, a
// repeated number may be packed or not, and unknown fields are skipped.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>
#include <vector>

#include "formats/pprof/wire.h"

namespace fg::formats::pprof {

/// ValueType: a sample type or the period type, as string indices.
struct RawValueType {
  std::int64_t type = 0, unit = 0;
  std::uint64_t offset = 0;  ///< the file offset of the message's bytes (the last, if given twice)
};

/// Label: a string label (str) or a numeric one (num with its unit).
struct RawLabel {
  std::int64_t key = 0, str = 0, num = 0, unit = 0;
};

/// Line: one function's line in a location.
struct RawLine {
  std::uint64_t function_id = 0;
  std::int64_t line = 0;
};

/// Location: an address in a mapping, with lines innermost first, which
/// are RawProfile::lines[lines_begin, lines_end).
struct RawLocation {
  std::uint64_t id = 0, mapping_id = 0, address = 0;
  std::size_t lines_begin = 0, lines_end = 0;
  std::uint64_t offset = 0;  ///< the file offset of the message's bytes
};

/// Function: its names and file as string indices.
struct RawFunction {
  std::uint64_t id = 0;
  std::int64_t name = 0, system_name = 0, filename = 0, start_line = 0;
  std::uint64_t offset = 0;  ///< the file offset of the message's bytes
};

/// Mapping: a binary's address range; filename and build_id are string indices.
struct RawMapping {
  std::uint64_t id = 0, memory_start = 0, file_offset = 0;
  std::int64_t filename = 0, build_id = 0;
  std::uint64_t offset = 0;  ///< the file offset of the message's bytes
};

/// A Profile message: every table decoded but the samples, which are most
/// of a profile and are decoded one at a time later (decode_sample), from
/// the bytes and file offsets kept here. Strings view the file's bytes.
struct RawProfile {
  std::vector<RawValueType> sample_types;
  std::vector<std::string_view> samples;
  std::vector<std::uint64_t> sample_offsets;
  std::vector<RawMapping> mappings;
  std::vector<RawLocation> locations;
  std::vector<RawLine> lines;
  std::vector<RawFunction> functions;
  std::vector<std::string_view> strings;
  std::int64_t drop_frames = 0, keep_frames = 0;  // string indices
  std::int64_t time_nanos = 0, duration_nanos = 0;
  RawValueType period_type;
  std::int64_t period = 0;
  std::vector<std::int64_t> comments;  // string indices
  std::int64_t default_sample_type = 0;
  /// The file offsets of the fields above that index the string table
  /// (where their keys start; the last given wins), for errors.
  std::uint64_t drop_frames_offset = 0, keep_frames_offset = 0, default_sample_type_offset = 0;
  std::vector<std::uint64_t> comment_offsets;  // one per comment
  /// The file offset of the first string's bytes: the strings need the
  /// file's bytes from there on.
  std::uint64_t strings_offset = std::numeric_limits<std::uint64_t>::max();
};

/// Decodes a whole Profile message from `bytes` (the file named `file`,
/// inflated), which the strings and samples view. Throws ParseError at the
/// first fault in its structure, samples' insides excepted (decode_sample
/// checks those).
RawProfile decode_profile(std::string_view bytes, std::string_view file);

/// Decodes the Sample message `m`: appends its location ids (leaf first,
/// as in the file) to `locations`, its values to `values` and its labels
/// to `labels`. Throws ParseError at a fault in its structure.
void decode_sample(WireCursor m, std::vector<std::uint64_t>& locations, std::vector<std::int64_t>& values,
                   std::vector<RawLabel>& labels);

/// How many leading fields of `head` are fields of a Profile with the
/// right wire types: the sniff's evidence. Stops at the first that is not
/// (or at the end of head; a field running past it counts); -1 when the
/// first is not.
int count_profile_fields(std::string_view head);

}  // namespace fg::formats::pprof
