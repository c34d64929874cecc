#include "fg/utf8.h"
#include "formats/dot/dot.h"

namespace fg::formats::dot {

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t pos = 0;
  while (pos < text.size()) {
    const auto c = static_cast<unsigned char>(text[pos]);
    if (c < 0x80) {
      ++pos;
      if (c == '\\')
        out += "\\\\";
      else if (c == '"')
        out += "\\\"";
      else if (c == '\n')
        out += "\\l";
      else if (c < 0x20 || c == 0x7f)
        out += ' ';
      else
        out.push_back(static_cast<char>(c));
      continue;
    }
    // Graphviz reads UTF-8 and rejects invalid sequences.
    const std::size_t start = pos;
    if (next_code_point(text, pos) == kReplacementChar)
      out += "\xEF\xBF\xBD";
    else
      out.append(text.substr(start, pos - start));
  }
  return out;
}

}  // namespace fg::formats::dot
