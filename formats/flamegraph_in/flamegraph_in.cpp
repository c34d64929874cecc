#include "flamegraph_in.h"

#include <cstring>
#include <string_view>

namespace fg::formats::flamegraph_in {

namespace {

// `head` after leading blanks (and a UTF-8 byte order mark).
std::string_view trimmed(std::string_view head) {
  if (head.starts_with("\xEF\xBB\xBF")) head.remove_prefix(3);
  const std::size_t b = head.find_first_not_of(" \t\r\n");
  return b == std::string_view::npos ? std::string_view() : head.substr(b);
}

bool starts_with_nocase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i)
    if ((s[i] | 0x20) != (prefix[i] | 0x20)) return false;
  return true;
}

// The first NUL byte of `text`, or npos: no page holds one (XML forbids
// it, HTML calls it a parse error, and no flame graph tool writes one), so
// a page read whole is refused at it as it arrives: a gzip of zeros costs
// no memory.
std::size_t first_nul(std::string_view text) {
  const void* nul = std::memchr(text.data(), '\0', text.size());
  return nul ? static_cast<std::size_t>(static_cast<const char*>(nul) - text.data()) : std::string_view::npos;
}

InputBytes read_page(Input& input) {
  return read_all(input,
                  {.first_invalid = first_nul, .invalid = "a NUL byte, which no flame graph page holds"});
}

}  // namespace

Sniff sniff_html(std::string_view head, std::string_view) {
  head = trimmed(head);
  return starts_with_nocase(head, "<!doctype html") || starts_with_nocase(head, "<html") ? Sniff::kYes
                                                                                         : Sniff::kNo;
}

Profile read_html(Input& input, const ReadOptions& options, Diagnostics&) {
  InputBytes bytes = read_page(input);
  if (is_fg_page(bytes.view())) return read_fg_page(bytes.view(), input.name());
  return read_async_profiler_page(bytes.view(), input.name(), options);
}

Sniff sniff_svg(std::string_view head, std::string_view) {
  const std::string_view t = trimmed(head);
  if (!t.starts_with("<?xml") && !t.starts_with("<svg") && !t.starts_with("<!DOCTYPE svg")) return Sniff::kNo;
  if (head.find("<svg") == std::string_view::npos) return Sniff::kMaybe;
  // flamegraph.pl's and fg's script, inferno's namespace.
  const bool flame = head.find("Flame graph") != std::string_view::npos ||
                     head.find("flamegraph") != std::string_view::npos ||
                     head.find("jonhoo/inferno") != std::string_view::npos;
  return flame ? Sniff::kYes : Sniff::kMaybe;
}

Profile read_svg(Input& input, const ReadOptions& options, Diagnostics& diagnostics) {
  InputBytes bytes = read_page(input);
  return read_svg_text(bytes.view(), input.name(), options, diagnostics);
}

}  // namespace fg::formats::flamegraph_in
