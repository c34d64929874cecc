// fg-report: a batch of profiles (files, folders, a list on standard input)
// made into one static site, compared with a baseline and gated for CI.
#include <iostream>

#include "common/cli.h"
#include "fg/error.h"
#include "fg/regression_gate.h"
#include "formats/batch_report.h"
#include "formats/plan.h"

namespace {

const char* kUsage = R"(Usage: fg-report [options] INPUT... -o DIR

Reads each profile (any format fg reads, mixed; a folder is searched
recursively for files whose content is a profile; - reads a list of paths,
one a line, from standard input) and writes a static site to DIR:
index.html (a sortable, filterable table of the profiles), a page per
profile with its flame graph, top table and call graph per value type,
summary.json, summary.md and junit.xml. One bad input is listed and does
not stop the others. With --baseline, each profile is compared with its
baseline (the one of the same name, or the only one) and --fail-if gates
the run. Exit status: 0 all good, 1 some input failed, 3 a gate tripped.

Examples:
  fg-report profiles/ -o report
  find /var/prof -name '*.jfr' | fg-report - -o nightly
  fg-report --baseline base/ --fail-if 'total>+5%' new/ -o ci-report
)";

struct ReportCli {
  std::string output;
  std::vector<std::string> baselines;
  std::vector<std::string> fail_if;
};

fg::cli::po::options_description report_cli_options(ReportCli& r, fg::formats::BatchReportOptions& b,
                                                    fg::cli::CommonOptions& common) {
  fg::cli::po::options_description o("Report options");
  o.add_options()("output,o", fg::cli::po::value<std::string>(&r.output)->value_name("DIR"),
                  "the site's folder (required); built beside it and renamed into place")(
      "value",
      fg::cli::po::value<std::string>()->value_name("NAME|INDEX")->notifier([&common](const std::string& v) {
        common.value = v;
      }),
      "the value column compared with a baseline (default: each profile's default)")(
      "baseline",
      fg::cli::po::value<std::vector<std::string>>(&r.baselines)->multitoken()->value_name("INPUT"),
      "baseline profiles (files, folders, -), paired by name (file name without extensions); one: the "
      "baseline of every input")(
      "fail-if", fg::cli::po::value<std::vector<std::string>>(&r.fail_if)->value_name("COND"),
      "with --baseline, exit 3 when COND holds for a profile, as in fg-diff: total>+5%, function:REGEX>+2%; "
      "repeatable")("min-delta",
                    fg::cli::number_value("min-delta", b.min_delta, {0.0, 100.0})->value_name("PCT"),
                    "changes smaller than PCT never trip a condition");
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  fg::cli::CommonOptions common;
  fg::formats::BatchReportOptions report;
  ReportCli r;
  fg::FilterOptions filters;
  fg::cli::po::options_description options;
  options.add(fg::cli::reader_options(common))
      .add(report_cli_options(r, report, common))
      .add(fg::cli::filter_options(filters))
      .add(fg::cli::flamegraph_options(report.write.flame))
      .add(fg::cli::report_options(report.write));
  return fg::cli::run_tool("fg-report", kUsage, argc, argv, common, options, [&](fg::cli::Run& run) {
    if (r.output.empty()) throw fg::UsageError("-o DIR: name the site's folder");
    if (!r.fail_if.empty() && r.baselines.empty()) throw fg::UsageError("--fail-if needs --baseline");
    for (const std::string& c : r.fail_if) report.gate.push_back(fg::parse_gate_condition(c));
    report.output_dir = r.output;
    report.write.value = common.value;
    report.strict = common.strict;
    common.read = fg::formats::plan(common.read, {.write = &report.write, .filters = &filters});
    report.read = [&](const std::string& path, fg::Diagnostics& diagnostics) {
      return fg::cli::apply_remaining_filters(fg::cli::read_input(path, common, diagnostics), filters,
                                              diagnostics);
    };
    const std::vector<std::string> inputs = fg::formats::expand_report_inputs(common.inputs, std::cin);
    report.baselines = fg::formats::expand_report_inputs(r.baselines, std::cin);
    const fg::formats::BatchReportResult result = fg::formats::write_batch_report(inputs, report);
    for (const fg::formats::ProfileFacts& p : result.profiles) {
      if (!common.quiet)
        for (const std::string& w : p.warnings) std::cerr << "fg-report: warning: " << w << '\n';
      if (!p.error.empty()) run.closing.push_back("failed: " + p.error);
      if (!p.comparison.error.empty()) run.closing.push_back("failed: " + p.name + ": " + p.comparison.error);
      for (const fg::formats::GateVerdict& v : p.comparison.gate)
        if (!v.tripped.empty()) run.closing.push_back("regression: " + p.name + ": " + v.tripped);
    }
    if (result.failed) return fg::cli::kExitBadData;
    return result.tripped ? fg::cli::kExitRegression : fg::cli::kExitOk;
  });
}
