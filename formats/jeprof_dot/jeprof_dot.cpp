#include "formats/jeprof_dot/jeprof_dot.h"

#include <string>

#include "fg/builder.h"
#include "formats/jeprof_dot/jeprof_graph.h"
#include "formats/jeprof_dot/reconcile.h"
#include "formats/jeprof_dot/unfold.h"

namespace fg::formats::jeprof_dot {

namespace {

std::string_view skip_blanks(std::string_view s) {
  while (!s.empty() && (s[0] == ' ' || s[0] == '\t' || s[0] == '\r' || s[0] == '\n')) s.remove_prefix(1);
  return s;
}

void warn_about(const UnfoldResult& r, const std::string& file, std::size_t limit, Diagnostics& d) {
  if (r.truncated)
    d.warn("call graph too large to unfold",
           file + ": unfolding the call graph stopped at " + std::to_string(limit) +
               " stacks (64 per node and edge, plus 10,000); values further down stay with their callers");
  if (r.recursive_edges > 0)
    d.warn("recursive call graph",
           file + ": " + std::to_string(r.recursive_edges) +
               " recursive edge(s) (a call back to a function already on the stack) were not unfolded; "
               "their weights, and the cum of the functions involved, come back only approximately");
}

}  // namespace

Sniff sniff(std::string_view head, std::string_view) {
  head = skip_blanks(head);
  if (head.substr(0, 7) != "digraph" && head.substr(0, 14) != "strict digraph") return Sniff::kNo;
  const bool legend = head.find("Legend [") != std::string_view::npos;
  for (std::string_view unit : {"Total MB:", "Total objects:", "Total B:", "Total samples:"})
    if (legend && head.substr(0, 9) == "digraph \"" && head.find(unit) != std::string_view::npos) return Sniff::kYes;
  return Sniff::kMaybe;
}

Profile read(Input& input, const ReadOptions&, Diagnostics& diagnostics) {
  const std::string text = read_all(input);
  const JeprofGraph graph = reconcile(parse_jeprof_graph(text, input.name()));
  ProfileBuilder b({ValueType{graph.value_type, graph.value_unit}});
  Metadata& m = b.metadata();
  m.source_format = "jeprof-dot";
  m.sources.push_back(input.name());
  m.properties.emplace_back(std::string(kUnfoldedProperty), "call graph");
  m.properties.emplace_back("jeprof_unit", graph.unit);
  if (!graph.program.empty()) m.properties.emplace_back("main_binary", graph.program);
  for (std::size_t i = 1; i < graph.legend.size(); ++i)
    if (!graph.legend[i].empty()) m.comments.push_back(graph.legend[i]);
  const std::size_t limit = unfold_limit(graph);
  const UnfoldResult r = unfold(graph, b, limit);
  warn_about(r, input.name(), limit, diagnostics);
  return std::move(b).finish();
}

bool unfolded(const Profile& profile) {
  for (const auto& [key, value] : profile.metadata().properties)
    if (key == kUnfoldedProperty) return true;
  return false;
}

}  // namespace fg::formats::jeprof_dot
