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
  const std::string_view before = text_.substr(0, offset);
  const std::size_t line_start = before.rfind('\n') + 1;  // npos + 1 == 0
  const auto line = 1 + static_cast<std::uint64_t>(std::count(before.begin(), before.end(), '\n'));
  return SourcePosition::text(file_, line, offset - line_start + 1);
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
