// Layout workers (formats/dot/layout_worker.h): the same SVG as the
// in-process layout, Graphviz's errors passed on, and a worker that dies
// costing one page only. The workers run fg-convert (FG_CONVERT_EXE).
// Graphs are named: Graphviz numbers anonymous ones per process.
#include "formats/dot/layout_worker.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "fg/error.h"
#include "formats/dot/dot.h"
#include "test_util.h"

using namespace fg;
using namespace fg::formats;

namespace {

std::string in_process(std::string_view dot) {
  const GraphvizSession session;
  return dot::graphviz_svg(session, dot);
}

std::string call_graph_of(const std::string& path, const ReadOptions& read = {}) {
  Diagnostics d;
  auto in = Input::open(path);
  const Profile p = detect_input_format(*in, std::nullopt).read(*in, read, d);
  return dot::layout_dot(p, {});
}

std::vector<std::string> worker_command() { return {FG_CONVERT_EXE, std::string(dot::kLayoutWorkerFlag)}; }

// A shell that runs `first` the first time (marked by the file `flag`)
// and a real worker after that.
std::vector<std::string> failing_once(const std::string& flag, const std::string& first) {
  return {"/bin/sh",
          "-c",
          "if [ -e \"$1\" ]; then exec \"$2\" \"$3\"; fi; : > \"$1\"; " + first,
          "sh",
          flag,
          FG_CONVERT_EXE,
          std::string(dot::kLayoutWorkerFlag)};
}

std::string temp_flag(const char* name) {
  const std::filesystem::path flag =
      std::filesystem::temp_directory_path() /
      (std::string("fg-layout-worker-") + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove(flag);
  return flag.string();
}

}  // namespace

TEST_CASE("layout worker: the same SVG as the in-process layout byte for byte") {
  const std::string inputs = std::string(FG_TEST_DATA_DIR) + "/../";
  ReadOptions lock;
  lock.jfr.events = JfrOptions::Events::kLock;
  const std::vector<std::string> graphs = {call_graph_of(inputs + "parity/pprof/cpu.pb.gz"),
                                           call_graph_of(inputs + "golden/inputs/heap.pb.gz"),
                                           call_graph_of(inputs + "golden/inputs/lock.jfr.gz", lock)};
  dot::LayoutWorkers workers(worker_command());
  for (const std::string& graph : graphs) {
    const std::string svg = in_process(graph);
    CHECK(svg.find("<svg") != std::string::npos);
    CHECK(workers.layout(graph) == svg);
  }
  CHECK(workers.layout(graphs[0]) == in_process(graphs[0]));  // the kept worker again
}

TEST_CASE("layout worker: Graphviz's errors come back as the in-process ones") {
  const std::string bad = "digraph g { a -> ; }";
  std::string expected;
  try {
    in_process(bad);
  } catch (const Error& e) {
    expected = e.what();
  }
  REQUIRE(expected.find("callgraph-svg: Graphviz could not read the call graph: ") == 0);
  dot::LayoutWorkers workers(worker_command());
  CHECK_THROWS_WITH_AS(workers.layout(bad), expected.c_str(), Error);
  CHECK(workers.layout("digraph g { a -> b }") == in_process("digraph g { a -> b }"));
}

TEST_CASE("layout worker: one that dies mid-request fails that page and the next layout works") {
  const std::string graph = "digraph g { main -> work; work -> io }";
  const std::string flag = temp_flag("dies");
  // Reads part of the request, then dies of SIGSEGV.
  dot::LayoutWorkers workers(failing_once(flag, "head -c 12 > /dev/null; kill -SEGV $$"));
  CHECK_THROWS_WITH_AS(workers.layout(graph), "callgraph-svg: Graphviz layout worker died: signal 11", Error);
  CHECK(workers.layout(graph) == in_process(graph));
  std::filesystem::remove(flag);
}

TEST_CASE("layout worker: a reply over the size cap kills the worker") {
  const std::string flag = temp_flag("garbage");
  // Status 0, then a length of 2^64 - 1.
  dot::LayoutWorkers workers(failing_once(
      flag, "head -c 20 > /dev/null; printf '\\000\\377\\377\\377\\377\\377\\377\\377\\377'; sleep 60"));
  CHECK_THROWS_WITH_AS(workers.layout("digraph g { a -> b }"),
                       "callgraph-svg: Graphviz layout worker died: signal 9", Error);
  CHECK(workers.layout("digraph g { a -> b }") == in_process("digraph g { a -> b }"));
  std::filesystem::remove(flag);
}

TEST_CASE("layout worker: a command that cannot start is a clear error") {
  dot::LayoutWorkers workers({"/nonexistent/fg-convert", std::string(dot::kLayoutWorkerFlag)});
  CHECK_THROWS_WITH_AS(
      workers.layout("digraph { a }"),
      "callgraph-svg: cannot start a Graphviz layout worker (/nonexistent/fg-convert): No such "
      "file or directory",
      Error);
}
