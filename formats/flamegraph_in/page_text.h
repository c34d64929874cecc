// A whole page (HTML or SVG) held in memory, read line by line, with the
// positions of its bytes for messages (file:line:col).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fg/error.h"

namespace fg::formats::flamegraph_in {

class PageText {
 public:
  PageText(std::string_view text, std::string file) : text_(text), file_(std::move(file)) {}

  std::string_view text() const { return text_; }
  const std::string& file() const { return file_; }
  std::size_t size() const { return text_.size(); }
  /// The offset of `needle` at or after `from`; npos when absent.
  std::size_t find(std::string_view needle, std::size_t from = 0) const { return text_.find(needle, from); }
  /// The line that starts at `at`, without its '\n' (nor a '\r' before it);
  /// `*next` becomes the offset after it (size() at the end).
  std::string_view line_at(std::size_t at, std::size_t* next) const;
  /// The offset of a byte of a view into the text.
  std::size_t offset_of(const char* p) const { return static_cast<std::size_t>(p - text_.data()); }

  /// file:line:col of a byte offset. The first call indexes the lines
  /// (one pass over the text), later ones look them up.
  SourcePosition position(std::size_t offset) const;
  /// Throws ParseError at `offset`.
  [[noreturn]] void fail(std::size_t offset, const std::string& message) const;

 private:
  std::string_view text_;
  std::string file_;
  mutable std::vector<std::size_t> line_starts_;  // built by the first position()
};

/// A decimal integer, optionally signed, that is the whole of `digits`;
/// false when it is not one or does not fit in 64 bits.
bool parse_int64(std::string_view digits, std::int64_t* value);

}  // namespace fg::formats::flamegraph_in
