// What every fg tool shares: the option groups (inputs, output, flame graph
// drawing), reading and merging the inputs, writing the output atomically,
// and run_tool(), the one place that catches errors, prints
// "fg-x: error: ..." and chooses the exit status.
#pragma once

#include <boost/program_options.hpp>
#include <charconv>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "fg/diagnostics.h"
#include "fg/diff.h"
#include "fg/error.h"
#include "fg/filter.h"
#include "fg/profile.h"
#include "fg/spelling.h"
#include "formats/options.h"
#include "formats/registry.h"

namespace fg::cli {

namespace po = boost::program_options;

/// Exit statuses shared by every tool.
inline constexpr int kExitOk = 0;
inline constexpr int kExitBadData = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitRegression = 3;  ///< fg-diff: a --fail-if condition tripped

/// One name an enum-valued option takes and the value it stands for. A
/// value may have several names ("function", "functions"); the first is
/// the one help and errors show.
template <typename E>
struct Named {
  const char* name;
  E value;
};

/// An option taking one of `choices` by name into `target` (when
/// notified). Its value name lists the choices ("frame|label|fold"); any
/// other name is the UsageError "--OPTION NAME: expected frame, label or
/// fold". `option` is the option's long name, as declared.
template <typename E>
po::typed_value<std::string>* enum_value(const std::string& option, E& target,
                                         std::vector<Named<E>> choices) {
  std::vector<std::string> shown;  // each value's first name, in order
  for (std::size_t i = 0; i < choices.size(); ++i) {
    bool first = true;
    for (std::size_t j = 0; j < i; ++j) first = first && !(choices[j].value == choices[i].value);
    if (first) shown.emplace_back(choices[i].name);
  }
  std::string value_name;
  for (const std::string& n : shown) value_name += (value_name.empty() ? "" : "|") + n;
  return po::value<std::string>()
      ->value_name(value_name)
      ->notifier([&target, option, choices = std::move(choices), shown](const std::string& v) {
        for (const Named<E>& c : choices)
          if (v == c.name) return void(target = c.value);
        throw UsageError("--" + option + " " + v + ": expected " + or_list(shown));
      });
}

/// The values a number option accepts: `min` to `max`, both included,
/// except `min` when `above_min`.
template <typename T>
struct Range {
  T min;
  T max;
  bool above_min = false;
};

/// Throws the UsageError "--OPTION TEXT: expected <what>".
[[noreturn]] void throw_bad_number(const std::string& option, const std::string& text,
                                   const std::string& what);

/// Parses `text`, the value of --`option`, as a T within `range`: a whole
/// number when T is integral, else a finite decimal number. Anything else
/// is a UsageError naming the range: "-1" for an unsigned T (no wrap
/// around), "nan", "inf", "1e308" beyond `max`, trailing text.
template <typename T>
T parse_number(const std::string& option, const std::string& text, Range<T> range) {
  std::string_view digits = text;
  if (digits.size() > 1 && digits[0] == '+' && digits[1] != '-') digits.remove_prefix(1);
  T value{};
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  // NaN fails every comparison, so it is out of every range.
  const bool in_range = value <= range.max && (range.above_min ? value > range.min : value >= range.min);
  if (error == std::errc() && end == digits.data() + digits.size() && in_range) return value;
  std::ostringstream what;
  what << (std::is_integral_v<T> ? "a whole number " : "a number ");
  if (range.max == std::numeric_limits<T>::max())
    what << (range.above_min ? "above " : "of at least ") << +range.min;
  else
    what << (range.above_min ? "above " : "from ") << +range.min << (range.above_min ? " up to " : " to ")
         << +range.max;
  throw_bad_number(option, text, what.str());
}

/// An option taking a number in `range` into `target` (when notified),
/// checked by parse_number(); `option` is its long name, as declared. Every
/// number option of the tools is declared with it, so none wraps around or
/// takes nan or inf.
template <typename T>
po::typed_value<std::string>* number_value(const std::string& option, T& target, Range<T> range) {
  return po::value<std::string>()->notifier(
      [&target, option, range](const std::string& v) { target = parse_number(option, v, range); });
}

struct CommonOptions {
  std::vector<std::string> inputs;  ///< files, "-" for standard input
  std::string output = "-";
  std::optional<std::string> from, to, value;
  bool strict = false;
  bool quiet = false;
  std::uint64_t max_inflated = 0;         ///< 0: the default limit
  std::optional<std::string> max_memory;  ///< --max-memory as given (else FG_MAX_MEMORY, else the default)
  std::uint64_t memory_limit = 0;         ///< in force (run_tool() sets it); 0: none
  bool info = false;                      ///< --info: summarise the input instead of converting
  formats::ReadOptions read;              ///< format-specific reading options (symbolization, JFR, DeepFlow)
  /// What the tool makes: the writers it offers and the one it writes
  /// when neither --to nor the -o extension names one.
  formats::Product product = formats::Product::kConvert;
  std::string table_layout;  ///< Product::kTopTable: the layout (--format)
};

/// --from, --strict, --max-inflated, --max-memory (applied by run_tool(),
/// with FG_MAX_MEMORY), -q, --jobs (applied by
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

/// Reads one input (file or "-"), detecting its format.
Profile read_input(const std::string& path, const CommonOptions& o, Diagnostics& diagnostics);
/// Reads every input (detecting each format) and merges them.
Profile read_inputs(const CommonOptions& o, Diagnostics& diagnostics);
/// The filters a reader has not applied already (formats::remaining_filters()),
/// on `profile`; a filter expression that matches nothing is a warning (see
/// apply_filters()).
Profile apply_remaining_filters(Profile profile, const FilterOptions& filters, Diagnostics& diagnostics);
/// read_inputs(), then the filters (when any are given). `o.read` is
/// expected to come from formats::plan().
Profile read_filtered(const CommonOptions& o, const FilterOptions& filters, Diagnostics& diagnostics);
/// The output format among those o.product offers: --to, else the -o
/// extension, else the product's default (a top table: o.table_layout).
/// Throws UsageError for an unknown format or extension, for writing
/// options the writer refuses, for binary output to a terminal and for an
/// -o that cannot be created (Output::check_path()); tools
/// call it before reading anything, so a usage error comes at once.
const formats::Format& choose_output(const CommonOptions& o, const formats::WriteOptions& w);
/// Writes `profile` with `writer` (from choose_output()) to -o, atomically.
void write_output(const formats::Format& writer, const Profile& profile, const CommonOptions& o,
                  const formats::WriteOptions& w, Diagnostics& diagnostics);
/// Writes a comparison with `writer`: the writer's own view of both sides
/// (Format::write_diff), else the diff's profile as any writer draws it.
void write_diff_output(const formats::Format& writer, const Diff& diff, const CommonOptions& o,
                       const formats::WriteOptions& w, Diagnostics& diagnostics);

/// Parses argv against `options` (plus -h/--help, --version and
/// --list-formats, which it handles) with `positional` collecting inputs.
/// Returns false when the run is already complete (help, version, list).
/// With no input and standard input a terminal, prints `usage` on stderr
/// and throws UsageError.
bool parse_command_line(const std::string& tool, int argc, char** argv,
                        const po::options_description& options, std::vector<std::string>& positional,
                        const std::string& usage);

/// What run_tool() hands a tool's body.
struct Run {
  Diagnostics& diagnostics;  ///< the run's warnings (--strict, -q applied)
  /// Lines printed on stderr as "<tool>: <line>" after the end-of-run
  /// warning counts (fg-diff's "regression: ...").
  std::vector<std::string> closing;
};

/// The one shape of every tool's main(): parses argv against `options`
/// into `common` (parse_command_line(); a run that printed help, the
/// version or the formats ends there, status 0), turns on the readers'
/// notes, runs `body` with the run's diagnostics, then prints the
/// end-of-run warning counts and the body's closing lines. Every error is
/// caught here alone, printed as "<tool>: error: ..." and mapped to the
/// exit status: UsageError and option errors 2 (with a pointer to
/// --help), Error/ParseError and anything else 1. Returns `body`'s status
/// otherwise. Output is committed by the body (write_output()); a run that
/// fails leaves none.
int run_tool(const std::string& tool, const std::string& usage, int argc, char** argv, CommonOptions& common,
             const po::options_description& options, const std::function<int(Run&)>& body);

}  // namespace fg::cli
