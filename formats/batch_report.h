// fg-report's library: a batch of profiles (any formats, mixed) made into
// one static site. Each input is read once; its pages come from the
// registry's writers (the HTML flame graph, the top table, the call graph
// SVG, per value column); with a baseline, the differential flame graph,
// the delta table and the regression gate (fg/regression_gate.h). The
// facts of every profile go to summary.json, summary.md, junit.xml and an
// index.html that sorts and filters them (formats/batch_site.h). The site
// is built in a temporary folder beside the target and renamed into place.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <istream>
#include <string>
#include <vector>

#include "fg/diagnostics.h"
#include "fg/profile.h"
#include "fg/regression_gate.h"
#include "formats/batch_manifest.h"
#include "formats/options.h"

namespace fg::formats {

/// One input of a report: where it is and the name it goes by.
struct ReportInput {
  std::string path;  ///< as given, or as found in a folder
  /// report_name() of the path; for a file found in a folder, its path
  /// relative to that folder, the file's extensions cut off ("host1/cpu"
  /// for host1/cpu.pb.gz), so that mirrored folders pair by name.
  std::string name;
};

/// What fg-report's command line asks for.
struct BatchReportOptions {
  std::string output_dir;              ///< -o DIR
  WriteOptions write;                  ///< drawing and table options of every page
  std::vector<ReportInput> baselines;  ///< --baseline inputs (expanded); one: the baseline of all
  std::vector<GateCondition> gate;     ///< --fail-if, parsed
  double min_delta = 0;                ///< --min-delta: smaller changes never trip
  bool strict = false;                 ///< --strict: a warning fails its input
  /// --shard I/N: process only the inputs whose index (from 0, in input
  /// order) is I-1 modulo N, and write a part (formats/batch_part.h) that
  /// merge_batch_report() makes a site of. shards 0: the whole site.
  std::size_t shard = 0, shards = 0;
  /// The options that affect the pages, as text, with fg's version (the
  /// tool's command line less inputs, -o, --jobs and -q): with it, an
  /// unchanged profile's page is taken from the site being replaced
  /// (formats/batch_reuse.h). "": every page is drawn.
  std::string options_key;
  /// --fail-fast: stop at the first input (or baseline) that fails; no
  /// input is started after it, and no site (or part) is written.
  bool fail_fast = false;
  /// Called after each input is done, with the inputs done, the inputs
  /// this run processes and those that failed so far; from the worker
  /// threads, one call at a time. Empty: nothing is called.
  std::function<void(std::size_t done, std::size_t total, std::size_t failed)> progress;
  /// Reads one input (a path) with the run's reader options and filters;
  /// throws as the tools' readers throw. Called from the worker threads
  /// of fg/parallel.h, each time with its own Diagnostics.
  std::function<Profile(const std::string& path, Diagnostics& diagnostics)> read;
  /// Reads kind `kind` of the events of input `path` (formats/registry.h
  /// event_kinds(), with_event_kind(); `format`: the reader's name), as
  /// `read` reads the input otherwise. Empty: each input's one reading is
  /// its only kind (no page per kind).
  std::function<Profile(const std::string& path, const std::string& format, const std::string& kind,
                        Diagnostics& diagnostics)>
      read_kind;
  /// --manifest: the entry of each input (same index as the inputs);
  /// shorter than the inputs, or an entry with an empty path: none. An
  /// entry's name replaces report_name(), its baseline overrides pairing
  /// by name, and its group and labels go to the profile's facts.
  std::vector<ManifestEntry> described;
};

/// One value column of a profile, as the site shows it.
struct ColumnFacts {
  std::string type, unit;
  std::string total;  ///< the column's total, as decimal text in its unit
};

/// A function of the top by self value (of the default column).
struct TopFunction {
  std::string name;
  std::string self;  ///< decimal text in the column's unit
};

/// One --fail-if condition on one comparison.
struct GateVerdict {
  std::string condition;  ///< as written
  std::string tripped;    ///< why it tripped; "" when it held
};

/// The baseline comparison of one profile.
struct ComparisonFacts {
  std::string baseline;  ///< the baseline input's path
  /// The baseline's `file:position: message`, or why the two could not be
  /// compared; "" when they were.
  std::string error;
  std::int64_t base_total = 0, new_total = 0;  ///< raw totals of the compared columns
  std::string unit;                            ///< theirs
  std::vector<GateVerdict> gate;               ///< one per --fail-if, in order
};

/// What the site says of one input.
struct ProfileFacts {
  std::string path;                 ///< as given, or as found in a directory
  std::string name;                 ///< the manifest's name, else ReportInput::name
  std::string group;                ///< the manifest's group; "" for none
  std::vector<ReportLabel> labels;  ///< the manifest's labels, in its order
  std::string page;                 ///< its folder in the site ("p/NAME"), unique
  std::string format;               ///< the registry name of its reader; "" when it failed
  std::string error;                ///< `file:position: message`; "" when it was read
  std::vector<std::string> warnings;
  std::vector<ColumnFacts> columns;
  std::size_t default_column = 0;
  std::uint64_t samples = 0;     ///< sample records (equal stacks and labels merged)
  std::int64_t duration_ns = 0;  ///< the recording's duration; 0 when unknown
  std::vector<TopFunction> top;
  std::vector<std::string> files;  ///< the page's files, in the page folder
  bool compared = false;           ///< a baseline applies (see comparison)
  ComparisonFacts comparison;
  /// The kind of event these facts describe, for a reader that reads one
  /// at a time (a JFR recording's "samples", "alloc", "lock", ...); "" for
  /// the others.
  std::string kind;
  /// The recording's other kinds of event, each described as a profile
  /// (its own columns, top, comparison with the same kind of the
  /// baseline), whose files are in a folder of the page named after the
  /// kind ("alloc/flame-0.html"). Empty for all but the first reading of a
  /// recording with several kinds.
  std::vector<ProfileFacts> kinds;
};

/// The inputs of a report: each file as given; each directory searched
/// recursively, keeping the regular files whose content some reader
/// recognises (sniffs_as_profile()), in sorted order, and those that cannot
/// be opened or inflated (their error is listed); "-" a list of paths, one
/// a line, read from `paths_in`. A path that does not exist is kept:
/// reading it fails, and the report lists that input's error. `skipped`,
/// when given, is increased by the number of files of directories left out.
std::vector<ReportInput> expand_report_inputs(const std::vector<std::string>& args, std::istream& paths_in,
                                              std::size_t* skipped = nullptr);

/// The name a profile goes by in the report: the file name without the
/// extensions of profile files (a format's, ".gz", ".txt") at its end
/// ("cpu" for "/x/cpu.pb.gz", "svc.v2" for "svc.v2.folded"); a leading
/// dot starts no extension (".hidden" for ".hidden.folded").
std::string report_name(const std::string& path);

/// A group of profiles (the manifest's `group`): the merge of its members
/// that were read and whose default column is the quantity of the first
/// of them (fg/merge.h), described as a profile is (name: the group's,
/// page "g/NAME", path: what it merges).
struct GroupFacts {
  ProfileFacts merged;
  std::vector<std::string> members;  ///< the names of its profiles, in input order
};

/// The outcome of a report.
struct BatchReportResult {
  std::vector<ProfileFacts> profiles;  ///< in input order
  std::vector<GroupFacts> groups;      ///< in order of first appearance among the inputs
  std::size_t failed = 0;              ///< inputs (or baselines) that could not be read
  std::size_t tripped = 0;             ///< profiles whose gate tripped
  std::size_t reused = 0;              ///< pages taken from the site replaced
  /// --fail-fast stopped the run at a failure: profiles holds only the
  /// inputs done, and no site was written.
  bool stopped = false;
};

/// The two parts of a batch's inputs `mine` (indices into `sizes`, the
/// inputs' sizes in bytes) that write_batch_report() runs beside each
/// other (--jobs 2) or one after the other, each with its own group
/// merges: parts of about equal bytes (largest first, each to the lighter
/// part; of two as heavy, to the one of fewer inputs, else part 0), each
/// in the order it runs: part 0 largest
/// first, part 1 smallest first, so that the largest inputs of the two do
/// not run at once. It depends on the sizes alone, never on --jobs.
std::array<std::vector<std::size_t>, 2> report_parts(const std::vector<std::size_t>& mine,
                                                     const std::vector<std::uintmax_t>& sizes);

/// Reads every input, writes the site to options.output_dir (replacing one
/// there, whole), and returns what it found. One input's failure is listed
/// in the site and does not stop the others. Throws UsageError when no
/// baseline pairs with the inputs as --baseline needs; Error when the site
/// cannot be written (then nothing is left of it). With fail_fast, a
/// failure stops the run before the site is written (see stopped).
/// Profiles are processed
/// through fg/parallel.h: the site is the same bytes at any job count.
BatchReportResult write_batch_report(const std::vector<ReportInput>& inputs,
                                     const BatchReportOptions& options);

/// fg-report merge: the site that one run over every input would have
/// written, byte for byte, from the parts of its shards (`parts`, each a
/// folder written with --shard or merge_batch_parts(), all of one batch,
/// in any order), into `output_dir`.
/// Throws Error naming a part that is not one, or a shard that is missing
/// or given twice.
/// The group pages are drawn from the parts' group merges (combined in
/// shard order) with `write`, which should be the shards' page options.
BatchReportResult merge_batch_report(const std::vector<std::string>& parts, const std::string& output_dir,
                                     const WriteOptions& write = {});

/// fg-report merge --part: one part covering the shards of `parts` (each
/// a folder written with --shard or by this function, all of one batch,
/// in any order, covering adjacent shards, none twice), written to
/// `output_dir`: their page folders, their facts, and each group's merges
/// combined in shard order. Merging such parts level by level gives the
/// site merge_batch_report() makes of all the shards, byte for byte.
/// Throws Error naming a part that is not one, of another batch, or
/// overlapping or not adjacent to another. The result holds the profiles
/// of the part (no groups), for the exit status.
BatchReportResult merge_batch_parts(const std::vector<std::string>& parts, const std::string& output_dir);

}  // namespace fg::formats
