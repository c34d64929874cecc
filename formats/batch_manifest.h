// fg-report's manifests (--manifest FILE): the inputs of a batch with their
// names, groups, labels and baselines. Two forms, told apart by the first
// character that is not white space ('[': JSON):
//  - TSV: a header line naming the columns (tab-separated); `path` is
//    required, `name`, `group` and `baseline` are optional, and every other
//    column is a label (host, service, version, ...). Empty lines and lines
//    starting with '#' are skipped.
//  - JSON: an array of objects with the same keys as strings; labels are
//    the other string keys, or the members of a "labels" object.
// Relative paths (path, baseline) resolve against the manifest's folder.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace fg::formats {

/// A label of a profile: key and value, as the manifest gives them.
using ReportLabel = std::pair<std::string, std::string>;

/// One input of a manifest.
struct ManifestEntry {
  std::string path;                 ///< resolved against the manifest's folder
  std::string name;                 ///< "" when the manifest gives none (then report_name())
  std::string group;                ///< "" for none
  std::string baseline;             ///< resolved; "" for none (then pairing by name)
  std::vector<ReportLabel> labels;  ///< in the manifest's column (or key) order
};

/// Reads the manifest `file` (TSV or JSON, see above; gzip inflated).
/// Throws ParseError `file:line: message` for a manifest it cannot use
/// (no path column, a row without a path, a value that is not a string,
/// malformed JSON), Error when the file cannot be read.
std::vector<ManifestEntry> read_manifest(const std::string& file);

/// Parses manifest text read from `file` (paths resolve against its
/// folder); as read_manifest().
std::vector<ManifestEntry> parse_manifest(const std::string& file, std::string_view text);

}  // namespace fg::formats
