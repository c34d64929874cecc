// Bounds-checked cursors over input bytes. Format code reads through these,
// so it never computes positions by hand or reads past an end: every failure
// is a ParseError naming the file and where in it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "fg/error.h"

namespace fg {

/// A cursor over text that tracks line and column (both 1-based, the column
/// in bytes). Does not own the text.
class TextCursor {
 public:
  /// `first_line` lets a caller that hands one line at a time keep numbering.
  TextCursor(std::string_view text, std::string file, std::uint64_t first_line = 1);

  bool at_end() const { return pos_ >= text_.size(); }
  /// The current byte; '\0' at the end (check at_end() to tell them apart).
  char peek() const { return at_end() ? '\0' : text_[pos_]; }
  /// Moves past one byte, counting lines. No-op at the end.
  void advance();
  /// Moves past `c` or throws "expected 'c'".
  void expect(char c);
  /// Skips spaces and tabs (not newlines).
  void skip_blanks();
  /// Returns the bytes up to (not including) `stop` or the end of the line.
  std::string_view read_until(char stop);
  /// Reads an optionally signed decimal integer; throws ParseError on a
  /// missing number or one that does not fit in 64 bits.
  std::int64_t read_int64();

  std::uint64_t line() const { return line_; }
  std::uint64_t column() const { return pos_ - line_start_ + 1; }
  std::size_t offset() const { return pos_; }
  SourcePosition position() const;
  /// Throws ParseError at the current position.
  [[noreturn]] void fail(const std::string& message) const;

 private:
  std::string_view text_;
  std::string file_;
  std::size_t pos_ = 0;
  std::size_t line_start_ = 0;
  std::uint64_t line_;
};

/// A cursor over binary data. Every read checks what is left first; sizes
/// read from the data are checked with need() before anything is allocated.
class ByteCursor {
 public:
  /// `base_offset` is the offset of data[0] in the file, for messages.
  /// Like the data, the file's name is viewed, not copied: it must outlive
  /// the cursor (readers make a cursor per message, and sub-cursors).
  ByteCursor(std::string_view data, std::string_view file, std::uint64_t base_offset = 0);

  std::size_t remaining() const { return data_.size() - pos_; }
  bool at_end() const { return pos_ >= data_.size(); }
  std::uint64_t offset() const { return base_ + pos_; }

  /// Throws "truncated: need N bytes, M left" unless n bytes remain.
  void need(std::uint64_t n, std::string_view what = {}) const;
  std::uint8_t u8();
  std::uint16_t u16_be();
  std::uint32_t u32_be();
  std::uint64_t u64_be();
  std::uint32_t u32_le();
  std::uint64_t u64_le();
  /// LEB128 unsigned varint (at most 10 bytes).
  std::uint64_t varint();
  /// n bytes as a view into the data (n checked first).
  std::string_view bytes(std::uint64_t n, std::string_view what = {});
  void skip(std::uint64_t n, std::string_view what = {});
  /// A sub-cursor over the next n bytes; this cursor moves past them.
  ByteCursor sub(std::uint64_t n, std::string_view what = {});

  SourcePosition position() const;
  [[noreturn]] void fail(const std::string& message) const;

 private:
  std::string_view data_;
  std::string_view file_;
  std::uint64_t base_;
  std::size_t pos_ = 0;
};

}  // namespace fg
