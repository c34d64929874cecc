#include "fg/time_bound.h"

#include <re2/re2.h>

#include <charconv>
#include <cstdlib>
#include <ctime>
#include <limits>
#include <string_view>
#include <vector>

#include "fg/error.h"

namespace fg {

namespace {

constexpr std::int64_t kAbsoluteMillis = 1'500'000'000'000;

std::int64_t saturate(__int128 v) {
  if (v > std::numeric_limits<std::int64_t>::max()) return std::numeric_limits<std::int64_t>::max();
  if (v < std::numeric_limits<std::int64_t>::min()) return std::numeric_limits<std::int64_t>::min();
  return static_cast<std::int64_t>(v);
}

[[noreturn]] void bad(const std::string& option, const std::string& spec) {
  throw UsageError(option + " " + spec +
                   ": expected a time from the start (10s, 250ms, or milliseconds), from the end (-30s), "
                   "HH:MM:SS[.mmm] or YYYY-MM-DDTHH:MM:SS[.mmm][Z]");
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
  static const re2::RE2 duration(R"((-?)([0-9]+(?:\.[0-9]+)?)(ns|us|ms|s|m|h))");
  std::string minus, number, suffix;
  if (re2::RE2::FullMatch(spec, duration, &minus, &number, &suffix)) {
    const double unit = suffix == "ns"   ? 1
                        : suffix == "us" ? 1e3
                        : suffix == "ms" ? 1e6
                        : suffix == "s"  ? 1e9
                        : suffix == "m"  ? 60e9
                                         : 3600e9;
    const double v = std::strtod(number.c_str(), nullptr) * unit;
    if (!(v < 9.2e18)) bad(option, spec);
    const auto ns = static_cast<__int128>(v);
    return saturate(minus.empty() ? start_ns + ns : end_ns - ns);
  }
  if (spec.find(':') == std::string::npos) {  // milliseconds, as the converter
    std::int64_t ms = 0;
    auto r = std::from_chars(spec.data(), spec.data() + spec.size(), ms);
    if (spec.empty() || r.ec != std::errc() || r.ptr != spec.data() + spec.size()) bad(option, spec);
    const __int128 ns = static_cast<__int128>(ms) * 1'000'000;
    if (ms < 0) return saturate(end_ns + ns);
    if (ms < kAbsoluteMillis) return saturate(start_ns + ns);
    return saturate(ns);
  }
  std::tm tm{};
  const auto start_s = static_cast<std::time_t>(start_ns / 1'000'000'000);
  localtime_r(&start_s, &tm);
  std::string_view clock = spec;
  const bool utc = !clock.empty() && clock.back() == 'Z';
  if (utc) clock.remove_suffix(1);
  if (std::size_t t = clock.find('T'); t != std::string_view::npos) {
    std::vector<int> date = numbers(option, spec, clock.substr(0, t), "-");
    if (date.size() != 3) bad(option, spec);
    tm.tm_year = date[0] - 1900;
    tm.tm_mon = date[1] - 1;
    tm.tm_mday = date[2];
    clock = clock.substr(t + 1);
  } else if (utc) {
    bad(option, spec);  // Z goes with a date
  }
  std::vector<int> hms = numbers(option, spec, clock, ":.");
  if (hms.size() < 2 || hms.size() > 4) bad(option, spec);
  tm.tm_hour = hms[0];
  tm.tm_min = hms[1];
  tm.tm_sec = hms.size() > 2 ? hms[2] : 0;
  tm.tm_isdst = -1;
  const std::time_t s = utc ? timegm(&tm) : std::mktime(&tm);
  if (s == static_cast<std::time_t>(-1)) bad(option, spec);
  const __int128 ms = hms.size() > 3 ? hms[3] : 0;
  return saturate(static_cast<__int128>(s) * 1'000'000'000 + ms * 1'000'000);
}

}  // namespace fg
