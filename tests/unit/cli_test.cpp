// The tools' shared command line: enum-valued options and run_tool() (#33.8).
#include "common/cli.h"

#include <doctest/doctest.h>

#include <iostream>
#include <span>
#include <sstream>

#include "fg/builder.h"
#include "fg/error.h"

using namespace fg;
namespace po = boost::program_options;

namespace {

enum class Colour { kRed, kGreen };

// Parses `args` (after the program name) against `options`, notifying.
void parse(const po::options_description& options, std::vector<std::string> args) {
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(options).run(), vm);
  po::notify(vm);
}

// Runs a tool on `args`, returning its status and what it printed on stderr.
std::pair<int, std::string> run(std::vector<std::string> args, const std::function<int(cli::Run&)>& body) {
  cli::CommonOptions common;
  po::options_description options;
  options.add(cli::input_options(common));
  args.insert(args.begin(), "fg-test");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  std::ostringstream err;
  std::streambuf* old = std::cerr.rdbuf(err.rdbuf());
  const int status =
      cli::run_tool("fg-test", "usage\n", static_cast<int>(argv.size()), argv.data(), common, options, body);
  std::cerr.rdbuf(old);
  return {status, err.str()};
}

}  // namespace

TEST_CASE("enum_value: names map to values, aliases too, others list the choices") {
  Colour c = Colour::kRed;
  po::options_description d;
  d.add_options()(
      "colour",
      cli::enum_value<Colour>(
          "colour", c, {{"red", Colour::kRed}, {"green", Colour::kGreen}, {"greens", Colour::kGreen}}));
  parse(d, {"--colour", "green"});
  CHECK(c == Colour::kGreen);
  parse(d, {"--colour=red"});
  CHECK(c == Colour::kRed);
  parse(d, {"--colour", "greens"});
  CHECK(c == Colour::kGreen);
  CHECK_THROWS_WITH_AS(parse(d, {"--colour", "blue"}), "--colour blue: expected red or green", UsageError);
  std::ostringstream help;
  help << d;
  CHECK(help.str().find("--colour red|green") != std::string::npos);
}

TEST_CASE("enum_value: three choices read as a list") {
  ThreadMode m = ThreadMode::kLabel;
  po::options_description d;
  d.add_options()("threads", cli::enum_value<ThreadMode>("threads", m,
                                                         {{"frame", ThreadMode::kFrame},
                                                          {"label", ThreadMode::kLabel},
                                                          {"fold", ThreadMode::kFold}}));
  CHECK_THROWS_WITH_AS(parse(d, {"--threads", "x"}), "--threads x: expected frame, label or fold",
                       UsageError);
  parse(d, {"--threads", "fold"});
  CHECK(m == ThreadMode::kFold);
}

TEST_CASE("run_tool: exit statuses and messages, warnings counted, closing lines last") {
  auto ok = run({"-"}, [](cli::Run& r) {
    r.diagnostics.warn("odd line", "x:1: odd");
    r.closing.push_back("regression: total +9%");
    return 3;
  });
  CHECK(ok.first == 3);
  CHECK(ok.second.find("fg-test: warning: x:1: odd\n") == 0);
  CHECK(ok.second.ends_with("fg-test: regression: total +9%\n"));
  CHECK(ok.second.rfind("warning") < ok.second.find("regression"));  // after the counts

  auto usage = run({"-"}, [](cli::Run&) -> int { throw UsageError("--x: bad"); });
  CHECK(usage.first == cli::kExitUsage);
  CHECK(usage.second == "fg-test: error: --x: bad\nTry 'fg-test --help'.\n");
  auto data = run({"-"}, [](cli::Run&) -> int { throw Error("f: offset 0x10: bad"); });
  CHECK(data.first == cli::kExitBadData);
  CHECK(data.second == "fg-test: error: f: offset 0x10: bad\n");
  auto option = run({"--bogus", "-"}, [](cli::Run&) { return 0; });
  CHECK(option.first == cli::kExitUsage);
  auto strict = run({"--strict", "-"}, [](cli::Run& r) {
    r.diagnostics.warn("odd line", "x:1: odd");
    return 0;
  });
  CHECK(strict.first == cli::kExitBadData);
}

