// fg-top: the top table of a profile (flat, flat%, sum%, cum, cum%, name),
// with the same numbers as go tool pprof -top, after any filters.
#include "common/cli.h"
#include "fg/error.h"
#include "formats/output.h"
#include "formats/top/top.h"

namespace {

const char* kUsage = R"(Usage: fg-top [options] [INPUT...] [-o OUTPUT]

Reads profiles (any format fg reads; several are merged), applies the filter
options, and prints the top table of functions as go tool pprof -top does:
flat (the samples whose leaf is the function), cum (the samples with it on
the stack), their shares, and the running sum of flat.

Examples:
  fg-top cpu.pb.gz
  fg-top --sort cum --node-count 20 --focus 'main\.' cpu.pb.gz
  fg-top --value alloc_space --format csv heap.pb.gz -o alloc.csv
  fg-top --value all heap.pb.gz
  fg-top --granularity line --format markdown app.jfr
)";

}  // namespace

int main(int argc, char** argv) {
  const std::string tool = "fg-top";
  return fg::cli::run_tool(tool, [&] {
    fg::cli::CommonOptions common;
    fg::formats::WriteOptions write;
    fg::FilterOptions filters;
    std::string format = "text";
    fg::cli::po::options_description out("Output options");
    out.add_options()("output,o", fg::cli::po::value<std::string>(&common.output)->value_name("FILE"),
                      "write to FILE (default: standard output); written whole or not at all")(
        "value",
        fg::cli::po::value<std::string>()
            ->value_name("NAME|INDEX|all")
            ->notifier([&common](const std::string& v) { common.value = v; }),
        "value column (default: the profile's default, else the last); all: every column side by side")(
        "format", fg::cli::po::value<std::string>(&format)->value_name("text|csv|markdown|json"),
        "text (pprof's layout, the default), csv (header flat,flat%,sum%,cum,cum%,name; integer values), "
        "markdown or json");
    fg::cli::po::options_description options;
    options.add(fg::cli::reader_options(common))
        .add(out)
        .add(fg::cli::report_options(write))
        .add(fg::cli::filter_options(filters));
    if (!fg::cli::parse_command_line(tool, argc, argv, options, common.inputs, kUsage)) return 0;
    if (format != "text" && format != "csv" && format != "markdown" && format != "json")
      throw fg::UsageError("--format " + format + ": expected text, csv, markdown or json");
    if (common.value == "all" && format != "text")
      throw fg::UsageError("--value all: only with --format text");
    fg::formats::Output::check_path(common.output);
    fg::cli::enable_notes(tool, common);
    fg::Diagnostics diagnostics = fg::cli::make_diagnostics(tool, common);
    const fg::Profile profile = fg::cli::read_filtered(common, filters, diagnostics);
    fg::formats::Output output(common.output, false);
    if (common.value == "all") {
      fg::formats::top::write_all_columns(profile, write, output.stream());
    } else {
      write.value = common.value;
      if (format == "text")
        fg::formats::top::write_text(profile, write, output.stream(), diagnostics);
      else if (format == "csv")
        fg::formats::top::write_csv(profile, write, output.stream(), diagnostics);
      else if (format == "json")
        fg::formats::top::write_json(profile, write, output.stream(), diagnostics);
      else
        fg::formats::top::write_markdown(profile, write, output.stream(), diagnostics);
    }
    output.commit();
    fg::cli::finish_diagnostics(tool, common, diagnostics);
    return 0;
  });
}
