#include "formats/svg/xml_escape.h"

#include "fg/utf8.h"

namespace fg::formats::svg {

void xml_escape(std::string& out, std::string_view text) {
  std::size_t pos = 0;
  while (pos < text.size()) {
    unsigned char c = static_cast<unsigned char>(text[pos]);
    if (c < 0x80) {
      ++pos;
      switch (c) {
        case '&':
          out += "&amp;";
          break;
        case '<':
          out += "&lt;";
          break;
        case '>':
          out += "&gt;";
          break;
        case '"':
          out += "&quot;";
          break;
        case '\'':
          out += "&#39;";
          break;
        case '\t':
        case '\n':
        case '\r':
          out.push_back(static_cast<char>(c));
          break;
        default:
          if (c < 0x20 || c == 0x7f)
            out += "\xEF\xBF\xBD";
          else
            out.push_back(static_cast<char>(c));
      }
      continue;
    }
    std::size_t start = pos;
    char32_t cp = next_code_point(text, pos);
    if (cp == kReplacementChar || cp == 0xFFFE || cp == 0xFFFF)
      out += "\xEF\xBF\xBD";
    else
      out.append(text.substr(start, pos - start));
  }
}

std::string xml_escaped(std::string_view text) {
  std::string out;
  xml_escape(out, text);
  return out;
}

}  // namespace fg::formats::svg
