// Top tables, as `go tool pprof -top` prints them: one row per function
// (the call graph's nodes) with flat, flat%, sum%, cum, cum% and the name,
// sorted by flat (or cum), nodes under --node-fraction of the total dropped
// and counted, at most --node-count rows.
//
//   top      pprof's text layout; values scaled to one unit for the whole
//            table (s/ms/us/ns for times, B/kB/MB/GB for bytes)
//   top-csv  a header row "flat,flat%,sum%,cum,cum%,name" and integer
//            values in the column's own unit, names quoted as CSV wants
#pragma once

#include <ostream>

#include "fg/diagnostics.h"
#include "fg/profile.h"
#include "formats/options.h"

namespace fg::formats::top {

void write_text(const Profile& profile, const WriteOptions& options, std::ostream& out,
                Diagnostics& diagnostics);
void write_csv(const Profile& profile, const WriteOptions& options, std::ostream& out,
               Diagnostics& diagnostics);
/// The table as JSON: {"type","unit","total","dropped","rows":[{"name",
/// "flat","flat_pct","sum_pct","cum","cum_pct","inline"}]}, integer values
/// in the column's unit.
void write_json(const Profile& profile, const WriteOptions& options, std::ostream& out,
                Diagnostics& diagnostics);
/// The table as a Markdown table (values scaled as in the text layout).
void write_markdown(const Profile& profile, const WriteOptions& options, std::ostream& out,
                    Diagnostics& diagnostics);
/// Every value column side by side: flat and cum of each, one row per
/// function of the first column's table (in its order and with its limits).
void write_all_columns(const Profile& profile, const WriteOptions& options, std::ostream& out);

}  // namespace fg::formats::top
