// fg-filter: profiles in, the same profiles filtered out (folded stacks by
// default, for pipelines; any --to).
#include "common/cli.h"
#include "formats/plan.h"

namespace {

const char* kUsage = R"(Usage: fg-filter [options] [INPUT...] [-o OUTPUT]

Reads profiles (any format fg reads; several are merged), applies the filter
options in their documented order, and writes the result: folded stacks by
default, or what --to or the -o extension names.

Examples:
  fg-filter --focus 'main\.handle' --hide '^runtime\.' cpu.pb.gz | fg-convert -o cpu.svg
  fg-filter --exclude 'Thread\.sleep' --threads frame app.jfr -o app.folded
  fg-filter --time-from 10s --time-to 40s --to pprof rec.jfr -o window.pb.gz
  fg-filter --rename '\$\$Lambda\$[0-9]+/0x[0-9a-f]+=$$Lambda' --collapse-recursion in.folded
)";

}  // namespace

int main(int argc, char** argv) {
  fg::cli::CommonOptions common;
  common.product = fg::formats::Product::kPipeline;  // folded stacks by default, for the next tool
  fg::formats::WriteOptions write;
  fg::FilterOptions filters;
  fg::cli::po::options_description options;
  options.add(fg::cli::reader_options(common))
      .add(fg::cli::output_options(common))
      .add(fg::cli::filter_options(filters))
      .add(fg::cli::json_write_options(write));
  return fg::cli::run_tool("fg-filter", kUsage, argc, argv, common, options, [&](fg::cli::Run& run) {
    write.value = common.value;
    const fg::formats::Format& writer = fg::cli::choose_output(common, write);  // usage errors before reading
    common.read = fg::formats::plan(common.read, {.writer = &writer, .write = &write, .filters = &filters});
    const fg::Profile profile = fg::cli::read_filtered(common, filters, run.diagnostics);
    fg::cli::write_output(writer, profile, common, write, run.diagnostics);
    return fg::cli::kExitOk;
  });
}
