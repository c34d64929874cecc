// The one table of every format fg knows, and format detection: `--from`,
// else the one format whose sniff says yes, else the file extension, else
// the one "maybe"; otherwise an error naming the candidates. No format is
// found by running every parser over the whole input.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "fg/diagnostics.h"
#include "fg/diff.h"
#include "fg/granularity.h"
#include "fg/profile.h"
#include "formats/format.h"
#include "formats/input.h"
#include "formats/options.h"

namespace fg::formats {

const std::vector<Format>& all_formats();
/// The format called `name` or one of its aliases (folded, flamegraph,
/// proto, ...; --list-formats lists them), or nullptr.
const Format* find_format(std::string_view name);

/// The reader for `input`. Throws UsageError for an unknown or write-only
/// --from (an unknown one with the nearest name, "did you mean"), Error
/// when no format or several fit.
const Format& detect_input_format(Input& input, const std::optional<std::string>& from);
/// Whether some reader's sniff recognises the first bytes of `input` as its
/// format (yes; a maybe, such as any JSON or any text with a number at the
/// end of a line, is no profile), judging by content alone: how fg-report
/// picks the profiles of a directory. Blank or empty input is no profile.
bool sniffs_as_profile(Input& input);
/// The kinds of event of the input `profile` was read from, its own first
/// (Format::event_kinds of its reader, by its metadata's source format);
/// empty when its reader reads every kind at once.
std::vector<std::string> event_kinds(const Profile& profile);
/// The kind of event_kinds() that `profile` was read as; "" when its reader
/// reads every kind at once. When it differs from event_kinds()' first
/// (JFR's cpu and wall samples, read together by default), read that kind
/// with with_event_kind() for the first kind's pages.
std::string event_kind(const Profile& profile);
/// `options` set to read kind `kind` of event_kinds() with the reader
/// `format`. Throws UsageError when that reader has no such kind.
ReadOptions with_event_kind(ReadOptions options, std::string_view format, std::string_view kind);
/// The writer: `to`, else from the extension of `output_path`, else
/// `fallback` (standard output, a device such as /dev/null, or a name
/// without an extension). Throws UsageError for an unknown or read-only
/// `to`, and for an extension that no writer has (out.pdf): writing svg to
/// it would surprise.
const Format& choose_output_format(const std::optional<std::string>& to, const std::string& output_path,
                                   std::string_view fallback = "svg");

/// What a tool asks for when it chooses its writer.
struct WriterChoice {
  Product product = Product::kConvert;
  std::optional<std::string> to;  ///< --to
  std::string output_path;        ///< -o ("-": standard output)
  std::string table_layout;       ///< Product::kTopTable: --format
};
/// The writer `choice` names among those its product offers: a top table
/// by layout, else as choose_output_format() with the product's default
/// writer as fallback. Throws UsageError as choose_output_format() does,
/// and for an unknown layout (naming the layouts).
const Format& choose_writer(const WriterChoice& choice);
/// The name of the writer a tool making `product` writes when the command
/// line names none (svg, collapsed for a pipeline, the text top table).
std::string_view default_writer(Product product);
/// The top table layouts fg-top --format offers, in the registry's order.
std::vector<std::string> table_layouts();

/// Warns, once, when `writer` shows the stacks of a profile that was
/// unfolded from a call graph (jeprof-dot), or a call graph computed from
/// them: they are estimates. A call graph view at function granularity of
/// a profile that kept the graph as read (Profile::recorded_graph) is exact.
void warn_if_stacks_estimated(const Profile& profile, const Format& writer, Granularity granularity,
                              Diagnostics& diagnostics);

/// The table that --list-formats prints (the listed rows).
void print_formats(std::ostream& out);

}  // namespace fg::formats
