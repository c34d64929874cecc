#include "fg/dump.h"

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <vector>

#include "fg/recorded_call_graph.h"

namespace fg {

namespace {

void escape_into(std::string& out, std::string_view s) {
  for (unsigned char c : s) {
    if (c == '\\' || c == ';') {
      out.push_back('\\');
      out.push_back(static_cast<char>(c));
    } else if (c == '\n') {
      out += "\\n";
    } else if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
}

std::string label_text(const Profile& p, LabelSetId id) {
  std::string out;
  for (const Label& l : p.labels(id)) {
    if (!out.empty()) out += ' ';
    escape_into(out, p.str(l.key));
    out += '=';
    if (l.numeric) {
      out += std::to_string(l.num);
      if (l.unit != StringId{}) {
        out += '[';
        escape_into(out, p.str(l.unit));
        out += ']';
      }
    } else {
      out += '"';
      escape_into(out, p.str(l.str));
      out += '"';
    }
  }
  return out;
}

}  // namespace

std::string dump_frame(const Profile& p, FrameId id) {
  const Frame& f = p.frame(id);
  const Function& fn = p.function(f.function);
  std::string out;
  escape_into(out, p.str(fn.name));
  if (f.kind != FrameKind::kNative) {
    out += " [";
    out += frame_kind_name(f.kind);
    out += ']';
  }
  if (fn.filename != StringId{} || f.line != 0) {
    out += " (";
    escape_into(out, p.str(fn.filename));
    if (f.line != 0) out += ':' + std::to_string(f.line);
    out += ')';
  }
  if (fn.system_name != StringId{} && fn.system_name != fn.name) {
    out += " {";
    escape_into(out, p.str(fn.system_name));
    out += '}';
  }
  if (f.address != 0) {
    char buf[32];
    std::snprintf(buf, sizeof buf, " @0x%llx", static_cast<unsigned long long>(f.address));
    out += buf;
  }
  if (f.module != StringId{}) {
    out += " <";
    escape_into(out, p.str(f.module));
    out += '>';
  }
  return out;
}

void dump_profile(const Profile& p, std::ostream& out) {
  const Metadata& m = p.metadata();
  out << "fg-dump 1\n";
  out << "format: " << m.source_format << '\n';
  for (const std::string& s : m.sources) out << "source: " << s << '\n';
  for (std::size_t i = 0; i < p.value_count(); ++i) {
    const ValueType& v = p.value_types()[i];
    out << "value " << i << ": " << v.type << '/' << v.unit;
    if (v.role == ValueRole::kBase) out << " (base)";
    if (v.role == ValueRole::kNew) out << " (new)";
    out << '\n';
  }
  out << "default value: " << p.default_value_index() << '\n';
  if (m.period != 0 || !m.period_type.type.empty())
    out << "period: " << m.period << ' ' << m.period_type.type << '/' << m.period_type.unit << '\n';
  if (m.start_time_ns != 0) out << "start ns: " << m.start_time_ns << '\n';
  if (m.duration_ns != 0) out << "duration ns: " << m.duration_ns << '\n';
  for (const std::string& c : m.comments) out << "comment: " << c << '\n';
  for (const auto& [k, v] : m.properties) out << "property " << k << ": " << v << '\n';
  for (const std::string& f : m.filters) out << "filter: " << f << '\n';
  // Values as the numbers they are: fixed point with the column's decimals.
  auto number = [&p](std::int64_t v, std::size_t column) {
    return column < p.value_count() ? fixed_point_text(v, p.value_types()[column].decimals)
                                    : std::to_string(v);
  };
  if (!m.unfiltered_totals.empty()) {
    out << "unfiltered totals:";
    for (std::size_t c = 0; c < m.unfiltered_totals.size(); ++c)
      out << ' ' << number(m.unfiltered_totals[c], c);
    out << '\n';
  }

  auto totals = p.totals();
  out << "totals:";
  for (std::size_t c = 0; c < totals.size(); ++c) out << ' ' << number(totals[c], c);
  out << '\n';

  // Each sample as text; sorted, so reading order does not show.
  std::vector<std::string> lines(p.sample_count());
  std::vector<std::string> frame_text(p.frame_count());
  for (const FrameId f : id_range<FrameId>(p.frame_count())) frame_text[f.index()] = dump_frame(p, f);
  std::vector<FrameId> frames;
  for (std::size_t i = 0; i < p.sample_count(); ++i) {
    const Sample& s = p.sample(i);
    std::string& line = lines[i];
    p.stack_frames(s.stack, frames);
    for (std::size_t d = 0; d < frames.size(); ++d) {
      if (d) line += ';';
      line += frame_text[frames[d].index()];
    }
    line += " |";
    const auto values = p.values(i);
    for (std::size_t c = 0; c < values.size(); ++c) line += ' ' + number(values[c], c);
    if (s.labels != LabelSetId{}) line += " | " + label_text(p, s.labels);
    if (s.timestamp != kNoTimestamp) line += " | t=" + std::to_string(s.timestamp);
  }
  std::sort(lines.begin(), lines.end());
  out << "samples: " << lines.size() << '\n';
  for (const std::string& l : lines) out << l << '\n';

  // The recorded call graph, in its own order (the recording's).
  if (const RecordedCallGraph* g = p.recorded_graph()) {
    out << "recorded graph: value " << g->column << ", total " << g->total << ", " << g->nodes.size()
        << " nodes, " << g->edges.size() << " edges\n";
    for (std::size_t i = 0; i < g->nodes.size(); ++i)
      out << "node " << i << ": " << frame_text[g->nodes[i].frame.index()] << " | flat " << g->nodes[i].flat
          << " cum " << g->nodes[i].cum << '\n';
    for (const RecordedCallGraph::Edge& e : g->edges)
      out << "edge " << e.caller << " -> " << e.callee << " | " << e.weight << '\n';
  }
}

}  // namespace fg
