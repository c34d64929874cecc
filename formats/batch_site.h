// The files of fg-report's site that describe the whole batch: summary.json
// (schema_version 1, documented in fg-report(1)), index.html and each
// profile's page (self-contained: inline style and script, no network),
// summary.md (for a CI comment) and junit.xml (a test case per input and
// per gate condition). Text from the profiles reaches HTML only as JSON
// data inside the page, through append_json_string(), and the page's
// script puts it in the document as text, never as markup.
#pragma once

#include <string>

#include "formats/batch_report.h"

namespace fg::formats {

/// Writes summary.json, index.html, summary.md, junit.xml and a page per
/// profile read (PAGE/index.html) into the folder `site`, whose profile
/// folders exist. Throws fg::Error when a file cannot be written.
void write_site(const BatchReportResult& result, const std::string& site);

/// Writes `text` to `file` (atomically, formats/output.h). Throws
/// fg::Error when it cannot.
void write_site_file(const std::string& file, const std::string& text);

}  // namespace fg::formats
