// fg-report: a batch of profiles (files, folders, a list on standard input)
// made into one static site, compared with a baseline and gated for CI.
#include <iostream>
#include <limits>
#include <set>

#include "common/cli.h"
#include "fg/error.h"
#include "fg/regression_gate.h"
#include "formats/batch_report.h"
#include "formats/plan.h"
#include "formats/registry.h"
#include "progress_line.h"

namespace {

const char* kUsage = R"(Usage: fg-report [options] INPUT... -o DIR
       fg-report --shard I/N [options] INPUT... -o PART
       fg-report merge PART... -o DIR
       fg-report merge --part PART... -o PART

Reads each profile (any format fg reads, mixed; a folder is searched
recursively for files whose content is a profile, skipping the others, and
names each by its path there; - reads a list of paths, one a line, from
standard input; --manifest lists inputs with names, groups and labels, and
each group gets a merged page) and writes a static site to DIR:
index.html (a sortable, filterable table of the profiles), a page per
profile with its flame graph, top table and call graph per value type,
summary.json, summary.md and junit.xml. One bad input is listed and does
not stop the others. With --baseline, each profile is compared with its
baseline (the one of the same name, or the only one) and --fail-if gates
the run. Exit status: 0 all good, 1 some input failed, 3 a gate tripped.
With --shard I/N, only every Nth input from the Ith is processed, into a
part; merge makes the parts of all N shards into the site one run would
have written, byte for byte. merge --part makes parts of adjacent shards
into one part, so that parts merge as a tree.

Examples:
  fg-report profiles/ -o report
  find /var/prof -name '*.jfr' | fg-report - -o nightly
  fg-report --baseline base/ --fail-if 'total>+5%' new/ -o ci-report
  fg-report --manifest hosts.tsv -o nightly
  fg-report --shard 2/3 profiles/ -o part2 && fg-report merge part1 part2 part3 -o report
  fg-report merge --part part1 part2 -o part12 && fg-report merge part12 part3 -o report
)";

struct ReportCli {
  std::string output;
  std::string shard;
  std::vector<std::string> baselines;
  std::vector<std::string> fail_if;
  std::vector<std::string> manifests;
  bool keep_going = false;
  bool part = false;
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
      "baseline", fg::cli::po::value<std::vector<std::string>>(&r.baselines)->value_name("INPUT"),
      "a baseline profile (file, folder, -), repeatable; paired with the inputs by name (file name "
      "without extensions; in a folder, its path there); only one: the baseline of every input")(
      "fail-if", fg::cli::po::value<std::vector<std::string>>(&r.fail_if)->value_name("COND"),
      "with --baseline, exit 3 when COND holds for a profile, as in fg-diff: total>+5%, function:REGEX>+2%; "
      "repeatable")("min-delta",
                    fg::cli::number_value("min-delta", b.min_delta, {0.0, 100.0})->value_name("PCT"),
                    "changes smaller than PCT never trip a condition")(
      "manifest", fg::cli::po::value<std::vector<std::string>>(&r.manifests)->value_name("FILE"),
      "inputs with names, groups, labels and baselines: TSV with a header line (path, name, group, baseline, "
      "any other column a label) or a JSON array of objects; repeatable; after the other inputs")(
      "shard", fg::cli::po::value<std::string>(&r.shard)->value_name("I/N"),
      "process only inputs I-1, I-1+N, I-1+2N, ... (from 0, in input order) into a part for fg-report merge")(
      "part", fg::cli::po::bool_switch(&r.part),
      "with merge: write one part of the parts' shards (adjacent, none twice), not the site, to merge "
      "again later: parts merge as a tree")(
      "fail-fast", fg::cli::po::bool_switch(&b.fail_fast),
      "stop at the first input that fails: exit 1, no site written (an earlier one at DIR is kept)")(
      "keep-going", fg::cli::po::bool_switch(&r.keep_going),
      "list a failed input and go on with the others (the default)");
  return o;
}

