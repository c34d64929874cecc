// fg-filter: profiles in, the same profiles filtered out (folded stacks by
// default, for pipelines; any --to).
#include "common/cli.h"

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
  const std::string tool = "fg-filter";
  return fg::cli::run_tool(tool, [&] {
    fg::cli::CommonOptions common;
    common.default_to = "collapsed";  // for pipelines
    fg::formats::WriteOptions write;
    fg::FilterOptions filters;
    fg::cli::po::options_description options;
    options.add(fg::cli::reader_options(common))
        .add(fg::cli::output_options(common))
        .add(fg::cli::filter_options(filters))
        .add(fg::cli::json_write_options(write));
    if (!fg::cli::parse_command_line(tool, argc, argv, options, common.inputs, kUsage)) return 0;
    write.value = common.value;
    fg::cli::choose_output(common, write);                    // usage errors before reading
    fg::cli::pass_output_to_readers(common, filters, write);  // fractional counts kept for collapsed output
    fg::cli::enable_notes(tool, common);
    fg::Diagnostics diagnostics = fg::cli::make_diagnostics(tool, common);
    const fg::Profile profile = fg::cli::read_filtered(common, filters, diagnostics);
    fg::cli::write_output(profile, common, write, diagnostics);
    fg::cli::finish_diagnostics(tool, common, diagnostics);
    return 0;
  });
}
