// fg-diff: compares two profiles (any formats, mixed) and draws or reports
// what changed; with --fail-if, a regression gate for CI.
#include <iostream>

#include "common/cli.h"
#include "fg/diff.h"
#include "fg/error.h"
#include "fg/normalize_names.h"
#include "fg/regression_gate.h"
#include "formats/plan.h"

namespace {

const char* kUsage = R"(Usage: fg-diff [options] BASE NEW [-o OUTPUT]

Compares two profiles of the same program (any formats fg reads, mixed),
aligned by call path, and writes a differential flame graph (the default),
the two-count folded form, a delta call graph or top table, or a report of
what changed. By default the base is scaled to the new total, so a longer
run does not look like a regression. With --fail-if it is a regression
gate: exit status 3 when a condition trips.

Examples:
  fg-diff before.folded after.folded -o diff.svg
  fg-diff --to report old.pb.gz new.pb.gz
  fg-diff --to collapsed --absolute a.folded b.folded > diff.folded
  fg-diff --to top --absolute cpu.pb.gz cpu2.pb.gz
  fg-diff --fail-if 'total>+5%' --fail-if 'function:^main\.parse>+2%' \
          --to report --format markdown base.pb.gz new.pb.gz -o diff.md
)";

struct DiffCli {
  bool absolute = false;
  double normalize_by = 0;
  bool self = false;
  bool hide_removed = false;
  bool no_normalize = false;
  std::vector<std::string> fail_if;
};

fg::cli::po::options_description diff_options(DiffCli& d, fg::formats::ReportOptions& report) {
  fg::cli::po::options_description o("Diff options");
  const fg::cli::Range<std::size_t> any_count{0, std::numeric_limits<std::size_t>::max()};
  o.add_options()("absolute", fg::cli::po::bool_switch(&d.absolute),
                  "compare raw values (default: the base scaled to the new total)")(
      "normalize-by",
      fg::cli::number_value("normalize-by", d.normalize_by, {0.0, std::numeric_limits<double>::max(), true})
          ->value_name("F"),
      "multiply the base's values by F (a known rate) instead")(
      "self", fg::cli::po::bool_switch(&d.self),
      "rank the report by the change of self values (default: by the change of share of the total)")(
      "top", fg::cli::number_value("top", report.top, any_count)->value_name("N"),
      "functions in the report (default 10; 0: all that changed)")(
      "format", fg::cli::po::value<std::string>(&report.format)->value_name("text|markdown|csv|json"),
      "form of --to report (default text)")(
      "fail-if", fg::cli::po::value<std::vector<std::string>>(&d.fail_if)->value_name("COND"),
      "exit 3 when COND holds: total>+5%, function:REGEX>+2% (points of share), or < for a drop; repeatable")(
      "min-delta", fg::cli::number_value("min-delta", report.min_delta, {0.0, 100.0})->value_name("PCT"),
      "ignore changes smaller than PCT (percent of the total, or points of share)")(
      "no-normalize", fg::cli::po::bool_switch(&d.no_normalize),
      "match names as recorded (by default names that change between builds are made equal, as --norm does)")(
      "hide-removed", fg::cli::po::bool_switch(&d.hide_removed),
      "flame graph: leave out the frames found only in the base (drawn hatched right of the graph by "
      "default)");
  return o;
}

std::size_t column_of(const fg::Profile& p, const std::optional<std::string>& value) {
  return value ? p.find_value(*value) : p.default_value_index();
}

// How names were matched, for the report's header and a flame graph's notes.
std::string names_note(bool as_recorded, const std::size_t (&renamed)[2]) {
  if (as_recorded) return "as recorded (--no-normalize)";
  return "normalised across builds (" + std::to_string(renamed[0]) + " functions renamed in the base, " +
         std::to_string(renamed[1]) + " in the new; --no-normalize keeps them as recorded)";
}

