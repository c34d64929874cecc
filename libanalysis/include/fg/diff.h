// Comparing two profiles: align them by call path and give one profile with
// a base and a new value column, the input of differential flame graphs,
// two-count folded output, delta call graphs and fg-diff's reports.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fg/granularity.h"
#include "fg/profile.h"

namespace fg {

enum class Normalization {
  kScaleBase,  ///< base values scaled to the new total (difffolded.pl -n), the default
  kAbsolute,   ///< raw values
  kRate,       ///< base values multiplied by a given factor
};

struct DiffOptions {
  std::size_t base_column = 0;  ///< the value column compared in the base profile
  std::size_t new_column = 0;   ///< and in the new one
  Normalization normalization = Normalization::kScaleBase;
  double rate = 1;  ///< kRate: the factor
  /// Frames are matched at this granularity: by function by default, since
  /// lines and addresses move between two builds.
  Granularity granularity = Granularity::kFunction;
};

struct Diff {
  /// Columns 0 (base, ValueRole::kBase) and 1 (new, kNew), of the new
  /// column's type and unit; a sample per call path and label set of either
  /// input. Paths only in the base keep new = 0, and the reverse.
  Profile profile;
  std::int64_t base_total_raw = 0;  ///< the base column's total before normalisation
  std::int64_t base_total = 0;      ///< after
  std::int64_t new_total = 0;
  double scale = 1;           ///< what the base was multiplied by
  std::string normalization;  ///< in words, for reports: "base scaled to the new total (x0.875)"
};

/// Aligns `base` and `next` by call path. As difffolded.pl -n, a scaled
/// base value is truncated toward zero per call path. Throws UsageError
/// when the two columns have different units.
Diff diff_profiles(const Profile& base, const Profile& next, const DiffOptions& options);

/// pprof's -diff_base view of a diff: one column, the new samples as they
/// are and the base samples negated, so that flat and cum are deltas.
Profile delta_profile(const Profile& diff);

}  // namespace fg

namespace fg {

/// One function's values on both sides of a diff (after normalisation).
struct FunctionDelta {
  std::string name;
  std::int64_t base_self = 0, new_self = 0;    ///< flat: samples whose leaf it is
  std::int64_t base_total = 0, new_total = 0;  ///< cum: samples with it on the stack (once each)
};

/// Every function with a value on either side, in the order of the call
/// graph's nodes.
std::vector<FunctionDelta> function_deltas(const Diff& diff);

/// A function's share of its side's total, in percent (0 for an empty side).
double share(std::int64_t value, std::int64_t total);

}  // namespace fg
