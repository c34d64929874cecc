#include "formats/unsupported/unsupported.h"

#include <array>

namespace fg::formats::unsupported {

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }
bool is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

std::string_view trim_back(std::string_view s) {
  while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
  return s;
}

// The complete lines of `head` (a partial last line says nothing), at most
// `limit` of them.
template <std::size_t N>
std::size_t lines_of(std::string_view head, std::array<std::string_view, N>& out) {
  std::size_t n = 0, pos = 0;
  while (n < N) {
    const std::size_t nl = head.find('\n', pos);
    if (nl == std::string_view::npos) break;
    out[n++] = trim_back(head.substr(pos, nl - pos));
    pos = nl + 1;
  }
  return n;
}

// perf script's frame line: indented (not by old perfs), an address in
// hex, the symbol, and the object in parentheses:
// "\tffffffff8104f45a native_write_msr ([kernel.kallsyms])".
bool perf_frame(std::string_view l) {
  std::size_t i = l.find_first_not_of(" \t");
  if (i == std::string_view::npos) return false;
  const std::size_t digits = i;
  while (i < l.size() && is_hex(l[i])) ++i;
  return i > digits && i < l.size() && l[i] == ' ' && l.back() == ')' && l.find(" (", i) != std::string_view::npos;
}

// perf script's event line: "comm pid[/tid] [cpu] time: [period] event:",
// not indented, ending in the event's colon, with a number after a blank.
bool perf_event(std::string_view l) {
  if (l.empty() || is_blank(l.front()) || l.front() == '#' || l.back() != ':') return false;
  for (std::size_t i = l.find(' '); i != std::string_view::npos && i + 1 < l.size(); i = l.find(' ', i + 1))
    if (l[i + 1] >= '0' && l[i + 1] <= '9') return true;
  return false;
}

bool perf_script(std::string_view head) {
  std::array<std::string_view, 64> lines;
  const std::size_t n = lines_of(head, lines);
  if (n >= 2 && lines[0] == "# ========" && lines[1].starts_with("# captured on:")) return true;
  for (std::size_t i = 0; i + 1 < n; ++i)
    if (perf_event(lines[i]) && perf_frame(lines[i + 1])) return true;
  return false;
}

}  // namespace

std::optional<Refusal> recognise(std::string_view head) {
  if (perf_script(head))
    return Refusal{"perf script output",
                   "fold its stacks first: perf script | stackcollapse-perf.pl | fg-convert - "
                   "(or inferno-collapse-perf)"};
  return std::nullopt;
}

}  // namespace fg::formats::unsupported
