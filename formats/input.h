// Input bytes for every reader: a file or "-" (standard input), inflated
// when it starts with gzip's magic bytes (never judged by the file name).
// Streams, so a reader's memory does not grow with the input's size.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "fg/error.h"

namespace fg::formats {

/// Inflated bytes above this are refused (a gzip bomb): 4 GiB by default.
inline constexpr std::uint64_t kDefaultMaxInflated = std::uint64_t{4} << 30;
/// The longest line a line-based reader (collapsed stacks, jemalloc heap
/// dumps) takes, and so the longest name in one: 64 MiB. A longer line is
/// bad data (ParseError at the line), not a reason to hold it in memory.
inline constexpr std::size_t kMaxLineBytes = std::size_t{64} << 20;

/// The line and column of byte `offset` of `text`, an input's bytes from
/// its start (at most its end), in `file`.
SourcePosition text_position(std::string file, std::string_view text, std::size_t offset);

/// The ParseError for line `line` of `file`, longer than kMaxLineBytes.
[[noreturn]] void throw_line_too_long(const std::string& file, std::uint64_t line);

class InputBytes;

/// The most bytes a format can use whole (read_all()), and why, for the
/// message that refuses more: e.g. {2 GiB, "protobuf's largest message"}.
struct FormatLimit {
  std::uint64_t bytes = UINT64_MAX;
  const char* why = nullptr;
  /// For a text format that some bytes can never continue (JSON: a control
  /// character): the index of the first such byte of `text`, or npos.
  /// read_all() then looks at the bytes as they arrive, a few MiB at a
  /// time, and refuses the first such byte with a ParseError at its line
  /// and column whose message is `invalid`: a bomb of them costs memory
  /// for what came before it, not for the limit.
  std::size_t (*first_invalid)(std::string_view text) = nullptr;
  const char* invalid = nullptr;
};

class Input {
 public:
  /// Opens `path` ("-" for standard input). Throws fg::Error naming the file
  /// when it cannot be opened.
  static std::unique_ptr<Input> open(const std::string& path,
                                     std::uint64_t max_inflated = kDefaultMaxInflated);
  /// An input over bytes already in memory (tests, fuzzing). `mappable`:
  /// map_whole() hands them out as it would a plain file's mapping, so a
  /// test can take a reader's in-place path as well as its streaming one.
  static std::unique_ptr<Input> from_bytes(std::string name, std::string bytes,
                                           std::uint64_t max_inflated = kDefaultMaxInflated,
                                           bool mappable = false);
  virtual ~Input();

  /// The same input from its start again, with the same inflate limit: a
  /// regular file opened by path, opened anew. nullptr for what cannot be
  /// read twice (standard input, pipes, devices, bytes in memory). Throws
  /// fg::Error naming the file when it cannot be opened.
  std::unique_ptr<Input> reopen() const;

  /// The most bytes read_all() holds in memory of its own (inflated gzip,
  /// standard input, a pipe): more is refused with a ParseError before it
  /// is allocated where the gzip trailer tells, else when it arrives. The
  /// tools set half of --max-memory; a mapped plain file is not counted.
  void set_max_whole(std::uint64_t bytes) { max_whole_ = bytes; }

  /// The name used in messages: the path, or "<stdin>".
  const std::string& name() const { return name_; }
  bool compressed() const { return compressed_; }

  /// Up to n bytes from the start of the (inflated) input, without
  /// consuming them. Valid until the next call to read().
  std::string_view head(std::size_t n = 4096);
  /// Reads up to n bytes; returns 0 only at the end. Throws fg::Error on a
  /// read or inflate failure, naming the file and the offset.
  std::size_t read(char* buf, std::size_t n);
  /// Inflated bytes handed out so far.
  std::uint64_t offset() const { return offset_; }

