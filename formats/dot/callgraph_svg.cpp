// --to callgraph-svg: the DOT call graph laid out in-process with
// Graphviz's libraries (cgraph reads it, gvc lays it out with "dot" and
// renders SVG), so no `dot` process is needed. The graph is bounded first
// (layout_dot()): dot's work grows with edges times the ranks they span,
// and one dense profile must not stall a batch. Graphviz serves one
// thread at a time; the others lay out in worker processes
// (layout_worker.h).
#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <memory>

#include "fg/error.h"
#include "formats/common/graphviz_session.h"
#include "formats/dot/dot.h"
#include "formats/dot/layout_worker.h"
#include "formats/dot/pan_zoom.h"

namespace fg::formats::dot {

namespace {

// One Graphviz context for the process, never freed: Graphviz's pango
// plugin keeps a static pointer into the context's font table from one
// layout to the next, so a context freed after a graph leaves the next
// layout reading freed memory (AddressSanitizer caught it in the damaged-
// input sweep). Used only under the Graphviz lock.
GVC_t* shared_context() {
  static GVC_t* const gvc = gvContext();
  return gvc;
}

// In-process when the Graphviz lock is free; else in a worker process,
// so that threads lay graphs out at once (FG_LAYOUT_WORKERS=always: always
// in a worker, for tests).
std::string laid_out(std::string_view dot) {
  if (!layout_workers_always()) {
    const GraphvizSession session(std::try_to_lock);
    if (session.owns_lock()) return graphviz_svg(session, dot);
  }
  return LayoutWorkers::of_process().layout(dot);
}

}  // namespace

std::string graphviz_svg(const GraphvizSession& session, std::string_view dot) {
  GVC_t* const gvc = shared_context();
  if (!gvc) throw Error("callgraph-svg: Graphviz could not start");
  std::unique_ptr<Agraph_t, int (*)(Agraph_t*)> graph = session.read(dot);
  if (!graph) throw Error("callgraph-svg: Graphviz could not read the call graph: " + session.errors());
  if (gvLayout(gvc, graph.get(), "dot") != 0)
    throw Error("callgraph-svg: Graphviz could not lay out the call graph: " + session.errors());
  char* data = nullptr;
  unsigned int length = 0;
  const int rendered = gvRenderData(gvc, graph.get(), "svg", &data, &length);
  std::string svg;
  if (rendered == 0 && data) svg.assign(data, length);
  if (data) gvFreeRenderData(data);
  gvFreeLayout(gvc, graph.get());
  if (rendered != 0) throw Error("callgraph-svg: Graphviz could not render SVG: " + session.errors());
  return svg;
}

void write_svg(const Profile& profile, const WriteOptions& options, std::ostream& out, Diagnostics&) {
  out << with_pan_zoom(laid_out(layout_dot(profile, options)));
}

}  // namespace fg::formats::dot
