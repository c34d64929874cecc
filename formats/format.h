// A format as the registry lists it: a name, extensions, a sniff, a reader
// and a writer (either may be absent), and what the writer needs from
// reading. Format folders include this header (for Sniff) and never
// registry.h, which holds the table of every format.
#pragma once

#include <ostream>
#include <string_view>
#include <vector>

#include "fg/diagnostics.h"
#include "fg/profile.h"
#include "formats/input.h"
#include "formats/options.h"

namespace fg::formats {

/// What a format's sniff says of the first bytes of an input: not mine,
/// maybe mine (text that could be), certainly mine (a magic number).
enum class Sniff { kNo, kMaybe, kYes };

/// One row of the registry: a format, its reader and writer, and what the
/// writer needs from reading.
struct Format {
  std::string_view name;
  std::vector<std::string_view> extensions;  ///< with the dot: ".folded"
  std::string_view summary;
  /// Judges the first bytes of an input (inflated): 4096, or more when
  /// they are text within its first line, to take that line whole (up to
  /// 64 MiB).
  Sniff (*sniff)(std::string_view head, std::string_view filename) = nullptr;
  Profile (*read)(Input& input, const ReadOptions& options, Diagnostics& diagnostics) = nullptr;
  void (*write)(const Profile& profile, const WriteOptions& options, std::ostream& out,
                Diagnostics& diagnostics) = nullptr;
  bool binary = false;  ///< output is binary (never written to a terminal)
  /// The writer shows per-function values and caller -> callee weights only
  /// (a call graph view), which a profile unfolded from a call graph keeps;
  /// other writers show its stacks, which are estimates.
  bool graph_view = false;
  /// The writer shows frames at WriteOptions::granularity and no finer
  /// (it draws at_granularity() of the profile): what it is given may hold
  /// no finer frames to begin with (ReadOptions::frames).
  bool coarsens = false;
  /// The writer shows no labels (threads, thread states, pprof's labels):
  /// what it is given may hold none (ReadOptions::labels).
  bool drops_labels = false;
  /// Throws the UsageError the writer would throw for these options, before
  /// anything is read (nullptr: the writer accepts any).
  void (*check)(const WriteOptions& options) = nullptr;
};

}  // namespace fg::formats
