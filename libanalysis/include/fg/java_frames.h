// async-profiler's view of Java frames: how one method appears in a flame
// graph whatever tier ran it. A JVM runs a method interpreted, C1- or
// C2-compiled, or inlined into its caller; profilers record which, and
// async-profiler's converter folds these into one frame per place in the
// call tree, coloured by the tier that carried most of its weight.
#pragma once

#include <cstddef>
#include <cstdint>

#include "fg/profile.h"

namespace fg {

/// Interpreted, JIT-compiled, inlined or C1-compiled: the tiers a JVM runs
/// one method in, which async-profiler shows as one frame per place.
bool is_java_tier(FrameKind k);

/// The weight that passed through one place of the call tree, in all and
/// by the tier of the frame it passed through, and the kind that place's
/// merged frame takes (see merge_compilation_kinds).
struct TierWeights {
  std::int64_t total = 0, inlined = 0, c1 = 0, interpreted = 0;
  void add(FrameKind tier, std::int64_t weight) {
    total += weight;
    if (tier == FrameKind::kInlined)
      inlined += weight;
    else if (tier == FrameKind::kC1Compiled)
      c1 += weight;
    else if (tier == FrameKind::kInterpreted)
      interpreted += weight;
  }
  /// `original` itself when it is not a Java tier.
  FrameKind decide(FrameKind original) const {
    if (!is_java_tier(original)) return original;
    using Wide = __int128;  // three times a weight can pass 2^63
    if (Wide{inlined} * 3 >= total) return FrameKind::kInlined;
    if (Wide{c1} * 2 >= total) return FrameKind::kC1Compiled;
    if (Wide{interpreted} * 2 >= total) return FrameKind::kInterpreted;
    return FrameKind::kJit;
  }
};

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
