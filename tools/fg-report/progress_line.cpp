#include "progress_line.h"

#include <unistd.h>

#include <string>

namespace fg::cli {

void ProgressLine::update(std::size_t done, std::size_t total, std::size_t failed) {
  if (!terminal_) return;
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto now = std::chrono::steady_clock::now();
  if (shown_ && now - last_ < kInterval) return;
  last_ = now;
  shown_ = true;
  // \r to the line's start, the text, then erase what a longer line left.
  out_ << "\rfg-report: " << done << '/' << total << " profiles, " << failed << " failed\x1b[K" << std::flush;
}

void ProgressLine::clear() {
  const std::lock_guard<std::mutex> lock(mutex_);
  erase();
}

void ProgressLine::aside(const std::function<void()>& write) {
  const std::lock_guard<std::mutex> lock(mutex_);
  erase();
  write();
}

void ProgressLine::erase() {
  if (!shown_) return;
  out_ << "\r\x1b[K" << std::flush;
  shown_ = false;
}

bool stderr_is_terminal() { return ::isatty(2) == 1; }

}  // namespace fg::cli
