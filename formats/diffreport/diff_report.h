// fg-diff's report: the totals before and after, then the functions that
// changed most, as text, Markdown, CSV or JSON. Deterministic: the same diff gives
// the same bytes.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>

#include "fg/diff.h"
#include "formats/options.h"

namespace fg::formats::diffreport {

/// Throws the UsageError write_report() would for `o` (an unknown format),
/// before anything is read.
void check_options(const ReportOptions& o);
/// Writes the report. Throws UsageError for an unknown format.
void write_report(const Diff& diff, const ReportOptions& options, std::ostream& out);

}  // namespace fg::formats::diffreport
