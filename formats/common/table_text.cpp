#include "formats/common/table_text.h"

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
