// "Did you mean ...?": the known word nearest to a misspelt one, for the
// messages about unknown options and format names.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fg {

/// Optimal string alignment distance between `a` and `b`: the fewest
/// insertions, deletions, substitutions and swaps of neighbouring
/// characters that turn one into the other (case-sensitive, by byte).
std::size_t edit_distance(std::string_view a, std::string_view b);

/// The candidate nearest to `word` when it is near enough to be a
/// misspelling of it: at most one edit for words of three or four
/// characters, else at most a third of the word's length; none for words
/// of one or two characters. The first of
/// equally near candidates wins; nullopt when none is near enough or
/// `word` is itself a candidate.
std::optional<std::string> closest_spelling(std::string_view word,
                                            const std::vector<std::string>& candidates);

/// "a, b or c": the choices an option or a name takes, as error messages
/// list them ("a" alone, "a or b" for two).
std::string or_list(const std::vector<std::string>& choices);

}  // namespace fg
