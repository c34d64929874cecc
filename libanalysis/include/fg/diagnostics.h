// Recoverable oddities in an input: warnings with a position, counted by
// kind, and reported once more as a count at the end. With strict set, the
// first warning is thrown as a ParseError instead. Nothing is skipped
// silently: every reader that drops or changes data says so here.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "fg/error.h"

namespace fg {

class Diagnostics {
 public:
  /// Receives each printed warning line (without a trailing newline).
  using Sink = std::function<void(const std::string&)>;

  /// `max_printed_per_kind` warnings of one kind are passed to the sink;
  /// later ones are only counted.
  explicit Diagnostics(bool strict = false, Sink sink = {}, std::size_t max_printed_per_kind = 5);

  /// Records a warning of `kind` (a short phrase such as "bad line") at
  /// `where`. Throws ParseError(where, message) when strict.
  void warn(const SourcePosition& where, const std::string& kind, const std::string& message);
  /// A warning about the input as a whole (no position).
  void warn(const std::string& kind, const std::string& message);

  bool strict() const { return strict_; }
  std::uint64_t count() const { return total_; }
  std::uint64_t count(const std::string& kind) const;

  /// One line per kind with more warnings than were printed, e.g.
  /// "12 warnings of kind 'bad line' (first at a.folded:3)". Empty when every
  /// warning was printed.
  std::vector<std::string> summary() const;

 private:
  struct Kind {
    std::uint64_t count = 0;
    std::string first_where;
  };
  bool strict_;
  Sink sink_;
  std::size_t max_printed_;
  std::uint64_t total_ = 0;
  std::map<std::string, Kind> kinds_;
};

}  // namespace fg
