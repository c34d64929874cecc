// --to callgraph-svg: the DOT call graph laid out in-process with
// Graphviz's libraries (cgraph reads it, gvc lays it out with "dot" and
// renders SVG), so no `dot` process is needed.
#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <memory>
#include <mutex>

#include "fg/error.h"
#include "formats/dot/dot.h"

namespace fg::formats::dot {

namespace {

// Graphviz reports errors through a process-wide callback; collect them so
// that a failure becomes our error message, not noise on stderr.
std::mutex graphviz_mutex;
std::string graphviz_errors;

int collect_error(char* message) {
  graphviz_errors += message;
  return 0;
}

struct GraphvizContext {
  GVC_t* gvc = gvContext();
  ~GraphvizContext() {
    if (gvc) gvFreeContext(gvc);
  }
};

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

}  // namespace

void write_svg(const Profile& profile, const WriteOptions& options, std::ostream& out, Diagnostics&) {
  const std::string text = call_graph_dot(profile, options);
  std::lock_guard<std::mutex> lock(graphviz_mutex);
  graphviz_errors.clear();
  agseterr(AGERR);
  agseterrf(collect_error);
  GraphvizContext context;
  if (!context.gvc) throw Error("callgraph-svg: Graphviz could not start");
  std::unique_ptr<Agraph_t, int (*)(Agraph_t*)> graph(agmemread(text.c_str()), agclose);
  if (!graph) throw Error("callgraph-svg: Graphviz could not read the call graph: " + trimmed(graphviz_errors));
  if (gvLayout(context.gvc, graph.get(), "dot") != 0)
    throw Error("callgraph-svg: Graphviz could not lay out the call graph: " + trimmed(graphviz_errors));
  char* data = nullptr;
  unsigned int length = 0;
  const int rendered = gvRenderData(context.gvc, graph.get(), "svg", &data, &length);
  if (rendered == 0 && data) out.write(data, length);
  if (data) gvFreeRenderData(data);
  gvFreeLayout(context.gvc, graph.get());
  if (rendered != 0) throw Error("callgraph-svg: Graphviz could not render SVG: " + trimmed(graphviz_errors));
}

}  // namespace fg::formats::dot
