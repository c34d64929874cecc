#include "formats/batch_part.h"

#include <charconv>
#include <sstream>

#include "fg/error.h"

namespace fg::formats {

namespace {

constexpr std::string_view kHeader = "fg-report part 1";

std::string escaped(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '\\' || c == '\n' || c == '\t' || c == '\r') {
      out += '\\';
      out += c == '\n' ? 'n' : c == '\t' ? 't' : c == '\r' ? 'r' : '\\';
    } else {
      out += c;
    }
  }
  return out;
}

// One line: the key, then each value escaped, separated by tabs.
void line(std::string& out, std::string_view key, std::initializer_list<std::string_view> values) {
  out += key;
  char separator = ' ';
  for (std::string_view v : values) {
    out += separator;
    out += escaped(v);
    separator = '\t';
  }
  out += '\n';
}

void profile_lines(std::string& out, std::size_t index, const ProfileFacts& p) {
  line(out, "profile", {std::to_string(index)});
  line(out, "path", {p.path});
  line(out, "name", {p.name});
  line(out, "page", {p.page});
  line(out, "format", {p.format});
  line(out, "error", {p.error});
  for (const std::string& w : p.warnings) line(out, "warning", {w});
  for (const ColumnFacts& c : p.columns) line(out, "column", {c.type, c.unit, c.total});
  line(out, "default_column", {std::to_string(p.default_column)});
  line(out, "samples", {std::to_string(p.samples)});
  line(out, "duration_ns", {std::to_string(p.duration_ns)});
  for (const TopFunction& t : p.top) line(out, "top", {t.name, t.self});
  for (const std::string& f : p.files) line(out, "file", {f});
  if (!p.compared) return;
  const ComparisonFacts& c = p.comparison;
  line(out, "baseline", {c.baseline});
  line(out, "comparison_error", {c.error});
  line(out, "totals", {std::to_string(c.base_total), std::to_string(c.new_total)});
  line(out, "unit", {c.unit});
  for (const GateVerdict& v : c.gate) line(out, "gate", {v.condition, v.tripped});
}

// The fields of a value: tab-separated, each unescaped.
std::vector<std::string> fields(std::string_view value) {
  std::vector<std::string> out(1);
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (value[i] == '\t') {
      out.emplace_back();
    } else if (value[i] == '\\' && i + 1 < value.size()) {
      const char c = value[++i];
      out.back() += c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' : c;
    } else {
      out.back() += value[i];
    }
  }
  return out;
}

class PartParser {
 public:
  PartParser(const std::string& file, const std::string& text) : file_(file), in_(text) {}

  PartFacts run() {
    PartFacts part;
    std::string l;
    line_ = 1;
    if (!std::getline(in_, l) || l != kHeader)
      fail("not an fg-report part (expected \"" + std::string(kHeader) + "\")");
    while (std::getline(in_, l)) {
      ++line_;
      const std::size_t space = l.find(' ');
      const std::string key = l.substr(0, space);
      const std::vector<std::string> f = fields(space == std::string::npos ? "" : l.substr(space + 1));
      field(part, key, f);
    }
    return part;
  }

 private:
  [[noreturn]] void fail(const std::string& message) const {
    throw ParseError(SourcePosition::text(file_, line_), message);
  }
  std::int64_t number(const std::vector<std::string>& f, std::size_t i = 0) const {
    std::int64_t v = 0;
    const std::string& s = i < f.size() ? f[i] : "";
    const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (error != std::errc() || end != s.data() + s.size() || s.empty()) fail("expected a number");
    return v;
  }
  const std::string& at(const std::vector<std::string>& f, std::size_t i) const {
    if (i >= f.size()) fail("expected " + std::to_string(i + 1) + " fields");
    return f[i];
  }
  ProfileFacts& current(PartFacts& part) const {
    if (part.profiles.empty()) fail("a profile's field before its profile line");
    return part.profiles.back();
  }
  void field(PartFacts& part, const std::string& key, const std::vector<std::string>& f);

  std::string file_;
  std::istringstream in_;
  std::uint64_t line_ = 0;
};

void PartParser::field(PartFacts& part, const std::string& key, const std::vector<std::string>& f) {
  if (key == "shard") {
    part.shard = static_cast<std::size_t>(number(f, 0));
    part.shards = static_cast<std::size_t>(number(f, 1));
  } else if (key == "inputs") {
    part.inputs = static_cast<std::size_t>(number(f));
  } else if (key == "profile") {
    part.indices.push_back(static_cast<std::size_t>(number(f)));
    part.profiles.emplace_back();
  } else if (key == "path" || key == "name" || key == "page" || key == "format" || key == "error" ||
             key == "warning" || key == "file" || key == "baseline" || key == "comparison_error" ||
             key == "unit") {
    ProfileFacts& p = current(part);
    const std::string& v = at(f, 0);
    if (key == "path") p.path = v;
    if (key == "name") p.name = v;
    if (key == "page") p.page = v;
    if (key == "format") p.format = v;
    if (key == "error") p.error = v;
    if (key == "warning") p.warnings.push_back(v);
    if (key == "file") p.files.push_back(v);
    if (key == "baseline") p.compared = true, p.comparison.baseline = v;
    if (key == "comparison_error") p.comparison.error = v;
    if (key == "unit") p.comparison.unit = v;
  } else if (key == "column") {
    current(part).columns.push_back({at(f, 0), at(f, 1), at(f, 2)});
  } else if (key == "default_column") {
    current(part).default_column = static_cast<std::size_t>(number(f));
  } else if (key == "samples") {
    current(part).samples = static_cast<std::uint64_t>(number(f));
  } else if (key == "duration_ns") {
    current(part).duration_ns = number(f);
  } else if (key == "top") {
    current(part).top.push_back({at(f, 0), at(f, 1)});
  } else if (key == "totals") {
    ProfileFacts& p = current(part);
    p.comparison.base_total = number(f, 0);
    p.comparison.new_total = number(f, 1);
  } else if (key == "gate") {
    current(part).comparison.gate.push_back({at(f, 0), at(f, 1)});
  } else {
    fail("unknown field '" + key + "'");
  }
}

}  // namespace

std::string part_text(const PartFacts& part) {
  std::string out(kHeader);
  out += '\n';
  line(out, "shard", {std::to_string(part.shard), std::to_string(part.shards)});
  line(out, "inputs", {std::to_string(part.inputs)});
  for (std::size_t i = 0; i < part.profiles.size(); ++i)
    profile_lines(out, part.indices[i], part.profiles[i]);
  return out;
}

PartFacts parse_part(const std::string& file, const std::string& text) {
  return PartParser(file, text).run();
}

}  // namespace fg::formats
