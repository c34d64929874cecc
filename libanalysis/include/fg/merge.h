// Merging several profiles into one, as when a tool is given several inputs.
#pragma once

#include <span>

#include "fg/profile.h"

namespace fg {

/// One profile holding every sample of `profiles`. Value columns are matched
/// by type and unit; a column missing from one input counts 0 there. The
/// metadata keeps the first input's period and format ("mixed" when the
/// formats differ), the earliest start, the summed duration and every
/// source name. Throws Error when `profiles` is empty, or when it mixes
/// differential profiles (base and new columns) with plain ones.
Profile merge(std::span<const Profile> profiles);

}  // namespace fg
