// What the in-process perftests share: a stream that discards its output,
// CPU time and peak RSS of this process.
#pragma once

#include <sys/resource.h>

#include <streambuf>

namespace fg::bench {

/// A stream buffer that accepts and drops everything (a writer's cost
/// without the cost of a file).
class NullBuffer : public std::streambuf {
 protected:
  std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
  int overflow(int c) override { return c; }
};

/// CPU time of this process (user + system), seconds: steadier than wall
/// time on a shared machine, and equal to it for single-threaded work.
inline double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

/// Peak resident set size of this process so far, MiB.
inline long peak_rss_mb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss / 1024;
}

}  // namespace fg::bench
