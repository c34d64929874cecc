// plan(): what reading keeps for a writer, and the writers each product
// offers (#33.2).
#include "formats/plan.h"

#include <doctest/doctest.h>

#include <sstream>

#include "fg/builder.h"
#include "fg/error.h"
#include "test_util.h"

using namespace fg;
using namespace fg::formats;

namespace {

ReadOptions planned(std::string_view writer, const WriteOptions& w = {}, const FilterOptions& f = {}) {
  return plan(ReadOptions{}, {.writer = find_format(writer), .write = &w, .filters = &f});
}

const Format& choose(Product product, std::optional<std::string> to = std::nullopt, std::string path = "",
                     std::string layout = "") {
  return choose_writer({.product = product,
                        .to = std::move(to),
                        .output_path = std::move(path),
                        .table_layout = std::move(layout)});
}

}  // namespace

TEST_CASE("plan: a flame graph needs functions, no labels") {
  const ReadOptions r = planned("svg");
  CHECK(r.frames == Granularity::kFunction);
  CHECK_FALSE(r.labels);
  CHECK_FALSE(r.sequence);
}

TEST_CASE("plan: writers that show every detail keep everything") {
  for (std::string_view name : {"dump", "pprof", "dot"}) {
    const ReadOptions r = planned(name);
    CHECK(r.frames == Granularity::kAddress);
    CHECK(r.labels);
  }
}

TEST_CASE("plan: top tables merge labels but keep frames") {
  for (std::string_view name : {"top", "top-csv", "top-json", "top-markdown"}) {
    const ReadOptions r = planned(name);
    CHECK(r.frames == Granularity::kAddress);
    CHECK_FALSE(r.labels);
  }
}

TEST_CASE("plan: a finer granularity, a filter or a flame chart keeps what they look at") {
  WriteOptions lines;
  lines.granularity = Granularity::kLine;
  CHECK(planned("svg", lines).frames == Granularity::kAddress);

  FilterOptions focus;
  focus.focus = "main";
  const ReadOptions filtered = planned("svg", {}, focus);
  CHECK(filtered.frames == Granularity::kAddress);
  CHECK(filtered.labels);

  FilterOptions relative;
  relative.relative = true;
  CHECK(planned("collapsed", {}, relative).labels);

  WriteOptions chart;
  chart.flame.flame_chart = true;
  const ReadOptions ordered = planned("svg", chart);
  CHECK(ordered.sequence);
  CHECK(ordered.labels);
}

TEST_CASE("plan: no writer (--info) and a comparison ask nothing of the writer") {
  const WriteOptions w;
  FilterOptions f;
  const ReadOptions info = plan(ReadOptions{}, {.writer = nullptr, .write = &w, .filters = &f});
  CHECK(info.labels);
  const ReadOptions diff =
      plan(ReadOptions{}, {.writer = find_format("svg"), .write = &w, .filters = &f, .compares = true});
  CHECK(diff.frames == Granularity::kAddress);
  CHECK(diff.labels);
}

TEST_CASE("plan: the JFR reader gets the time window, --threads frame and --norm") {
  const WriteOptions w;
  FilterOptions f;
  f.threads = ThreadMode::kFrame;
  f.time_from = "10s";
  f.time_to = "-5s";
  f.normalize_names = true;
  ReadOptions user;
  user.jfr.lines = true;
  const ReadOptions r = plan(user, {.writer = find_format("collapsed"), .write = &w, .filters = &f});
  CHECK(r.jfr.threads);
  CHECK(r.jfr.norm);
  CHECK(r.jfr.time_from == "10s");
  CHECK(r.jfr.time_to == "-5s");
  CHECK(r.jfr.lines);  // the user's own reader options stay
}

TEST_CASE("remaining_filters: what the reader applied is left out, for its format only") {
  FilterOptions f;
  f.threads = ThreadMode::kFrame;
  f.time_from = "10s";
  f.normalize_names = true;
  f.focus = "x";
  Profile folded = test::folded("a;b 1\n");
  const FilterOptions kept = remaining_filters(folded, f);
  CHECK(kept.threads == ThreadMode::kFrame);
  CHECK(kept.time_from == "10s");
  CHECK(kept.normalize_names);

  ProfileBuilder b({ValueType{"samples", "count"}});
  b.metadata().source_format = "jfr";
  const Profile jfr = std::move(b).finish();
  const FilterOptions left = remaining_filters(jfr, f);
  CHECK(left.threads == ThreadMode::kLabel);
  CHECK(left.time_from.empty());
  CHECK_FALSE(left.normalize_names);
  CHECK(left.focus == "x");
}

TEST_CASE("choose_writer: each product's writers and default") {
  CHECK(choose(Product::kConvert).name == "svg");
  CHECK(choose(Product::kPipeline).name == "collapsed");
  CHECK(choose(Product::kDiff).name == "svg");
  CHECK(choose(Product::kPipeline, std::nullopt, "x.svg").name == "svg");
  CHECK(choose(Product::kDiff, "report").name == "report");
  CHECK(choose(Product::kTopTable, std::nullopt, "", "text").name == "top");
  CHECK(choose(Product::kTopTable, std::nullopt, "", "markdown").name == "top-markdown");
  // A top table goes to any file name, in the layout asked for.
  CHECK(choose(Product::kTopTable, std::nullopt, "a.svg", "json").name == "top-json");
  CHECK_THROWS_WITH_AS(choose(Product::kTopTable, std::nullopt, "", "pdf"),
                       "--format pdf: expected text, csv, markdown or json", UsageError);
  // Writers for one tool only are unknown to the others, and unlisted.
  CHECK_THROWS_WITH_AS(choose(Product::kConvert, "report"),
                       "--to report: unknown format (see --list-formats)", UsageError);
  CHECK_THROWS_WITH_AS(choose(Product::kDiff, "top-json"),
                       "--to top-json: unknown format (see --list-formats)", UsageError);
  std::ostringstream list;
  print_formats(list);
  CHECK(list.str().find("top-json") == std::string::npos);
  CHECK(list.str().find("report") == std::string::npos);
  CHECK(table_layouts() == std::vector<std::string>{"text", "csv", "markdown", "json"});
}
