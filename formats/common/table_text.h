// Names in the cells of tables that fg writes for other programs: the one
// escaping path for CSV and the one for Markdown (top tables, fg-diff
// reports).
#pragma once

#include <string>
#include <string_view>

namespace fg::formats {

/// A CSV field: quoted (with inner quotes doubled) when it holds a comma, a
/// quote or a line break, as RFC 4180 wants.
std::string csv_field(const std::string& s);

/// A CSV field holding text from the profile (a name, a unit): csv_field(),
/// with a quote put before a leading =, +, -, @, tab or carriage return,
/// as OWASP recommends against formula injection, so that a spreadsheet
/// shows the text instead of evaluating it. Numbers go through csv_field().
std::string csv_text_field(const std::string& s);

/// Text from the profile in a plain-text table or report line: control
/// characters (line breaks, tabs, escape sequences, NUL, DEL) written as
/// \n, \r, \t or \xHH, so that a name cannot start a row of its own or
/// drive a terminal. Other bytes, backslashes included, are kept.
std::string text_cell(std::string_view s);

/// A Markdown table cell: pipes, backslashes and markup characters escaped,
/// angle brackets as entities, line breaks as spaces, so that a name can
/// neither break the table nor become markup.
std::string markdown_cell(const std::string& s);

}  // namespace fg::formats
