#include "formats/common/json_escape.h"

#include "fg/utf8.h"

namespace fg::formats {

namespace {

// The ASCII bytes written as they are, as a table per escaping: names are
// mostly nothing else, and this test runs on every byte of every name.
struct PlainTable {
  bool plain[256] = {};
  constexpr explicit PlainTable(JsonEscaping escaping) {
    const int end = escaping == JsonEscaping::kGo ? 0x80 : 0x7f;  // Go keeps DEL
    for (int c = 0x20; c < end; ++c) plain[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&';
  }
};
constexpr PlainTable kPlainGo(JsonEscaping::kGo);
constexpr PlainTable kPlainScript(JsonEscaping::kScript);

void append_u_escape(std::string& out, unsigned code) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) out.push_back(kHex[(code >> shift) & 0xf]);
}

// An ASCII byte that the table does not pass.
void append_ascii_escape(std::string& out, unsigned char c, JsonEscaping escaping) {
  if (c == '"' || c == '\\') {
    out.push_back('\\');
    out.push_back(static_cast<char>(c));
    return;
  }
  if (escaping == JsonEscaping::kGo && (c == '\n' || c == '\r' || c == '\t')) {
    out += c == '\n' ? "\\n" : c == '\r' ? "\\r" : "\\t";
    return;
  }
  append_u_escape(out, c);
}

// One loop per escaping, so the table and the tests below are constants.
template <JsonEscaping kEscaping>
void append_escaped(std::string& out, std::string_view text, std::uint64_t& replaced) {
  constexpr const PlainTable& table = kEscaping == JsonEscaping::kGo ? kPlainGo : kPlainScript;
  out.push_back('"');
  std::size_t pos = 0;
  while (pos < text.size()) {
    // Runs of plain ASCII are copied at once: most names are nothing else.
    std::size_t run = pos;
    while (run < text.size() && table.plain[static_cast<unsigned char>(text[run])]) ++run;
    out.append(text.data() + pos, run - pos);
    pos = run;
    if (pos >= text.size()) break;
    const unsigned char c = static_cast<unsigned char>(text[pos]);
    if (c < 0x80) {
      append_ascii_escape(out, c, kEscaping);
      ++pos;
      continue;
    }
    const std::size_t start = pos;
    const char32_t cp = next_code_point(text, pos);
    const bool invalid = cp == kReplacementChar && pos - start == 1;  // not a written U+FFFD
    if (invalid) ++replaced;
    if (cp == 0x2028 || cp == 0x2029 || (kEscaping == JsonEscaping::kScript && cp == kReplacementChar))
      append_u_escape(out, static_cast<unsigned>(cp));
    else if (invalid)
      out += "\xEF\xBF\xBD";
    else
      out.append(text.substr(start, pos - start));
  }
  out.push_back('"');
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

void append_json_string(std::string& out, std::string_view text, JsonEscaping escaping,
                        std::uint64_t& replaced) {
  if (escaping == JsonEscaping::kGo)
    append_escaped<JsonEscaping::kGo>(out, text, replaced);
  else
    append_escaped<JsonEscaping::kScript>(out, text, replaced);
}

}  // namespace fg::formats
