// The one path by which text reaches SVG (and any other XML fg writes).
#pragma once

#include <string>
#include <string_view>

namespace fg::formats::svg {

/// Appends `text` to `out` escaped for XML character data and attribute
/// values: & < > " ' become entities, control characters that XML 1.0
/// forbids and invalid UTF-8 become U+FFFD, so the document stays
/// well-formed whatever a profile holds.
void xml_escape(std::string& out, std::string_view text);
std::string xml_escaped(std::string_view text);

}  // namespace fg::formats::svg
