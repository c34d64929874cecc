#include "formats/common/json_escape.h"

#include "fg/utf8.h"

namespace fg::formats {

namespace {

// The ASCII bytes that are written as they are, as a table: names are
// mostly nothing else, and this test runs on every byte of every name.
struct PlainTable {
  bool plain[256] = {};
  constexpr PlainTable() {
    for (int c = 0x20; c < 0x80; ++c) plain[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&';
  }
};
constexpr PlainTable kPlain;
constexpr bool plain(unsigned char c) { return kPlain.plain[c]; }

void append_ascii_escape(std::string& out, unsigned char c) {
  static constexpr char kHex[] = "0123456789abcdef";
  switch (c) {
    case '"':
      out += "\\\"";
      return;
    case '\\':
      out += "\\\\";
      return;
    case '\n':
      out += "\\n";
      return;
    case '\r':
      out += "\\r";
      return;
    case '\t':
      out += "\\t";
      return;
    default:
      out += "\\u00";
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
  }
}

}  // namespace

std::string_view as_valid_utf8(std::string_view text, std::string& scratch, std::uint64_t& replaced) {
  std::size_t pos = 0;
  while (pos < text.size()) {
    if (static_cast<unsigned char>(text[pos]) < 0x80) {
      ++pos;
      continue;
    }
    std::size_t start = pos;
    if (next_code_point(text, pos) == kReplacementChar &&
        pos - start == 1) {  // invalid, not a written U+FFFD
      if (scratch.empty()) scratch.assign(text.substr(0, start));
      scratch += "\xEF\xBF\xBD";
      ++replaced;
    } else if (!scratch.empty()) {
      scratch.append(text.substr(start, pos - start));
    }
    if (!scratch.empty()) {
      // Copy the ASCII that follows, up to the next multi-byte sequence.
      std::size_t run = pos;
      while (run < text.size() && static_cast<unsigned char>(text[run]) < 0x80) ++run;
      scratch.append(text.substr(pos, run - pos));
      pos = run;
    }
  }
  return scratch.empty() ? text : std::string_view(scratch);
}

void append_json_string(std::string& out, std::string_view raw, std::uint64_t& replaced) {
  std::string scratch;
  const std::string_view text = as_valid_utf8(raw, scratch, replaced);
  out.push_back('"');
  std::size_t pos = 0;
  while (pos < text.size()) {
    // Runs of plain ASCII are copied at once: most names are nothing else.
    std::size_t run = pos;
    while (run < text.size() && plain(static_cast<unsigned char>(text[run]))) ++run;
    out.append(text.data() + pos, run - pos);
    pos = run;
    if (pos >= text.size()) break;
    unsigned char c = static_cast<unsigned char>(text[pos]);
    if (c < 0x80) {
      append_ascii_escape(out, c);
      ++pos;
      continue;
    }
    std::size_t start = pos;
    char32_t cp = next_code_point(text, pos);  // valid here
    if (cp == 0x2028 || cp == 0x2029)
      out += cp == 0x2028 ? "\\u2028" : "\\u2029";
    else
      out.append(text.substr(start, pos - start));
  }
  out.push_back('"');
}

}  // namespace fg::formats
