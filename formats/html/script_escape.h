// The one path by which text from a profile reaches an HTML page: as a
// JSON string literal inside a <script> element, which the page's script
// reads with JSON.parse and shows with textContent (never as markup).
#pragma once

#include <string>
#include <string_view>

namespace fg::formats::html {

/// Appends `text` to `out` as a double-quoted JSON string that is also safe
/// inside an HTML <script> element: " and \ are escaped, control
/// characters become \u00XX, < > & become \u003c \u003e \u0026 (so no
/// "</script>" or "<!--" can end or change the element), U+2028 and U+2029
/// become escapes, and invalid UTF-8 becomes U+FFFD.
void append_script_string(std::string& out, std::string_view text);

}  // namespace fg::formats::html
