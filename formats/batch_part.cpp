#include "formats/batch_part.h"

#include <charconv>
#include <optional>
#include <sstream>

#include "fg/builder.h"
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
template <typename Values>
void values_line(std::string& out, std::string_view key, const Values& values) {
  out += key;
  char separator = ' ';
  for (std::string_view v : values) {
    out += separator;
    out += escaped(v);
    separator = '\t';
  }
  out += '\n';
}

void line(std::string& out, std::string_view key, std::initializer_list<std::string_view> values) {
  values_line(out, key, values);
}

// The facts of one reading: the profile's, or one more kind of its events'.
void facts_lines(std::string& out, const ProfileFacts& p) {
  line(out, "path", {p.path});
  line(out, "name", {p.name});
  line(out, "page", {p.page});
  if (!p.group.empty()) line(out, "group", {p.group});
  for (const auto& [k, v] : p.labels) line(out, "label", {k, v});
  line(out, "format", {p.format});
  line(out, "error", {p.error});
  for (const std::string& w : p.warnings) line(out, "warning", {w});
  for (const ColumnFacts& c : p.columns) line(out, "column", {c.type, c.unit, c.total});
  line(out, "default_column", {std::to_string(p.default_column)});
  line(out, "samples", {std::to_string(p.samples)});
  line(out, "duration_ns", {std::to_string(p.duration_ns)});
  for (const TopFunction& t : p.top) line(out, "top", {t.name, t.self});
  for (const std::string& f : p.files) line(out, "file", {f});
  if (!p.kind.empty()) line(out, "kind", {p.kind});
  if (!p.compared) return;
  const ComparisonFacts& c = p.comparison;
  line(out, "baseline", {c.baseline});
  line(out, "comparison_error", {c.error});
  line(out, "totals", {std::to_string(c.base_total), std::to_string(c.new_total)});
  line(out, "unit", {c.unit});
  for (const GateVerdict& v : c.gate) line(out, "gate", {v.condition, v.tripped});
}

