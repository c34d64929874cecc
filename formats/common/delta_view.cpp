#include "formats/common/delta_view.h"

#include "fg/delta_sides.h"

namespace fg::formats {

std::optional<Profile> delta_view(const Profile& profile, WriteOptions& options) {
  const std::size_t column =
      options.value ? profile.find_value(*options.value) : profile.default_value_index();
  if (!profile.base_of(column)) return std::nullopt;
  options.value.reset();
  return delta_profile_of(profile, column);
}

}  // namespace fg::formats
