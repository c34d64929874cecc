// JFR chunk headers. A .jfr file is a concatenation of independent chunks;
// each starts with a 68-byte big-endian header:
//
//   "FLR\0", u16 major, u16 minor, i64 chunk size (header included),
//   i64 offset of the last checkpoint, i64 offset of the metadata event
//   (both from the chunk start), i64 start time (ns since the epoch),
//   i64 duration (ns), i64 start ticks, i64 ticks per second,
//   u8 generation, u8 padding, u16 flags (bit 0: integers are compressed)
//
// Specified by the JDK's jdk.jfr.internal.consumer.ChunkHeader; async-
// profiler writes the same layout (version 2.0; the JDK writes 2.1).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fg/diagnostics.h"

namespace fg::formats::jfr {

inline constexpr std::uint64_t kChunkHeaderSize = 68;
inline constexpr std::string_view kMagic{"FLR\0", 4};

struct ChunkHeader {
  std::uint64_t offset = 0;  ///< of the chunk in the file
  std::uint16_t major = 0, minor = 0;
  std::uint64_t size = 0;
  std::uint64_t checkpoint_offset = 0;
  std::uint64_t metadata_offset = 0;
  std::int64_t start_ns = 0;
  std::int64_t duration_ns = 0;
  std::int64_t start_ticks = 0;
  std::int64_t ticks_per_second = 0;
  std::uint16_t flags = 0;

  bool compressed() const { return (flags & 1) != 0; }
  /// Nanoseconds since the epoch of an event time in this chunk's ticks.
  std::int64_t to_ns(std::int64_t ticks) const;
  /// A tick count (a duration) in nanoseconds.
  std::int64_t ticks_to_ns(std::int64_t ticks) const;
};

/// The complete chunks of `data`, in file order. A chunk whose size runs
/// past the end of the file (a recording cut short), or that its writer
/// never finished (no metadata or checkpoint yet), ends the list with a
/// warning saying how many bytes were lost. A bad magic, an unsupported
/// version, a size smaller than the header or a metadata or checkpoint
/// offset outside the chunk is a ParseError "file: offset 0x..: chunk N:
/// ...". The first chunk must be complete: otherwise there is nothing to read.
std::vector<ChunkHeader> scan_chunks(std::string_view data, const std::string& file, Diagnostics& diagnostics);

}  // namespace fg::formats::jfr
