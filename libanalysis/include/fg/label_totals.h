// What each value of one label key adds up to: the busiest threads of a
// recording (key "thread", as readers label samples), the heaviest
// processes, the costliest pprof label values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fg/profile.h"

namespace fg {

/// One value of a label key and what its samples add up to.
struct LabelTotal {
  std::string value;          ///< the label's string value
  std::int64_t total = 0;     ///< the column's sum over its samples, raw (scaled by the column's decimals)
  std::uint64_t records = 0;  ///< sample records carrying it (equal stacks and labels merged)
};

/// The totals of value column `column` (< value_count()) per string value
/// of label `key`, largest |total| first, then by value; samples without
/// the label, and records whose value in the column is 0, are left out. Empty when no sample has the label.
/// One pass over the samples.
std::vector<LabelTotal> totals_by_label(const Profile& profile, std::string_view key, std::size_t column);

}  // namespace fg
