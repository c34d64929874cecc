// The one path by which text reaches the JSON fg writes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace fg::formats {

/// Appends `text` to `out` as a JSON string literal, quotes included, the
/// way Go's encoding/json writes it (so fg's output matches DeepFlow's byte
/// for byte): `"` and `\` escaped, \n \r \t short, other control characters
/// as \u00XX, and the HTML-sensitive < > & and U+2028 U+2029 as \u escapes.
/// Other UTF-8 is kept. Each invalid UTF-8 sequence (and each byte of one
/// that is cut off) becomes U+FFFD and is counted in `replaced`.
void append_json_string(std::string& out, std::string_view text, std::uint64_t& replaced);

/// `text` with each invalid UTF-8 sequence replaced by U+FFFD (counted in
/// `replaced`): `text` itself when it is valid, else a copy in `scratch`.
/// What append_json_string() writes, before escaping; the writer hashes
/// names in this form, so a node id matches the name a reader decodes.
std::string_view as_valid_utf8(std::string_view text, std::string& scratch, std::uint64_t& replaced);

}  // namespace fg::formats
