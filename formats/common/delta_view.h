// Tables and call graphs of a diff show what go tool pprof shows for a
// -diff_base profile: per function, the new value minus the base's.
#pragma once

#include <optional>

#include "fg/profile.h"
#include "formats/options.h"

namespace fg::formats {

/// When the column `options` picks (--value, else the default) is the new
/// side of a diff (fg-diff's output, a two-count folded file, a pprof
/// difference profile), the profile a table or call graph draws instead:
/// delta_profile_of() that column, with `options.value` cleared (the view
/// has one column). Otherwise nothing: draw `profile` as it is.
std::optional<Profile> delta_view(const Profile& profile, WriteOptions& options);

}  // namespace fg::formats