// Reads both sides, makes names equal across builds (unless
// --no-normalize), filters them alike and compares them.
fg::Diff compare(const fg::cli::CommonOptions& common, const fg::formats::WriteOptions& write,
                 const DiffCli& d, const fg::FilterOptions& filters, std::size_t (&renamed)[2],
                 fg::Diagnostics& diagnostics) {
  auto read = [&](std::size_t side) {
    fg::Profile p = fg::cli::read_input(common.inputs[side], common, diagnostics);
    if (!d.no_normalize) p = fg::normalize_names(std::move(p), &renamed[side]);
    return fg::cli::apply_remaining_filters(std::move(p), filters, diagnostics);
  };
  const fg::Profile base = read(0);
  const fg::Profile next = read(1);
  fg::DiffOptions o;
  o.base_column = column_of(base, common.value);
  o.new_column = column_of(next, common.value);
  o.granularity = write.granularity;
  o.normalization = d.absolute            ? fg::Normalization::kAbsolute
                    : d.normalize_by != 0 ? fg::Normalization::kRate
                                          : fg::Normalization::kScaleBase;
  o.rate = d.normalize_by;
  return fg::diff_profiles(base, next, o);
}

}  // namespace

int main(int argc, char** argv) {
  fg::cli::CommonOptions common;
  common.product = fg::formats::Product::kDiff;
  fg::formats::WriteOptions write;
  DiffCli d;
  fg::FilterOptions filters;
  fg::cli::po::options_description options;
  options.add(fg::cli::reader_options(common))
      .add(fg::cli::output_options(common))
      .add(diff_options(d, write.report))
      .add(fg::cli::filter_options(filters))
      .add(fg::cli::flamegraph_options(write.flame))
      .add(fg::cli::report_options(write))
      .add(fg::cli::json_write_options(write));
  return fg::cli::run_tool("fg-diff", kUsage, argc, argv, common, options, [&](fg::cli::Run& run) {
    if (common.inputs.size() != 2)
      throw fg::UsageError("expected two inputs, BASE and NEW (got " + std::to_string(common.inputs.size()) +
                           ")");
    if (d.absolute && d.normalize_by != 0)
      throw fg::UsageError("--absolute and --normalize-by exclude each other");
    std::vector<fg::GateCondition> gate;
    for (const std::string& c : d.fail_if) gate.push_back(fg::parse_gate_condition(c));
    write.value.reset();  // the diff has its own columns
    write.flame.show_removed = !d.hide_removed;
    // Usage errors before reading: the writer and its options (the report's form).
    const fg::formats::Format& writer = fg::cli::choose_output(common, write);
    if (d.no_normalize && filters.normalize_names)
      throw fg::UsageError("--norm and --no-normalize exclude each other");
    filters.normalize_names = false;  // done here, by default, and counted for the header
    // Both sides filtered alike, then compared (percentages of each filtered side).
    if (!filters.empty()) filters.relative = true;
    common.read = fg::formats::plan(
        common.read, {.writer = &writer, .write = &write, .filters = &filters, .compares = true});
    std::size_t renamed[2] = {0, 0};
    const fg::Diff diff = compare(common, write, d, filters, renamed, run.diagnostics);
    const std::string names = names_note(d.no_normalize, renamed);
    // Before any output: a condition that can never trip is a usage error.
    const std::vector<std::string> tripped = fg::evaluate_gate(diff, gate, write.report.min_delta);
    // A flame graph says so in its notes when a name changed (the same
    // inputs then draw as flamegraph.pl draws them).
    if (renamed[0] + renamed[1] > 0)
      write.flame.notes += (write.flame.notes.empty() ? "names: " : "\nnames: ") + names;
    write.report.by_self = d.self;
    write.report.base_name = common.inputs[0];
    write.report.new_name = common.inputs[1];
    write.report.names = names;
    // Tables and call graphs of the diff show deltas, as pprof -diff_base
    // does: their writers draw a diff's delta view themselves.
    fg::cli::write_diff_output(writer, diff, common, write, run.diagnostics);
    for (const std::string& t : tripped) run.closing.push_back("regression: " + t);
    return tripped.empty() ? fg::cli::kExitOk : fg::cli::kExitRegression;
  });
}
