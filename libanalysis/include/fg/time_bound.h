// The times of --time-from and --time-to, in one syntax for every input:
//   10s, 250ms, 1.5m   from the start of the recording (units ns, us, ms, s, m, h)
//   -30s               from its end
//   15000              milliseconds from the start (-15000: from the end), as
//                      async-profiler's converter reads its --from/--to; from
//                      1500000000000 on, milliseconds since the epoch
//   14:05:30[.250]     a clock time on the recording's first day, local time
//   2026-11-21T14:05:30[.250][Z]   a date and time, local (UTC with Z)
#pragma once

#include <cstdint>
#include <string>

namespace fg {

/// Nanoseconds since the epoch that `spec` names, for a recording from
/// `start_ns` to `end_ns` (ns since the epoch); saturated, never overflowing.
/// Throws UsageError naming `option`.
std::int64_t parse_time_bound(const std::string& option, const std::string& spec, std::int64_t start_ns,
                              std::int64_t end_ns);

}  // namespace fg