// --shard I/N: 1 <= I <= N.
void parse_shard(const std::string& text, fg::formats::BatchReportOptions& b) {
  const std::size_t slash = text.find('/');
  if (slash == std::string::npos) throw fg::UsageError("--shard " + text + ": expected I/N, e.g. 2/3");
  const std::size_t max = std::numeric_limits<std::uint32_t>::max();
  b.shards = fg::cli::parse_number<std::size_t>("shard", text.substr(slash + 1), {0, max, true});
  b.shard = fg::cli::parse_number<std::size_t>("shard", text.substr(0, slash), {0, b.shards, true});
}

// The entries of each --manifest, after the other inputs.
void add_manifests(const std::vector<std::string>& manifests, std::vector<fg::formats::ReportInput>& inputs,
                   fg::formats::BatchReportOptions& b) {
  if (manifests.empty()) return;
  b.described.resize(inputs.size());
  for (const std::string& m : manifests)
    for (fg::formats::ManifestEntry& e : fg::formats::read_manifest(m)) {
      inputs.push_back({e.path, fg::formats::report_name(e.path)});
      b.described.push_back(std::move(e));
    }
}

// Which run a report's outcome comes from: the inputs read here, or parts
// merged (whose inputs' messages their shards' runs printed).
enum class Outcome { kRead, kMerged };

// The closing lines of one comparison of profile `name`: its failure only
// where it was compared (kRead), its gate's trips at every level.
void closing_comparison(const fg::formats::ProfileFacts& p, const std::string& name, Outcome outcome,
                        fg::cli::Run& run) {
  if (outcome == Outcome::kRead && !p.comparison.error.empty())
    run.closing.push_back("failed: " + name + ": " + p.comparison.error);
  for (const fg::formats::GateVerdict& v : p.comparison.gate)
    if (!v.tripped.empty()) run.closing.push_back("regression: " + name + ": " + v.tripped);
}

// The exit status of a report, and its closing lines. Each input's warnings
// and failure are printed by the run that read it, once; a merge says only
// how many failed.
int verdict(const fg::formats::BatchReportResult& result, const fg::cli::CommonOptions& common,
            fg::cli::Run& run, Outcome outcome = Outcome::kRead) {
  for (const fg::formats::ProfileFacts& p : result.profiles) {
    if (outcome == Outcome::kRead && !common.quiet)
      for (const std::string& w : p.warnings) std::cerr << "fg-report: warning: " << w << '\n';
    if (outcome == Outcome::kRead && !p.error.empty()) run.closing.push_back("failed: " + p.error);
    closing_comparison(p, p.name, outcome, run);
    for (const fg::formats::ProfileFacts& k : p.kinds)
      closing_comparison(k, p.name + " (" + k.kind + ")", outcome, run);
  }
  if (outcome == Outcome::kMerged && result.failed)
    run.closing.push_back(std::to_string(result.failed) + (result.failed == 1 ? " profile" : " profiles") +
                          " failed (as the runs that read them said)");
  if (result.reused && !common.quiet)
    run.closing.push_back("reused " + std::to_string(result.reused) + " unchanged pages of the earlier site");
  if (result.stopped) run.closing.push_back("stopped at the first failure (--fail-fast); no site written");
  if (result.failed) return fg::cli::kExitBadData;
  return result.tripped ? fg::cli::kExitRegression : fg::cli::kExitOk;
}

// The options that affect the pages, for page reuse: fg's version and
// every option as given, less the inputs, -o, --jobs, -q and those that
// choose what is run (--shard, --fail-fast, --keep-going).
std::string options_key(int argc, char** argv, const fg::cli::po::options_description& options) {
  namespace po = fg::cli::po;
  po::options_description all;
  all.add(options).add_options()("input", po::value<std::vector<std::string>>());
  po::positional_options_description positional;
  positional.add("input", -1);
  const po::parsed_options parsed =
      po::command_line_parser(argc, argv).options(all).positional(positional).allow_unregistered().run();
  static const std::set<std::string> kIgnored = {"input", "output",    "jobs",      "quiet",
                                                 "shard", "fail-fast", "keep-going"};
  std::string key = std::string("fg ") + FG_VERSION;
  for (const po::option& o : parsed.options) {
    if (kIgnored.count(o.string_key)) continue;
    key += '\n' + o.string_key;
    for (const std::string& v : o.value) key += '\t' + v;
  }
  return key;
}

