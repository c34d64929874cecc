// What every fg tool shares: the option groups (inputs, output, flame graph
// drawing), reading and merging the inputs, writing the output atomically,
// and run_tool(), the one place that catches errors, prints
// "fg-x: error: ..." and chooses the exit status.
#pragma once

#include <boost/program_options.hpp>
#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "fg/diagnostics.h"
#include "fg/filter.h"
#include "fg/profile.h"
#include "formats/options.h"
#include "formats/registry.h"

namespace fg::cli {

namespace po = boost::program_options;

/// Exit statuses shared by every tool.
inline constexpr int kExitOk = 0;
inline constexpr int kExitBadData = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitRegression = 3;  ///< fg-diff: a --fail-if condition tripped

struct CommonOptions {
  std::vector<std::string> inputs;  ///< files, "-" for standard input
  std::string output = "-";
  std::optional<std::string> from, to, value;
  bool strict = false;
  bool quiet = false;
  std::uint64_t max_inflated = 0;  ///< 0: the default limit
  bool info = false;               ///< --info: summarise the input instead of converting
  formats::ReadOptions read;       ///< format-specific reading options (symbolization, JFR, DeepFlow)
  std::string default_to = "svg";  ///< the output format when neither --to nor the -o extension names one
};

/// --from, --strict, --max-inflated, -q, --jobs (applied by
/// parse_command_line(), with FG_JOBS) and the positional inputs.
po::options_description input_options(CommonOptions& o);
/// -o, --to, --value.
po::options_description output_options(CommonOptions& o);
/// flamegraph.pl's drawing options.
po::options_description flamegraph_options(formats::FlameGraphOptions& o);
/// Offline symbolization (jemalloc heap dumps): --symbol-path, --sysroot,
/// --keep-allocator-frames.
po::options_description symbolization_options(formats::SymbolizeOptions& o);
/// pprof's report options: --granularity, --node-count, --node-fraction, --sort.
po::options_description report_options(formats::WriteOptions& o);

/// The filter language (fg/filter.h): --focus, --ignore, --hide, --show,
/// --norm, --show-from, --prune-from, --tagfocus, --tagignore, --include,
/// --exclude, --skip, --threads, --thread, --time-from, --time-to,
/// --collapse-recursion, --rename, --max-depth, --invert, --min-percent,
/// --relative.
po::options_description filter_options(FilterOptions& o);
/// async-profiler converter's options for Java Flight Recorder input:
/// --cpu, --wall, --alloc, --live, --nativemem, --leak, --lock,
/// --nativelock, --total, --state, --lines, --bci, --simple, --dot (--norm
/// is a filter: fg/filter.h, for every format)
/// (its --threads and --from/--to are the filter options --threads frame and
/// --time-from/--time-to, which the JFR reader applies as it reads). Two
/// event options together are a UsageError (when notified).
po::options_description jfr_options(formats::JfrOptions& o);
/// --info.
po::options_description info_options(CommonOptions& o);
/// Prints the readers' notes as "<tool>: note: ..." unless quiet.
void enable_notes(const std::string& tool, CommonOptions& o);
/// The --info summary of a profile: format, sources, time span, the
/// metadata's properties and each value column with its total.
void print_info(const Profile& profile, std::ostream& out);
/// DeepFlow ProfileTracing JSON reading: --deepflow-event, --thread-as,
/// --lenient.
po::options_description deepflow_options(formats::ReadOptions& r);
/// Node/parent JSON writing: --root-name, --json-envelope.
po::options_description json_write_options(formats::WriteOptions& w);
/// Every option about reading inputs, the same in every tool: input_options,
/// symbolization_options, jfr_options and deepflow_options (each its own
/// group in --help). Writing options stay with the tools that write.
po::options_description reader_options(CommonOptions& o);

/// Prints warnings as "<tool>: warning: ..." unless quiet.
Diagnostics make_diagnostics(const std::string& tool, const CommonOptions& o);
/// Reads one input (file or "-"), detecting its format.
Profile read_input(const std::string& path, const CommonOptions& o, Diagnostics& diagnostics);
/// Reads every input (detecting each format) and merges them.
Profile read_inputs(const CommonOptions& o, Diagnostics& diagnostics);
/// Hands the filters that a reader applies while reading (JFR: the time
/// window and --threads frame) to the read options.
void pass_filters_to_readers(CommonOptions& o, const FilterOptions& filters);
/// Tells the readers how finely the output will show frames
/// (ReadOptions::frames) and whether it shows labels (ReadOptions::labels)
/// when nothing else looks at them first: no filters (which match files,
/// lines and labels), no --info.
void pass_output_to_readers(CommonOptions& o, const FilterOptions& filters, const formats::WriteOptions& w);
/// The filters a reader has not applied already, on `profile`; a filter
/// expression that matches nothing is a warning (see apply_filters()).
Profile apply_remaining_filters(Profile profile, FilterOptions filters, Diagnostics& diagnostics);
/// read_inputs(), then the filters (when any are given).
Profile read_filtered(const CommonOptions& o, const FilterOptions& filters, Diagnostics& diagnostics);
/// The output format: --to, else the -o extension, else o.default_to.
/// Throws UsageError for an unknown format or extension, for writing
/// options the writer refuses, for binary output to a terminal and for an
/// -o that cannot be created (Output::check_path()); tools
/// call it before reading anything, so a usage error comes at once.
const formats::Format& choose_output(const CommonOptions& o, const formats::WriteOptions& w);
/// Writes `profile` in the chosen format to -o, atomically.
void write_output(const Profile& profile, const CommonOptions& o, const formats::WriteOptions& w,
                  Diagnostics& diagnostics);
/// Prints the end-of-run warning counts.
void finish_diagnostics(const std::string& tool, const CommonOptions& o, const Diagnostics& d);

/// Parses argv against `options` (plus -h/--help, --version and
/// --list-formats, which it handles) with `positional` collecting inputs.
/// Returns false when the run is already complete (help, version, list).
/// With no input and standard input a terminal, prints `usage` on stderr
/// and throws UsageError.
bool parse_command_line(const std::string& tool, int argc, char** argv,
                        const po::options_description& options, std::vector<std::string>& positional,
                        const std::string& usage);

/// Runs `body`, mapping exceptions to messages and exit statuses:
/// UsageError 2, ParseError/Error 1.
int run_tool(const std::string& tool, const std::function<int()>& body);

}  // namespace fg::cli
