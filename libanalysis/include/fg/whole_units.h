// Fractional counts (fixed-point columns, ValueType::decimals) for formats
// that store whole numbers only: pprof's int64 sample values and DeepFlow's
// integer node values.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "fg/diagnostics.h"
#include "fg/profile.h"

namespace fg {

/// True when some column of `profile` is fixed point (decimals > 0).
bool has_fractions(const Profile& profile);

/// A copy of `profile` in whole units (every column's decimals 0). Each
/// column's exact total is rounded half up, and its samples are rounded so
/// that they sum to that: floors first, then one unit more to the samples
/// with the largest remainders, earlier samples first among equals. Counts
/// 0.5, 0.5, 0.5 and 333.7 (335.2) become 1, 0, 0 and 334 (335), where
/// rounding each alone would give 337. `changed` receives the number of
/// sample values that were not whole.
Profile whole_units(const Profile& profile, std::size_t* changed = nullptr);

/// `profile` as a writer of `format` (which stores whole numbers) can
/// write it: itself when no column is fixed point, else whole_units() of
/// it, held in `held`, with one warning saying so and how each column's
/// total was rounded.
const Profile& in_whole_units(const Profile& profile, std::optional<Profile>& held, std::string_view format,
                              Diagnostics& diagnostics);

}  // namespace fg
