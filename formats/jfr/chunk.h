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
#include <optional>
#include <string>
#include <string_view>

#include "fg/diagnostics.h"
#include "formats/input.h"

namespace fg::formats::jfr {

inline constexpr std::uint64_t kChunkHeaderSize = 68;

/// `v` clamped to the range of int64: times computed from damaged headers
/// and events saturate instead of overflowing.
inline std::int64_t saturate(__int128 v) {
  if (v > INT64_MAX) return INT64_MAX;
  if (v < INT64_MIN) return INT64_MIN;
  return static_cast<std::int64_t>(v);
}
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

/// One complete chunk: its header and all its bytes, header included.
struct Chunk {
  ChunkHeader header;
  std::string_view bytes;
};

/// The chunks of an input, one at a time. A mapped file is read in place,
/// and the pages of a chunk leave memory once the next is asked for; any
/// other input (gzip, a pipe) goes through a buffer that holds one chunk.
/// So memory grows with the largest chunk, not with the file. A gzipped
/// file that inflates to at most twice its first chunk (most often one
/// chunk: async-profiler's) is inflated whole, which is twice as quick,
/// and read as a mapped one is.
class ChunkReader {
 public:
  /// `input` and `diagnostics` must outlive the reader.
  ChunkReader(Input& input, Diagnostics& diagnostics);

  /// The next complete chunk (valid until the next call), or nullopt at the
  /// end. A last chunk cut short (a crash, a copy of a file still being
  /// written) or left unfinished by its writer (no metadata or checkpoint
  /// offset yet) ends the input with a warning saying how many bytes were
  /// lost. A bad magic, an unsupported version, a size smaller than the
  /// header, or a metadata or checkpoint offset outside the chunk is a
  /// ParseError "file: offset 0x..: chunk N: ...". The first chunk must be
  /// complete: otherwise there is nothing to read.
  std::optional<Chunk> next();
  /// Lets the pages of a mapped file before `offset` (in the file) leave
  /// memory: for a large chunk whose pools are read and whose events are
  /// being read in order. Nothing for other inputs.
  void release_before(std::uint64_t offset) {
    if (whole_)
      whole_->release(static_cast<std::size_t>(offset));
    else if (mapped_)
      input_.release_mapped(static_cast<std::size_t>(offset));
  }
  /// Lets the pages of a mapped file within [begin, end) (offsets in the
  /// file) leave memory for now: those of a large chunk's pools, once read.
  /// Reading them again brings them back. Nothing for other inputs.
  void drop(std::uint64_t begin, std::uint64_t end) {
    if (mapped_ && !whole_)
      input_.drop_mapped(static_cast<std::size_t>(begin), static_cast<std::size_t>(end));
  }
  /// The size of the input when it is a mapped file, read in place.
  std::optional<std::uint64_t> mapped_size() const {
    return mapped_ ? std::optional<std::uint64_t>(mapped_->size()) : std::nullopt;
  }

 private:
  std::string_view take(std::uint64_t n);
  bool incomplete(const std::string& message, std::uint64_t at, std::uint64_t left);
  std::string lost(std::uint64_t bytes) const;

  Input& input_;
  Diagnostics& diagnostics_;
  const std::string& file_;
  std::optional<InputBytes> whole_;         // a gzipped file inflated whole
  std::optional<std::string_view> mapped_;  // the file's bytes, or whole_'s
  std::string buf_;
  std::uint64_t offset_ = 0;  // of the next chunk in the file
  std::size_t index_ = 0;     // chunks handed out
  bool done_ = false;
};

}  // namespace fg::formats::jfr
