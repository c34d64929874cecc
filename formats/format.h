// A format as the registry lists it: a name, extensions, a sniff, a reader
// and a writer (either may be absent), and what the writer needs from
// reading. Format folders include this header (for Sniff) and never
// registry.h, which holds the table of every format.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "fg/diagnostics.h"
#include "fg/diff.h"
#include "fg/profile.h"
#include "formats/input.h"
#include "formats/options.h"
#include "formats/writer_needs.h"

namespace fg::formats {

/// What a format's sniff says of the first bytes of an input: not mine,
/// maybe mine (text that could be), certainly mine (a magic number).
enum class Sniff { kNo, kMaybe, kYes };

/// One row of the registry: a format, its reader and writer, and what the
/// writer needs from reading.
struct Format {
  std::string_view name;
  std::vector<std::string_view> extensions = {};  ///< with the dot: ".folded"
  std::string_view summary;
  /// Judges the first bytes of an input (inflated): 4096, or more when
  /// they are text within its first line, to take that line whole (up to
  /// 64 MiB).
  Sniff (*sniff)(std::string_view head, std::string_view filename) = nullptr;
  Profile (*read)(Input& input, const ReadOptions& options, Diagnostics& diagnostics) = nullptr;
  void (*write)(const Profile& profile, const WriteOptions& options, std::ostream& out,
                Diagnostics& diagnostics) = nullptr;
  /// Writes a comparison instead of one profile (needs.both_sides: the
  /// diff report). Throws UsageError for options it refuses.
  void (*write_diff)(const Diff& diff, const WriteOptions& options, std::ostream& out,
                     Diagnostics& diagnostics) = nullptr;
  /// Throws the UsageError the writer would throw for these options, before
  /// anything is read (nullptr: the writer accepts any).
  void (*check)(const WriteOptions& options) = nullptr;
  bool binary = false;     ///< output is binary (never written to a terminal)
  WriterNeeds needs = {};  ///< what the writer needs from reading (plan())
  /// Listed by --list-formats and chosen by --to or the -o extension in
  /// every tool; false: a writer only the tool whose Product offers it
  /// chooses (a top table layout of fg-top, fg-diff's report).
  bool listed = true;
  /// The name fg-top --format gives this top table layout ("text", "csv",
  /// ...); empty: not a top table.
  std::string_view table_layout = {};
  /// The reader applies the time window, --threads frame and --norm as it
  /// reads (ReadOptions::jfr), so the filters leave them out afterwards
  /// (remaining_filters()).
  bool reader_applies_filters = false;
  /// A reader that reads one kind of event at a time (JFR): the kinds of
  /// the input a profile it read came from, the profile's own first (see
  /// jfr::event_kinds()); nullptr: every profile is its input's one kind.
  std::vector<std::string> (*event_kinds)(const Profile& profile) = nullptr;
  /// The kind of event_kinds() a profile it read is of (jfr::event_kind()).
  std::string (*event_kind)(const Profile& profile) = nullptr;
  /// Sets the options that read kind `kind` of event_kinds().
  void (*select_event_kind)(ReadOptions& options, std::string_view kind) = nullptr;
};

}  // namespace fg::formats
