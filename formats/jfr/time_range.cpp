#include "formats/jfr/time_range.h"

#include <charconv>
#include <ctime>
#include <vector>

#include "fg/error.h"
#include "formats/jfr/chunk.h"

namespace fg::formats::jfr {

namespace {

constexpr std::int64_t kAbsoluteMillis = 1'500'000'000'000;

[[noreturn]] void bad(const std::string& option, const std::string& spec) {
  throw UsageError(option + " " + spec +
                   ": expected milliseconds (absolute, from the start, or negative: from the end), "
                   "HH:MM:SS[.mmm] or YYYY-MM-DDTHH:MM:SS[.mmm]");
}

std::vector<int> numbers(const std::string& option, const std::string& spec, std::string_view s,
                         std::string_view separators) {
  std::vector<int> out;
  std::size_t pos = 0;
  while (pos <= s.size()) {
    std::size_t end = s.find_first_of(separators, pos);
    if (end == std::string_view::npos) end = s.size();
    int v = 0;
    auto r = std::from_chars(s.data() + pos, s.data() + end, v);
    if (r.ec != std::errc() || r.ptr != s.data() + end) bad(option, spec);
    out.push_back(v);
    pos = end + 1;
  }
  return out;
}

}  // namespace

std::int64_t parse_time_bound(const std::string& option, const std::string& spec, std::int64_t start_ns,
                              std::int64_t end_ns) {
  if (spec.find(':') == std::string::npos) {
    std::int64_t ms = 0;
    auto r = std::from_chars(spec.data(), spec.data() + spec.size(), ms);
    if (spec.empty() || r.ec != std::errc() || r.ptr != spec.data() + spec.size()) bad(option, spec);
    const __int128 ns = static_cast<__int128>(ms) * 1'000'000;
    if (ms < 0) return saturate(end_ns + ns);
    if (ms < kAbsoluteMillis) return saturate(start_ns + ns);
    return saturate(ns);
  }
  std::tm tm{};
  const std::time_t start_s = static_cast<std::time_t>(start_ns / 1'000'000'000);
  localtime_r(&start_s, &tm);
  std::string_view clock = spec;
  if (std::size_t t = spec.find('T'); t != std::string::npos) {
    std::vector<int> date = numbers(option, spec, std::string_view(spec).substr(0, t), "-");
    if (date.size() != 3) bad(option, spec);
    tm.tm_year = date[0] - 1900;
    tm.tm_mon = date[1] - 1;
    tm.tm_mday = date[2];
    clock = std::string_view(spec).substr(t + 1);
  }
  std::vector<int> hms = numbers(option, spec, clock, ":.");
  if (hms.size() < 2 || hms.size() > 4) bad(option, spec);
  tm.tm_hour = hms[0];
  tm.tm_min = hms[1];
  tm.tm_sec = hms.size() > 2 ? hms[2] : 0;
  tm.tm_isdst = -1;
  const std::time_t s = std::mktime(&tm);
  if (s == static_cast<std::time_t>(-1)) bad(option, spec);
  const __int128 ms = hms.size() > 3 ? hms[3] : 0;
  return saturate(static_cast<__int128>(s) * 1'000'000'000 + ms * 1'000'000);
}

}  // namespace fg::formats::jfr
