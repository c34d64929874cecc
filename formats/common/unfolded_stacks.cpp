#include "formats/common/unfolded_stacks.h"

#include <charconv>

namespace fg::formats {

std::size_t recursive_edges_left_out(const Profile& profile) {
  for (const auto& [key, value] : profile.metadata().properties)
    if (key == kRecursiveEdgesProperty) {
      std::size_t n = 0;
      std::from_chars(value.data(), value.data() + value.size(), n);
      return n;
    }
  return 0;
}

bool unfolded_from_graph(const Profile& profile) {
  for (const auto& [key, value] : profile.metadata().properties)
    if (key == kUnfoldedProperty) return true;
  return false;
}

}  // namespace fg::formats
