// Difference profiles in pprof's form (go tool pprof -proto -diff_base: one
// column per quantity, the base's samples negated and labelled
// kDiffBaseLabel) and in fg's (a base and a new column per quantity, as
// diff_profiles() makes them): reading the one as the other, and the
// per-quantity delta view that tables and call graphs show.
#pragma once

#include <cstddef>

#include "fg/profile.h"

namespace fg {

/// Whether any sample of `profile` has a negative value in any column.
bool has_negative_values(const Profile& profile);

/// A signed (delta) profile as a diff. For each value column T of
/// `deltas`, the result has a column T (ValueRole::kNew) and, after all of
/// those, a column T (kBase), so that column indices and names still pick
/// the new side. Each value's sign says its side, negated back for the
/// base: that is what pprof's kDiffBaseLabel marks (its base samples are
/// the negative ones), and it is all a profile without the label can go
/// by. The label itself is dropped, so that the two sides of one call
/// path and label set are one sample. `labelled`, when given, receives the
/// number of samples that carried the label.
Profile diff_from_deltas(const Profile& deltas, std::size_t* labelled = nullptr);

/// delta_profile() of one side pair of a diff: the base of `new_column`
/// negated beside it, in one column.
Profile delta_profile_of(const Profile& diff, std::size_t new_column);

}  // namespace fg
