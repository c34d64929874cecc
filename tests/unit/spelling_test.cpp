#include "fg/spelling.h"

#include <doctest/doctest.h>

namespace fg {

TEST_CASE("edit_distance counts insertions, deletions, substitutions and swaps") {
  CHECK(edit_distance("", "") == 0);
  CHECK(edit_distance("abc", "") == 3);
  CHECK(edit_distance("", "abc") == 3);
  CHECK(edit_distance("colors", "colours") == 1);  // insertion
  CHECK(edit_distance("focus", "focsu") == 1);     // a swap of neighbours
  CHECK(edit_distance("bogus", "focus") == 2);     // two substitutions
  CHECK(edit_distance("kitten", "sitting") == 3);  // the textbook case
  CHECK(edit_distance("flamegraph", "flamegrph") == 1);
}

TEST_CASE("closest_spelling suggests only what is near enough to be a misspelling") {
  const std::vector<std::string> options = {"colors", "focus", "inverted", "lock", "title"};
  CHECK(closest_spelling("colours", options) == "colors");
  CHECK(closest_spelling("focsu", options) == "focus");
  CHECK(closest_spelling("invrted", options) == "inverted");
  CHECK(closest_spelling("lok", options) == "lock");
  // Two edits in a five-letter word are a different word, not a typo.
  CHECK_FALSE(closest_spelling("bogus", options).has_value());
  // A known word needs no suggestion.
  CHECK_FALSE(closest_spelling("lock", options).has_value());
  CHECK_FALSE(closest_spelling("pdf", {"svg", "html", "dot"}).has_value());
  // Two characters are one edit away from too many words (fg-top --to).
  CHECK_FALSE(closest_spelling("to", {"dot", "top"}).has_value());
  // Equally near: the first candidate wins.
  CHECK(closest_spelling("dog", {"dot", "dig"}) == "dot");
}

}  // namespace fg
