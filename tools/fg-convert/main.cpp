// fg-convert: any profile format to any other; flame graphs by default.
#include <iostream>

#include "common/cli.h"
#include "formats/plan.h"

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
  return fg::cli::run_tool("fg-convert", kUsage, argc, argv, common, options, [&](fg::cli::Run& run) {
    write.value = common.value;
    // Usage errors before reading: the writer and its options.
    const fg::formats::Format* writer = common.info ? nullptr : &fg::cli::choose_output(common, write);
    common.read = fg::formats::plan(common.read, {.writer = writer, .write = &write, .filters = &filters});
    const fg::Profile profile = fg::cli::read_filtered(common, filters, run.diagnostics);
    if (writer)
      fg::cli::write_output(*writer, profile, common, write, run.diagnostics);
    else
      fg::cli::print_info(profile, std::cout);
    return fg::cli::kExitOk;
  });
}
