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
#include "fg/profile.h"
#include "formats/options.h"

namespace fg::cli {

namespace po = boost::program_options;

/// Exit statuses shared by every tool.
inline constexpr int kExitOk = 0;
inline constexpr int kExitBadData = 1;
inline constexpr int kExitUsage = 2;

struct CommonOptions {
  std::vector<std::string> inputs;   ///< files, "-" for standard input
  std::string output = "-";
  std::optional<std::string> from, to, value;
  bool strict = false;
  bool quiet = false;
  std::uint64_t max_inflated = 0;    ///< 0: the default limit
  bool info = false;                 ///< --info: summarise the input instead of converting
  formats::ReadOptions read;         ///< format-specific reading options (JFR events, naming)
};

/// --from, --strict, --max-inflated and the positional inputs.
po::options_description input_options(CommonOptions& o);
/// -o, --to, --value.
po::options_description output_options(CommonOptions& o);
/// flamegraph.pl's drawing options.
po::options_description flamegraph_options(formats::FlameGraphOptions& o);
/// pprof's report options: --granularity, --node-count, --node-fraction, --sort.
po::options_description report_options(formats::WriteOptions& o);

/// async-profiler converter's options for Java Flight Recorder input:
/// --cpu, --wall, --alloc, --live, --nativemem, --leak, --lock,
/// --nativelock, --total, --threads, --state, --time-from, --time-to,
/// --lines, --bci, --simple, --dot, --norm. Two event options together are a
/// UsageError (when notified).
po::options_description jfr_options(formats::JfrOptions& o);
/// --info.
po::options_description info_options(CommonOptions& o);
/// Prints the readers' notes as "<tool>: note: ..." unless quiet.
void enable_notes(const std::string& tool, CommonOptions& o);
/// The --info summary of a profile: format, sources, time span, the
/// metadata's properties and each value column with its total.
void print_info(const Profile& profile, std::ostream& out);

/// Prints warnings as "<tool>: warning: ..." unless quiet.
Diagnostics make_diagnostics(const std::string& tool, const CommonOptions& o);
/// Reads every input (detecting each format) and merges them.
Profile read_inputs(const CommonOptions& o, Diagnostics& diagnostics);
/// Writes `profile` in the chosen format to -o, atomically.
void write_output(const Profile& profile, const CommonOptions& o, const formats::WriteOptions& w,
                  Diagnostics& diagnostics);
/// Prints the end-of-run warning counts.
void finish_diagnostics(const std::string& tool, const CommonOptions& o, const Diagnostics& d);

/// Parses argv against `options` (plus -h/--help, --version and
/// --list-formats, which it handles) with `positional` collecting inputs.
/// Returns false when the run is already complete (help, version, list).
bool parse_command_line(const std::string& tool, int argc, char** argv,
                        const po::options_description& options, std::vector<std::string>& positional,
                        const std::string& usage);

/// Runs `body`, mapping exceptions to messages and exit statuses:
/// UsageError 2, ParseError/Error 1.
int run_tool(const std::string& tool, const std::function<int()>& body);

}  // namespace fg::cli
