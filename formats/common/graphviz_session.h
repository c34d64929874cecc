// Graphviz's libraries keep process-wide state (the error callback, the
// parser's lexer), so every use of them in fg goes through one lock, and
// their error messages are collected to become fg's errors instead of noise
// on stderr.
#pragma once

#include <mutex>
#include <string>

namespace fg::formats {

/// Holds the Graphviz lock for its lifetime and collects the messages that
/// Graphviz reports meanwhile (errors only, not warnings).
class GraphvizSession {
 public:
  GraphvizSession();
  ~GraphvizSession();
  GraphvizSession(const GraphvizSession&) = delete;
  GraphvizSession& operator=(const GraphvizSession&) = delete;

  /// The messages collected so far, trailing newlines and spaces removed.
  std::string errors() const;

 private:
  std::unique_lock<std::mutex> lock_;
};

}  // namespace fg::formats
