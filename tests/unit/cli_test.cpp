// The tools' shared command line: enum-valued options and run_tool() (#33.8).
#include "common/cli.h"

#include <doctest/doctest.h>

#include <iostream>
#include <sstream>

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

TEST_CASE("enum_value: names map to values, aliases too; others list the choices") {
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
