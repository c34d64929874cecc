#include "common/cli.h"

#include <unistd.h>

#include <iostream>
#include <new>

#include "fg/error.h"
#include "fg/merge.h"
#include "formats/input.h"
#include "formats/output.h"
#include "formats/registry.h"

namespace fg::cli {

po::options_description input_options(CommonOptions& o) {
  po::options_description d("Input options");
  d.add_options()
      ("from", po::value<std::string>()->notifier([&o](const std::string& v) { o.from = v; }),
       "input format (default: detected from the content, else the extension)")
      ("strict", po::bool_switch(&o.strict), "treat every warning about the input as an error")
      ("max-inflated", po::value<std::uint64_t>(&o.max_inflated)->value_name("BYTES"),
       "refuse gzip input that inflates past BYTES (default 4 GiB)")
      ("quiet,q", po::bool_switch(&o.quiet), "print no warnings");
  return d;
}

po::options_description output_options(CommonOptions& o) {
  po::options_description d("Output options");
  d.add_options()
      ("output,o", po::value<std::string>(&o.output)->value_name("FILE"),
       "write to FILE (default: standard output); written whole or not at all")
      ("to", po::value<std::string>()->notifier([&o](const std::string& v) { o.to = v; }),
       "output format (default: from the -o extension, else svg)")
      ("value", po::value<std::string>()->value_name("NAME|INDEX")->notifier(
                    [&o](const std::string& v) { o.value = v; }),
       "value column to draw or write (default: the profile's default, else the last)");
  return d;
}

po::options_description flamegraph_options(formats::FlameGraphOptions& o) {
  po::options_description d("Flame graph options (as flamegraph.pl)");
  d.add_options()
      ("title", po::value<std::string>(&o.title), "title text (default \"Flame Graph\")")
      ("subtitle", po::value<std::string>(&o.subtitle), "second-level title")
      ("width", po::value<int>(&o.width), "image width in pixels (default 1200)")
      ("height", po::value<double>(&o.frame_height), "height of each frame in pixels (default 16)")
      ("minwidth", po::value<std::string>(&o.min_width),
       "omit frames narrower than this many pixels, or this percentage of the total with '%' (default 0.1)")
      ("fonttype", po::value<std::string>(&o.font_type), "font family (default Verdana)")
      ("fontsize", po::value<double>(&o.font_size), "font size (default 12)")
      ("fontwidth", po::value<double>(&o.font_width), "average glyph width relative to the font size (default 0.59)")
      ("countname", po::value<std::string>(&o.count_name),
       "name of the counts (default \"samples\", or the value column's unit)")
      ("nametype", po::value<std::string>(&o.name_type), "label of names in the details line (default \"Function:\")")
      ("colors", po::value<std::string>(&o.colors),
       "palette: hot (default), mem, io, wakeup, chain, java, js, perl, red, green, blue, aqua, yellow, purple, orange")
      ("bgcolors", po::value<std::string>(&o.bg_colors), "background: yellow, blue, green, grey or #rrggbb")
      ("hash", po::bool_switch(&o.hash), "colour by flamegraph.pl's weighted name hash")
      ("reverse", po::bool_switch(&o.reverse), "stack-reversed flame graph (merge from the leaves)")
      ("inverted", po::bool_switch(&o.inverted), "icicle graph (root at the top)")
      ("flamechart", po::bool_switch(&o.flame_chart), "flame chart: samples in time order, not merged")
      ("negate", po::bool_switch(&o.negate), "swap red and blue in a differential graph")
      ("notes", po::value<std::string>(&o.notes), "text stored in the SVG as a note");
  return d;
}

po::options_description report_options(formats::WriteOptions& o) {
  po::options_description d("Report options (as go tool pprof)");
  d.add_options()
      ("granularity", po::value<std::string>()->value_name("function|line|address")->notifier([&o](const std::string& v) {
         if (v == "function" || v == "functions") o.granularity = Granularity::kFunction;
         else if (v == "line" || v == "lines") o.granularity = Granularity::kLine;
         else if (v == "address" || v == "addresses") o.granularity = Granularity::kAddress;
         else throw UsageError("--granularity " + v + ": expected function, line or address");
       }),
       "how finely frames are told apart in graphs, tables and folded output (default function)")
      ("node-count", po::value<std::size_t>(&o.node_count)->value_name("N"),
       "show at most N rows of a top table (default: all) or nodes of a call graph (default 80)")
      ("node-fraction", po::value<double>(&o.node_fraction)->value_name("F"),
       "drop nodes whose cum is under F of the total (default 0.005)")
      ("edge-fraction", po::value<double>(&o.edge_fraction)->value_name("F"),
       "drop edges whose weight is under F of the total (default 0.001)")
      ("sort", po::value<std::string>()->value_name("flat|cum")->notifier([&o](const std::string& v) {
         if (v != "flat" && v != "cum") throw UsageError("--sort " + v + ": expected flat or cum");
         o.sort_by_cum = v == "cum";
       }),
       "order of a top table (default flat)");
  return d;
}

po::options_description json_options(formats::ReadOptions& r, formats::WriteOptions& w) {
  po::options_description d("JSON options (DeepFlow ProfileTracing, see fg-json(5))");
  d.add_options()
      ("deepflow-event", po::value<std::string>()->value_name("EVENT")->notifier([&r](const std::string& v) {
         r.deepflow.event = v;
       }),
       "what the values measure: on-cpu (default), off-cpu (microseconds), mem-alloc, mem-inuse (bytes) or TYPE/UNIT")
      ("thread-as", po::value<std::string>()->value_name("frame|label|fold")->notifier([&r](const std::string& v) {
         if (v == "frame") r.deepflow.thread_as = formats::ThreadAs::kFrame;
         else if (v == "label") r.deepflow.thread_as = formats::ThreadAs::kLabel;
         else if (v == "fold") r.deepflow.thread_as = formats::ThreadAs::kFold;
         else throw UsageError("--thread-as " + v + ": expected frame, label or fold");
       }),
       "[t] thread nodes become frames (default), a 'thread' label, or nothing (threads merged)")
      ("lenient", po::bool_switch(&r.deepflow.lenient),
       "keep nodes whose parent is missing under an [orphaned] frame instead of failing")
      ("root-name", po::value<std::string>(&w.json.root_name)->value_name("NAME"),
       "name of the root node written (default: the input's root, else the input's name, else Total)")
      ("json-envelope", po::bool_switch(&w.json.envelope),
       "wrap the nodes in DeepFlow's response object {\"OPT_STATUS\", \"result\", ...}");
  return d;
}

Diagnostics make_diagnostics(const std::string& tool, const CommonOptions& o) {
  Diagnostics::Sink sink;
  if (!o.quiet) sink = [tool](const std::string& m) { std::cerr << tool << ": warning: " << m << '\n'; };
  return Diagnostics(o.strict, sink);
}

Profile read_inputs(const CommonOptions& o, Diagnostics& diagnostics) {
  std::vector<std::string> inputs = o.inputs;
  if (inputs.empty()) inputs.push_back("-");
  std::vector<Profile> profiles;
  const std::uint64_t limit = o.max_inflated ? o.max_inflated : formats::kDefaultMaxInflated;
  for (const std::string& path : inputs) {
    auto in = formats::Input::open(path, limit);
    const formats::Format& f = formats::detect_input_format(*in, o.from);
    profiles.push_back(f.read(*in, o.read, diagnostics));
  }
  if (profiles.size() == 1) return std::move(profiles[0]);
  return merge(profiles);
}

void write_output(const Profile& profile, const CommonOptions& o, const formats::WriteOptions& w,
                  Diagnostics& diagnostics) {
  const formats::Format& f = formats::choose_output_format(o.to, o.output);
  formats::Output out(o.output, f.binary);
  f.write(profile, w, out.stream(), diagnostics);
  out.commit();
}

void finish_diagnostics(const std::string& tool, const CommonOptions& o, const Diagnostics& d) {
  if (o.quiet) return;
  for (const std::string& line : d.summary()) std::cerr << tool << ": warning: " << line << '\n';
}

bool parse_command_line(const std::string& tool, int argc, char** argv,
                        const po::options_description& options, std::vector<std::string>& positional,
                        const std::string& usage) {
  bool help = false, version = false, list = false;
  po::options_description general("General options");
  general.add_options()
      ("help,h", po::bool_switch(&help), "print this help and exit")
      ("version", po::bool_switch(&version), "print the version and exit")
      ("list-formats", po::bool_switch(&list), "list the formats fg reads and writes, and exit");
  po::options_description hidden;
  hidden.add_options()("input", po::value<std::vector<std::string>>(&positional));
  po::options_description all;
  all.add(options).add(general).add(hidden);
  po::positional_options_description pos;
  pos.add("input", -1);
  po::variables_map vm;
  po::store(po::command_line_parser(argc, argv).options(all).positional(pos).run(), vm);
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
  return true;
}

int run_tool(const std::string& tool, const std::function<int()>& body) {
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
    std::cerr << tool << ": error: out of memory\n";
    return kExitBadData;
  } catch (const std::exception& e) {
    std::cerr << tool << ": error: " << e.what() << '\n';
    return kExitBadData;
  }
}

}  // namespace fg::cli
