// What every fg tool shares: the option groups (inputs, output, flame graph
// drawing), reading and merging the inputs, writing the output atomically,
// and run_tool(), the one place that catches errors, prints
// "fg-x: error: ..." and chooses the exit status.
#pragma once

#include <boost/program_options.hpp>
#include <cstdint>
#include <functional>
#include <optional>
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
  formats::ReadOptions read;         ///< format-specific reader options
};

/// --from, --strict, --max-inflated and the positional inputs.
po::options_description input_options(CommonOptions& o);
/// -o, --to, --value.
po::options_description output_options(CommonOptions& o);
/// flamegraph.pl's drawing options.
po::options_description flamegraph_options(formats::FlameGraphOptions& o);
/// pprof's report options: --granularity, --node-count, --node-fraction, --sort.
po::options_description report_options(formats::WriteOptions& o);

/// DeepFlow / node-parent JSON: --deepflow-event, --thread-as, --lenient
/// (reading) and --root-name, --json-envelope (writing).
po::options_description json_options(formats::ReadOptions& r, formats::WriteOptions& w);

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
