#include "page_text.h"

#include <algorithm>
#include <charconv>
#include <cstring>

namespace fg::formats::flamegraph_in {

std::string_view PageText::line_at(std::size_t at, std::size_t* next) const {
  at = std::min(at, text_.size());
  const char* b = text_.data() + at;
  const char* nl = static_cast<const char*>(std::memchr(b, '\n', text_.size() - at));
  const char* e = nl ? nl : text_.data() + text_.size();
  *next = nl ? offset_of(nl) + 1 : text_.size();
  if (e > b && e[-1] == '\r') --e;
  return {b, static_cast<std::size_t>(e - b)};
}

SourcePosition PageText::position(std::size_t offset) const {
  offset = std::min(offset, text_.size());
  if (line_starts_.empty()) {
    line_starts_.push_back(0);
    for (std::size_t at = text_.find('\n'); at != std::string_view::npos; at = text_.find('\n', at + 1))
      line_starts_.push_back(at + 1);
  }
  // The last line starting at or before the offset.
  const auto line = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset) - 1;
  return SourcePosition::text(file_, static_cast<std::uint64_t>(line - line_starts_.begin()) + 1,
                              offset - *line + 1);
}

void PageText::fail(std::size_t offset, const std::string& message) const {
  throw ParseError(position(offset), message);
}

bool parse_int64(std::string_view digits, std::int64_t* value) {
  const char* b = digits.data();
  const char* e = b + digits.size();
  if (b != e && *b == '+') ++b;
  auto [end, ec] = std::from_chars(b, e, *value);
  return ec == std::errc() && end == e && b != e;
}

}  // namespace fg::formats::flamegraph_in
