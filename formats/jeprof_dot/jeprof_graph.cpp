#include "formats/jeprof_dot/jeprof_graph.h"

#include <graphviz/cgraph.h>
#include <re2/re2.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <memory>
#include <optional>
#include <unordered_map>

#include "fg/error.h"
#include "formats/common/graphviz_session.h"

namespace fg::formats::jeprof_dot {

namespace {

constexpr std::string_view kNewline = "\\n";  // the two characters DOT labels use

std::optional<double> number(std::string_view s) {
  double v = 0;
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

// "<number> (<percentage>)", as jeprof prints a value and its share.
std::optional<double> value_and_share(std::string_view s) {
  const std::size_t open = s.find(" (");
  if (open == std::string_view::npos || s.empty() || s.back() != ')') return std::nullopt;
  return number(s.substr(0, open));
}

// The 1-based line of the first line of `text` that starts (after blanks)
// with `prefix` followed by a character that cannot continue a DOT id; 0
// when there is none.
std::uint64_t line_of(std::string_view text, std::string_view prefix) {
  std::uint64_t line = 1;
  for (std::size_t at = 0; at < text.size(); ++line) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view l = text.substr(at, end - at);
    while (!l.empty() && (l[0] == ' ' || l[0] == '\t')) l.remove_prefix(1);
    if (l.substr(0, prefix.size()) == prefix) {
      const char next = l.size() > prefix.size() ? l[prefix.size()] : ' ';
      if (!std::isalnum(static_cast<unsigned char>(next)) && next != '_' && next != '.') return line;
    }
    at = end + 1;
  }
  return 0;
}

// Values beyond 2^53 whole units are not integers in a double, and far
// beyond any real profile.
constexpr double kMaxValue = 9007199254740992.0;

class Parser {
 public:
  Parser(const std::string& text, const std::string& file) : text_(text), file_(file) {}
  JeprofGraph parse();

 private:
  [[noreturn]] void fail(std::string_view where, const std::string& message) const {
    const std::uint64_t line = line_of(text_, where);
    throw ParseError(SourcePosition::text(file_, line == 0 ? 1 : line), message);
  }
  double checked(double v, std::string_view where, const std::string& what) const {
    if (std::fabs(v * out_.scale) > kMaxValue) fail(where, what + ": value out of range");
    return v * out_.scale;
  }
  void legend(Agraph_t* g);
  void nodes(Agraph_t* g);
  void edges(Agraph_t* g);
  // "\N" is Graphviz's default node label (the node's name): a layout run
  // earlier in the process (callgraph-svg) leaves it declared for every
  // graph read after it, so an undeclared node reads as "\N", not "".
  static std::string label_of(void* obj) {
    const char* l = agget(obj, const_cast<char*>("label"));
    return l && std::string_view(l) != "\\N" ? l : "";
  }

