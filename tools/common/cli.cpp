#include "common/cli.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <new>
#include <system_error>

#include "common/memory_limit.h"
#include "fg/error.h"
#include "fg/merge.h"
#include "fg/parallel.h"
#include "fg/spelling.h"
#include "formats/common/huge_pages.h"
#include "formats/common/table_text.h"
#include "formats/dot/layout_worker.h"
#include "formats/input.h"
#include "formats/output.h"
#include "formats/plan.h"
#include "formats/registry.h"

namespace fg::cli {

void throw_bad_number(const std::string& option, const std::string& text, const std::string& what) {
  throw UsageError("--" + option + " " + text + ": expected " + what);
}

namespace {

// The ranges of the shared number options. Drawings are bounded so that
// every coordinate stays a finite number an SVG viewer can use.
constexpr int kMinWidth = 21;  // the flame graph's two 10-pixel margins and a pixel
constexpr int kMaxPixels = 1'000'000;
constexpr double kMaxFontWidth = 100;
constexpr Range<std::size_t> kAnyCount{0, std::numeric_limits<std::size_t>::max()};
constexpr Range<double> kFraction{0, 1};
constexpr Range<double> kPercent{0, 100};

}  // namespace

po::options_description input_options(CommonOptions& o) {
  po::options_description d("Input options");
  d.add_options()("from", po::value<std::string>()->notifier([&o](const std::string& v) { o.from = v; }),
                  "input format (default: detected from the content, else the extension)")(
      "strict", po::bool_switch(&o.strict), "treat every warning about the input as an error")(
      "max-inflated",
      number_value<std::uint64_t>("max-inflated", o.max_inflated,
                                  {0, std::numeric_limits<std::uint64_t>::max()})
          ->value_name("BYTES"),
      "refuse gzip input that inflates past BYTES (default 4 GiB)")(
      "max-memory", po::value<std::string>()->value_name("SIZE")->notifier([&o](const std::string& v) {
        o.max_memory = v;
      }),
      "refuse input that needs more than SIZE of memory, e.g. 8G (default: FG_MAX_MEMORY, else half the "
      "physical memory)")("quiet,q", po::bool_switch(&o.quiet), "print no warnings")(
      "jobs", po::value<std::string>()->value_name("N"),
      "run work on at most N threads at once (default: FG_JOBS, else the cores); 1: on one thread, same "
      "output");
  return d;
}

po::options_description output_options(CommonOptions& o) {
  const std::string to_help = "output format (default: from the -o extension, else " +
                              std::string(formats::default_writer(o.product)) + ")";
  po::options_description d("Output options");
  d.add_options()("output,o", po::value<std::string>(&o.output)->value_name("FILE"),
                  "write to FILE (default: standard output); written whole or not at all")(
      "to", po::value<std::string>()->notifier([&o](const std::string& v) { o.to = v; }), to_help.c_str())(
      "value", po::value<std::string>()->value_name("NAME|INDEX")->notifier([&o](const std::string& v) {
        o.value = v;
      }),
      "value column to draw or write (default: the profile's default, else the last)");
  return d;
}

po::options_description flamegraph_options(formats::FlameGraphOptions& o) {
  po::options_description d("Flame graph options (as flamegraph.pl)");
  d.add_options()("title", po::value<std::string>(&o.title), "title text (default \"Flame Graph\")")(
      "subtitle", po::value<std::string>(&o.subtitle), "second-level title")(
      "width", number_value("width", o.width, {kMinWidth, kMaxPixels}),
      "image width in pixels (default 1200)")("height",
                                              number_value("height", o.frame_height, {0.0, kMaxPixels, true}),
                                              "height of each frame in pixels (default 16)")(
      "minwidth", po::value<std::string>(&o.min_width),
      "omit frames narrower than this many pixels, or this percentage of the total with '%' (default 0.1)")(
      "fonttype", po::value<std::string>(&o.font_type), "font family (default Verdana)")(
      "fontsize", number_value("fontsize", o.font_size, {0.0, kMaxPixels, true}), "font size (default 12)")(
      "fontwidth", number_value("fontwidth", o.font_width, {0.0, kMaxFontWidth, true}),
      "average glyph width relative to the font size (default 0.59)")(
      "countname", po::value<std::string>(&o.count_name),
      "name of the counts (default \"samples\", or the value column's unit)")(
      "nametype", po::value<std::string>(&o.name_type),
      "label of names in the details line (default \"Function:\")")(
      "colors", po::value<std::string>(&o.colors),
      "palette: hot (default), mem, io, wakeup, chain, java, js, perl, red, green, blue, aqua, yellow, "
      "purple, orange")("bgcolors", po::value<std::string>(&o.bg_colors),
                        "background: yellow, blue, green, grey or #rrggbb")(
      "hash", po::bool_switch(&o.hash), "colour by flamegraph.pl's weighted name hash")(
      "reverse", po::bool_switch(&o.reverse), "stack-reversed flame graph (merge from the leaves)")(
      "inverted", po::bool_switch(&o.inverted), "icicle graph (root at the top)")(
      "flamechart", po::bool_switch(&o.flame_chart), "flame chart: samples in time order, not merged")(
      "negate", po::bool_switch(&o.negate), "swap red and blue in a differential graph")(
      "colorblind", po::bool_switch(&o.colorblind),
      "differential graphs in orange (grew) and purple (shrank), safe for colour-blind readers")(
      "notes", po::value<std::string>(&o.notes), "text stored in the SVG as a note");
  return d;
}

po::options_description symbolization_options(formats::SymbolizeOptions& o) {
  po::options_description d("Symbolization options (jemalloc heap dumps)");
  d.add_options()(
      "symbol-path", po::value<std::vector<std::string>>(&o.symbol_paths)->value_name("DIR")->composing(),
      "look for the dump's binaries and libraries in DIR first, by file name, and for separate debug "
      "files by build-id (DIR/.build-id/..); may be given several times")(
      "sysroot", po::value<std::string>(&o.sysroot)->value_name("DIR"),
      "look for binaries and libraries at their recorded paths under DIR instead of /")(
      "keep-allocator-frames", po::bool_switch(&o.keep_allocator_frames),
      "keep the allocator's own frames (the jemalloc library, malloc, operator new, ...), which are "
      "dropped by default");
  return d;
}

po::options_description report_options(formats::WriteOptions& o) {
  po::options_description d("Report options (as go tool pprof)");
  d.add_options()(
      "granularity",
      enum_value<Granularity>("granularity", o.granularity,
                              {{"function", Granularity::kFunction},
                               {"functions", Granularity::kFunction},
                               {"line", Granularity::kLine},
                               {"lines", Granularity::kLine},
                               {"address", Granularity::kAddress},
                               {"addresses", Granularity::kAddress},
                               {"file", Granularity::kFile},
                               {"files", Granularity::kFile}}),
      "how finely frames are told apart in graphs, tables and folded output (default function; file: one per "
      "source file)")(
      "node-count", number_value("node-count", o.node_count, kAnyCount)->value_name("N"),
      "show at most N rows of a top table (default: all) or nodes of a call graph (default 80)")(
      "node-fraction", number_value("node-fraction", o.node_fraction, kFraction)->value_name("F"),
      "drop nodes whose cum is under F of the total (default 0.005)")(
      "edge-fraction", number_value("edge-fraction", o.edge_fraction, kFraction)->value_name("F"),
      "drop edges whose weight is under F of the total (default 0.001)")(
      "sort", enum_value<bool>("sort", o.sort_by_cum, {{"flat", false}, {"cum", true}}),
      "order of a top table (default flat)");
  return d;
}

namespace {

// The names of the thread modes, for --threads and --thread-as.
std::vector<Named<ThreadMode>> thread_modes() {
  return {{"frame", ThreadMode::kFrame}, {"label", ThreadMode::kLabel}, {"fold", ThreadMode::kFold}};
}

}  // namespace

po::options_description filter_options(FilterOptions& o) {
  po::options_description d("Filter options (applied in this order; see fg-filter(1))");
  d.add_options()("time-from", po::value<std::string>(&o.time_from)->value_name("T"),
                  "keep samples from T: 10s or 250ms after the start, -30s before the end, a UTC date or ns "
                  "since the epoch")("time-to", po::value<std::string>(&o.time_to)->value_name("T"),
                                     "keep samples up to T (same forms)")(
      "norm", po::bool_switch(&o.normalize_names),
      "names that change between builds made equal: JVM lambda and hidden-class addresses, "
      "compiler clone suffixes (.isra.0, [clone .cold]), Rust hashes (::h0123456789abcdef)")(
      "thread", po::value<std::string>(&o.thread)->value_name("RE"),
      "keep samples whose thread label matches RE")(
      "tagfocus", po::value<std::string>(&o.tag_focus)->value_name("[KEY=]RE|RANGE"),
      "keep samples with a matching label (pprof's -tagfocus; ranges such as 1kb:64kb for numbers)")(
      "tagignore", po::value<std::string>(&o.tag_ignore)->value_name("[KEY=]RE|RANGE"),
      "drop samples with a matching label")("include",
                                            po::value<std::vector<std::string>>(&o.include)->value_name("RE"),
                                            "keep stacks whose folded line matches RE (repeatable, any)")(
      "exclude", po::value<std::vector<std::string>>(&o.exclude)->value_name("RE"),
      "drop stacks whose folded line matches RE (repeatable)")(
      "focus", po::value<std::string>(&o.focus)->value_name("RE"), "keep samples with a frame matching RE")(
      "ignore", po::value<std::string>(&o.ignore)->value_name("RE"), "drop samples with a frame matching RE")(
      "hide", po::value<std::string>(&o.hide)->value_name("RE"),
      "remove frames matching RE, keep their samples")(
      "show", po::value<std::string>(&o.show)->value_name("RE"), "keep only frames matching RE")(
      "show-from", po::value<std::string>(&o.show_from)->value_name("RE"),
      "drop the frames above the first (rootmost) match")(
      "prune-from", po::value<std::string>(&o.prune_from)->value_name("RE"),
      "drop the frames below the last (leafmost) match")(
      "skip", number_value("skip", o.skip, kAnyCount)->value_name("N"),
      "drop N frames at the root of every stack")(
      "rename", po::value<std::vector<std::string>>(&o.rename)->value_name("RE=REPL"),
      "rewrite function names ($1 for groups; repeatable, in order)")(
      "collapse-recursion", po::bool_switch(&o.collapse_recursion),
      "fold direct recursion (f;f;f becomes f)")(
      "threads", enum_value<ThreadMode>("threads", o.threads, thread_modes())->implicit_value("frame"),
      "the thread as the root frame (--threads alone, as async-profiler's converter), as a label (the "
      "default) or merged away")("max-depth",
                                 number_value("max-depth", o.max_depth, kAnyCount)->value_name("N"),
                                 "keep the N frames nearest the root")(
      "invert", po::bool_switch(&o.invert), "callee-rooted view: every stack turned leaf first")(
      "min-percent", number_value("min-percent", o.min_percent, kPercent)->value_name("P"),
      "cut stacks at frames holding under P% of the total")(
      "relative", po::bool_switch(&o.relative),
      "percentages of the filtered profile (default: of the whole, as pprof)");
  return d;
}

namespace {

// One of the event switches: the first one chosen wins, a second is an error.
po::typed_value<bool>* event_switch(formats::JfrOptions& o, formats::JfrOptions::Events e, const char* name) {
  return po::bool_switch()->notifier([&o, e, name](bool on) {
    if (!on) return;
    if (o.events != formats::JfrOptions::Events::kDefault && o.events != e)
      throw UsageError(std::string("--") + name +
                       ": only one of --cpu, --wall, --alloc, --live, --nativemem, "
                       "--lock, --nativelock at a time");
    o.events = e;
  });
}

}  // namespace

po::options_description jfr_options(formats::JfrOptions& o) {
  using E = formats::JfrOptions::Events;
  po::options_description d(
      "JFR options (as async-profiler's converter; default: cpu and wall samples together)");
  d.add_options()("cpu", event_switch(o, E::kCpu, "cpu"), "CPU samples (async-profiler's cpu/itimer events)")(
      "wall", event_switch(o, E::kWall, "wall"), "wall-clock samples")(
      "alloc", event_switch(o, E::kAlloc, "alloc"),
      "allocations: count and bytes, the class as the top frame")(
      "live", event_switch(o, E::kLive, "live"), "live objects (async-profiler's live option)")(
      "nativemem", event_switch(o, E::kNativeMem, "nativemem"), "native memory: malloc calls and bytes")(
      "leak", po::bool_switch(&o.leak), "with --nativemem: only allocations never freed")(
      "lock", event_switch(o, E::kLock, "lock"), "lock contention: monitor enter and thread park")(
      "nativelock", event_switch(o, E::kNativeLock, "nativelock"), "native lock contention")(
      "total", po::bool_switch(&o.total),
      "default value: the events' weight (bytes, nanoseconds), not counts")(
      "state", po::value<std::string>(&o.state)->value_name("STATES"),
      "only samples in these thread states, e.g. runnable,sleeping")(
      "lines", po::bool_switch(&o.lines), "frame names with source line numbers (:line)")(
      "bci", po::bool_switch(&o.bci), "frame names with bytecode indices (@bci)")(
      "simple", po::bool_switch(&o.simple), "class names without their package")(
      "dot", po::bool_switch(&o.dot), "dotted class names (java.lang.String)");
  return d;
}

po::options_description info_options(CommonOptions& o) {
  po::options_description d("Information");
  d.add_options()("info", po::bool_switch(&o.info),
                  "print what the input holds (format, time span, producer, event counts, value columns) "
                  "instead of converting");
  return d;
}

namespace {

void enable_notes(const std::string& tool, CommonOptions& o) {
  if (o.quiet) return;
  o.read.note = [tool](const std::string& m) { std::cerr << tool << ": note: " << m << '\n'; };
}

}  // namespace

void print_info(const Profile& p, std::ostream& out) {
  const Metadata& m = p.metadata();
  // Names, properties and units come from the input: text_cell() keeps each
  // on its line (a line break in a property cannot forge another line).
  using formats::text_cell;
  out << "format: " << m.source_format << '\n';
  for (const std::string& s : m.sources) out << "source: " << text_cell(s) << '\n';
  if (m.start_time_ns != 0) out << "start ns: " << m.start_time_ns << '\n';
  if (m.duration_ns != 0) out << "duration ns: " << m.duration_ns << '\n';
  for (const auto& [key, value] : m.properties) out << text_cell(key) << ": " << text_cell(value) << '\n';
  const std::vector<std::int64_t> totals = p.totals();
  for (std::size_t i = 0; i < p.value_count(); ++i)
    out << "value " << i << ": " << text_cell(p.value_types()[i].type) << '/'
        << text_cell(p.value_types()[i].unit) << " total "
        << fixed_point_text(totals[i], p.value_types()[i].decimals)
        << (i == p.default_value_index() ? " (default)" : "") << '\n';
  out << "samples: " << p.sample_count() << ", stacks: " << p.stack_count() - 1 << '\n';
}

po::options_description deepflow_options(formats::ReadOptions& r) {
  po::options_description d("DeepFlow JSON reading options (see fg-json(5))");
  d.add_options()("deepflow-event",
                  po::value<std::string>()->value_name("EVENT")->notifier(
                      [&r](const std::string& v) { r.deepflow.event = v; }),
                  "what the values measure: on-cpu (default), off-cpu (microseconds), mem-alloc, mem-inuse "
                  "(bytes) or TYPE/UNIT")(
      "thread-as", enum_value<ThreadMode>("thread-as", r.deepflow.thread_as, thread_modes()),
      "[t] thread nodes become frames (default), a 'thread' label, or nothing (threads merged)")(
      "lenient", po::bool_switch(&r.deepflow.lenient),
      "keep nodes whose parent is missing under an [orphaned] frame instead of failing");
  return d;
}

po::options_description json_write_options(formats::WriteOptions& w) {
  po::options_description d("JSON writing options (node/parent JSON, see fg-json(5))");
  d.add_options()(
      "root-name", po::value<std::string>(&w.json.root_name)->value_name("NAME"),
      "name of the root node written (default: the input's root, else the input's name, else Total)")(
      "json-envelope", po::bool_switch(&w.json.envelope),
      "wrap the nodes in DeepFlow's response object {\"OPT_STATUS\", \"result\", ...}");
  return d;
}

po::options_description reader_options(CommonOptions& o) {
  po::options_description d;
  d.add(input_options(o))
      .add(symbolization_options(o.read.symbolize))
      .add(jfr_options(o.read.jfr))
      .add(deepflow_options(o.read));
  return d;
}

namespace {

Diagnostics make_diagnostics(const std::string& tool, const CommonOptions& o) {
  Diagnostics::Sink sink;
  if (!o.quiet) sink = [tool](const std::string& m) { std::cerr << tool << ": warning: " << m << '\n'; };
  return Diagnostics(o.strict, sink);
}

}  // namespace

Profile read_input(const std::string& path, const CommonOptions& o, Diagnostics& diagnostics) {
  const std::uint64_t limit = o.max_inflated ? o.max_inflated : formats::kDefaultMaxInflated;
  auto in = formats::Input::open(path, limit);
  if (o.memory_limit) in->set_max_whole(o.memory_limit / 2);
  const formats::Format& f = formats::detect_input_format(*in, o.from);
  return f.read(*in, o.read, diagnostics);
}

Profile read_inputs(const CommonOptions& o, Diagnostics& diagnostics) {
  std::vector<std::string> inputs = o.inputs;
  if (inputs.empty()) inputs.push_back("-");
  std::vector<Profile> profiles;
  CommonOptions each = o;
  for (const std::string& path : inputs) {
    profiles.push_back(read_input(path, each, diagnostics));
    // A flame chart's records of one input follow those of the one before.
    each.read.first_ordinal += static_cast<std::int64_t>(profiles.back().sample_count());
  }
  if (profiles.size() == 1) return std::move(profiles[0]);
  return merge(profiles);
}

Profile apply_remaining_filters(Profile p, const FilterOptions& filters, Diagnostics& diagnostics) {
  const FilterOptions remaining = formats::remaining_filters(p, filters);
  if (remaining.empty() && !remaining.relative) return p;  // the input's own profile, recorded graph and all
  return apply_filters(p, remaining, diagnostics);
}

Profile read_filtered(const CommonOptions& o, const FilterOptions& filters, Diagnostics& diagnostics) {
  return apply_remaining_filters(read_inputs(o, diagnostics), filters, diagnostics);
}

const formats::Format& choose_output(const CommonOptions& o, const formats::WriteOptions& w) {
  const formats::Format& f = formats::choose_writer(
      {.product = o.product, .to = o.to, .output_path = o.output, .table_layout = o.table_layout});
  if (f.check) f.check(w);
  formats::Output::refuse_terminal(o.output, f.binary);
  formats::Output::check_path(o.output);
  return f;
}

void write_output(const formats::Format& writer, const Profile& profile, const CommonOptions& o,
                  const formats::WriteOptions& w, Diagnostics& diagnostics) {
  formats::warn_if_stacks_estimated(profile, writer, w.granularity, diagnostics);
  formats::Output out(o.output, writer.binary);
  writer.write(profile, w, out.stream(), diagnostics);
  out.commit();
}

void write_diff_output(const formats::Format& writer, const Diff& diff, const CommonOptions& o,
                       const formats::WriteOptions& w, Diagnostics& diagnostics) {
  if (!writer.write_diff) return write_output(writer, diff.profile, o, w, diagnostics);
  formats::Output out(o.output, writer.binary);
  writer.write_diff(diff, w, out.stream(), diagnostics);
  out.commit();
}

namespace {

void finish_diagnostics(const std::string& tool, const CommonOptions& o, const Diagnostics& d) {
  if (o.quiet) return;
  for (const std::string& line : d.summary()) std::cerr << tool << ": warning: " << line << '\n';
}

}  // namespace

namespace {

// Boost gives an option with an implicit value the next token when that is
// not an option, so "--threads app.jfr" would read app.jfr as the thread
// mode. This parser gives "--threads" the next token only when it is one of
// the modes, and else the implicit "frame" (a value given here is never
// extended by Boost).
std::vector<po::option> parse_threads_alone(std::vector<std::string>& args) {
  if (args.empty() || args[0] != "--threads") return {};
  po::option opt;
  opt.string_key = "threads";
  opt.original_tokens.push_back(args[0]);
  std::size_t used = 1;
  const std::vector<Named<ThreadMode>> modes = thread_modes();
  if (args.size() > 1 &&
      std::any_of(modes.begin(), modes.end(), [&](const auto& m) { return args[1] == m.name; })) {
    opt.value.push_back(args[1]);
    opt.original_tokens.push_back(args[1]);
    used = 2;
  } else {
    opt.value.push_back("frame");
  }
  args.erase(args.begin(), args.begin() + static_cast<std::ptrdiff_t>(used));
  return {opt};
}

// Boost's "unrecognised option '--colours'", with the nearest long option
// when one is near enough to be a misspelling of it.
[[noreturn]] void throw_unknown_option(const po::unknown_option& e, const po::options_description& all) {
  std::string given = e.get_option_name();
  given = given.substr(0, given.find('='));
  if (given.starts_with("--")) given.erase(0, 2);
  std::vector<std::string> known;
  for (const auto& option : all.options())
    if (!option->long_name().empty() && option->long_name() != "input") known.push_back(option->long_name());
  const std::optional<std::string> near = closest_spelling(given, known);
  if (!near) throw;
  throw UsageError(std::string(e.what()) + "; did you mean --" + *near + "?");
}

}  // namespace

bool parse_command_line(const std::string& tool, int argc, char** argv,
                        const po::options_description& options, std::vector<std::string>& positional,
                        const std::string& usage) {
  bool help = false, version = false, list = false;
  po::options_description general("General options");
  general.add_options()("help,h", po::bool_switch(&help), "print this help and exit")(
      "version", po::bool_switch(&version), "print the version and exit")(
      "list-formats", po::bool_switch(&list), "list the formats fg reads and writes, and exit");
  po::options_description hidden;
  hidden.add_options()("input", po::value<std::vector<std::string>>(&positional));
  po::options_description all;
  all.add(options).add(general).add(hidden);
  po::positional_options_description pos;
  pos.add("input", -1);
  po::variables_map vm;
  try {
    // No guessing of abbreviations: with the reading options in every
    // tool, fg-top --to csv would have been fg-top --total, reading csv.
    po::store(po::command_line_parser(argc, argv)
                  .options(all)
                  .style(po::command_line_style::default_style & ~po::command_line_style::allow_guessing)
                  .positional(pos)
                  .extra_style_parser(parse_threads_alone)
                  .run(),
              vm);
  } catch (const po::unknown_option& e) {
    throw_unknown_option(e, all);
  }
  po::notify(vm);
  if (help) {
    po::options_description visible;
    visible.add(options).add(general);
    std::cout << usage << '\n' << visible;
    return false;
  }
  if (version) {
    std::cout << tool << " " << FG_VERSION << '\n';
    return false;
  }
  if (list) {
    formats::print_formats(std::cout);
    return false;
  }
  // The thread count: --jobs, else FG_JOBS, else the cores. FG_PARALLEL_MIN
  // is a testing knob (fg/parallel.h): small inputs take threaded paths.
  std::optional<std::string> jobs;
  if (vm.count("jobs")) jobs = vm["jobs"].as<std::string>();
  set_jobs(jobs_from(jobs, std::getenv("FG_JOBS")));
  set_parallel_min(parallel_min_from(std::getenv("FG_PARALLEL_MIN")));
  // Reading a profile typed at a terminal is never what was meant: a run
  // with no input would wait silently.
  if (positional.empty() && ::isatty(0)) {
    std::cerr << usage;
    throw UsageError("no input: name a file, or - for standard input, or pipe a profile in");
  }
  return true;
}

namespace {

// An allocation failed: past --max-memory, or the system's own limit.
int out_of_memory(const std::string& tool) {
  std::cerr << tool << ": error: out of memory";
  if (memory_limit()) std::cerr << ": past --max-memory, " << memory_limit() << " bytes";
  std::cerr << '\n';
  return kExitBadData;
}

// Runs `body`, mapping exceptions to messages and exit statuses.
int catching(const std::string& tool, const std::function<int()>& body) {
  try {
    return body();
  } catch (const UsageError& e) {
    std::cerr << tool << ": error: " << e.what() << "\nTry '" << tool << " --help'.\n";
    return kExitUsage;
  } catch (const po::error& e) {
    std::cerr << tool << ": error: " << e.what() << "\nTry '" << tool << " --help'.\n";
    return kExitUsage;
  } catch (const Error& e) {
    std::cerr << tool << ": error: " << e.what() << '\n';
    return kExitBadData;
  } catch (const std::bad_alloc&) {
    return out_of_memory(tool);
  } catch (const std::system_error& e) {
    // A thread whose stack the memory limit leaves no room for.
    if (e.code() == std::errc::resource_unavailable_try_again && memory_limit()) return out_of_memory(tool);
    std::cerr << tool << ": error: " << e.what() << '\n';
    return kExitBadData;
  } catch (const std::exception& e) {
    std::cerr << tool << ": error: " << e.what() << '\n';
    return kExitBadData;
  }
}

}  // namespace

int run_tool(const std::string& tool, const std::string& usage, int argc, char** argv, CommonOptions& common,
             const po::options_description& options, const std::function<int(Run&)>& body) {
  if (const int worker = formats::dot::run_layout_worker_if_asked(argc, argv); worker >= 0) return worker;
  return catching(tool, [&] {
    if (!parse_command_line(tool, argc, argv, options, common.inputs, usage)) {
      formats::Output::flush_standard_output();  // help, version or formats: status 1 if not written
      return kExitOk;
    }
    common.memory_limit = memory_limit_from(common.max_memory, std::getenv("FG_MAX_MEMORY"));
    apply_memory_limit(common.memory_limit);
    formats::use_huge_pages();  // big tables in 2 MiB pages, before anything is read
    enable_notes(tool, common);
    Diagnostics diagnostics = make_diagnostics(tool, common);
    Run run{diagnostics, {}};
    const int status = body(run);
    formats::Output::flush_standard_output();  // what the body printed (--info) reached its reader
    finish_diagnostics(tool, common, diagnostics);
    for (const std::string& line : run.closing) std::cerr << tool << ": " << line << '\n';
    return status;
  });
}

}  // namespace fg::cli
