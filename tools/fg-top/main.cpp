// fg-top: the top table of a profile (flat, flat%, sum%, cum, cum%, name),
// with the same numbers as go tool pprof -top, after any filters.
#include "common/cli.h"
#include "fg/error.h"
#include "formats/plan.h"

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
  fg::cli::CommonOptions common;
  common.product = fg::formats::Product::kTopTable;
  common.table_layout = "text";
  fg::formats::WriteOptions write;
  fg::FilterOptions filters;
  fg::cli::po::options_description out("Output options");
  out.add_options()("output,o", fg::cli::po::value<std::string>(&common.output)->value_name("FILE"),
                    "write to FILE (default: standard output); written whole or not at all")(
      "value",
      fg::cli::po::value<std::string>()
          ->value_name("NAME|INDEX|all")
          ->notifier([&common](const std::string& v) { common.value = v; }),
      "value column (default: the profile's default, else the last); all: every column side by side")(
      "format", fg::cli::po::value<std::string>(&common.table_layout)->value_name("text|csv|markdown|json"),
      "text (pprof's layout, the default), csv (header flat,flat%,sum%,cum,cum%,name; integer values), "
      "markdown or json");
  fg::cli::po::options_description options;
  options.add(fg::cli::reader_options(common))
      .add(out)
      .add(fg::cli::report_options(write))
      .add(fg::cli::filter_options(filters));
  return fg::cli::run_tool("fg-top", kUsage, argc, argv, common, options, [&](fg::cli::Run& run) {
    write.value = common.value;
    const fg::formats::Format& writer = fg::cli::choose_output(common, write);  // usage errors before reading
    if (common.value == "all" && common.table_layout != "text")
      throw fg::UsageError("--value all: only with --format text");
    common.read = fg::formats::plan(common.read, {.writer = &writer, .write = &write, .filters = &filters});
    const fg::Profile profile = fg::cli::read_filtered(common, filters, run.diagnostics);
    fg::cli::write_output(writer, profile, common, write, run.diagnostics);
    return fg::cli::kExitOk;
  });
}
