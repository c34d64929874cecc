#include "formats/jfr/chunk.h"

#include <algorithm>

#include "formats/jfr/cursor.h"

namespace fg::formats::jfr {

namespace {
__int128 wide_ns(__int128 ticks, std::int64_t ticks_per_second) {
  return ticks_per_second == 1'000'000'000 ? ticks : ticks * 1'000'000'000 / ticks_per_second;
}
}  // namespace

std::int64_t ChunkHeader::to_ns(std::int64_t ticks) const {
  return saturate(start_ns + wide_ns(static_cast<__int128>(ticks) - start_ticks, ticks_per_second));
}

std::int64_t ChunkHeader::ticks_to_ns(std::int64_t ticks) const {
  return saturate(wide_ns(ticks, ticks_per_second));
}

namespace {

// The fixed header; `h.size` is checked against what follows by the caller.
ChunkHeader parse_header(std::string_view bytes, const std::string& file, const std::string& chunk,
                         std::uint64_t offset) {
  Cursor c(bytes, file, offset, false);
  if (!c.bytes_equal(kMagic)) c.fail(chunk + ": not a JFR chunk (no FLR magic)");
  c.skip(4);
  ChunkHeader h;
  h.offset = offset;
  h.major = c.u16_be();
  h.minor = c.u16_be();
  if (h.major != 2)
    c.fail_at(offset + 4,
              chunk + ": unsupported JFR version " + std::to_string(h.major) + "." + std::to_string(h.minor));
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
  if (h.ticks_per_second <= 0)
    c.fail_at(offset + 56,
              chunk + ": ticks per second " + std::to_string(h.ticks_per_second) + " is not positive");
  return h;
}

// Offsets inside the chunk, once it is known to be finished.
void check_offsets(const ChunkHeader& h, const std::string& file, const std::string& chunk) {
  Cursor c({}, file, h.offset);
  if (h.metadata_offset < kChunkHeaderSize || h.metadata_offset >= h.size)
    c.fail_at(h.offset + 24, chunk + ": metadata offset " + std::to_string(h.metadata_offset) +
                                 " lies outside the chunk (" + std::to_string(h.size) + " bytes)");
  if (h.checkpoint_offset < kChunkHeaderSize || h.checkpoint_offset >= h.size)
    c.fail_at(h.offset + 16, chunk + ": checkpoint offset " + std::to_string(h.checkpoint_offset) +
                                 " lies outside the chunk (" + std::to_string(h.size) + " bytes)");
}

}  // namespace

ChunkReader::ChunkReader(Input& input, Diagnostics& diagnostics)
    : input_(input), diagnostics_(diagnostics), file_(input.name()), mapped_(input.map_whole()) {
  if (mapped_) return;
  const std::optional<std::uint64_t> inflated = input.whole_inflated_size();
  if (!inflated) return;
  // The first chunk's size, after the magic and version.
  Cursor head(input.head(16), file_, 0, false);
  if (head.size() < 16 || !head.bytes_equal(kMagic)) return;
  head.skip(8);
  const std::uint64_t first = head.u64_be();
  if (first == 0 || *inflated / 2 > first) return;  // more than twice the first chunk: stream
  whole_.emplace(read_all(input));
  mapped_ = whole_->view();
}

// The next n bytes (fewer at the end of the input), valid until the next call.
std::string_view ChunkReader::take(std::uint64_t n) {
  if (mapped_) {
    const std::uint64_t start = std::min<std::uint64_t>(offset_, mapped_->size());
    return mapped_->substr(start, std::min<std::uint64_t>(n, mapped_->size() - start));
  }
  // A stream: the chunk's bytes so far stay at the front of buf_, which
  // grows with what arrives, never by a size read from the data: by what
  // it holds (64 KiB first, 1 MiB at most), so that a small input whose
  // header claims more costs no megabyte of zeroed memory.
  while (buf_.size() < n) {
    const std::size_t step = std::clamp<std::size_t>(buf_.size(), 1 << 16, 1 << 20);
    const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(n - buf_.size(), step));
    buf_.resize(buf_.size() + want);
    const std::size_t got = input_.read(buf_.data() + buf_.size() - want, want);
    buf_.resize(buf_.size() - want + got);
    if (got == 0) break;
  }
  return std::string_view(buf_).substr(0, static_cast<std::size_t>(std::min<std::uint64_t>(n, buf_.size())));
}

// The bytes of a cut-short last chunk: they run to the end of the input, so
// the input's size is the chunk's offset plus them.
std::string ChunkReader::lost(std::uint64_t bytes) const {
  const std::uint64_t total = offset_ + bytes;
  return std::to_string(bytes) + " bytes, " + std::to_string(total ? bytes * 100 / total : 0) +
         "% of the file";
}

// Ends the input at an incomplete chunk: a warning, or an error for the first.
bool ChunkReader::incomplete(const std::string& message, std::uint64_t at, std::uint64_t left) {
  done_ = true;
  if (index_ == 0) Cursor({}, file_, at).fail(message);
  diagnostics_.warn(SourcePosition::binary(file_, offset_), "truncated chunk",
                    message + "; its events are lost (" + lost(left) + ")");
  return false;
}

std::optional<Chunk> ChunkReader::next() {
  if (done_) return std::nullopt;
  release_before(offset_);  // the chunk before is done with
  buf_.clear();
  const std::string chunk = "chunk " + std::to_string(index_ + 1);
  const std::string_view head = take(kChunkHeaderSize);
  if (head.empty()) {
    done_ = true;
    if (index_ == 0) Cursor({}, file_, 0).fail(chunk + ": empty input, no JFR chunk");
    return std::nullopt;
  }
  if (head.size() < kChunkHeaderSize) {
    if (!kMagic.starts_with(head.substr(0, 4)))
      Cursor({}, file_, offset_)
          .fail(chunk + ": " + std::to_string(head.size()) + " trailing bytes that are not a chunk");
    incomplete(chunk + ": truncated header: need 68 bytes, " + std::to_string(head.size()) + " left", offset_,
               head.size());
    return std::nullopt;
  }
  const ChunkHeader h = parse_header(head, file_, chunk, offset_);
  const std::string_view bytes = take(h.size);
  if (bytes.size() < h.size) {
    if (index_ == 0)
      Cursor({}, file_, offset_ + 8)
          .fail(chunk + ": chunk size " + std::to_string(h.size) + " runs past the end of the file (" +
                std::to_string(bytes.size()) + " bytes left)");
    incomplete(chunk + " is truncated: its header says " + std::to_string(h.size) + " bytes, " +
                   std::to_string(bytes.size()) + " remain",
               offset_, bytes.size());
    return std::nullopt;
  }
  if (h.checkpoint_offset == 0 || h.metadata_offset == 0) {
    incomplete(chunk + ": unfinished chunk (no metadata or checkpoint offset)", offset_ + 16, h.size);
    return std::nullopt;
  }
  check_offsets(h, file_, chunk);
  offset_ += h.size;
  ++index_;
  return Chunk{h, bytes};
}

}  // namespace fg::formats::jfr