// write_batch_report() with a progress bar on standard error when it is a
// terminal (and not -q); a reader's note goes on a line of its own.
fg::formats::BatchReportResult write_with_progress(const std::vector<fg::formats::ReportInput>& inputs,
                                                   fg::formats::BatchReportOptions& report,
                                                   fg::cli::CommonOptions& common) {
  fg::cli::ProgressLine progress(std::cerr, !common.quiet && fg::cli::stderr_is_terminal());
  report.progress = [&progress](std::size_t done, std::size_t total, std::size_t failed) {
    progress.update(done, total, failed);
  };
  const auto note = common.read.note;
  if (note) common.read.note = [&progress, note](const std::string& m) { progress.aside([&] { note(m); }); };
  fg::formats::BatchReportResult result = fg::formats::write_batch_report(inputs, report);
  common.read.note = note;
  report.progress = nullptr;
  return result;  // the line is erased as `progress` goes
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
    if (!r.fail_if.empty() && r.baselines.empty() && r.manifests.empty())
      throw fg::UsageError("--fail-if needs --baseline (or a manifest with baselines)");
    for (const std::string& c : r.fail_if) report.gate.push_back(fg::parse_gate_condition(c));
    report.output_dir = r.output;
    report.write.value = common.value;
    report.strict = common.strict;
    common.read = fg::formats::plan(common.read, {.write = &report.write, .filters = &filters});
    common.read.every_kind_read = true;  // each kind of event gets its pages: no note on the others
    report.read = [&](const std::string& path, fg::Diagnostics& diagnostics) {
      return fg::cli::apply_remaining_filters(fg::cli::read_input(path, common, diagnostics), filters,
                                              diagnostics);
    };
    report.read_kind = [&](const std::string& path, const std::string& format, const std::string& kind,
                           fg::Diagnostics& diagnostics) {
      fg::cli::CommonOptions each = common;
      each.read = fg::formats::with_event_kind(common.read, format, kind);
      return fg::cli::apply_remaining_filters(fg::cli::read_input(path, each, diagnostics), filters,
                                              diagnostics);
    };
    if (!common.inputs.empty() && common.inputs[0] == "merge") {
      if (!r.shard.empty()) throw fg::UsageError("merge: --shard belongs to the shards' runs");
      const std::vector<std::string> parts(common.inputs.begin() + 1, common.inputs.end());
      if (r.part)
        return verdict(fg::formats::merge_batch_parts(parts, r.output), common, run, Outcome::kMerged);
      return verdict(fg::formats::merge_batch_report(parts, r.output, report.write), common, run,
                     Outcome::kMerged);
    }
    if (r.part) throw fg::UsageError("--part belongs to merge: fg-report merge --part PART... -o PART");
    if (!r.shard.empty()) parse_shard(r.shard, report);
    report.options_key = options_key(argc, argv, options);
    if (report.fail_fast && r.keep_going) throw fg::UsageError("--fail-fast and --keep-going: choose one");
    std::size_t skipped = 0;
    std::vector<fg::formats::ReportInput> inputs =
        fg::formats::expand_report_inputs(common.inputs, std::cin, &skipped);
    add_manifests(r.manifests, inputs, report);
    report.baselines = fg::formats::expand_report_inputs(r.baselines, std::cin, &skipped);
    if (skipped && common.read.note)
      common.read.note("skipped " + std::to_string(skipped) + (skipped == 1 ? " file" : " files") +
                       " in folders that no format recognises by content");
    return verdict(write_with_progress(inputs, report, common), common, run);
  });
}
