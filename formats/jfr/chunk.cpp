#include "formats/jfr/chunk.h"

#include "formats/jfr/cursor.h"

namespace fg::formats::jfr {

std::int64_t ChunkHeader::to_ns(std::int64_t ticks) const { return start_ns + ticks_to_ns(ticks - start_ticks); }

std::int64_t ChunkHeader::ticks_to_ns(std::int64_t ticks) const {
  if (ticks_per_second == 1'000'000'000) return ticks;
  return static_cast<std::int64_t>(static_cast<__int128>(ticks) * 1'000'000'000 / ticks_per_second);
}

namespace {

std::string lost(std::uint64_t bytes, std::uint64_t total) {
  return std::to_string(bytes) + " bytes, " + std::to_string(total ? bytes * 100 / total : 0) + "% of the file";
}

// Reads one header at `offset`; false (with a warning) for an incomplete chunk.
bool read_header(std::string_view data, const std::string& file, std::size_t index, std::uint64_t offset,
                 ChunkHeader& h, Diagnostics& diagnostics) {
  const std::string chunk = "chunk " + std::to_string(index + 1);
  const std::uint64_t left = data.size() - offset;
  Cursor c(data.substr(offset), file, offset, false);
  if (left < kChunkHeaderSize) {
    if (index == 0) c.fail(chunk + ": truncated header: need 68 bytes, " + std::to_string(left) + " left");
    if (c.bytes_equal(kMagic.substr(0, std::min<std::uint64_t>(left, 4))))
      diagnostics.warn(SourcePosition::binary(file, offset), "truncated chunk",
                       chunk + ": header cut short; lost " + lost(left, data.size()));
    else
      c.fail(chunk + ": " + std::to_string(left) + " trailing bytes that are not a chunk");
    return false;
  }
  if (!c.bytes_equal(kMagic)) c.fail(chunk + ": not a JFR chunk (no FLR magic)");
  c.skip(4);
  h.offset = offset;
  h.major = c.u16_be();
  h.minor = c.u16_be();
  if (h.major != 2) c.fail_at(offset + 4, chunk + ": unsupported JFR version " + std::to_string(h.major) + "." + std::to_string(h.minor));
  h.size = c.u64_be();
  h.checkpoint_offset = c.u64_be();
  h.metadata_offset = c.u64_be();
  h.start_ns = static_cast<std::int64_t>(c.u64_be());
  h.duration_ns = static_cast<std::int64_t>(c.u64_be());
  h.start_ticks = static_cast<std::int64_t>(c.u64_be());
  h.ticks_per_second = static_cast<std::int64_t>(c.u64_be());
  c.skip(2);
  h.flags = c.u16_be();
  if (h.size < kChunkHeaderSize)
    c.fail_at(offset + 8, chunk + ": chunk size " + std::to_string(h.size) + " is smaller than its header");
  if (h.size > left) {
    if (index == 0) c.fail_at(offset + 8, chunk + ": chunk size " + std::to_string(h.size) + " runs past the end of the file (" + std::to_string(left) + " bytes left)");
    diagnostics.warn(SourcePosition::binary(file, offset), "truncated chunk",
                     chunk + " is truncated: its header says " + std::to_string(h.size) + " bytes, " +
                         std::to_string(left) + " remain; its events are lost (" + lost(left, data.size()) + ")");
    return false;
  }
  if (h.checkpoint_offset == 0 || h.metadata_offset == 0) {
    if (index == 0) c.fail_at(offset + 16, chunk + ": unfinished chunk (no metadata or checkpoint offset)");
    diagnostics.warn(SourcePosition::binary(file, offset), "truncated chunk",
                     chunk + ": unfinished (no metadata or checkpoint offset); its events are lost (" + lost(left, data.size()) + ")");
    return false;
  }
  if (h.metadata_offset < kChunkHeaderSize || h.metadata_offset >= h.size)
    c.fail_at(offset + 24, chunk + ": metadata offset " + std::to_string(h.metadata_offset) + " lies outside the chunk (" + std::to_string(h.size) + " bytes)");
  if (h.checkpoint_offset < kChunkHeaderSize || h.checkpoint_offset >= h.size)
    c.fail_at(offset + 16, chunk + ": checkpoint offset " + std::to_string(h.checkpoint_offset) + " lies outside the chunk (" + std::to_string(h.size) + " bytes)");
  if (h.ticks_per_second <= 0)
    c.fail_at(offset + 56, chunk + ": ticks per second " + std::to_string(h.ticks_per_second) + " is not positive");
  return true;
}

}  // namespace

std::vector<ChunkHeader> scan_chunks(std::string_view data, const std::string& file, Diagnostics& diagnostics) {
  std::vector<ChunkHeader> chunks;
  std::uint64_t offset = 0;
  while (offset < data.size()) {
    ChunkHeader h;
    if (!read_header(data, file, chunks.size(), offset, h, diagnostics)) break;
    chunks.push_back(h);
    offset += h.size;
  }
  if (chunks.empty()) Cursor(data, file).fail("chunk 1: empty input, no JFR chunk");
  return chunks;
}

}  // namespace fg::formats::jfr
