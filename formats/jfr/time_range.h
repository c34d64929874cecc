// --time-from / --time-to, as async-profiler's converter reads --from/--to:
// milliseconds (since the epoch when at least 1500000000000, else from the
// start of the recording, or from its end when negative), or a clock time
// HH:MM[:SS[.mmm]] on the recording's first day, or a date and time
// YYYY-MM-DDTHH:MM[:SS[.mmm]], both in the local time zone.
#pragma once

#include <cstdint>
#include <string>

namespace fg::formats::jfr {

/// Nanoseconds since the epoch that `spec` names, given the recording's
/// start and end (ns since the epoch). Throws UsageError naming `option`.
std::int64_t parse_time_bound(const std::string& option, const std::string& spec, std::int64_t start_ns,
                              std::int64_t end_ns);

}  // namespace fg::formats::jfr