TEST_CASE("number options: ranges checked, no wrap-around, no nan or inf (#36.7, #36.8)") {
  const cli::Range<std::uint64_t> any{0, std::numeric_limits<std::uint64_t>::max()};
  CHECK(cli::parse_number<std::uint64_t>("max-inflated", "1000", any) == 1000);
  CHECK(cli::parse_number<std::uint64_t>("max-inflated", "+7", any) == 7);
  // Boost read "-1" as 2^64-1, which turned the inflate limit off.
  CHECK_THROWS_WITH_AS(cli::parse_number<std::uint64_t>("max-inflated", "-1", any),
                       "--max-inflated -1: expected a whole number of at least 0", UsageError);
  CHECK_THROWS_AS(cli::parse_number<std::uint64_t>("max-inflated", "18446744073709551616", any), UsageError);
  CHECK_THROWS_AS(cli::parse_number<std::uint64_t>("max-inflated", "1.5", any), UsageError);
  CHECK_THROWS_AS(cli::parse_number<std::uint64_t>("max-inflated", "", any), UsageError);
  CHECK_THROWS_AS(cli::parse_number<std::uint64_t>("max-inflated", "+-1", any), UsageError);
  const cli::Range<double> fraction{0, 1};
  CHECK(cli::parse_number<double>("node-fraction", "0.25", fraction) == 0.25);
  CHECK(cli::parse_number<double>("node-fraction", "1e-3", fraction) == 0.001);
  for (const char* bad : {"nan", "NaN", "-nan", "inf", "-inf", "1.5", "-0.1", "0.5x", " 0.5"})
    CHECK_THROWS_WITH_AS(cli::parse_number<double>("node-fraction", bad, fraction),
                         ("--node-fraction " + std::string(bad) + ": expected a number from 0 to 1").c_str(),
                         UsageError);
  const cli::Range<double> height{0, 1e6, true};
  CHECK_THROWS_WITH_AS(cli::parse_number<double>("height", "1e308", height),
                       "--height 1e308: expected a number above 0 up to 1e+06", UsageError);
  CHECK_THROWS_AS(cli::parse_number<double>("height", "0", height), UsageError);
  CHECK(cli::parse_number<double>("height", "1e6", height) == 1e6);
  CHECK_THROWS_WITH_AS(cli::parse_number<int>("width", "-5", cli::Range<int>{21, 1000000}),
                       "--width -5: expected a whole number from 21 to 1000000", UsageError);
}

TEST_CASE("number options: every number option of the shared groups refuses -1, nan and inf (#36.8)") {
  cli::CommonOptions common;
  formats::WriteOptions write;
  FilterOptions filters;
  po::options_description d;
  d.add(cli::input_options(common))
      .add(cli::flamegraph_options(write.flame))
      .add(cli::report_options(write))
      .add(cli::filter_options(filters));
  for (const char* option :
       {"--max-inflated", "--width", "--height", "--fontsize", "--fontwidth", "--node-count",
        "--node-fraction", "--edge-fraction", "--skip", "--max-depth", "--min-percent"})
    for (const char* bad : {"-1", "nan", "inf", "1e308"}) {
      CAPTURE(option);
      CAPTURE(bad);
      CHECK_THROWS_AS(parse(d, {option, bad}), UsageError);
    }
  parse(d, {"--height", "20", "--node-fraction", "0", "--max-inflated", "1000"});
  CHECK(write.flame.frame_height == 20);
  CHECK(write.node_fraction == 0);
  CHECK(common.max_inflated == 1000);
}

TEST_CASE("print_info: text from the input stays on its line (#36.6)") {
  fg::ProfileBuilder b(std::vector<fg::ValueType>{{"samples\nforged: 1", "count"}});
  b.metadata().source_format = "collapsed";
  b.metadata().sources = {"in\nsource: forged"};
  b.metadata().properties.emplace_back("title", "a\tb\r\nc: d\x1b[2J");
  const std::int64_t one = 1;
  b.add_sample(b.stack(fg::kRootStack, b.frame("main")), std::span(&one, 1));
  const fg::Profile p = std::move(b).finish();
  std::ostringstream out;
  fg::cli::print_info(p, out);
  CHECK(out.str() ==
        "format: collapsed\n"
        "source: in\\nsource: forged\n"
        "title: a\\tb\\r\\nc: d\\x1b[2J\n"
        "value 0: samples\\nforged: 1/count total 1 (default)\n"
        "samples: 1, stacks: 1\n");
}
