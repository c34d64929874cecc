// plan(): what reading must keep for a run, decided before anything is
// read, from what the writer declares it needs (Format::needs), the
// filters (which look at files, lines and labels) and the options. Tools
// call it and never set ReadOptions from a writer's properties themselves.
#pragma once

#include "fg/filter.h"
#include "fg/profile.h"
#include "formats/options.h"
#include "formats/registry.h"

namespace fg::formats {

/// What a run does with what it reads.
struct PlanInputs {
  /// The writer; nullptr when the run writes no profile (--info) or the
  /// writer is not yet known (an unknown --to, reported when writing).
  const Format* writer = nullptr;
  const WriteOptions* write = nullptr;     ///< required
  const FilterOptions* filters = nullptr;  ///< required
  /// The profiles read are compared (fg-diff): the writer draws the diff,
  /// not what was read, so its needs do not reach reading (only the filters
  /// that readers apply do).
  bool compares = false;
};

/// `read` (the reader options from the command line) completed for the
/// run: the filters a reader applies while reading (ReadOptions::jfr: time
/// window, --threads frame, --norm), the sample order a flame chart needs,
/// and, when nothing but the writer looks at the profile (no filters), the
/// detail it does not show (ReadOptions::frames, labels).
ReadOptions plan(ReadOptions read, const PlanInputs& in);

/// The filters still to apply to `profile` after its reader: those its
/// format's reader applied while reading (Format::reader_applies_filters)
/// left out, --threads frame then a no-op label mode.
FilterOptions remaining_filters(const Profile& profile, FilterOptions filters);

}  // namespace fg::formats
