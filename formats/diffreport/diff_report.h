// fg-diff's report: the totals before and after, then the functions that
// changed most, as text, Markdown, CSV or JSON. Deterministic: the same diff gives
// the same bytes.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>

#include "fg/diff.h"

namespace fg::formats::diffreport {

struct ReportOptions {
  std::string format = "text";      ///< text | markdown | csv | json
  std::size_t top = 10;             ///< rows; 0: every function that changed
  bool by_self = false;             ///< rank by the change of self value instead of share of the total
  double min_delta = 0;             ///< leave out changes under this many points of share (and self %)
  std::string base_name, new_name;  ///< the inputs, as given
  std::string names;  ///< how names were matched ("normalised across builds (...)"), for the header
};

/// Throws the UsageError write_report() would for `o` (an unknown format),
/// before anything is read.
void check_options(const ReportOptions& o);
/// Writes the report. Throws UsageError for an unknown format.
void write_report(const Diff& diff, const ReportOptions& options, std::ostream& out);

}  // namespace fg::formats::diffreport
