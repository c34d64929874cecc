#include "fg/parallel.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <limits>
#include <string>

#include "fg/error.h"

namespace fg {

namespace {

// 0: not set yet, the machine's cores.
std::atomic<unsigned> g_jobs{0};
// kNoMinimum: the thresholds of Work.
constexpr std::uint64_t kNoMinimum = std::numeric_limits<std::uint64_t>::max();
std::atomic<std::uint64_t> g_min{kNoMinimum};

// Work::items and ::files each worth a thread from these (see Work), as
// ::bytes from kBytesWorthAThread.
constexpr std::uint64_t kItemsWorthAThread = 100'000;
constexpr std::uint64_t kFilesWorthAThread = 1;

unsigned cores() { return std::max(1u, std::thread::hardware_concurrency()); }

// `text` as a whole number (digits only, no sign or space), or nullopt.
std::optional<std::uint64_t> whole_number(std::string_view text) {
  std::uint64_t n = 0;
  const char* end = text.data() + text.size();
  const auto [at, ec] = std::from_chars(text.data(), end, n);
  if (text.empty() || ec != std::errc() || at != end) return std::nullopt;
  return n;
}

}  // namespace

unsigned jobs() {
  const unsigned n = g_jobs.load(std::memory_order_relaxed);
  return n ? n : cores();
}

void set_jobs(unsigned n) { g_jobs.store(std::max(1u, n), std::memory_order_relaxed); }

unsigned jobs_from(std::optional<std::string_view> option, const char* env) {
  if (!option && !env) return cores();
  const std::string_view text = option ? *option : std::string_view(env);
  const std::optional<std::uint64_t> n = whole_number(text);
  if (!n || *n < 1 || *n > std::numeric_limits<unsigned>::max())
    throw UsageError((option ? "--jobs " : "FG_JOBS=") + std::string(text) +
                     ": expected a number of threads, 1 or more");
  return static_cast<unsigned>(*n);
}

bool worth_a_thread(const Work& work) {
  if (jobs() < 2) return false;
  const unsigned shift = 2 * std::min(work.nesting, 8u);
  if (work.bytes >= kBytesWorthAThread << shift || work.items >= kItemsWorthAThread << shift ||
      work.files >= kFilesWorthAThread << shift)
    return true;
  const std::uint64_t min = g_min.load(std::memory_order_relaxed);
  return min != kNoMinimum && (work.bytes >= min || work.items >= min || work.files >= min);
}

unsigned parts_for(const Work& work) { return worth_a_thread(work) ? jobs() : 1; }

void set_parallel_min(std::optional<std::uint64_t> min) {
  g_min.store(min ? std::min(*min, kNoMinimum - 1) : kNoMinimum, std::memory_order_relaxed);
}

std::optional<std::uint64_t> parallel_min_from(const char* env) {
  if (!env) return std::nullopt;
  const std::optional<std::uint64_t> n = whole_number(env);
  if (!n) throw UsageError("FG_PARALLEL_MIN=" + std::string(env) + ": expected a whole number, 0 or more");
  return n;
}

}  // namespace fg