  const std::string& text_;
  const std::string& file_;
  JeprofGraph out_;
  std::vector<Agnode_t*> agnodes_;
};

// Graphviz's syntax errors read "syntax error in line 3 near 'x'".
[[noreturn]] void syntax_error(const std::string& file, const std::string& errors) {
  static const re2::RE2 line_number("line ([0-9]{1,9})");
  std::uint64_t line = 1;
  re2::RE2::PartialMatch(errors, line_number, &line);
  std::string message = errors.empty() ? "not a DOT graph" : errors;
  if (message.rfind("Error: ", 0) == 0) message.erase(0, 7);
  throw ParseError(SourcePosition::text(file, line), "not a DOT graph: " + message);
}

JeprofGraph Parser::parse() {
  if (const std::size_t nul = text_.find('\0'); nul != std::string::npos)
    throw ParseError(SourcePosition::binary(file_, nul), "a NUL byte: not a DOT graph");
  GraphvizSession session;
  std::unique_ptr<Agraph_t, int (*)(Agraph_t*)> g = session.read(text_);
  if (!g) syntax_error(file_, session.errors());
  if (!agisdirected(g.get())) fail("graph", "not a jeprof call graph: an undirected graph");
  legend(g.get());
  nodes(g.get());
  edges(g.get());
  return std::move(out_);
}

void Parser::legend(Agraph_t* g) {
  Agnode_t* legend = agnode(g, const_cast<char*>("Legend"), 0);
  if (!legend)
    fail("digraph",
         "not a jeprof call graph: no Legend node (fg reads the DOT of jeprof and pprof.pl; "
         "DOT from go tool pprof or fg itself is not read)");
  const std::string label = label_of(legend);
  for (std::size_t at = 0; at < label.size();) {
    std::size_t end = label.find("\\l", at);
    if (end == std::string::npos) end = label.size();
    out_.legend.push_back(label.substr(at, end - at));
    at = end + 2;
  }
  static const re2::RE2 total_line("Total ([A-Za-z]+): (\\S+)", re2::RE2::Latin1);  // \S: any non-space byte
  std::string total;
  const bool found = std::any_of(out_.legend.begin(), out_.legend.end(), [&](const std::string& line) {
    return re2::RE2::FullMatch(line, total_line, &out_.unit, &total);
  });
  if (!found) fail("Legend", "not a jeprof call graph: the Legend has no 'Total <unit>: <value>' line");
  if (out_.unit == "MB") {
    out_.value_type = "space", out_.value_unit = "bytes", out_.scale = 1048576,
    out_.resolution = 0.1 * 1048576;
    out_.truncated = false;
  } else if (out_.unit == "B") {
    out_.value_type = "space", out_.value_unit = "bytes";
  } else if (out_.unit == "objects" || out_.unit == "samples") {
    out_.value_type = out_.unit, out_.value_unit = "count";
  } else {
    fail("Legend", "Legend: unit '" + out_.unit + "' is not one fg reads (MB, B, objects, samples)");
  }
  const std::optional<double> t = number(total);
  if (!t) fail("Legend", "Legend: total '" + total + "' is not a number");
  out_.total = checked(*t, "Legend", "Legend");
  out_.program = out_.legend.empty() ? "" : out_.legend[0];
}

void Parser::nodes(Agraph_t* g) {
  for (Agnode_t* n = agfstnode(g); n; n = agnxtnode(g, n)) {
    const std::string id = agnameof(n);
    if (id == "Legend") {
      agnodes_.push_back(nullptr);
      continue;
    }
    const std::string label = label_of(n);
    if (label.empty()) {
      Agedge_t* e = agfstedge(g, n);
      if (!e) fail(id, "node " + id + ": no label (jeprof labels every node)");
      const std::string edge = std::string(agnameof(agtail(e))) + " -> " + agnameof(aghead(e));
      fail(edge, "edge " + edge + ": node " + id + " is not declared with a label");
    }
    NodeLabel parsed;
    if (!parse_node_label(label, parsed))
      fail(id, "node " + id + ": label \"" + label +
                   "\" is not jeprof's \"name\\n<flat> (<%>)\\rof <cum> (<%>)\\r\"");
    JeprofNode node;
    node.id = id;
    node.label = parsed.name;
    node.name = rebuild_name(parsed.name);
    node.flat = checked(parsed.flat, id, "node " + id);
    node.cum = checked(parsed.cum, id, "node " + id);
    agnodes_.push_back(n);
    out_.nodes.push_back(std::move(node));
  }
}

void Parser::edges(Agraph_t* g) {
  // Graph node -> index into out_.nodes (the Legend has none).
  std::unordered_map<Agnode_t*, std::uint32_t> index;
  for (Agnode_t* n : agnodes_)
    if (n) index.emplace(n, static_cast<std::uint32_t>(index.size()));
  for (Agnode_t* n = agfstnode(g); n; n = agnxtnode(g, n)) {
    for (Agedge_t* e = agfstout(g, n); e; e = agnxtout(g, e)) {
      const std::string edge = std::string(agnameof(agtail(e))) + " -> " + agnameof(aghead(e));
      const auto caller = index.find(agtail(e)), callee = index.find(aghead(e));
      if (caller == index.end() || callee == index.end())
        fail(edge, "edge " + edge + ": an edge of the Legend");
      const std::string label = label_of(e);
      const std::optional<double> w = number(label);
      if (!w) fail(edge, "edge " + edge + ": label \"" + label + "\" is not a number");
      out_.edges.push_back({caller->second, callee->second, checked(*w, edge, "edge " + edge)});
    }
  }
}

}  // namespace

bool parse_node_label(std::string_view label, NodeLabel& out) {
  if (label.size() >= 2 && label.substr(label.size() - 2) == "\\r") label.remove_suffix(2);
  const std::size_t split = label.rfind(kNewline);
  if (split == std::string_view::npos || split == 0) return false;
  out.name = std::string(label.substr(0, split));
  std::string_view values = label.substr(split + kNewline.size());
  std::optional<std::string_view> cum;
  if (const std::size_t of = values.find("\\rof "); of != std::string_view::npos) {
    cum = values.substr(of + 5);
    values = values.substr(0, of);
  }
  const std::optional<double> flat = value_and_share(values);
  if (!flat) return false;
  out.flat = out.cum = *flat;
  if (cum) {
    const std::optional<double> c = value_and_share(*cum);
    if (!c) return false;
    out.cum = *c;
  }
  return true;
}

std::string rebuild_name(std::string_view label_name) {
  std::string out;
  int open = 0;  // unclosed ( [ < so far
  for (std::size_t at = 0; at <= label_name.size();) {
    std::size_t end = label_name.find(kNewline, at);
    if (end == std::string_view::npos) end = label_name.size();
    const std::string_view part = label_name.substr(at, end - at);
    if (!out.empty()) out += open > 0 || (!part.empty() && (part[0] == '(' || part[0] == '[')) ? " " : "::";
    for (const char c : part)
      open += c == '(' || c == '[' || c == '<' ? 1 : c == ')' || c == ']' || c == '>' ? -1 : 0;
    if (open < 0) open = 0;
    out += part;
    at = end + kNewline.size();
  }
  return out;
}

JeprofGraph parse_jeprof_graph(const std::string& text, const std::string& file) {
  return Parser(text, file).parse();
}

}  // namespace fg::formats::jeprof_dot
