#include "formats/unsupported/unsupported.h"

#include <array>
#include <cstdint>

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
  return i > digits && i < l.size() && l[i] == ' ' && l.back() == ')' &&
         l.find(" (", i) != std::string_view::npos;
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

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Skips blanks, then takes at least one digit; false if there is none.
bool digits(std::string_view l, std::size_t& i) {
  while (i < l.size() && l[i] == ' ') ++i;
  const std::size_t start = i;
  while (i < l.size() && is_digit(l[i])) ++i;
  return i > start;
}

// Skips blanks, then takes `c`.
bool take(std::string_view l, std::size_t& i, char c) {
  while (i < l.size() && l[i] == ' ') ++i;
  return i < l.size() && l[i++] == c;
}

// A heap profile's first line: "heap profile: N: N [N: N] @ KIND"; KIND
// is what follows the '@' (empty when this is not one).
std::string_view heap_kind(std::string_view l) {
  constexpr std::string_view kStart = "heap profile:";
  if (!l.starts_with(kStart)) return {};
  std::size_t i = kStart.size();
  if (!(digits(l, i) && take(l, i, ':') && digits(l, i) && take(l, i, '[') && digits(l, i) &&
        take(l, i, ':') && digits(l, i) && take(l, i, ']') && take(l, i, '@')))
    return {};
  while (i < l.size() && l[i] == ' ') ++i;
  return l.substr(i);
}

// Go's count profiles: "goroutine profile: total 12" (the whole line).
std::string_view go_count_kind(std::string_view l) {
  const std::size_t sp = l.find(' ');
  if (sp == 0 || sp == std::string_view::npos) return {};
  for (char c : l.substr(0, sp))
    if (!(is_digit(c) || c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) return {};
  constexpr std::string_view kTotal = " profile: total ";
  if (l.substr(sp, kTotal.size()) != kTotal) return {};
  std::string_view n = l.substr(sp + kTotal.size());
  if (n.empty() || n.find_first_not_of("0123456789") != std::string_view::npos) return {};
  return l.substr(0, sp);
}

// The legacy text profiles, by their first line that is neither blank nor
// a comment.
std::optional<std::string> legacy_text(std::string_view head) {
  std::array<std::string_view, 64> lines;
  const std::size_t n = lines_of(head, lines);
  std::size_t i = 0;
  while (i < n && (lines[i].empty() || lines[i].front() == '#')) ++i;
  if (i == n) return std::nullopt;
  const std::string_view l = lines[i];
  if (const std::string_view kind = heap_kind(l); !kind.empty()) {
    if (kind.starts_with("heap/") || kind == "heap") return "Go heap profile";
    if (kind.starts_with("growthz")) return "heap growth profile";
    if (kind.starts_with("fragmentationz")) return "heap fragmentation profile";
    return "gperftools heap profile";
  }
  if (l.starts_with("--- contention")) return "contention profile";
  if (l.starts_with("--- threadz ") || l.starts_with("--- Thread ")) return "thread profile";
  if (l == "--- heapz 1 ---") return "Java heap profile";
  if (l == "--- mutex:") return "Go mutex profile";
  if (const std::string_view kind = go_count_kind(l); !kind.empty())
    return "Go " + std::string(kind) + " profile";
  return std::nullopt;
}

// The legacy binary CPU profile: a header of five words, 0, 3, 0 (C++) or
// 1 (Java), the period in microseconds, 0; 32 or 64 bits, either order.
std::optional<std::string> legacy_cpu(std::string_view head) {
  for (std::size_t width : {4, 8})
    for (bool big_endian : {false, true}) {
      if (head.size() < 5 * width) continue;
      std::uint64_t w[5];
      for (std::size_t k = 0; k < 5; ++k) {
        w[k] = 0;
        for (std::size_t b = 0; b < width; ++b) {
          const auto byte = static_cast<unsigned char>(head[k * width + (big_endian ? b : width - 1 - b)]);
          w[k] = w[k] << 8 | byte;
        }
      }
      if (w[0] == 0 && w[1] == 3 && w[2] <= 1 && w[3] > 0 && w[4] == 0)
        return w[2] == 0 ? "gperftools CPU profile" : "Java CPU profile";
    }
  return std::nullopt;
}

}  // namespace

std::optional<Refusal> recognise(std::string_view head) {
  if (perf_script(head))
    return Refusal{"perf script output",
                   "fold its stacks first: perf script | stackcollapse-perf.pl | fg-convert - "
                   "(or inferno-collapse-perf)"};
  constexpr std::string_view kConvert =
      "convert it to pprof's protobuf format with go tool pprof -proto FILE > FILE.pb.gz "
      "(the program's binary before FILE symbolizes it) and read that";
  if (auto cpu = legacy_cpu(head)) return Refusal{*cpu + " (legacy binary format)", kConvert};
  if (auto text = legacy_text(head)) {
    if (*text == "Go mutex profile")
      return Refusal{*text + " (legacy text format)",
                     "fetch it without debug=1 (/debug/pprof/mutex), which gives pprof's protobuf format"};
    return Refusal{*text + " (legacy text format)", kConvert};
  }
  return std::nullopt;
}

}  // namespace fg::formats::unsupported
