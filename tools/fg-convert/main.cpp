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
  fg-convert deepflow-response.json -o cpu.svg
  fg-convert --to json --json-envelope cpu.pb.gz -o tree.json
)";

}  // namespace

int main(int argc, char** argv) {
  const std::string tool = "fg-convert";
  return fg::cli::run_tool(tool, [&] {
    fg::cli::CommonOptions common;
    fg::formats::WriteOptions write;
    fg::cli::po::options_description options;
    options.add(fg::cli::input_options(common))
        .add(fg::cli::output_options(common))
        .add(fg::cli::flamegraph_options(write.flame))
        .add(fg::cli::report_options(write))
        .add(fg::cli::json_options(common.read, write));
    if (!fg::cli::parse_command_line(tool, argc, argv, options, common.inputs, kUsage)) return 0;
    write.value = common.value;
    fg::Diagnostics diagnostics = fg::cli::make_diagnostics(tool, common);
    fg::Profile profile = fg::cli::read_inputs(common, diagnostics);
    fg::cli::write_output(profile, common, write, diagnostics);
    fg::cli::finish_diagnostics(tool, common, diagnostics);
    return 0;
  });
}
