#include "formats/common/table_text.h"

#include <algorithm>

namespace fg::formats {

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string csv_text_field(const std::string& s) {
  if (!s.empty() && std::string_view("=+-@\t\r").find(s[0]) != std::string_view::npos)
    return csv_field("'" + s);
  return csv_field(s);
}

std::string text_cell(std::string_view s) {
  const auto control = [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; };
  if (std::none_of(s.begin(), s.end(), control)) return std::string(s);
  std::string out;
  for (char c : s) {
    if (!control(c)) {
      out += c;
    } else if (c == '\n' || c == '\r' || c == '\t') {
      out += c == '\n' ? "\\n" : c == '\r' ? "\\r" : "\\t";
    } else {
      static constexpr char kHex[] = "0123456789abcdef";
      const auto u = static_cast<unsigned char>(c);
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 15];
    }
  }
  return out;
}

std::string markdown_cell(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|' || c == '\\' || c == '`' || c == '*' || c == '_' || c == '[' || c == ']') out += '\\';
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '\n' || c == '\r')
      out += ' ';
    else
      out += c;
  }
  return out;
}

}  // namespace fg::formats
