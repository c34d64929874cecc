#include "formats/registry.h"

#include <sys/stat.h>

#include <algorithm>
#include <iomanip>

#include "fg/error.h"
#include "fg/spelling.h"
#include "formats/collapsed/collapsed.h"
#include "formats/common/unfolded_stacks.h"
#include "formats/deepflow/deepflow.h"
#include "formats/diffreport/diff_report.h"
#include "formats/dot/dot.h"
#include "formats/dump/dump.h"
#include "formats/flamegraph_in/flamegraph_in.h"
#include "formats/html/flamegraph_html.h"
#include "formats/jemalloc/jemalloc.h"
#include "formats/jeprof_dot/jeprof_dot.h"
#include "formats/jfr/jfr.h"
#include "formats/pprof/pprof.h"
#include "formats/svg/flamegraph.h"
#include "formats/top/top.h"
#include "formats/unsupported/unsupported.h"

namespace fg::formats {

namespace {

// The top table in pprof's text layout, or with --value all every column
// side by side (fg-top's text layout).
void write_top_text(const Profile& profile, const WriteOptions& options, std::ostream& out,
                    Diagnostics& diagnostics) {
  if (options.value == "all")
    top::write_all_columns(profile, options, out);
  else
    top::write_text(profile, options, out, diagnostics);
}

void write_diff_report(const Diff& diff, const WriteOptions& options, std::ostream& out, Diagnostics&) {
  diffreport::write_report(diff, options.report, out);
}

void check_diff_report(const WriteOptions& options) { diffreport::check_options(options.report); }

// What the writers of stacks drawn at one granularity need: no finer
// frames, no labels.
constexpr WriterNeeds kStackView = {.coarse_frames = true, .labels = false};
// The top tables: per function, as a call graph has it, without labels.
constexpr WriterNeeds kTableView = {.labels = false, .graph_view = true};

}  // namespace

const std::vector<Format>& all_formats() {
  static const std::vector<Format> formats = {
      {.name = "collapsed",
       .extensions = {".folded", ".collapsed", ".stacks"},
       .summary = "folded stacks: 'frame;frame;frame count' per line (flamegraph.pl, async-profiler)",
       .sniff = collapsed::sniff,
       .read = collapsed::read,
       .write = collapsed::write,
       .needs = kStackView},
      {.name = "pprof",
       .extensions = {".pb", ".pprof", ".prof"},
       .summary = "pprof's profile.proto, gzipped or plain (Go, gperftools, continuous profilers)",
       .sniff = pprof::sniff,
       .read = pprof::read,
       .write = pprof::write,
       .binary = true},
      {.name = "jemalloc",
       .extensions = {".heap"},
       .summary = "jemalloc heap profile dump (heap_v2), symbolized offline as jeprof would",
       .sniff = jemalloc::sniff,
       .read = jemalloc::read},
      {.name = "jeprof-dot",
       .extensions = {".dot"},
       .summary = "jeprof's DOT call graph (jeprof --dot, StarRocks/Doris heap profiles), unfolded into "
                  "estimated stacks",
       .sniff = jeprof_dot::sniff,
       .read = jeprof_dot::read},
      {.name = "jfr",
       .extensions = {".jfr"},
       .summary = "Java Flight Recorder recordings (JDK 11+, async-profiler), read as async-profiler's "
                  "converter",
       .sniff = jfr::sniff,
       .read = jfr::read,
       .reader_applies_filters = true,
       .event_kinds = jfr::event_kinds,
       .event_kind = jfr::event_kind,
       .select_event_kind = jfr::select_event_kind},
      {.name = "svg",
       .extensions = {".svg"},
       .summary = "flame graph SVG, as flamegraph.pl draws it; flamegraph.pl's, inferno's and fg's read back",
       .sniff = flamegraph_in::sniff_svg,
       .read = flamegraph_in::read_svg,
       .write = svg::write_flamegraph,
       .check = svg::check_write_options,
       .needs = kStackView},
      {.name = "html",
       .extensions = {".html", ".htm"},
       .summary = "interactive flame graph: one self-contained HTML page drawn on a canvas (zoom, search, "
                  "icicle, reversed); async-profiler's 2.x-4.x pages read back",
       .sniff = flamegraph_in::sniff_html,
       .read = flamegraph_in::read_html,
       .write = html::write_flamegraph,
       .check = html::check_write_options,
       .needs = kStackView},
      {.name = "top",
       .extensions = {".top"},
       .summary = "top table of functions (flat, flat%, sum%, cum, cum%), as go tool pprof -top",
       .write = write_top_text,
       .needs = kTableView,
       .table_layout = "text"},
      {.name = "top-csv",
       .extensions = {".csv"},
       .summary = "the top table as CSV, values as numbers in the column's unit",
       .write = top::write_csv,
       .needs = kTableView,
       .table_layout = "csv"},
      {.name = "top-markdown",
       .summary = "the top table as a Markdown table, values scaled as in the text layout",
       .write = top::write_markdown,
       .needs = kTableView,
       .listed = false,
       .table_layout = "markdown"},
      {.name = "top-json",
       .summary = "the top table as JSON, values as numbers in the column's unit",
       .write = top::write_json,
       .needs = kTableView,
       .listed = false,
       .table_layout = "json"},
      {.name = "dot",
       .extensions = {".dot", ".gv"},
       .summary = "call graph in Graphviz's DOT language, as go tool pprof -dot draws it",
       .write = dot::write,
       .needs = {.graph_view = true}},
      {.name = "callgraph-svg",
       .summary = "the DOT call graph laid out by Graphviz's libraries, as SVG",
       .write = dot::write_svg,
       .needs = {.graph_view = true}},
      {.name = "dump",
       .extensions = {".dump"},
       .summary = "canonical text dump of the profile model (for tests and debugging)",
       .write = dump::write},
      {.name = "json",
       .extensions = {".json"},
       .summary = "node/parent JSON: DeepFlow's ProfileTracing flame graph nodes (see fg-json(5))",
       .sniff = deepflow::sniff,
       .read = deepflow::read,
       .write = deepflow::write,
       .needs = {.coarse_frames = true, .labels = false}},
      {.name = "report",
       .summary = "what changed between two profiles: totals, then the functions that changed most "
                  "(fg-diff --format text, markdown, csv or json)",
       .write_diff = write_diff_report,
       .check = check_diff_report,
       .needs = {.both_sides = true},
       .listed = false},
  };
  return formats;
}

namespace {

// Other names users know formats by (flamegraph.pl's "folded", pprof's
// "proto", ...), accepted by --from and --to and listed by --list-formats.
struct Alias {
  std::string_view alias, name;
};
constexpr Alias kAliases[] = {
    {"folded", "collapsed"},
    {"collapse", "collapsed"},
    {"stackcollapse", "collapsed"},
    {"stacks", "collapsed"},
    {"proto", "pprof"},
    {"pb", "pprof"},
    {"heap", "jemalloc"},
    {"flamegraph", "svg"},
    {"flame", "svg"},
    {"htm", "html"},
    {"graphviz", "dot"},
    {"gv", "dot"},
    {"callgraph", "callgraph-svg"},
    {"csv", "top-csv"},
    {"deepflow", "json"},
};

// "--to pdf: unknown format", with the nearest name or alias when one is
// near enough to be a misspelling.
UsageError unknown_format(std::string_view option, std::string_view name) {
  std::vector<std::string> known;
  for (const Format& f : all_formats())
    if (f.listed) known.emplace_back(f.name);
  for (const Alias& a : kAliases) known.emplace_back(a.alias);
  const std::optional<std::string> near = closest_spelling(name, known);
  return UsageError(std::string(option) + " " + std::string(name) + ": unknown format" +
                    (near ? "; did you mean " + *near + "?" : "") + " (see --list-formats)");
}

}  // namespace

const Format* find_format(std::string_view name) {
  for (const Format& f : all_formats())
    if (f.name == name) return &f;
  for (const Alias& a : kAliases)
    if (a.alias == name) return find_format(a.name);
  return nullptr;
}

namespace {

std::string_view extension_of(std::string_view path) {
  std::size_t slash = path.find_last_of('/');
  std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  if (base.size() > 3 && base.substr(base.size() - 3) == ".gz") base.remove_suffix(3);
  std::size_t dot = base.find_last_of('.');
  return dot == std::string_view::npos || dot == 0 ? std::string_view{} : base.substr(dot);
}

const Format* by_extension(std::string_view path, bool want_reader) {
  std::string_view ext = extension_of(path);
  if (ext.empty()) return nullptr;
  for (const Format& f : all_formats()) {
    if (want_reader ? !f.read : !f.write || !f.listed) continue;
    if (std::find(f.extensions.begin(), f.extensions.end(), ext) != f.extensions.end()) return &f;
  }
  return nullptr;
}

std::string names(const std::vector<const Format*>& formats) {
  std::string out;
  for (const Format* f : formats) {
    if (!out.empty()) out += ", ";
    out += f->name;
  }
  return out;
}

// Bytes of blank lines.
constexpr std::string_view kBlankBytes = " \t\r\n";

// The bytes the sniffers judge: the first 4 KiB, or, when those are text
// that has not ended its first line, as much more as takes that line whole
// (up to 64 MiB): a folded line of a deep Java or Rust stack is many KiB
// long, and a line-based sniffer cannot judge a line it sees only part of.
// A reader holds such a line whole anyway, so this costs no more memory
// than reading it.
// Blank lines say nothing of the format either: a window of them grows too.
std::string_view sniffing_window(Input& input) {
  constexpr std::size_t kWindow = 4096, kMaxWindow = std::size_t{64} << 20;
  std::size_t n = kWindow;
  std::string_view head = input.head(n);
  while (head.size() == n && n < kMaxWindow &&
         ((head.find('\n') == std::string_view::npos && head.find('\0') == std::string_view::npos) ||
          head.find_first_not_of(kBlankBytes) == std::string_view::npos)) {
    n *= 4;
    head = input.head(n);
  }
  return head;
}

}  // namespace

bool sniffs_as_profile(Input& input) {
  const std::string_view head = sniffing_window(input);
  if (head.find_first_not_of(kBlankBytes) == std::string_view::npos) return false;
  for (const Format& f : all_formats())
    if (f.read && f.sniff && f.sniff(head, input.name()) == Sniff::kYes) return true;
  return false;
}

std::vector<std::string> event_kinds(const Profile& profile) {
  const Format* f = find_format(profile.metadata().source_format);
  return f && f->event_kinds ? f->event_kinds(profile) : std::vector<std::string>{};
}

std::string event_kind(const Profile& profile) {
  const Format* f = find_format(profile.metadata().source_format);
  return f && f->event_kind ? f->event_kind(profile) : "";
}

ReadOptions with_event_kind(ReadOptions options, std::string_view format, std::string_view kind) {
  const Format* f = find_format(format);
  if (!f || !f->select_event_kind)
    throw UsageError(std::string(format) + ": no kind of event called " + std::string(kind));
  f->select_event_kind(options, kind);
  return options;
}

const Format& detect_input_format(Input& input, const std::optional<std::string>& from) {
  if (from) {
    const Format* f = find_format(*from);
    if (!f || !f->listed) throw unknown_format("--from", *from);
    if (!f->read) throw UsageError("--from " + *from + ": fg cannot read this format");
    return *f;
  }
  std::string_view head = sniffing_window(input);
  if (const auto refusal = unsupported::recognise(head))
    throw Error(input.name() + ": " + std::string(refusal->format) + ", which fg does not read yet; " +
                std::string(refusal->advice));
  // Only blank lines: as an empty input (a run of '\n' would pass for pprof).
  if (head.find_first_not_of(kBlankBytes) == std::string_view::npos) {
    if (const Format* f = by_extension(input.name(), true)) return *f;
    throw Error(input.name() + (head.empty() ? ": empty input" : ": empty input (only blank lines)"));
  }
  std::vector<const Format*> yes, maybe;
  for (const Format& f : all_formats()) {
    if (!f.read || !f.sniff) continue;
    Sniff s = f.sniff(head, input.name());
    if (s == Sniff::kYes) yes.push_back(&f);
    if (s == Sniff::kMaybe) maybe.push_back(&f);
  }
  if (yes.size() == 1) return *yes[0];
  if (const Format* f = by_extension(input.name(), true)) return *f;
  if (yes.empty() && maybe.size() == 1) return *maybe[0];
  if (yes.size() + maybe.size() == 0)
    throw Error(input.name() + ": unrecognised input format; name one with --from (see --list-formats)");
  throw Error(input.name() + ": input could be any of " + names(yes.empty() ? maybe : yes) +
              "; name one with --from");
}

std::string_view default_writer(Product product) {
  switch (product) {
    case Product::kPipeline:
      return "collapsed";
    case Product::kTopTable:
      return "top";
    case Product::kConvert:
    case Product::kDiff:
      break;
  }
  return "svg";
}

namespace {

// Whether a tool making `product` may write `f` when --to names it.
bool offers(const Format& f, Product product) {
  if (product == Product::kTopTable) return !f.table_layout.empty();
  if (f.needs.both_sides) return product == Product::kDiff;
  return f.listed;
}

const Format& choose_for(Product product, const std::optional<std::string>& to,
                         const std::string& output_path, std::string_view fallback) {
  if (to) {
    const Format* f = find_format(*to);
    if (!f || !offers(*f, product)) throw unknown_format("--to", *to);
    if (!f->write && !f->write_diff) throw UsageError("--to " + *to + ": fg cannot write this format");
    return *f;
  }
  if (!output_path.empty() && output_path != "-") {
    if (const Format* f = by_extension(output_path, false)) return *f;
    const std::string_view ext = extension_of(output_path);
    struct stat st;
    const bool device = ::stat(output_path.c_str(), &st) == 0 && !S_ISREG(st.st_mode);
    if (!ext.empty() && !device)
      throw UsageError("-o " + output_path + ": no format fg writes has the extension " + std::string(ext) +
                       "; name one with --to (see --list-formats)");
  }
  return *find_format(fallback);
}

}  // namespace

const Format& choose_output_format(const std::optional<std::string>& to, const std::string& output_path,
                                   std::string_view fallback) {
  return choose_for(Product::kConvert, to, output_path, fallback);
}

std::vector<std::string> table_layouts() {
  std::vector<std::string> layouts;
  for (const Format& f : all_formats())
    if (!f.table_layout.empty()) layouts.emplace_back(f.table_layout);
  return layouts;
}

const Format& choose_writer(const WriterChoice& choice) {
  if (choice.product != Product::kTopTable)
    return choose_for(choice.product, choice.to, choice.output_path, default_writer(choice.product));
  // A top table goes wherever -o says, in the layout --format names.
  for (const Format& f : all_formats())
    if (!f.table_layout.empty() && f.table_layout == choice.table_layout) return f;
  throw UsageError("--format " + choice.table_layout + ": expected " + or_list(table_layouts()));
}

void warn_if_stacks_estimated(const Profile& profile, const Format& writer, Granularity granularity,
                              Diagnostics& diagnostics) {
  if (!unfolded_from_graph(profile)) return;
  // The graph as read is drawn exactly (build_call_graph).
  const bool exact =
      writer.needs.graph_view && profile.recorded_graph() && granularity == Granularity::kFunction;
  if (exact) return;
  const std::vector<std::string>& sources = profile.metadata().sources;
  std::string where =
      sources.size() == 1 ? sources[0] + ": a call graph" : "a call graph among the merged inputs (";
  for (std::size_t i = 0; sources.size() != 1 && i < sources.size(); ++i)
    where += (i ? ", " : "") + sources[i];
  if (sources.size() != 1) where += ")";
  std::string recursion;
  if (const std::size_t n = recursive_edges_left_out(profile); n > 0)
    recursion = sources.size() == 1
                    ? " and leave out its " + std::to_string(n) +
                          " recursive edge(s) (calls back to a function already on the stack)"
                    : " and leave out recursive edges (calls back to a function already on the stack)";
  const std::string what = writer.needs.graph_view
                               ? " output's call graph is computed from stacks unfolded from it"
                               : " output shows stacks unfolded from it";
  diagnostics.warn(
      "stacks estimated from a call graph",
      where + " has no stacks; the " + std::string(writer.name) + what +
          " (each function's value split over its callees by edge weight), which are estimates" + recursion +
          (writer.needs.graph_view ? "; the graph as read is drawn only for one input, unfiltered, "
                                     "per function"
                                   : "; prefer the call graph views (dot, callgraph-svg, top, top-csv), "
                                     "which draw the graph as read"));
}

void print_formats(std::ostream& out) {
  int name_width = 8;  // "FORMAT" and two spaces
  for (const Format& f : all_formats())
    if (f.listed) name_width = std::max(name_width, static_cast<int>(f.name.size()) + 2);
  out << std::left << std::setw(name_width) << "FORMAT" << std::setw(6) << "READ" << std::setw(7) << "WRITE"
      << std::setw(28) << "EXTENSIONS"
      << "SUMMARY\n";
  for (const Format& f : all_formats()) {
    if (!f.listed) continue;
    std::string ext;
    for (std::string_view e : f.extensions) {
      if (!ext.empty()) ext += ' ';
      ext += e;
    }
    out << std::setw(name_width) << f.name << std::setw(6) << (f.read ? "yes" : "-") << std::setw(7)
        << (f.write ? "yes" : "-") << std::setw(28) << ext << f.summary << '\n';
  }
  out << "\nALIASES (for --from and --to)\n";
  for (const Format& f : all_formats()) {
    std::string aliases;
    for (const Alias& a : kAliases)
      if (a.name == f.name) aliases += (aliases.empty() ? "" : ", ") + std::string(a.alias);
    if (!aliases.empty()) out << std::setw(name_width) << f.name << aliases << '\n';
  }
}

}  // namespace fg::formats
