// Graphviz's libraries keep process-wide state (the error callback, the
// parser's lexer), so every use of them in fg goes through one lock, and
// their error messages are collected to become fg's errors instead of noise
// on stderr. DOT reaches Graphviz only through read(), which bounds the
// strings in it first: Graphviz's parser takes time quadratic in the length
// of a string.
#pragma once

#include <graphviz/cgraph.h>

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace fg::formats {

/// The longest string (quoted, HTML-like or bare ID) of DOT that reaches
/// Graphviz whole, in bytes.
inline constexpr std::size_t kMaxGraphvizString = 64 * 1024;

/// `dot` with every string longer than `max` bytes cut short: a quoted
/// string keeps its first three quarters of `max` and its last quarter
/// (whole escapes and UTF-8 sequences), with " [... N bytes cut] " between
/// them; an HTML-like string or bare ID longer than
/// `max` becomes the quoted "[N bytes cut]". Comments are skipped as
/// Graphviz skips them. Linear in the size of `dot`.
std::string bounded_dot(std::string_view dot, std::size_t max = kMaxGraphvizString);

/// Holds the Graphviz lock for its lifetime and collects the messages that
/// Graphviz reports meanwhile (errors only, not warnings).
class GraphvizSession {
 public:
  GraphvizSession();
  /// Takes the lock only if no other thread holds it; owns_lock() says
  /// whether it did (only then may the session be used).
  explicit GraphvizSession(std::try_to_lock_t);
  ~GraphvizSession();
  GraphvizSession(const GraphvizSession&) = delete;
  GraphvizSession& operator=(const GraphvizSession&) = delete;

  /// Whether this session holds the lock.
  bool owns_lock() const { return lock_.owns_lock(); }
  /// The messages collected so far, trailing newlines and spaces removed.
  std::string errors() const;
  /// Graphviz's agmemread() of bounded_dot(`dot`); null when it cannot be
  /// read (errors() says why).
  std::unique_ptr<Agraph_t, int (*)(Agraph_t*)> read(std::string_view dot) const;

 private:
  void begin();

  std::unique_lock<std::mutex> lock_;
};

}  // namespace fg::formats