  /// For a plain (not gzipped) regular file of which nothing has been read
  /// yet: the whole file, memory-mapped, which a reader may parse in place
  /// instead of calling read(). Counts as read in offset(). Empty otherwise
  /// (stdin, pipes, gzip, a failed mapping): then use read().
  std::optional<std::string_view> map_whole();
  /// For gzip whose compressed bytes are all at hand (a file opened by
  /// path, bytes in memory), before any read(): the inflated size its last
  /// member's trailer gives (modulo 4 GiB; untrusted), which read_all()
  /// would inflate at once. Empty otherwise (then read_all() streams).
  std::optional<std::uint64_t> whole_inflated_size();
  /// Tells the mapping that bytes before `offset` will not be looked at
  /// again, so their pages leave this process's memory.
  void release_mapped(std::size_t offset);
  /// Lets the pages of the mapping within [begin, end) leave this process's
  /// memory for now: reading them again brings them back from the file.
  void drop_mapped(std::size_t begin, std::size_t end);

 protected:
  Input(std::string name, std::uint64_t max_inflated);

 private:
  class Impl;
  friend InputBytes read_all(Input& input, FormatLimit format);
  std::size_t read_raw_inflated(char* buf, std::size_t n);
  /// For gzip before any read(): every compressed byte, when all are at
  /// hand (bytes in memory, or a regular file opened by path, mapped until
  /// inflate_whole() returns or the input closes). Empty otherwise.
  std::optional<std::string_view> compressed_whole();
  /// For gzip whose compressed bytes are all at hand (a file opened by
  /// path, bytes in memory) and of which nothing has been read: inflates
  /// them in one call into `out`. False when it cannot (then nothing was
  /// consumed and read() goes on as before); throws on a gzip bomb.
  bool inflate_whole(InputBytes& out);
  std::string name_;
  /// The limit read_all() holds the whole input to, and its error.
  std::uint64_t whole_limit() const { return std::min({max_inflated_, max_whole_, format_.bytes}); }
  [[noreturn]] void refuse_whole(std::uint64_t offset) const;
  std::uint64_t max_inflated_;
  std::uint64_t max_whole_ = kDefaultMaxInflated;
  FormatLimit format_;  // read_all()'s, while it runs
  bool compressed_ = false;
  bool sniffed_ = false;
  std::string lookahead_;
  std::size_t lookahead_pos_ = 0;
  std::uint64_t offset_ = 0;
  std::uint64_t inflated_ = 0;
  std::unique_ptr<Impl> impl_;
  friend class InputFactory;
};

/// The whole (inflated) input, for formats that cannot stream: a plain
/// file's mapping, else memory of its own that grows without copying and
/// holds only the pages written. A reader done with a prefix gives its
/// pages back with release(). Borrows `input` (for its mapping), which
/// must outlive it.
class InputBytes {
 public:
  InputBytes() = default;
  InputBytes(InputBytes&& o) noexcept { *this = std::move(o); }
  InputBytes& operator=(InputBytes&& o) noexcept;
  InputBytes(const InputBytes&) = delete;
  InputBytes& operator=(const InputBytes&) = delete;
  ~InputBytes();

  std::string_view view() const { return {data_, size_}; }
  /// Makes at least `n` readable bytes follow view() (for parsers that read
  /// past the end, such as simdjson), from memory of its own; false for a
  /// mapped file, whose end is the file's.
  bool pad(std::size_t n);
  /// The bytes before `offset` will not be looked at again (reading them
  /// afterwards is undefined): whole pages of them leave the process.
  void release(std::size_t offset);

 private:
  friend InputBytes read_all(Input& input, FormatLimit format);
  friend class Input;
  /// Room for `capacity` bytes, keeping those there (anonymous pages, moved).
  void grow(std::size_t capacity);
  Input* mapped_ = nullptr;  // a plain file's mapping, released through its Input
  char* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;  // of memory of our own (then data_ is page aligned)
  std::size_t released_ = 0;
};

/// The whole input, at most Input::set_max_whole()'s bytes, --max-inflated's
/// and `format`'s; more is refused (ParseError, or the gzip bomb's Error)
/// before it is allocated where the gzip trailer tells, else as it arrives.
InputBytes read_all(Input& input, FormatLimit format = {});

}  // namespace fg::formats
