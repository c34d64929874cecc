// The regular expressions users write (filters, --rename, fg-diff's gate):
// RE2's syntax, which is Go's regexp and so go tool pprof's dialect ("(?i)"
// for case-insensitive, "(?s)", "\pL", ...). Patterns and subjects are
// UTF-8. RE2 matches in time linear in the subject, whatever the pattern,
// so any name of any length is searched whole. It has no backreferences
// and no lookaround; a pattern using them is refused, saying so.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace re2 {
class RE2;
}

namespace fg {

/// A compiled regular expression. Immutable; copies share the compiled form,
/// and concurrent searches on one Pattern are safe.
class Pattern {
 public:
  /// `text` compiled, or nullopt with the reason in `why`: RE2's message
  /// ("missing ): a(b"), and for a construct RE2 lacks (backreferences,
  /// lookahead, lookbehind) a note naming it.
  static std::optional<Pattern> compile(std::string_view text, std::string& why);

  /// Whether the pattern matches anywhere in `s` (not anchored: ^ and $
  /// anchor), as Go's Regexp.MatchString.
  bool search(std::string_view s) const;

  /// `s` with every match replaced by `format`, leftmost first and without
  /// overlap (an empty match right after a match is skipped, as Go's
  /// ReplaceAllString). `format` has ECMAScript's escapes: $1..$99 a
  /// group (empty if it did not take part), $& the match, $` and $' the
  /// text before and after it, $$ a '$'.
  std::string replace_all(std::string_view s, std::string_view format) const;

  /// The pattern as written.
  const std::string& text() const;

 private:
  explicit Pattern(std::shared_ptr<const re2::RE2> re) : re_(std::move(re)) {}
  std::shared_ptr<const re2::RE2> re_;
};

}  // namespace fg
