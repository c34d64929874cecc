// async-profiler's view of Java frames: how one method appears in a flame
// graph whatever tier ran it. A JVM runs a method interpreted, C1- or
// C2-compiled, or inlined into its caller; profilers record which, and
// async-profiler's converter folds these into one frame per place in the
// call tree, coloured by the tier that carried most of its weight.
#pragma once

#include <cstddef>

#include "fg/profile.h"

namespace fg {

/// At each place of the call tree, merges the interpreted, JIT-compiled,
/// inlined and C1-compiled frames of one function (same function, line,
/// address and module) into one frame. Its kind is decided by the weight of
/// value column `column` that passed through each original frame, as
/// async-profiler's converter decides: inlined when inlined frames carry at
/// least a third of the merged frame's weight, else C1 when C1 carries at
/// least half, else interpreted when interpreted carries at least half,
/// else JIT. Other kinds (native, kernel, C++, ...) are left as they are.
/// Samples, labels, metadata and every value column are kept.
Profile merge_compilation_kinds(const Profile& profile, std::size_t column);

}  // namespace fg
