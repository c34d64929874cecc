#include "common/memory_limit.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <limits>

#include "fg/error.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define FG_UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define FG_UNDER_SANITIZER 1
#endif
#endif

namespace fg::cli {

namespace {

std::uint64_t limit_in_force = 0;

// The shift of a unit suffix ("", "K", "KiB", "kB", ...), or -1.
int unit_shift(std::string_view unit) {
  if (unit.empty()) return 0;
  std::string u;
  for (char c : unit) u += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (u.size() == 3 && u.substr(1) == "IB") u.erase(1);
  if (u.size() == 2 && u[1] == 'B') u.erase(1);
  if (u.size() != 1) return -1;
  switch (u[0]) {
    case 'K':
      return 10;
    case 'M':
      return 20;
    case 'G':
      return 30;
    case 'T':
      return 40;
    default:
      return -1;
  }
}

}  // namespace

std::uint64_t parse_memory_size(std::string_view text, const std::string& what) {
  std::size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
  const int shift = unit_shift(text.substr(digits));
  std::uint64_t n = 0;
  bool fits = digits > 0 && digits <= 19 && shift >= 0;
  for (std::size_t i = 0; fits && i < digits; ++i) n = n * 10 + static_cast<std::uint64_t>(text[i] - '0');
  fits = fits && n > 0 && n <= (std::numeric_limits<std::uint64_t>::max() >> shift);
  if (!fits)
    throw UsageError(what + std::string(text) +
                     ": expected a size of at least 1 byte: a whole number of bytes, or with K, M, G or T");
  return n << shift;
}

std::uint64_t memory_limit_from(const std::optional<std::string>& option, const char* env) {
  if (option) return parse_memory_size(*option, "--max-memory ");
  if (env && *env) return parse_memory_size(env, "FG_MAX_MEMORY=");
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return std::numeric_limits<std::uint64_t>::max();
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) / 2;
}

void apply_memory_limit(std::uint64_t bytes) {
  limit_in_force = bytes;
#ifndef FG_UNDER_SANITIZER
  rlimit r{};
  if (::getrlimit(RLIMIT_DATA, &r) != 0) return;
  const rlim_t want =
      bytes >= std::numeric_limits<rlim_t>::max() ? RLIM_INFINITY : static_cast<rlim_t>(bytes);
  if (r.rlim_cur != RLIM_INFINITY && r.rlim_cur <= want) return;
  r.rlim_cur = r.rlim_max == RLIM_INFINITY ? want : std::min(want, r.rlim_max);
  ::setrlimit(RLIMIT_DATA, &r);
#endif
}

std::uint64_t memory_limit() { return limit_in_force; }

}  // namespace fg::cli
