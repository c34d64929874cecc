// fg-diff's regression gate: conditions on a diff that fail a CI run.
//
//   total>+5%            the new total grew by more than 5% of the base's
//                        (raw totals: normalisation would hide it)
//   total<-10%           ... or shrank by more than 10%
//   function:REGEX>+2%   a function matching REGEX (RE2's syntax, fg/pattern.h,
//                        searched in its name) gained more than 2 points of
//                        share of the total (cum share, after normalisation)
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fg/diff.h"
#include "fg/pattern.h"

namespace fg {

struct GateCondition {
  std::string text;              ///< as written, for messages
  bool total = true;             ///< total, or a function pattern
  std::string pattern;           ///< the REGEX of function:REGEX
  std::optional<Pattern> regex;  ///< `pattern` compiled, for a function condition
  bool above = true;             ///< '>' (trips above the threshold) or '<'
  double percent = 0;            ///< the threshold, signed
};

/// Parses one --fail-if condition. Throws UsageError naming the bad part.
GateCondition parse_gate_condition(std::string_view text);

/// The conditions that trip on `diff`, each as one line of explanation.
/// Changes smaller than `min_delta` (percent, or points of share) never trip.
/// Throws UsageError for a function condition whose pattern matches no
/// function of either profile: it could never trip.
std::vector<std::string> evaluate_gate(const Diff& diff, const std::vector<GateCondition>& conditions,
                                       double min_delta);

}  // namespace fg
