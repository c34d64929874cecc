// Names in the cells of tables that fg writes for other programs: the one
// escaping path for CSV and the one for Markdown (top tables, fg-diff
// reports).
#pragma once

#include <string>

namespace fg::formats {

/// A CSV field: quoted (with inner quotes doubled) when it holds a comma, a
/// quote or a line break, as RFC 4180 wants.
std::string csv_field(const std::string& s);

/// A Markdown table cell: pipes, backslashes and markup characters escaped,
/// angle brackets as entities, line breaks as spaces, so that a name can
/// neither break the table nor become markup.
std::string markdown_cell(const std::string& s);

}  // namespace fg::formats
