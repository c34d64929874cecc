// fg-report's progress bar: one line on standard error, rewritten in place
// ("fg-report: 37/120 profiles, 2 failed"), only when standard error is a
// terminal, as DESIGN.md wants of every progress report.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <mutex>
#include <ostream>

namespace fg::cli {

/// A line of progress on a terminal, rewritten with \r at most every
/// kInterval and erased by clear() (or the destructor). On any other
/// stream it writes nothing. Safe to call from several threads.
class ProgressLine {
 public:
  /// At most this often the line is rewritten.
  static constexpr std::chrono::milliseconds kInterval{100};

  /// `terminal`: whether `out` is one (isatty); false makes every call a
  /// no-op.
  ProgressLine(std::ostream& out, bool terminal) : out_(out), terminal_(terminal) {}
  ~ProgressLine() { clear(); }
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  /// Shows `done` of `total` profiles and `failed` of them, unless the line
  /// was written less than kInterval ago (the first call always shows).
  void update(std::size_t done, std::size_t total, std::size_t failed);

  /// Erases the line, if one is shown, so that what follows starts on a
  /// clean line.
  void clear();

  /// Runs `write` (which prints whole lines on the same terminal: a
  /// reader's note) with the line erased first; the next update() shows
  /// it again.
  void aside(const std::function<void()>& write);

 private:
  void erase();  // with mutex_ held

  std::mutex mutex_;  // update(), clear() and aside() come from the worker threads
  std::ostream& out_;
  bool terminal_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point last_{};
};

/// Whether standard error is a terminal.
bool stderr_is_terminal();

}  // namespace fg::cli
