#include "formats/html/script_escape.h"

#include "fg/utf8.h"

namespace fg::formats::html {

namespace {

void append_u_escape(std::string& out, unsigned code) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) out.push_back(kHex[(code >> shift) & 0xf]);
}

}  // namespace

void append_script_string(std::string& out, std::string_view text) {
  out.push_back('"');
  std::size_t pos = 0;
  while (pos < text.size()) {
    const unsigned char c = static_cast<unsigned char>(text[pos]);
    if (c < 0x80) {
      ++pos;
      switch (c) {
        case '"':
          out += "\\\"";
          break;
        case '\\':
          out += "\\\\";
          break;
        case '<':
        case '>':
        case '&':
          append_u_escape(out, c);
          break;
        default:
          if (c < 0x20 || c == 0x7f)
            append_u_escape(out, c);
          else
            out.push_back(static_cast<char>(c));
      }
      continue;
    }
    const std::size_t start = pos;
    const char32_t cp = next_code_point(text, pos);
    if (cp == kReplacementChar || cp == 0x2028 || cp == 0x2029)
      append_u_escape(out, static_cast<unsigned>(cp));
    else
      out.append(text.substr(start, pos - start));
  }
  out.push_back('"');
}

}  // namespace fg::formats::html
