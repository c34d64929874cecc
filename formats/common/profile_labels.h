// The lines that head pprof's reports (the top table's header, the DOT
// legend): the binary, the comments, the value type, the time and the
// duration of the recording.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "fg/profile.h"

namespace fg::formats {

/// pprof's ProfileLabels for value column `column`: "File: <binary>",
/// "Build ID: ...", comments not starting with '#', "Type: <type>", "Time:
/// <start, local time>", "Duration: <d>, Total samples = <total> (<share of
/// the duration>)". `format_value` writes a value of the column.
std::vector<std::string> profile_labels(const Profile& profile, std::size_t column, std::int64_t total,
                                        const std::function<std::string(std::int64_t)>& format_value);

/// A metadata property of the profile, "" when absent.
std::string property(const Profile& profile, std::string_view key);

/// The last component of a path.
std::string base_name(std::string_view path);

}  // namespace fg::formats
