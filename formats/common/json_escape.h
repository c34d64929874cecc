// The one path by which text reaches the JSON fg writes: DeepFlow's JSON,
// the top tables' and fg-diff's JSON, and the data of the HTML flame graph.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace fg::formats {

/// How append_json_string() escapes. Both write JSON that is also safe
/// inside an HTML <script> element: `"` and `\` escaped, < > & as \u003c
/// \u003e \u0026 (no "</script>" or "<!--" can end or change the element),
/// U+2028 and U+2029 as \u escapes, other UTF-8 kept.
enum class JsonEscaping {
  /// Go's encoding/json, byte for byte, so fg's JSON matches DeepFlow's:
  /// \n \r \t short, other control characters as \u00XX, DEL (0x7f) kept,
  /// and each invalid UTF-8 sequence written as U+FFFD (its UTF-8 bytes).
  kGo,
  /// For the HTML page's data, read by JSON.parse: every control character
  /// and DEL as \u00XX (\n as \u000a), and each invalid UTF-8 sequence, as
  /// well as U+FFFD itself, as \ufffd.
  kScript,
};

/// Appends `text` to `out` as a JSON string literal, quotes included,
/// escaped as `escaping` says. Each invalid UTF-8 sequence (and each byte of
/// one that is cut off) becomes U+FFFD and is counted in `replaced`.
void append_json_string(std::string& out, std::string_view text, JsonEscaping escaping,
                        std::uint64_t& replaced);

/// `text` with each invalid UTF-8 sequence replaced by U+FFFD (counted in
/// `replaced`): `text` itself when it is valid, else a copy in `scratch`.
/// What append_json_string() writes with JsonEscaping::kGo, before
/// escaping; the DeepFlow writer hashes names in this form, so a node id
/// matches the name a reader decodes.
std::string_view as_valid_utf8(std::string_view text, std::string& scratch, std::uint64_t& replaced);

}  // namespace fg::formats
