// fg-convert: any profile format to any other; flame graphs by default.
#include <iostream>

#include "common/cli.h"

namespace {

const char* kUsage = R"(Usage: fg-convert [options] [INPUT...] [-o OUTPUT]

Reads profiles (files, or - for standard input; several are merged) and
writes them in another format: a flame graph SVG by default, or what --to or
the -o extension names. Input formats are detected from the content.

Examples:
  fg-convert perf.folded -o perf.svg
  perf script | stackcollapse-perf.pl | fg-convert --title "CPU" > cpu.svg
  fg-convert --colors=java --minwidth=0.5% app.folded.gz -o app.svg
  fg-convert a.folded b.folded --to collapsed -o merged.folded
  fg-convert --to dump in.folded | less
  fg-convert --to top --value alloc_space heap.pb.gz
  fg-convert --to top-csv --node-fraction 0 cpu.pb.gz -o top.csv
  fg-convert --to dot cpu.pb.gz | dot -Tsvg > callgraph.svg
  fg-convert --to callgraph-svg --node-count 40 cpu.pb.gz -o callgraph.svg
  fg-convert --symbol-path ./bin --to top --value alloc_space jeprof.1234.0.f.heap
  fg-convert --info app.jfr
  fg-convert --alloc --total --to collapsed app.jfr -o alloc.folded
  fg-convert --wall --threads frame --time-from 10000 --time-to 20000 app.jfr -o wall.svg
  fg-convert deepflow-response.json -o cpu.svg
  fg-convert --to json --json-envelope cpu.pb.gz -o tree.json

JFR recordings are read as async-profiler's converter reads them, with its
option names; its --from/--to (time range) are --time-from/--time-to here,
and its --threads is --threads frame.
)";

}  // namespace

int main(int argc, char** argv) {
  const std::string tool = "fg-convert";
  return fg::cli::run_tool(tool, [&] {
    fg::cli::CommonOptions common;
    fg::formats::WriteOptions write;
    fg::FilterOptions filters;
    fg::cli::po::options_description options;
    options.add(fg::cli::reader_options(common))
        .add(fg::cli::output_options(common))
        .add(fg::cli::filter_options(filters))
        .add(fg::cli::flamegraph_options(write.flame))
        .add(fg::cli::report_options(write))
        .add(fg::cli::json_write_options(write))
        .add(fg::cli::info_options(common));
    if (!fg::cli::parse_command_line(tool, argc, argv, options, common.inputs, kUsage)) return 0;
    write.value = common.value;
    if (!common.info) fg::cli::choose_output(common, write);  // usage errors before reading
    fg::cli::enable_notes(tool, common);
    fg::cli::pass_output_to_readers(common, filters, write);
    fg::Diagnostics diagnostics = fg::cli::make_diagnostics(tool, common);
    const fg::Profile profile = fg::cli::read_filtered(common, filters, diagnostics);
    if (common.info) {
      fg::cli::print_info(profile, std::cout);
      fg::cli::finish_diagnostics(tool, common, diagnostics);
      return 0;
    }
    fg::cli::write_output(profile, common, write, diagnostics);
    fg::cli::finish_diagnostics(tool, common, diagnostics);
    return 0;
  });
}