// A profile's facts, then those of each more kind of its events, each
// after a line that opens it.
void profile_lines(std::string& out, std::size_t index, const ProfileFacts& p) {
  line(out, "profile", {std::to_string(index)});
  facts_lines(out, p);
  for (const ProfileFacts& k : p.kinds) {
    line(out, "more_kind", {k.kind});
    facts_lines(out, k);
  }
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

// The reader of both files: a header line, then lines of a key and
// tab-separated fields; errors at the line.
class KeyedLines {
 public:
  KeyedLines(const std::string& file, const std::string& text) : file_(file), in_(text) {}

  /// Calls field(key, fields) per line after the header; `what` names
  /// the file in the error for a wrong header.
  template <typename Field>
  void read(std::string_view header, std::string_view what, const Field& field) {
    std::string l;
    line_ = 1;
    if (!std::getline(in_, l) || l != header)
      fail("not an fg-report " + std::string(what) + " (expected \"" + std::string(header) + "\")");
    while (std::getline(in_, l)) {
      ++line_;
      const std::size_t space = l.find(' ');
      field(l.substr(0, space), fields(space == std::string::npos ? "" : l.substr(space + 1)));
    }
  }
  [[noreturn]] void fail(const std::string& message) const {
    throw ParseError(SourcePosition::text(file_, line_), message);
  }
  const std::string& at(const std::vector<std::string>& f, std::size_t i) const {
    if (i >= f.size()) fail("expected " + std::to_string(i + 1) + " fields");
    return f[i];
  }
  std::int64_t number(const std::vector<std::string>& f, std::size_t i = 0) const {
    std::int64_t v = 0;
    const std::string& s = i < f.size() ? f[i] : "";
    const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (error != std::errc() || end != s.data() + s.size() || s.empty()) fail("expected a number");
    return v;
  }

 private:
  std::string file_;
  std::istringstream in_;
  std::uint64_t line_ = 0;
};

class PartParser : KeyedLines {
 public:
  using KeyedLines::KeyedLines;

  PartFacts run() {
    PartFacts part;
    read(kHeader, "part",
         [&](const std::string& key, const std::vector<std::string>& f) { field(part, key, f); });
    return part;
  }

 private:
  // The facts the next field belongs to: the last profile's, or its last
  // kind's once a more_kind line opened one.
  ProfileFacts& current(PartFacts& part) const {
    if (part.profiles.empty()) fail("a profile's field before its profile line");
    ProfileFacts& p = part.profiles.back();
    return p.kinds.empty() ? p : p.kinds.back();
  }
  void field(PartFacts& part, const std::string& key, const std::vector<std::string>& f);
};

void PartParser::field(PartFacts& part, const std::string& key, const std::vector<std::string>& f) {
  if (key == "shard") {  // "shard FIRST N", or "shard FIRST N LAST" for a merge of parts
    part.shard = static_cast<std::size_t>(number(f, 0));
    part.shards = static_cast<std::size_t>(number(f, 1));
    if (f.size() > 2) part.last_shard = static_cast<std::size_t>(number(f, 2));
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
  } else if (key == "kind") {
    current(part).kind = at(f, 0);
  } else if (key == "more_kind") {
    current(part);  // a profile line before it
    part.profiles.back().kinds.emplace_back().kind = at(f, 0);
  } else if (key == "group") {
    current(part).group = at(f, 0);
  } else if (key == "label") {
    current(part).labels.emplace_back(at(f, 0), at(f, 1));
  } else if (key == "merge") {
    part.merges.push_back({at(f, 0), at(f, 1), at(f, 2)});
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
  if (part.last_shard == 0 || part.last_shard == part.shard)
    line(out, "shard", {std::to_string(part.shard), std::to_string(part.shards)});
  else
    line(out, "shard",
         {std::to_string(part.shard), std::to_string(part.shards), std::to_string(part.last_shard)});
  line(out, "inputs", {std::to_string(part.inputs)});
  for (const PartMerge& m : part.merges) line(out, "merge", {m.group, m.quantity, m.file});
  for (std::size_t i = 0; i < part.profiles.size(); ++i)
    profile_lines(out, part.indices[i], part.profiles[i]);
  return out;
}

PartFacts parse_part(const std::string& file, const std::string& text) {
  return PartParser(file, text).run();
}

}  // namespace fg::formats

namespace fg::formats {

namespace {

constexpr std::string_view kProfileHeader = "fg-report profile 1";

void metadata_lines(std::string& out, const Metadata& m) {
  line(out, "format", {m.source_format});
  for (const std::string& s : m.sources) line(out, "source", {s});
  line(out, "period",
       {m.period_type.type, m.period_type.unit, std::to_string(m.period), std::to_string(m.start_time_ns),
        std::to_string(m.duration_ns), m.default_value});
  for (const std::string& c : m.comments) line(out, "comment", {c});
  for (const std::int64_t t : m.unfiltered_totals) line(out, "unfiltered", {std::to_string(t)});
  for (const std::string& f : m.filters) line(out, "filter", {f});
  for (const auto& [k, v] : m.properties) line(out, "property", {k, v});
}

}  // namespace

std::string profile_part_text(const Profile& p) {
  std::string out(kProfileHeader);
  out += '\n';
  for (const ValueType& t : p.value_types())
    line(out, "value",
         {t.type, t.unit, std::to_string(static_cast<int>(t.role)), std::to_string(t.decimals)});
  metadata_lines(out, p.metadata());
  for (const FunctionId f : id_range<FunctionId>(p.function_count())) {
    const Function& fn = p.function(f);
    line(out, "function",
         {p.str(fn.name), p.str(fn.system_name), p.str(fn.filename), std::to_string(fn.start_line)});
  }
  for (const FrameId f : id_range<FrameId>(p.frame_count())) {
    const Frame& fr = p.frame(f);
    line(out, "frame",
         {std::to_string(fr.function.index()), std::to_string(fr.line), std::to_string(fr.address),
          p.str(fr.module), std::to_string(static_cast<int>(fr.kind))});
  }
  for (const StackId s : id_range<StackId>(p.stack_count())) {
    if (s == kRootStack) continue;
    line(out, "stack", {std::to_string(p.parent(s).index()), std::to_string(p.stack(s).frame.index())});
  }
  for (const LabelSetId l : id_range<LabelSetId>(p.label_set_count())) {
    line(out, "labels", {});
    for (const Label& x : p.labels(l))
      line(out, "label",
           {p.str(x.key), p.str(x.str), std::to_string(x.num), p.str(x.unit), x.numeric ? "1" : "0"});
  }
  for (std::size_t i = 0; i < p.sample_count(); ++i) {
    const Sample& s = p.sample(i);
    std::vector<std::string> f = {std::to_string(s.stack.index()), std::to_string(s.labels.index()),
                                  std::to_string(s.timestamp)};
    for (const std::int64_t v : p.values(i)) f.push_back(std::to_string(v));
    values_line(out, "sample", f);
  }
  return out;
}

namespace {

class ProfilePartParser : KeyedLines {
 public:
  using KeyedLines::KeyedLines;

  Profile run() {
    read(kProfileHeader, "profile",
         [&](const std::string& key, const std::vector<std::string>& f) { field(key, f); });
    if (!builder_) fail("no value type");
    return std::move(*builder_).finish();
  }

 private:
  // An index into `table` (made by earlier lines).
  template <typename Id>
  Id index(const std::vector<std::string>& f, std::size_t i, const std::vector<Id>& table) const {
    const std::int64_t n = number(f, i);
    if (n < 0 || static_cast<std::size_t>(n) >= table.size()) fail("an index beyond those defined");
    return table[static_cast<std::size_t>(n)];
  }
  ProfileBuilder& builder() {
    if (!builder_) {
      if (types_.empty()) fail("no value type before the profile");
      builder_.emplace(types_);
      stacks_.push_back(kRootStack);
    }
    return *builder_;
  }
  void field(const std::string& key, const std::vector<std::string>& f);
  void metadata_field(const std::string& key, const std::vector<std::string>& f);
  void close_labels();

  std::vector<ValueType> types_;
  std::optional<ProfileBuilder> builder_;
  std::vector<FunctionId> functions_;
  std::vector<FrameId> frames_;
  std::vector<StackId> stacks_;
  std::vector<LabelSetId> label_sets_;
  std::optional<std::vector<Label>> open_labels_;  // the set whose label lines are being read
};

void ProfilePartParser::close_labels() {
  if (!open_labels_) return;
  label_sets_.push_back(builder().labels(std::move(*open_labels_)));
  open_labels_.reset();
}

void ProfilePartParser::metadata_field(const std::string& key, const std::vector<std::string>& f) {
  Metadata& m = builder().metadata();
  if (key == "format") {
    m.source_format = at(f, 0);
  } else if (key == "source") {
    m.sources.push_back(at(f, 0));
  } else if (key == "period") {
    m.period_type = {at(f, 0), at(f, 1)};
    m.period = number(f, 2);
    m.start_time_ns = number(f, 3);
    m.duration_ns = number(f, 4);
    m.default_value = at(f, 5);
  } else if (key == "comment") {
    m.comments.push_back(at(f, 0));
  } else if (key == "unfiltered") {
    m.unfiltered_totals.push_back(number(f, 0));
  } else if (key == "filter") {
    m.filters.push_back(at(f, 0));
  } else if (key == "property") {
    m.properties.emplace_back(at(f, 0), at(f, 1));
  } else {
    fail("unknown field '" + key + "'");
  }
}

void ProfilePartParser::field(const std::string& key, const std::vector<std::string>& f) {
  if (key != "label") close_labels();
  if (key == "value") {
    if (builder_) fail("a value type after the profile's first line");
    const std::int64_t role = number(f, 2), decimals = number(f, 3);
    if (role < 0 || role > static_cast<int>(ValueRole::kNew) || decimals < 0 || decimals > 18)
      fail("a value type's role or decimals out of range");
    types_.push_back({at(f, 0), at(f, 1), static_cast<ValueRole>(role), static_cast<int>(decimals)});
  } else if (key == "function") {
    functions_.push_back(builder().function(at(f, 0), at(f, 1), at(f, 2), number(f, 3)));
  } else if (key == "frame") {
    const std::int64_t kind = number(f, 4);
    if (kind < 0 || kind > static_cast<int>(FrameKind::kUnsymbolized)) fail("a frame kind out of range");
    frames_.push_back(builder().frame(index(f, 0, functions_), static_cast<FrameKind>(kind), number(f, 1),
                                      static_cast<std::uint64_t>(number(f, 2)), builder().intern(at(f, 3))));
  } else if (key == "stack") {
    stacks_.push_back(builder().stack(index(f, 0, stacks_), index(f, 1, frames_)));
  } else if (key == "labels") {
    builder();
    open_labels_.emplace();
  } else if (key == "label") {
    if (!open_labels_) fail("a label outside a label set");
    open_labels_->push_back({builder().intern(at(f, 0)), builder().intern(at(f, 1)), number(f, 2),
                             builder().intern(at(f, 3)), at(f, 4) == "1"});
  } else if (key == "sample") {
    std::vector<std::int64_t> values;
    for (std::size_t i = 3; i < f.size(); ++i) values.push_back(number(f, i));
    if (values.size() != types_.size()) fail("a sample without one value per value type");
    builder().add_sample(index(f, 0, stacks_), values, index(f, 1, label_sets_), number(f, 2));
  } else {
    metadata_field(key, f);
  }
}

}  // namespace

Profile parse_profile_part(const std::string& file, const std::string& text) {
  return ProfilePartParser(file, text).run();
}

}  // namespace fg::formats
